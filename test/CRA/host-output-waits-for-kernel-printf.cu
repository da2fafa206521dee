// A kernel that calls printf writes the program's output. In the original,
// the device-to-host cudaMemcpy synchronises and so flushes the kernel's
// lines before the host prints; the host's next output must therefore wait
// for the kernel. (Without this, an H200 printed "host" before "device
// 0.000000" when h was pinned.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void hello(float *x) {
  printf("device %f\n", x[0]);
  x[1] = 2.0f;
}

int main() {
  float *d, *h;
  cudaMalloc(&d, 16 * sizeof(float));
  cudaMallocHost(&h, 16 * sizeof(float));
  cudaMemset(d, 0, 16 * sizeof(float));
  hello<<<1, 1>>>(d);
  // CHECK: hello<<<1, 1, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: cudaEventRecord(sa_event([[E:[0-9]+]]), sa_stream({{[0-9]+}}));  // streamalloc: marks the end of hello for the host
  cudaMemcpy(h, d, 16 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("host\n");
  // CHECK: cudaEventSynchronize(sa_event([[E]]));  // streamalloc: the program's output is written below (written by kernel `hello` on line 23)
  // CHECK-NEXT: printf("host\n");
  cudaFreeHost(h);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: h is written below (written by cudaMemcpy on line 26)
  // CHECK-NEXT: cudaFreeHost(h);
  cudaFree(d);
  return 0;
}
