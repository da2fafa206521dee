// A `throw` in `main` outside any try block has no handler: the program ends
// (std::terminate), as an `exit()` in an error branch does. On the path that
// goes on it touches nothing, so the check right after the copy does not
// wait for it. In a callee a throw may reach a handler that reads what the
// GPU writes: calling `validate` still waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

static void validate(double sum) {
  if (sum < 0)
    throw "negative sum";
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *h, *d;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  cudaMemcpy(d, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice);
  if (argc > 3)
    throw "too many arguments";
  // CHECK: cudaMemcpyAsync(d, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  // CHECK-NEXT: if (argc > 3)
  // CHECK-NEXT: throw "too many arguments";
  double sum = 0;
  for (int i = n / 2; i < n; ++i)
    sum += h[i];
  validate(sum);
  // CHECK: cudaStreamSynchronize(sa_stream(0)); // streamalloc: the next statement may touch what cudaMemcpy on line 27 uses (`validate` reaches a throw expression)
  // CHECK-NEXT: validate(sum);
  cudaMemcpy(h, d, n / 2 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f\n", sum, h[1]);
  cudaFree(d);
  cudaFreeHost(h);
  return 0;
}
// REPORT-NOT: {{.*}}:28: wait
// REPORT: {{.*}}:27:3: cudaMemcpy: async on stream 0, waited for before line 36
