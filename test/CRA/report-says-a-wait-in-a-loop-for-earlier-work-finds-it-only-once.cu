// A clock read on some passes of a loop waits for the copy the original had
// finished before the loop. The wait sits in the loop body, so it runs on
// every pass that reads the clock: the report says that only the first such
// pass finds the copy pending and what the place buys (the host work before it
// overlaps the copy). A wait for work of the loop itself gets no such note.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
#include <ctime>

__global__ void step(float *p, float s) { p[threadIdx.x] *= s; }

int main() {
  float *h = (float *)malloc(32 * sizeof(float)), *d;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemcpy(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  double total = 0;
  for (int it = 0; it < 4; ++it) {
    total += it * 0.5;
    if (it % 2 == 1) {
      clock_t t = clock();
      total += (double)t * 0;
    }
    step<<<1, 32>>>(d, 1.5f);
  }
  cudaMemcpy(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f\n", h[1], total);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: {{.*}}:27: wait (timer) for line 22: the original had finished these ops when it read the clock on line 27; it runs on each pass through its loop that reaches it, but the ops it covers were queued before the loop, so only the first such pass finds them pending (the others return at once); here, the host work before it in that pass overlaps them
// REPORT-NOT: only the first such pass
