// The JSON report lists every clock read of an analysed function: the ops
// pending before it that the original had finished there (`done_in_original`)
// and the ops still pending when the output reads the clock
// (`pending_at_read`). With --timers=keep the two never share an op; with
// --timers=ignore they do, which is how corpus/check-semantics tells a timed
// region whose meaning changed. `functions` gives each analysed function's
// lines, so a checker can find clock calls the report does not list.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.json --report-format=json
// RUN: %FileCheck %s --check-prefix=KEEP < %t.json
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off --timers=ignore %t.cu -o %t.ignore.cu --report-file=%t.ignore.json --report-format=json
// RUN: %FileCheck %s --check-prefix=IGNORE < %t.ignore.json
#include <cstdio>
#include <sys/time.h>

__global__ void bump(float *d) { d[threadIdx.x] += 1.0f; }

double now() {
  timeval t;
  gettimeofday(&t, nullptr);
  return t.tv_sec + t.tv_usec * 1e-6;
}

int main() {
  float h[256] = {}, *d;
  cudaMalloc(&d, sizeof h);
  for (int r = 0; r < 10; ++r) {
    double t0 = now();
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    bump<<<1, 256>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    double t1 = now();
    printf("%f\n", t1 - t0);
  }
  printf("%f\n", h[0]);
  cudaFree(d);
  return 0;
}

// KEEP:      "clock_reads": [
// KEEP-NEXT:   {
// KEEP-NEXT:     "done_in_original": [],
// KEEP-NEXT:     "end_line": 30,
// KEEP-NEXT:     "function": "main",
// KEEP-NEXT:     "line": 30,
// KEEP-NEXT:     "pending_at_read": []
// KEEP-NEXT:   },
// KEEP-NEXT:   {
// KEEP-NEXT:     "done_in_original": [
// KEEP-NEXT:       31,
// KEEP-NEXT:       32,
// KEEP-NEXT:       33
// KEEP-NEXT:     ],
// KEEP-NEXT:     "end_line": 34,
// KEEP-NEXT:     "function": "main",
// KEEP-NEXT:     "line": 34,
// KEEP-NEXT:     "pending_at_read": []
// KEEP-NEXT:   }
// KEEP-NEXT: ],
// KEEP:      "functions": [
// KEEP-NEXT:   {
// KEEP-NEXT:     "end_line": 40,
// KEEP-NEXT:     "line": 26,
// KEEP-NEXT:     "name": "main"
// KEEP-NEXT:   }
// KEEP-NEXT: ],

// IGNORE:      "clock_reads": [
// IGNORE-NEXT:   {
// IGNORE-NEXT:     "done_in_original": [
// IGNORE-NEXT:       31,
// IGNORE-NEXT:       32,
// IGNORE-NEXT:       33
// IGNORE-NEXT:     ],
// IGNORE:          "pending_at_read": [
// IGNORE-NEXT:       31,
// IGNORE-NEXT:       32,
// IGNORE-NEXT:       33
// IGNORE-NEXT:     ]
