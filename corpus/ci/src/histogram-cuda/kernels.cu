#include <cuda_runtime.h>
#include "kernels.h"

__global__ void histogram_kernel(const unsigned *values, int n, unsigned *bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[values[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

void histogram_launch(const unsigned *d_values, int n, unsigned *d_bins) {
  histogram_kernel<<<256, 256>>>(d_values, n, d_bins);
}
