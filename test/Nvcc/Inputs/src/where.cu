// pipeline.cu with a warning and a __FILE__:__LINE__ string after the lines
// the tool inserts (the stream pool at the top, a wait before line 30).
#define STR2(x) #x
#define STR(x) STR2(x)
#include "local.h"

#include <cstdio>
#include <cstdlib>

__global__ void add_one(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += LOCAL_INCREMENT;
}

int main() {
  const int n = 1 << 20;
  size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes);
  float *other = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i)
    h[i] = other[i] = i;
  float *d;
  cudaMalloc(&d, bytes);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += other[i];
  printf("%f %f\n", h[n - 1], s);
  int never_used;
  puts("where: " __FILE__ ":" STR(__LINE__));
  cudaFree(d);
  free(h);
  free(other);
  return 0;
}
