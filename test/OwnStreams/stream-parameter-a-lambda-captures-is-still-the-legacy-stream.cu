// A stream parameter that defaults to the legacy stream stays the legacy
// stream when a lambda of the function captures it (by reference or by copy,
// in a plain or a generic lambda) and only reads it: the launch inside the plain
// lambda moves to the tool's stream like any legacy-stream launch, the one in
// the generic lambda (not transformed) stays as written, and the rest of the
// file is rewritten.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report -- -std=c++20
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc -std=c++20 %t.out.cu
#include <cstdio>

__global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }

void byReference(float *d, bool twice, cudaStream_t stream = 0) {
  auto run = [&](float f) { scale<<<1, 32, 0, stream>>>(d, f); };
  run(2.0f);
  if (twice)
    run(2.0f);
}

void byCopyGeneric(float *d, cudaStream_t stream = 0) {
  auto run = [=]<int F>() { scale<<<1, 32, 0, stream>>>(d, F); };
  run.operator()<3>();
}

int main() {
  float h[32], other[32], *d;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  byReference(d, true);
  byCopyGeneric(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, sa_stream(0));
  for (int i = 0; i < 32; ++i)
    other[i] = 2.0f * i;
  printf("%f %f\n", h[1], other[1]);
  cudaFree(d);
  return 0;
}

// REPORT-NOT: file left unchanged
// REPORT: {{.*}}:18:29: scale: async on stream 0, waited for before line 18
// REPORT: {{.*}}:25:29: scale: left synchronous: inside a lambda that is generic or written in a template; this version transforms the bodies of other lambdas only
