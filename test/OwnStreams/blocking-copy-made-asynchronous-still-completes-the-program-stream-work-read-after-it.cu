// In the original, the blocking download of `h_y` on the legacy default
// stream also waited for the download of `h_x` on the program's stream (a
// blocking stream): the program reads `h_x` right after it with no sync of its
// own. Once the download of `h_y` is asynchronous that no longer holds, so the
// host waits before reading `h_x`. In the second round the program syncs its
// stream itself: that sync is kept and no wait is added.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = v + i;
}

int main() {
  const int n = 1 << 16;
  float *h_x, *h_y;
  cudaMallocHost(&h_x, n * sizeof(float));
  cudaMallocHost(&h_y, n * sizeof(float));
  float *d_x, *d_y;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  fill<<<n / 256, 256>>>(d_y, 1, n);
  fill<<<n / 256, 256, 0, s>>>(d_x, 2, n);
  cudaMemcpyAsync(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpy(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h_x[1]);
  printf("%f\n", h_y[1]);
  // CHECK: cudaMemcpyAsync(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream(0));
  // CHECK-NEXT: cudaDeviceSynchronize(); // streamalloc: h_x is read below (written by cudaMemcpyAsync on line 32)
  // CHECK-NEXT: printf("%f\n", h_x[1]);
  // CHECK-NEXT: printf("%f\n", h_y[1]);
  fill<<<n / 256, 256, 0, s>>>(d_x, 3, n);
  cudaMemcpyAsync(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaMemcpy(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaStreamSynchronize(s);
  printf("%f %f\n", h_x[1], h_y[2]);
  // CHECK: cudaMemcpyAsync(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream(0));
  // CHECK-NEXT: cudaStreamSynchronize(s);
  // CHECK-NEXT: cudaStreamSynchronize(sa_stream(0)); // streamalloc: h_y is read below (written by cudaMemcpy on line 42)
  // CHECK-NEXT: printf("%f %f\n", h_x[1], h_y[2]);
  cudaStreamDestroy(s);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFreeHost(h_x);
  cudaFreeHost(h_y);
  return 0;
}
