// A check macro that jumps to the function's error label (`if (e) goto
// fail;`) is guarded like one that returns: the wait for everything pending
// runs only when the macro jumps (the code at the label goes on running and
// starts with nothing pending); the loop's hot path does not wait.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define CHECK_GOTO(e)                                                          \
  if (e)                                                                       \
    goto fail;

static int run(int *d, int *h, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    int *scratch = (int *)malloc(16);
    CHECK_GOTO(scratch == nullptr);
    free(scratch);
  }
  // CHECK: cudaMemcpyAsync(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream([[S:[0-9]+]]));
  // CHECK-NEXT: int *scratch = (int *)malloc(16);
  // CHECK-NEXT: { sa_wait_on_return sa_on_return{[] { cudaStreamSynchronize(sa_stream([[S]])); }, true}; /* streamalloc: only if CHECK_GOTO exits early: finish GPU work before leaving the function */ CHECK_GOTO(scratch == nullptr); sa_on_return.armed = false; }
  // CHECK-NEXT: free(scratch);
  return h[0];
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: {{.*}}
  // CHECK-NEXT: return h[0];
fail:
  puts("out of memory");
  return -1;
}

int main() {
  int h[8] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  int r = run(d, h, 4);
  cudaFree(d);
  return r;
}
