// saxpy: timed repeated kernel launches, copies on the legacy stream, a host reference.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "reference.h"

#define CHECK(call)                                                      \
  do {                                                                   \
    cudaError_t e = (call);                                              \
    if (e != cudaSuccess) {                                              \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char *argv[]) {
  if (argc != 3) {
    printf("Usage: %s <n> <repeat>\n", argv[0]);
    return 1;
  }
  const int n = atoi(argv[1]);
  const int repeat = atoi(argv[2]);
  const size_t bytes = n * sizeof(float);
  const float a = 0.5f;

  float *x = (float *)malloc(bytes);
  float *y = (float *)malloc(bytes);
  float *y0 = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    x[i] = (i % 17) * 0.25f;
    y0[i] = y[i] = (i % 5) * 0.5f;
  }

  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice));

  cudaDeviceSynchronize();
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; r++)
    saxpy<<<(n + 255) / 256, 256>>>(a, d_x, d_y, n);
  cudaDeviceSynchronize();
  auto end = std::chrono::steady_clock::now();
  auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  printf("Average kernel execution time: %f (us)\n", (time * 1e-3f) / repeat);

  CHECK(cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost));
  bool ok = check_saxpy(x, y0, y, a, n, repeat);
  printf("%s\n", ok ? "PASS" : "FAIL");

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  free(x);
  free(y);
  free(y0);
  return 0;
}
