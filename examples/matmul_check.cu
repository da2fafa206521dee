// matmul_check.cu - single-precision matrix product C = A * B (n x n, row-major) on the GPU with a
// shared-memory tiled kernel, checked against a double-precision CPU product on a sample of rows.
//
// Prints the maximum absolute error over the sampled rows and checksums of C.

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

#define TILE 32

// Each block computes one TILE x TILE tile of C; A and B are staged through shared memory.
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];

  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;

  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = (row < n && t + tx < n) ? A[(size_t)row * n + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < n && col < n) ? B[(size_t)(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[(size_t)row * n + col] = acc;
}

// Deterministic linear congruential generator returning values in [-1, 1).
static float next_uniform(uint32_t *state) {
  *state = *state * 1664525U + 1013904223U;
  return (float)(*state >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

// Row `row` of A * B computed on the CPU in double precision (i-k-j order, cache friendly).
static void reference_row(const float *A, const float *B, double *out, int n, int row) {
  for (int j = 0; j < n; ++j)
    out[j] = 0.0;
  for (int k = 0; k < n; ++k) {
    double a = A[(size_t)row * n + k];
    const float *b = B + (size_t)k * n;
    for (int j = 0; j < n; ++j)
      out[j] += a * b[j];
  }
}

int main() {
  const int n = 4096;
  const int samples = 16;
  const size_t elems = (size_t)n * n;
  const size_t bytes = elems * sizeof(float);

  float *h_A = (float *)malloc(bytes);
  float *h_B = (float *)malloc(bytes);
  float *h_C = (float *)malloc(bytes);
  double *h_ref = (double *)malloc((size_t)samples * n * sizeof(double));
  int *rows = (int *)malloc(samples * sizeof(int));
  if (!h_A || !h_B || !h_C || !h_ref || !rows) {
    fprintf(stderr, "host allocation failed\n");
    return 1;
  }

  uint32_t seed = 12345U;
  for (size_t i = 0; i < elems; ++i)
    h_A[i] = next_uniform(&seed);
  for (size_t i = 0; i < elems; ++i)
    h_B[i] = next_uniform(&seed);

  // Sampled rows: spread over the matrix, hitting different positions inside the tiles.
  for (int s = 0; s < samples; ++s)
    rows[s] = (s * 257 + 7) % n;
  rows[samples - 1] = n - 1;

  float *d_A, *d_B, *d_C;
  CHECK(cudaMalloc((void **)&d_A, bytes));
  CHECK(cudaMalloc((void **)&d_B, bytes));
  CHECK(cudaMalloc((void **)&d_C, bytes));

  CHECK(cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(d_A, d_B, d_C, n);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost));

  // CPU reference for the sampled rows (only reads A and B).
  for (int s = 0; s < samples; ++s)
    reference_row(h_A, h_B, h_ref + (size_t)s * n, n, rows[s]);

  // Compare the sampled rows and build a checksum of the whole result.
  double max_abs_err = 0.0;
  double sum_abs_err = 0.0;
  for (int s = 0; s < samples; ++s) {
    const float *c = h_C + (size_t)rows[s] * n;
    const double *ref = h_ref + (size_t)s * n;
    for (int j = 0; j < n; ++j) {
      double err = fabs((double)c[j] - ref[j]);
      if (err > max_abs_err)
        max_abs_err = err;
      sum_abs_err += err;
    }
  }

  double checksum = 0.0;
  double abs_checksum = 0.0;
  for (size_t i = 0; i < elems; ++i) {
    checksum += h_C[i];
    abs_checksum += fabs((double)h_C[i]);
  }

  printf("n            = %d\n", n);
  printf("sampled rows = %d\n", samples);
  printf("max abs err  = %.6e\n", max_abs_err);
  printf("mean abs err = %.6e\n", sum_abs_err / ((double)samples * n));
  printf("sum(C)       = %.6e\n", checksum);
  printf("sum(|C|)     = %.6e\n", abs_checksum);
  printf("C[0][0]      = %.6e\n", (double)h_C[0]);
  printf("C[n-1][n-1]  = %.6e\n", (double)h_C[elems - 1]);

  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_C));
  free(h_A);
  free(h_B);
  free(h_C);
  free(h_ref);
  free(rows);

  // Entries of C are sums of n products of values in [-1, 1), so |C| is typically sqrt(n / 9),
  // about 21. Float accumulation over n = 4096 terms gives errors around 1e-4; a wrong tile or
  // index gives errors of order 1.
  const double tolerance = 1e-2;
  if (max_abs_err > tolerance) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
