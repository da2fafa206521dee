// A sync followed by a clock() read is redundant by the tool's definition
// (no host access needs the GPU's results), but removing it would change what
// the timing measures: the clock read comes before the next sync, as often as
// the sync runs, so the sync stays although redundant syncs are removed by
// default, and the report says why. The JSON report lists every explicit sync
// with its decision.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.json --report-format=json
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <ctime>

__global__ void work(float *x) { x[threadIdx.x] = threadIdx.x * 0.5f; }

int main() {
  float h[64], *d;
  cudaMalloc(&d, sizeof h);
  clock_t t0 = clock();
  work<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  clock_t t1 = clock();
  // CHECK: work<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: {{^  }}cudaDeviceSynchronize();
  // CHECK-NEXT: {{^  }}clock_t t1 = clock();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  printf("%f %ld\n", h[1], (long)(t1 - t0));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:25: cudaDeviceSynchronize(): redundant, kept: no host access before the next sync conflicts with the 1 op pending here (line 24); the tool's own waits cover them; kept: the clock is read on line 26 before the next sync, so the printed time keeps measuring this work
// REPORT-NEXT: {{.*}}:31: cudaDeviceSynchronize(): needed: without it the tool would wait before line 32: h is read below (written by cudaMemcpy on line 30)
// REPORT-NOT: note: redundant syncs

// JSON:      "syncs": [
// JSON-NEXT:   {
// JSON-NEXT:     "callee": "cudaDeviceSynchronize",
// JSON-NEXT:     "dropped": false,
// JSON-NEXT:     "function": "main",
// JSON-NEXT:     "line": 25,
// JSON-NEXT:     "pending_ops": 1,
// JSON-NEXT:     "reason": "no host access before the next sync conflicts with the 1 op pending here (line 24); the tool's own waits cover them; kept: the clock is read on line 26 before the next sync, so the printed time keeps measuring this work",
// JSON-NEXT:     "redundant": true,
// JSON-NEXT:     "removable": true
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "callee": "cudaDeviceSynchronize",
// JSON-NEXT:     "dropped": false,
// JSON-NEXT:     "function": "main",
// JSON-NEXT:     "line": 31,
// JSON-NEXT:     "pending_ops": 1,
// JSON-NEXT:     "reason": "without it the tool would wait before line 32: h is read below (written by cudaMemcpy on line 30)",
// JSON-NEXT:     "redundant": false,
// JSON-NEXT:     "removable": true
// JSON-NEXT:   }
// JSON-NEXT: ],
// JSON-NOT:  "sync_note"
