// `std::min(n * 2, m)` binds the value of `n * 2` to a `const int &`: a
// temporary of its own, not memory the program's GPU work could use. The
// statement reads `n` and `m` only, so the copy before it stays in flight.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *h, *d;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  cudaMemcpy(d, h + n / 2, n / 2 * sizeof(float), cudaMemcpyHostToDevice);
  int m = argc + 3;
  if (argc < 10)
    m = std::min(argc * 2, m);
  // CHECK: cudaMemcpyAsync(d, h + n / 2, n / 2 * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  // CHECK-NEXT: int m = argc + 3;
  // CHECK-NEXT: if (argc < 10)
  // CHECK-NEXT: m = std::min(argc * 2, m);
  double sum = 0;
  for (int i = 0; i < n / 2; ++i)
    sum += h[i] * m;
  cudaMemcpy(h, d, n / 2 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f\n", sum, h[1]);
  cudaFree(d);
  cudaFreeHost(h);
  return 0;
}
// REPORT-NOT: lvalue the analysis cannot follow
// REPORT: {{.*}}:21:3: cudaMemcpy: async on stream 0{{$}}
