// A program whose own cudaMemcpyAsync runs on a stream of its own is left
// byte for byte unchanged, so its pageable buffers are never pinned behind
// its back (pinning would make its copy truly asynchronous).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 1 << 22;
  size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes);
  float *d;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d, bytes);
  for (int i = 0; i < n; ++i)
    h[i] = 1.0f;
  cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s);
  for (int i = 0; i < n; ++i)
    h[i] = 5.0f;
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaStreamDestroy(s);
  cudaFree(d);
  free(h);
  return 0;
}

// REPORT: file left unchanged: line 18: `cudaStreamCreate`: the program manages its own streams
// REPORT-NEXT: file left unchanged: line 22: passes a stream of the program's own (`cudaMemcpyAsync`)
