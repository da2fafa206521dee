// --pin=register registers the buffer for its lifetime instead of
// allocating it page-locked; --pin=off leaves host memory alone; a file that
// calls cudaDeviceReset (which releases page-locked memory) is left alone.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.reg.cu --pin=register
// RUN: %FileCheck %s --check-prefix=REG < %t.reg.cu
// RUN: %nvcc %t.reg.cu
// RUN: %streamalloc %t.cu -o %t.off.cu --pin=off
// RUN: %FileCheck %s --check-prefix=OFF < %t.off.cu --implicit-check-not=sa_pinned
// RUN: sed -e 's|^  return 0;|  cudaDeviceReset();\n  return 0;|' %t.cu > %t.reset.cu
// RUN: %streamalloc %t.reset.cu -o %t.reset.out.cu --report-file=%t.reset.report
// RUN: %FileCheck %s --check-prefix=RESET < %t.reset.report
// RUN: %not %streamalloc %t.cu --pin=sometimes 2>&1 | %FileCheck %s --check-prefix=BAD
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 1 << 22;
  float *a = (float *)malloc(n * sizeof(float));
  // REG: float *a = (float *)sa_registered_malloc(n * sizeof(float));
  // OFF: float *a = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(a, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", a[0]);
  cudaFree(d);
  free(a);
  // REG: sa_registered_free(a);
  // OFF: free(a);
  return 0;
}

// RESET: {{.*}}: host buffer `a`: pageable: the file calls cudaDeviceReset, which would release page-locked memory
// BAD: {{.*}}Cannot find option named 'sometimes'!
