// Both instantiations wait for stream 0 before the shared download (helpers
// that wait for their copies before they return); their
// notes name different ops (the copy of the `unsigned int` branch, the fill
// of the `unsigned short` one). The code is the same, so the template is
// rewritten; the note is the first instantiation's.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
#include <type_traits>

template <typename T> __global__ void k_xor(T *o, const T *i, T s, int n) {
  int x = threadIdx.x;
  if (x < n)
    o[x] = i[x] ^ s;
}

template <typename T> static void upload(T *d, const T *h, int n) {
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
}
template <typename T> static void download(T *h, const T *d, int n) {
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
}

template <typename T>
static void xor_into(T *d, T *d2, const T *in, T *out, T salt, int n) {
  upload(d, in, n);
  if constexpr (std::is_same_v<T, unsigned int>) {
    cudaMemcpy(d2, d, (size_t)n * sizeof(T), cudaMemcpyDeviceToDevice);
    // CHECK: cudaMemcpyAsync(d2, d, (size_t)n * sizeof(T), cudaMemcpyDeviceToDevice, sa_stream(0));
  } else {
    cudaMemset(d2, 0, (size_t)n * sizeof(T));
    // CHECK: cudaMemsetAsync(d2, 0, (size_t)n * sizeof(T), sa_stream(0));
  }
  k_xor<T><<<1, 128>>>(d2, d, salt, n);
  // CHECK: k_xor<T><<<1, 128, 0, sa_stream(0)>>>(d2, d, salt, n);
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: *d2 (which may overlap *d) is read below (written by cudaMemcpy on line 33)
  download(out, d2, n);
  // CHECK-NEXT: download(out, d2, n);
}

int main() {
  unsigned *d, *h;
  cudaMalloc(&d, 1024 * 4);
  h = (unsigned *)malloc(1024 * 4);
  for (int i = 0; i < 1024; i++)
    h[i] = i;
  xor_into(d, d + 256, h, h + 256, 7u, 100);
  xor_into((unsigned short *)(d + 512), (unsigned short *)(d + 768), (unsigned short *)h,
           (unsigned short *)(h + 512), (unsigned short)5, 100);
  printf("%u %u\n", h[300], h[600]);
  free(h);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:30: template `xor_into`: analysed per instantiation (xor_into<unsigned int>, xor_into<unsigned short>), which agree on every edit of the code they share (their `if constexpr` branches are rewritten for each)
