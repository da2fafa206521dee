// A CHECK macro that returns the error code (`do { cudaError_t e = (call);
// if (e) { ...; return e; } } while (0)`) wraps a copy. A wait before the
// macro for its error path would run before the copy is even enqueued, so
// the copy had to stay synchronous; the guard waits only when the macro
// returns, after the copy, so the copy runs asynchronously and overlaps
// the host work that follows until its data is read.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                         \
      return e_;                                                               \
    }                                                                          \
  } while (0)

double busy(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += i * 0.5;
  return s;
}

static cudaError_t fetch(float *h, const float *d, int n, double *work) {
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  *work = busy(n);
  printf("%f\n", h[0]);
  return cudaSuccess;
}
// CHECK: { sa_wait_on_return sa_on_return{[] { cudaStreamSynchronize(sa_stream([[S:[0-9]+]])); }, true}; /* streamalloc: only if CHECK exits early: finish GPU work before leaving the function */ CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S]]))); sa_on_return.armed = false; }
// CHECK-NEXT: *work = busy(n);
// CHECK-NEXT: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: {{.*}}
// CHECK-NEXT: printf("%f\n", h[0]);

int main() {
  float h[16], *d;
  double work = 0;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  cudaError_t e = fetch(h, d, 16, &work);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is read below (written by cudaMemset on line 46)
  // CHECK-NEXT: cudaError_t e = fetch(h, d, 16, &work);
  cudaFree(d);
  return e == cudaSuccess ? 0 : 1;
}

// REPORT: {{.*}}:32:9: cudaMemcpy: async on stream {{[0-9]+}}, waited for before line 34
