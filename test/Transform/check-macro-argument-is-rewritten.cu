// A GPU op spelled in the argument of an error-checking macro is rewritten in
// place: the macro keeps checking the error code of the asynchronous call, and
// the exit() in the macro's error branch does not force a wait. (With nothing to
// overlap them the cost model would keep both copies synchronous: it is off.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main() {
  float *h = (float *)malloc(64 * sizeof(float)), *d;
  CHECK(cudaMalloc(&d, 64 * sizeof(float)));
  CHECK(cudaMemcpy(d, h, 64 * sizeof(float), cudaMemcpyHostToDevice));
  // CHECK: CHECK(cudaMemcpyAsync(d, h, 64 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}})));
  CHECK(cudaMemcpy(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK: CHECK(cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}})));
  printf("%f\n", h[0]);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is read below (written by cudaMemcpy on line 28)
  // CHECK-NEXT: printf("%f\n", h[0]);
  CHECK(cudaFree(d));
  free(h);
  return 0;
}

// REPORT: {{.*}}: 2 of 2 GPU ops made asynchronous on {{[0-9]+}} stream(s), 1 wait(s) inserted
// REPORT-NEXT: {{.*}}:26:9: cudaMemcpy: async on stream {{[0-9]+}}, waited for before line 30
// REPORT-NEXT: {{.*}}:28:9: cudaMemcpy: async on stream {{[0-9]+}}, waited for before line 30
// REPORT-NEXT: {{.*}}:30: wait (conflict) for lines 26, 28: h is read below (written by cudaMemcpy on line 28)
