// The program's own cudaMemcpyAsync from a pageable buffer is staged before
// the call returns, so overwriting the buffer right after it is safe in the
// original. Pinning the buffer would make that copy truly asynchronous and
// the overwrite would race with it: a buffer any of the program's own
// asynchronous calls touches stays pageable, with the reason. A buffer only
// the tool's copies use (`out`) is still pinned.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
__global__ void inc(float *d, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] += 1.0f; }
int main() {
  const int n = 1 << 20;
  size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes);
  // CHECK: float *h = (float *)malloc(bytes);
  float *out = (float *)malloc(bytes);
  // CHECK: float *out = (float *)sa_registered_malloc(bytes);
  float *d;
  cudaMalloc(&d, bytes);
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, 0);
  // CHECK: cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, 0);
  for (int i = 0; i < n; ++i) h[i] = 5.0f;
  inc<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(out, d, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  printf("%f\n", out[0]);
  cudaFree(d);
  free(h);
  // CHECK: free(h);
  free(out);
  // CHECK: sa_registered_free(out);
  return 0;
}

// REPORT: {{.*}}:19: host buffer `h`: pageable: the program's own cudaMemcpyAsync on line 26 would become truly asynchronous (with pageable memory it returns only once the host side of the copy is done)
// REPORT-NEXT: {{.*}}:21: host buffer `out`: registered: {{.*}}
