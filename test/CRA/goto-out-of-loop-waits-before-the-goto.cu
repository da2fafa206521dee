// A `goto` out of a loop waits for everything pending right before it,
// inside the branch; the iterations that go on keep their kernels queued.
// At the label the pending set is what falls out of the loop (the goto's
// path has none), so the read after the copy there waits for it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void step(int *x) { x[threadIdx.x] += 1; }

int run(int *d, int *h, int limit) {
  int rounds = 0;
  for (int it = 0; it < 100; ++it) {
    step<<<1, 32>>>(d);
    ++rounds;
    if (rounds == limit)
      goto done;
  // CHECK: if (rounds == limit) {
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: goto done;
  // CHECK-NEXT: }
    printf("round %d\n", rounds);
  }
done:
  cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  return h[0];
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: *h (which may overlap *d) is read below (written by kernel `step` on line {{[0-9]+}})
  // CHECK-NEXT: return h[0];
}

int main() {
  int *h = (int *)calloc(32, sizeof(int)), *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  printf("%d\n", run(d, h, 3));
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by cudaMemset on line {{[0-9]+}})
  // CHECK-NEXT: printf("%d\n", run(d, h, 3));
  cudaFree(d);
  free(h);
  return 0;
}
