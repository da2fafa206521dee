// A copy or fill in a loop's header stays synchronous, with the reason: a
// `while` condition that reads the copied flag cannot go on before the copy
// is done (a data dependency); an op in a `for` increment would need its wait
// inside the header, which this version does not rewrite. The body's work
// around them still goes on the tool's stream, ordered with the header's
// legacy-stream ops.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void step(int *flag, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 0.5f;
  if (i == 0)
    *flag = x[0] > 1.0f;
}

int main() {
  const int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float)), *d;
  int *d_flag, flag = 1;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&d_flag, sizeof(int));
  cudaMemset(d_flag, 1, sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = 100.0f;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  while (cudaMemcpy(&flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess && flag)
    step<<<(n + 255) / 256, 256>>>(d_flag, d, n);
  // CHECK: while (cudaMemcpy(&flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess && flag) {
  // CHECK-NEXT: step<<<(n + 255) / 256, 256, 0, sa_stream({{[0-9]}})>>>(d_flag, d, n);{{.*}}
  for (int k = 0; k < 3; cudaMemset(d_flag, 0, sizeof(int)), ++k)
    step<<<(n + 255) / 256, 256>>>(d_flag, d, n);
  // CHECK: for (int k = 0; k < 3; cudaMemset(d_flag, 0, sizeof(int)), ++k) {
  // CHECK-NEXT: step<<<(n + 255) / 256, 256, 0, sa_stream({{[0-9]}})>>>(d_flag, d, n);{{.*}}
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  free(h);
  cudaFree(d);
  cudaFree(d_flag);
  return 0;
}
// REPORT: {{.*}}:{{[0-9]+}}:10: cudaMemcpy: left synchronous: in the condition of a `while` loop, which reads its result: the loop cannot go on before it is done
// REPORT: {{.*}}:{{[0-9]+}}:26: cudaMemset: left synchronous: in the increment of a `for` loop; the wait for it would go inside the loop's header, which this version does not rewrite, so it stays synchronous
