// main.cu - scales two signals on the GPU while the host sums a third, smooths
// a fourth (smoothing.cu), and prints checksums.
#include "signal.h"

__global__ void scale(float *v, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= factor;
}

static double checksum(const float *v, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += (double)v[i] * (double)((i % 7) + 1);
  return sum;
}

int main() {
  const int n = kSignalLength;
  const size_t bytes = (size_t)n * sizeof(float);
  float *h_x = (float *)malloc(bytes);
  float *h_y = (float *)malloc(bytes);
  float *h_z = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    h_x[i] = signal_value(1, i);
    h_y[i] = signal_value(2, i);
    h_z[i] = signal_value(3, i);
  }

  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y, bytes, cudaMemcpyHostToDevice));
  scale<<<(n + kBlock - 1) / kBlock, kBlock>>>(d_x, 2.0f, n);
  scale<<<(n + kBlock - 1) / kBlock, kBlock>>>(d_y, 3.0f, n);
  CHECK(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));

  // Host work on data the GPU does not touch.
  double reference = checksum(h_z, n);

  printf("x %.6e\n", checksum(h_x, n));
  printf("y %.6e\n", checksum(h_y, n));
  float max_error = 0.0f;
  double smoothed = smoothed_checksum(4, n, &max_error);
  printf("z %.6e\n", reference);
  printf("smoothed %.6e (largest difference from the host %.3e)\n", smoothed, max_error);

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  free(h_x);
  free(h_y);
  free(h_z);
  return 0;
}
