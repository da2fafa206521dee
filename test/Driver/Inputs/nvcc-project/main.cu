#include <cstdio>
#include "scale.h"

#ifndef WIDTH
#error "WIDTH comes from the compile command"
#endif

__global__ void scale(int *p) { p[threadIdx.x] *= SCALE_FACTOR; }

int main() {
  int h[WIDTH];
  for (int i = 0; i < WIDTH; ++i)
    h[i] = i;
  int *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  scale<<<1, WIDTH>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d\n", h[WIDTH - 1]);
  cudaFree(d);
  return 0;
}
