// A download into memory the tool page-locks pays when host work runs
// before the program reads the result: the copy is asynchronous and the
// host computes meanwhile. The same copy with nothing between it and the
// read stays cudaMemcpy.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

double checksum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

int main() {
  const int n = 1 << 24;
  double *h_in = (double *)malloc(n * sizeof(double));
  double *h_out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    h_in[i] = i;
  double *d;
  cudaMalloc(&d, n * sizeof(double));
  cudaMemset(d, 0, n * sizeof(double));
  cudaMemcpy(h_out, d, n * sizeof(double), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h_out, d, n * sizeof(double), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  double before = checksum(h_in, n);
  printf("%f %f\n", before, h_out[n - 1]);
  cudaMemcpy(h_out, d, sizeof(double), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpy(h_out, d, sizeof(double), cudaMemcpyDeviceToHost);
  printf("%f\n", h_out[0]);
  cudaFree(d);
  free(h_in);
  free(h_out);
  return 0;
}

// REPORT: {{.*}}:34:3: cudaMemcpy: left synchronous: not worth it: nothing could overlap it (no host work before the host waits for it, no independent GPU work on another stream)
// REPORT: {{.*}}:24: host buffer `h_out`: registered: {{.*}}
