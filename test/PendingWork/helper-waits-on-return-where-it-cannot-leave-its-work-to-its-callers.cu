// A helper waits for its own GPU work before it returns, and the report says
// why, wherever its callers cannot take that wait over: it has external
// linkage (callers in other files), its address is taken, a call of it is not
// a statement of its own, or its work uses its own stack buffer.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

void upload_extern(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before upload_extern returns
}

static void upload_by_pointer(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before upload_by_pointer returns
}

static int upload_counted(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  return n;
}

static void upload_from_stack(float *d, int n) {
  float tmp[64];
  for (int i = 0; i < 64; ++i)
    tmp[i] = i;
  cudaMemcpy(d, tmp, (n < 64 ? n : 64) * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before upload_from_stack returns
}

int main() {
  float h[64] = {1}, *d;
  cudaMalloc(&d, sizeof h);
  upload_extern(d, h, 64);
  void (*up)(float *, const float *, int) = upload_by_pointer;
  up(d, h, 64);
  int k = upload_counted(d, h, 64);
  upload_from_stack(d, 64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f %d\n", h[1], k);
  cudaFree(d);
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]: `upload_extern` waits for its GPU work before it returns: it has external linkage, so callers this translation unit does not show may rely on its work being complete (declare it `static`, or give --whole-program if this file is the whole program, to let its callers wait instead)
// REPORT-DAG: {{.*}}:[[#]]: `upload_by_pointer` waits for its GPU work before it returns: not every mention of it is a call written as a statement of its own (its address is taken, or a call sits in an expression, a condition or a macro)
// REPORT-DAG: {{.*}}:[[#]]: `upload_counted` waits for its GPU work before it returns: not every mention of it is a call written as a statement of its own (its address is taken, or a call sits in an expression, a condition or a macro)
// REPORT-DAG: {{.*}}:[[#]]: `upload_from_stack` waits for its GPU work before it returns: none of its GPU work could stay pending: each op left running at a return touches a local of it, memory it allocates, memory the analysis cannot name or the program's output, or stays synchronous
