// `assert` expands to a call of `__assert_fail` on the path where the
// condition is false. That path ends the program as an `exit()` in an error
// branch does (pending GPU work is abandoned), so a callee that asserts
// touches no program memory: the copy before the call stays in flight while
// the host works, and the call needs no wait.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cassert>
#include <cstdio>

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

static int checkedHalf(int n) {
  assert(n > 0 && "size must be positive");
  return n / 2;
}

int main() {
  const int n = 1 << 20;
  float *h, *d;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  int half = checkedHalf(n);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  // CHECK-NEXT: int half = checkedHalf(n);
  float *g = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    g[i] = (float)(i % half);
  scale<<<n / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += h[i] + g[i];
  printf("%f\n", sum);
  free(g);
  cudaFree(d);
  cudaFreeHost(h);
  return 0;
}

// REPORT: {{.*}}: 2 of 5 GPU ops made asynchronous on 1 stream(s), 0 wait(s) inserted
