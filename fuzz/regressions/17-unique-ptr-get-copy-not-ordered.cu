// Reduced by hand from fuzz GENERATOR_VERSION 8 seed 0 (small): a D2H copy into a std::unique_ptr<[]>
// buffer is made asynchronous and the checksum that reads it through .get() right after
// gets no wait.
#include <cstdio>
#include <memory>
#include <cuda_runtime.h>

__global__ void k_fill(unsigned int *d, unsigned int v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    d[i] = v * (unsigned int)i + 1u;
}

static unsigned int checksum(const unsigned int *p, int n) {
  unsigned int h = 2166136261u;
  for (int i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

int main() {
  std::unique_ptr<unsigned int[]> up(new unsigned int[256]);
  for (int i = 0; i < 256; ++i) up[i] = (unsigned int)i;
  unsigned int *d = nullptr;
  cudaMalloc(&d, 256 * sizeof(unsigned int));
  k_fill<<<1, 128>>>(d, 7u, 256);
  cudaMemcpy(up.get(), d, 256 * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  printf("%08x\n", checksum(up.get(), 256));
  cudaFree(d);
  return 0;
}
