// vector_add.cu - element-wise vector addition c = a + b on the GPU.
//
// The host fills a and b, copies them to the device, launches one kernel and reads c back. While
// the GPU works, the host computes the mean and RMS of an unrelated signal array (z) that the GPU
// never touches. Afterwards c is checked against a + b on the CPU and checksums are printed.

#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "CUDA error at %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// Deterministic pseudo-random value in [0, 1) derived from an index (integer hash).
static float hash_unit(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return (float)(x >> 8) * (1.0f / 16777216.0f);
}

int main() {
  const int n = 1 << 26;
  const size_t bytes = (size_t)n * sizeof(float);

  float *h_a = (float *)malloc(bytes);
  float *h_b = (float *)malloc(bytes);
  float *h_c = (float *)malloc(bytes);
  float *h_z = (float *)malloc(bytes);
  if (!h_a || !h_b || !h_c || !h_z) {
    fprintf(stderr, "host allocation failed\n");
    return 1;
  }

  for (int i = 0; i < n; ++i) {
    h_a[i] = hash_unit((uint32_t)i);
    h_b[i] = 2.0f * hash_unit((uint32_t)i + 0x9e3779b9U) - 1.0f;
    h_z[i] = (float)(i % 1024) * (1.0f / 1024.0f) - 0.5f + 0.1f * hash_unit((uint32_t)i ^ 0xabcdU);
  }

  float *d_a, *d_b, *d_c;
  CHECK(cudaMalloc((void **)&d_a, bytes));
  CHECK(cudaMalloc((void **)&d_b, bytes));
  CHECK(cudaMalloc((void **)&d_c, bytes));

  CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CHECK(cudaGetLastError());

  // Host work on data the GPU never sees: mean and RMS of the signal z.
  double z_sum = 0.0;
  double z_sq = 0.0;
  for (int i = 0; i < n; ++i) {
    z_sum += h_z[i];
    z_sq += (double)h_z[i] * h_z[i];
  }
  double z_mean = z_sum / n;
  double z_rms = sqrt(z_sq / n);

  CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));

  // Check the GPU result and build a checksum.
  long errors = 0;
  double c_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    float expected = h_a[i] + h_b[i];
    if (fabsf(h_c[i] - expected) > 1e-6f * (1.0f + fabsf(expected)))
      ++errors;
    c_sum += h_c[i];
  }

  printf("n          = %d\n", n);
  printf("sum(c)     = %.6e\n", c_sum);
  printf("c[0]       = %.6e\n", (double)h_c[0]);
  printf("c[n-1]     = %.6e\n", (double)h_c[n - 1]);
  printf("mean(z)    = %.6e\n", z_mean);
  printf("rms(z)     = %.6e\n", z_rms);
  printf("mismatches = %ld\n", errors);

  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  free(h_a);
  free(h_b);
  free(h_c);
  free(h_z);

  if (errors != 0) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
