// A device-to-host cudaMemcpyAsync into pageable memory returns only once the
// copy is done, so the original may read the buffer right after it. Pinned,
// the copy would still be running: a buffer that the program's own
// asynchronous copy writes (on the legacy stream, its stream argument left
// out, or through a helper of this file) stays pageable, also for the
// copies the tool makes asynchronous. The buffer only the
// tool's own copies use (`c`) is pinned.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = i;
}

static void download(float *dst, const float *src, size_t bytes) {
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost);
}

int main() {
  const int n = 1 << 22;
  size_t bytes = n * sizeof(float);
  float *a = (float *)malloc(bytes);
  // CHECK: float *a = (float *)malloc(bytes);
  float *b = (float *)malloc(bytes);
  // CHECK: float *b = (float *)malloc(bytes);
  float *c = (float *)malloc(bytes);
  // CHECK: float *c = (float *)sa_registered_malloc(bytes);
  float *d;
  cudaMalloc(&d, bytes);
  fill<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpyAsync(a, d, bytes, cudaMemcpyDeviceToHost, 0);
  printf("%f\n", a[n - 1]);
  download(b + 0, d, bytes);
  printf("%f\n", b[n - 1]);
  cudaMemcpy(c, d, bytes, cudaMemcpyDeviceToHost);
  printf("%f\n", c[n - 1]);
  cudaMemcpy(d, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d, b, bytes, cudaMemcpyHostToDevice);
  cudaFree(d);
  free(a);
  free(b);
  free(c);
  return 0;
}

// REPORT: {{.*}}:30: host buffer `a`: pageable: the program's own cudaMemcpyAsync on line 39 would become truly asynchronous (with pageable memory it returns only once the host side of the copy is done)
// REPORT-NEXT: {{.*}}:32: host buffer `b`: pageable: the program's own cudaMemcpyAsync on line 24 would become truly asynchronous (with pageable memory it returns only once the host side of the copy is done)
// REPORT-NEXT: {{.*}}:34: host buffer `c`: registered: {{.*}}
