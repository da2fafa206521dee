// A templated launch on a stream the program passes in leaves the file unchanged; the
// report names the kernel, not the launch's internal configuration call.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
#include <cstdio>

struct Traits {
  static constexpr int Threads = 32;
};

template <typename T> __global__ void inc(int *x) { x[threadIdx.x] += 1; }

template <typename T> void run(int *d, cudaStream_t s) { inc<T><<<1, T::Threads, 0, s>>>(d); }

int main() {
  int h[32] = {0}, *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d, sizeof h);
  run<Traits>(d, s);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  cudaFree(d);
  cudaStreamDestroy(s);
}

// CHECK: {{.*}}line 16: `inc` runs on a stream of the program's own inside a template or a lambda, where the tool does not model it{{.*}}
