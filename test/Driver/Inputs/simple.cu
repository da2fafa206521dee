#include <cstdio>

__global__ void inc(int *p) { p[threadIdx.x] += 1; }

int main() {
  int h[32] = {0};
  int *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  inc<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d\n", h[31]);
  cudaFree(d);
  return 0;
}
