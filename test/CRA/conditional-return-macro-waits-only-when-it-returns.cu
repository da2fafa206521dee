// An error-check macro whose argument is its condition and whose body may
// return (CHECK_ALLOCATION) cannot be edited inside, but the statement can
// be guarded: the wait runs only when control leaves it by the return, so
// the hot path of the loop neither waits nor releases the stream pool (it
// goes on running, and the pool would be created again). The copy stays
// pending across the check until its data is read.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize --implicit-check-not='sa_release_streams();'
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define FAIL 1
#define CHECK_ALLOCATION(p)                                                    \
  if (!(p)) {                                                                  \
    printf("allocation failed\n");                                             \
    return FAIL;                                                               \
  }

// The guard, emitted with the stream pool:
// CHECK: struct sa_wait_on_return {
// CHECK-NEXT:   void (*wait)();
// CHECK-NEXT:   bool armed;
// CHECK-NEXT:   ~sa_wait_on_return() {
// CHECK-NEXT:     if (armed)
// CHECK-NEXT:       wait();
// CHECK-NEXT:   }
// CHECK-NEXT: };

int run(int *d, int *h, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    int *scratch = (int *)malloc(16);
    CHECK_ALLOCATION(scratch);
    free(scratch);
  }
  // CHECK: cudaMemcpyAsync(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream([[S:[0-9]+]]));
  // CHECK-NEXT: int *scratch = (int *)malloc(16);
  // CHECK-NEXT: { sa_wait_on_return sa_on_return{[] { cudaStreamSynchronize(sa_stream([[S]])); }, true}; /* streamalloc: only if CHECK_ALLOCATION exits early: finish GPU work before leaving the function */ CHECK_ALLOCATION(scratch); sa_on_return.armed = false; }
  // CHECK-NEXT: free(scratch);
  return h[0];
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: *h {{.*}} is read below (written by cudaMemcpy on line 34)
  // CHECK-NEXT: return h[0];
}

int main() {
  int h[8] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  int r = run(d, h, 4);
  cudaFree(d);
  return r;
  // CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  // CHECK-NEXT: return r;
}
