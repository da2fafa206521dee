// When the instantiations of a template ask for different edits (here a
// branch taken only for 8-byte types reads the buffer being copied back, so
// only `fetch<double>` needs a wait there), the template is left as written
// and the report names the two instantiations and the first line they differ.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out2.cu --report-file=%t.json --report-format=json
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
#include <cstdio>

template <typename T> __global__ void fill(T *x) { x[threadIdx.x] = T(1); }

template <typename T> static void fetch(T *d, T *h, T *other, int n) {
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  if constexpr (sizeof(T) == 8)
    other[0] = h[0];
  for (int i = 1; i < n; ++i)
    other[i] = T(i);
  printf("%f\n", (double)h[1]);
}

int main() {
  float hf[32], of[32], *df;
  double hd[32], od[32], *dd;
  cudaMalloc(&df, sizeof hf);
  cudaMalloc(&dd, sizeof hd);
  fetch(df, hf, of, 32);
  fetch(dd, hd, od, 32);
  cudaFree(df);
  cudaFree(dd);
  return 0;
}

// CHECK: {{.*}}: 0 of 2 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// CHECK-NEXT: {{.*}}:18:3: fill: left synchronous: inside a template: its instantiations `fetch<float>` and `fetch<double>` would be rewritten differently (first at line 20)
// CHECK-NEXT: {{.*}}:19:3: cudaMemcpy: left synchronous: inside a template: its instantiations `fetch<float>` and `fetch<double>` would be rewritten differently (first at line 20)
// CHECK-NEXT: {{.*}}:17: template `fetch`: left unchanged: its instantiations `fetch<float>` and `fetch<double>` would be rewritten differently (first at line 20)

// JSON:      "templates": [
// JSON-NEXT:   {
// JSON-NEXT:     "instances": [
// JSON-NEXT:       "fetch<float>",
// JSON-NEXT:       "fetch<double>"
// JSON-NEXT:     ],
// JSON-NEXT:     "line": 17,
// JSON-NEXT:     "reason": "its instantiations `fetch<float>` and `fetch<double>` would be rewritten differently (first at line 20)",
// JSON-NEXT:     "rewritten": false,
// JSON-NEXT:     "template": "fetch"
// JSON-NEXT:   }
