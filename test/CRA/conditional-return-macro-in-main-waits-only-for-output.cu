// Returning from main out of an error-check macro ends the program on an
// error path, like exit() in an error branch: pending copies are abandoned
// (nothing reads their results), so the check needs no wait and no stream
// release on the path that goes on; a pending kernel that prints must still
// be complete, and waits only on the returning path. The `do { if (e)
// return; } while (0)` form, whose `if` body cannot be braced, is guarded
// the same way.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize --implicit-check-not='sa_release_streams();'
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define CHECK_ALLOCATION(p)                                                    \
  if (!(p)) {                                                                  \
    printf("allocation failed\n");                                             \
    return 1;                                                                  \
  }
#define CHECK_DO(e)                                                            \
  do {                                                                         \
    if (e)                                                                     \
      return 2;                                                                \
  } while (0)

__global__ void hello(int *d) {
  printf("device\n");
  d[0] = 1;
}

int main(int argc, char **argv) {
  int *d, *h = (int *)malloc(8 * sizeof(int));
  CHECK_ALLOCATION(h);
  cudaMalloc(&d, 8 * sizeof(int));
  cudaMemset(d, 0, 8 * sizeof(int));
  cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  int *g = (int *)malloc(16);
  CHECK_ALLOCATION(g);
  // CHECK: cudaMemcpyAsync(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: int *g = (int *)malloc(16);
  // CHECK-NEXT: CHECK_ALLOCATION(g);
  hello<<<1, 1>>>(d);
  CHECK_DO(argc > 5);
  // CHECK: hello<<<1, 1, 0, sa_stream([[S:[0-9]+]])>>>(d);
  // CHECK-NEXT: { sa_wait_on_return sa_on_return{[] { cudaStreamSynchronize(sa_stream([[S]])); }, true}; /* streamalloc: only if CHECK_DO exits early: finish GPU work before leaving the function */ CHECK_DO(argc > 5); sa_on_return.armed = false; }
  free(g);
  cudaDeviceSynchronize();
  // CHECK: cudaDeviceSynchronize();
  printf("%d\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
  // CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  // CHECK-NEXT: return 0;
}
