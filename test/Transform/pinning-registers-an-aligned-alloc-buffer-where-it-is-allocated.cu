// A buffer from aligned_alloc is pinned by registering it where it is
// allocated (cudaMallocHost does not promise the alignment asked for), also
// with --pin=alloc, which says so in the report; its free unregisters it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %streamalloc %t.cu --pin=alloc -o %t.alloc.cu --report-file=%t.alloc.report
// RUN: %FileCheck %s < %t.alloc.cu
// RUN: %FileCheck %s --check-prefix=ALLOC < %t.alloc.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void twice(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

// CHECK: static inline void *sa_registered_aligned_alloc(size_t alignment, size_t bytes) {
// CHECK-NEXT:   return sa_register(aligned_alloc(alignment, bytes), bytes);
int main() {
  const int n = 1 << 24;
  float *a = (float *)aligned_alloc(64, n * sizeof(float));
  // CHECK: float *a = (float *)sa_registered_aligned_alloc(64, n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  for (int i = 0; i < n; i++)
    a[i] = 1;
  cudaMemcpy(d, a, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(d, n);
  cudaMemcpy(a, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", a[n - 1]);
  cudaFree(d);
  free(a);
  // CHECK: sa_registered_free(a);
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}: host buffer `a`: registered: so that its 2 copies run at full speed
// ALLOC: {{.*}}:{{[0-9]+}}: host buffer `a`: registered: so that its 2 copies run at full speed; registered rather than allocated page-locked: cudaMallocHost does not promise the alignment its allocation asks for
