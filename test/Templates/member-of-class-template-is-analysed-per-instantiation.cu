// A member function of a class template is analysed through each
// instantiation of its class; both instantiations ask for the same edits, so
// the out-of-line definition is rewritten once. The waits are conservative
// (a member function's `this` may overlap its pointer arguments), but the
// copy back reads `this->dev` when it is called, while the original still
// ran the kernel: no wait before it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize --implicit-check-not=Async
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

template <typename T> __global__ void twice(T *x) { x[threadIdx.x] *= T(2); }

template <typename T> struct Pipeline {
  T *dev;
  int n;
  void roundTrip(T *host);
};

template <typename T> void Pipeline<T>::roundTrip(T *host) {
  cudaMemcpy(dev, host, n * sizeof(T), cudaMemcpyHostToDevice);
  twice<<<1, 32>>>(dev);
  cudaMemcpy(host, dev, n * sizeof(T), cudaMemcpyDeviceToHost);
  printf("%f\n", (double)host[0]);
}
// CHECK: template <typename T> void Pipeline<T>::roundTrip(T *host) {
// CHECK-NEXT:   cudaMemcpyAsync(dev, host, n * sizeof(T), cudaMemcpyHostToDevice, sa_stream(0));
// CHECK-NEXT:   cudaStreamSynchronize(sa_stream(0));  // streamalloc: *this (which may overlap *host, *this->dev) is read below (written by cudaMemcpy on line 24)
// CHECK-NEXT:   twice<<<1, 32, 0, sa_stream(0)>>>(dev);
// CHECK-NEXT:   cudaMemcpyAsync(host, dev, n * sizeof(T), cudaMemcpyDeviceToHost, sa_stream(0));
// CHECK-NEXT:   cudaStreamSynchronize(sa_stream(0));  // streamalloc: *host (which may overlap *this, *this->dev) is read below (written by kernel `twice` on line 25)
// CHECK-NEXT:   printf("%f\n", (double)host[0]);
// CHECK-NEXT: }

int main() {
  Pipeline<float> pf;
  Pipeline<int> pi;
  float hf[32] = {0};
  int hi[32] = {0};
  pf.n = pi.n = 32;
  cudaMalloc(&pf.dev, sizeof hf);
  cudaMalloc(&pi.dev, sizeof hi);
  pf.roundTrip(hf);
  pi.roundTrip(hi);
  cudaFree(pf.dev);
  cudaFree(pi.dev);
  return 0;
}

// REPORT: {{.*}}:23: template `Pipeline::roundTrip`: analysed per instantiation (Pipeline<float>::roundTrip, Pipeline<int>::roundTrip), which agree on every edit
