// pipeline: a second translation unit that includes the same header and runs its kernel
// once more, on buffers of its own.
#include <cstdlib>
#include <cuda_runtime.h>
#include "pipeline.cuh"

double cube_sum(int n) {
  const size_t bytes = n * sizeof(float);
  float *in = (float *)malloc(bytes);
  float *out = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) in[i] = (float)(i % 7);
  float *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
  cube<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += out[i];
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  free(out);
  return sum;
}
