// pipeline: the GPU work of one round, in a header that both translation units include:
// copies in and out around a kernel, a host reference computed meanwhile, a timed region
// (a get_time() wrapper of gettimeofday), and a debug print in an #ifdef block this build
// does not compile.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <sys/time.h>
#include <cuda_runtime.h>

static __global__ void cube(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i] * in[i];
}

static inline double get_time() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

// Rounds over n values: returns whether the GPU's cubes always matched the host's; the
// average time of a round goes to *average.
static inline bool cube_rounds(int n, int rounds, double *average) {
  const size_t bytes = n * sizeof(float);
  float *in = (float *)malloc(bytes);
  float *out = (float *)malloc(bytes);
  float *ref = (float *)malloc(bytes);
  float *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  bool ok = true;
  double total = 0.0;
  for (int r = 0; r < rounds; r++) {
    for (int i = 0; i < n; i++) in[i] = (float)((i + r) % 7);
    double start = get_time();
    cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
    cube<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) ref[i] = in[i] * in[i] * in[i];
#ifdef DEBUG
    printf("round %d: out[2] = %f\n", r, out[2]);
#endif
    total += get_time() - start;
    for (int i = 0; i < n; i++)
      if (out[i] != ref[i]) ok = false;
  }
  *average = total / rounds;
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  free(out);
  free(ref);
  return ok;
}

// The sum of the cubes of 0..n-1 modulo 7, on the GPU (defined in stats.cu).
double cube_sum(int n);
