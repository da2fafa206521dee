// smoothing.cu - a 3-point stencil on the GPU (copy in, kernel, copy back),
// checked against the same stencil computed on the host meanwhile.
#include "signal.h"

#include <math.h>

__host__ __device__ inline float smooth_at(const float *in, int i, int n) {
  float left = in[i > 0 ? i - 1 : 0];
  float right = in[i < n - 1 ? i + 1 : n - 1];
  return 0.25f * left + 0.5f * in[i] + 0.25f * right;
}

__global__ void smooth3(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = smooth_at(in, i, n);
}

double smoothed_checksum(unsigned seed, int n, float *max_error) {
  size_t bytes = (size_t)n * sizeof(float);
  float *h_in = (float *)malloc(bytes);
  float *h_out = (float *)malloc(bytes);
  float *h_ref = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i)
    h_in[i] = signal_value(seed, i);

  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
  smooth3<<<(n + kBlock - 1) / kBlock, kBlock>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));

  // The host reference reads only the input, which the GPU only reads.
  for (int i = 0; i < n; ++i)
    h_ref[i] = smooth_at(h_in, i, n);

  double sum = 0.0;
  float worst = 0.0f;
  for (int i = 0; i < n; ++i) {
    sum += h_out[i];
    worst = fmaxf(worst, fabsf(h_out[i] - h_ref[i]));
  }
  *max_error = worst;
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_in);
  free(h_out);
  free(h_ref);
  return sum;
}
