// A device buffer passed to a lambda's call stays allocated with cudaMalloc,
// and the report says why: stream-ordered allocation does not follow a
// pointer into an operator call (the lambda's body is there to see; the
// reason is the policy, not a missing body).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = i;
}

int main() {
  const int n = 1 << 20;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  // CHECK: cudaMalloc(&d, n * sizeof(float));
  auto run = [](float *p, int m) { fill<<<(m + 255) / 256, 256>>>(p, m); };
  run(d, n);
  float first = -1.0f;
  cudaMemcpy(&first, d + 7, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  cudaFree(d);
  return 0;
}
// REPORT: {{.*}}: cudaMalloc: left synchronous: not stream-ordered: a pointer into it is passed to `{{.*}}operator()`, an operator (a lambda's or a functor's call), a virtual function or a template's pattern, which stream-ordered allocation does not follow into (line {{[0-9]+}})
