// In the loop, the program's ops on its stream s[0] stay in order by
// themselves: the launch of `twice` moved off the legacy stream between them
// adds no wait. After the loop, `fill` on s[0] and `sum` on s[1] use the same
// buffer; in the original the legacy-stream launch of `twice` between them
// ordered them (a blocking stream waits for earlier legacy work, and legacy
// work for it). With `twice` on a stream of the tool that order is gone, so
// the host waits before `sum` is enqueued.
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

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2;
}

__global__ void sum(const float *x, float *out, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (int i = 0; i < n; ++i)
      *out += x[i];
}

int main() {
  const int n = 1 << 16;
  float *h_x;
  cudaMallocHost(&h_x, n * sizeof(float));
  float *d_x, *d_y, *d_sum;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  cudaMalloc(&d_sum, sizeof(float));
  cudaStream_t s[2];
  for (int i = 0; i < 2; ++i)
    cudaStreamCreate(&s[i]);
  for (int r = 0; r < 4; ++r) {
    fill<<<n / 256, 256, 0, s[0]>>>(d_x, r, n);
    cudaMemcpyAsync(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost, s[0]);
    twice<<<n / 256, 256>>>(d_y, n);
    cudaStreamSynchronize(s[0]);
    printf("%f\n", h_x[5]);
  }
  // CHECK: for (int r = 0; r < 4; ++r) {
  // CHECK-NEXT: fill<<<n / 256, 256, 0, s[0]>>>(d_x, r, n);
  // CHECK-NEXT: cudaMemcpyAsync(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost, s[0]);
  // CHECK-NEXT: twice<<<n / 256, 256, 0, sa_stream(0)>>>(d_y, n);
  // CHECK-NEXT: cudaStreamSynchronize(s[0]);
  // CHECK-NEXT: printf("%f\n", h_x[5]);
  // CHECK-NEXT: }
  fill<<<n / 256, 256, 0, s[0]>>>(d_x, 7, n);
  twice<<<n / 256, 256>>>(d_y, n);
  sum<<<1, 1, 0, s[1]>>>(d_x, d_sum, n);
  // CHECK: fill<<<n / 256, 256, 0, s[0]>>>(d_x, 7, n);
  // CHECK-NEXT: twice<<<n / 256, 256, 0, sa_stream(0)>>>(d_y, n);
  // CHECK-NEXT: cudaDeviceSynchronize(); // streamalloc: kernel `sum` below uses d_x after kernel `fill` on line 58, on another stream; the legacy default stream ordered them in the original
  // CHECK-NEXT: sum<<<1, 1, 0, s[1]>>>(d_x, d_sum, n);
  float total;
  cudaMemcpy(&total, d_sum, sizeof total, cudaMemcpyDeviceToHost);
  printf("%f\n", total);
  for (int i = 0; i < 2; ++i)
    cudaStreamDestroy(s[i]);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_sum);
  cudaFreeHost(h_x);
  return 0;
}
