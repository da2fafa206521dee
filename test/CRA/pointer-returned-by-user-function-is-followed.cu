// A pointer returned by a function of the program's own points to what the
// callee's summary says it returns (`table`), so a write through it waits for
// the pending copy that reads `table`, and the comment names the object.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

static float table[16];

float *lookup_table() { return table; }

__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
  float *d, *t = lookup_table();
  cudaMalloc(&d, 16 * sizeof(float));
  cudaMemcpy(d, table, sizeof table, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, table, sizeof table, cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: cudaEventRecord(sa_event([[E:[0-9]+]]), sa_stream({{[0-9]+}}));  // streamalloc: marks the end of cudaMemcpy for the host
  scale<<<1, 16>>>(d);
  // CHECK: scale<<<1, 16, 0, sa_stream({{[0-9]+}})>>>(d);
  printf("launched\n");
  // CHECK: printf("launched\n");
  t[0] = 1.0f;
  // CHECK: cudaEventSynchronize(sa_event([[E]]));  // streamalloc: table is written below (read by cudaMemcpy on line 21)
  // CHECK-NEXT: t[0] = 1.0f;
  cudaFree(d);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by kernel `scale` on line 24)
  // CHECK-NEXT: cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:28: wait (conflict) for line 21: table is written below (read by cudaMemcpy on line 21)
