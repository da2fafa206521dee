// A lambda that assigns a captured stream parameter may give the launch a
// stream of the program's own, so the parameter is not the legacy stream even
// though every call leaves it to its default: the launch inside the lambda is
// work on a stream of the program's own that the lambda may leave running, and
// the file is left as written.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
#include <cstdio>

__global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }

cudaStream_t created;

void run(float *d, cudaStream_t stream = 0) {
  auto launch = [&](float f) {
    stream = created;
    scale<<<1, 32, 0, stream>>>(d, f);
  };
  launch(2.0f);
}

int main() {
  float h[32], *d;
  cudaStreamCreate(&created);
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  run(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[1]);
  cudaFree(d);
  return 0;
}

// CHECK: file left unchanged: `operator()` may return while work it put on a stream of the program's own is still running, and is called where the analysis does not model that work
