// Pinning a `new int[N]` buffer in a function template replaces the whole
// new-expression, `[N]` included (in an instantiation, Clang's range of the
// expression stops before the brackets).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <typename T> __global__ void inc(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += T(1);
}

template <int Items> static void run() {
  int *h = new int[Items];
  // CHECK: int *h = static_cast<int *>(sa_registered_malloc(sizeof(int) * (Items)));
  int *d;
  for (int i = 0; i < Items; ++i)
    h[i] = i;
  cudaMalloc(&d, sizeof(int) * Items);
  for (int r = 0; r < 100; ++r) {
    cudaMemcpy(d, h, sizeof(int) * Items, cudaMemcpyHostToDevice);
    inc<<<Items / 256, 256>>>(d, Items);
    cudaMemcpy(h, d, sizeof(int) * Items, cudaMemcpyDeviceToHost);
  }
  printf("%d\n", h[1]);
  cudaFree(d);
  delete[] h;
  // CHECK: sa_registered_free(h);
}

int main() {
  run<1 << 22>();
  return 0;
}

// REPORT: {{.*}}:19: host buffer `h`: registered: asynchronous copies of pageable memory block the host
