// A template whose instantiations disagree keeps its cudaMalloc/cudaFree
// synchronous, and so (with the cost model on) the file's other allocations
// stay synchronous too rather than mixing the two allocators: the template's
// trials are decided before the plain functions are analysed.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <typename T> __global__ void inc(T *x) { x[threadIdx.x] += T(1); }

template <typename T> static void work(T *h, int n) {
  for (int r = 0; r < 4; ++r) {
    T *d;
    cudaMalloc(&d, n * sizeof(T));
    cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    if constexpr (sizeof(T) == 8) {
      T *e;
      cudaMalloc(&e, n * sizeof(T));
      cudaFree(e);
    }
    inc<<<1, 32>>>(d);
    cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(d);
  }
}

int main() {
  float hf[32] = {0};
  double hd[32] = {0};
  work(hf, 32);
  work(hd, 32);
  for (int r = 0; r < 4; ++r) {
    float *d;
    cudaMalloc(&d, sizeof hf);
    cudaMemcpy(d, hf, sizeof hf, cudaMemcpyHostToDevice);
    inc<<<1, 32>>>(d);
    cudaMemcpy(hf, d, sizeof hf, cudaMemcpyDeviceToHost);
    cudaFree(d);
  }
  printf("%f %f\n", hf[0], hd[0]);
  return 0;
}

// CHECK: {{.*}}:18:5: cudaMalloc: left synchronous: not stream-ordered: its template is left unchanged: its instantiations `work<float>` and `work<double>` would be rewritten differently (first at line {{[0-9]+}})
// CHECK: {{.*}}:27:5: cudaFree: left synchronous: not stream-ordered: its template is left unchanged: its instantiations `work<float>` and `work<double>` would be rewritten differently (first at line {{[0-9]+}})
// CHECK: {{.*}}:38:5: cudaMalloc: left synchronous: not stream-ordered: not worth it: the file also calls cudaMalloc/cudaFree synchronously (`work`, line 18), and with both allocators in use a program was measured 2.5x slower (docs/results.md)
// CHECK: {{.*}}:42:5: cudaFree: left synchronous: not stream-ordered: not worth it: the file also calls cudaMalloc/cudaFree synchronously (`work`, line 18), and with both allocators in use a program was measured 2.5x slower (docs/results.md)
