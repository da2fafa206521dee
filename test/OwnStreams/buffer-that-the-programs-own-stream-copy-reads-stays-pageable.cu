// The pageable buffer that the program's own cudaMemcpyAsync on its stream
// reads is never pinned behind the program's back: pinning would make that
// copy truly asynchronous, and the program writes the buffer right after it.
// The later download that the legacy default stream ordered after that copy
// waits for it once it is asynchronous itself.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
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

// CHECK: float *h = (float *)malloc(bytes);
// CHECK: cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s);
// CHECK-NEXT: for (int i = 0; i < n; ++i)
// CHECK-NEXT: h[i] = 5.0f;
// CHECK-NEXT: cudaDeviceSynchronize(); // streamalloc: cudaMemcpy below uses h after cudaMemcpyAsync on line 25, on another stream; the legacy default stream ordered them in the original
// CHECK-NEXT: cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, sa_stream(0));

// REPORT: {{.*}}:25:3: cudaMemcpyAsync: left synchronous: it already runs on a stream of the program's own
// REPORT: {{.*}}:18: host buffer `h`: pageable: the program's own cudaMemcpyAsync on line 25 would become truly asynchronous (with pageable memory it returns only once the host side of the copy is done)
