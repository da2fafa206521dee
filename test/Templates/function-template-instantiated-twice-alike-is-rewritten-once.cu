// A function template whose two instantiations (float and double, deduced
// from the arguments) ask for the same edits is rewritten once: its dependent
// calls become asynchronous in the template's text, each edit made once.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize --implicit-check-not=Async
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <typename T> __global__ void scale(T *x, T k) { x[threadIdx.x] *= k; }

template <typename T> static void scaleOnDevice(T *d, T *h, const T *other, int n) {
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(T), cudaMemcpyHostToDevice, sa_stream(0));
  scale<<<1, 32>>>(d, T(2));
  // CHECK: scale<<<1, 32, 0, sa_stream(0)>>>(d, T(2));
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, sa_stream(0));
  T sum = 0;
  for (int i = 0; i < n; ++i)
    sum += other[i];
  printf("%f %f\n", (double)h[0], (double)sum);
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: *h is read below (written by cudaMemcpy on line 19)
  // CHECK-NEXT: printf("%f %f\n", (double)h[0], (double)sum);
}

int main() {
  float hf[32] = {0}, of[32] = {0}, *df;
  double hd[32] = {0}, od[32] = {0}, *dd;
  cudaMalloc(&df, sizeof hf);
  cudaMalloc(&dd, sizeof hd);
  scaleOnDevice(df, hf, of, 32);
  scaleOnDevice(dd, hd, od, 32);
  cudaFree(df);
  cudaFree(dd);
  return 0;
}

// REPORT: {{.*}}: 3 of 3 GPU ops made asynchronous on 1 stream(s), 1 wait(s) inserted
// REPORT-NEXT: {{.*}}:15:3: cudaMemcpy: async on stream 0, waited for before line 24
// REPORT-NEXT: {{.*}}:17:3: scale: async on stream 0, waited for before line 24
// REPORT-NEXT: {{.*}}:19:3: cudaMemcpy: async on stream 0, waited for before line 24
// REPORT: {{.*}}:14: template `scaleOnDevice`: analysed per instantiation (scaleOnDevice<float>, scaleOnDevice<double>), which agree on every edit
