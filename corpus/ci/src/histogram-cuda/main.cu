// histogram: a launcher in another file, memsets, repeated rounds, a host reference.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "kernels.h"

int main(int argc, char *argv[]) {
  if (argc != 3) {
    printf("Usage: %s <n> <rounds>\n", argv[0]);
    return 1;
  }
  const int n = atoi(argv[1]);
  const int rounds = atoi(argv[2]);
  std::vector<unsigned> values(n);
  unsigned seed = 12345u;
  for (int i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    values[i] = seed >> 8;
  }
  std::vector<unsigned> expect(BINS, 0);
  for (int i = 0; i < n; i++) expect[values[i] % BINS]++;

  unsigned *d_values, *d_bins;
  cudaMalloc(&d_values, n * sizeof(unsigned));
  cudaMalloc(&d_bins, BINS * sizeof(unsigned));
  cudaMemcpy(d_values, values.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);

  bool ok = true;
  unsigned bins[BINS];
  for (int r = 0; r < rounds; r++) {
    cudaMemset(d_bins, 0, BINS * sizeof(unsigned));
    histogram_launch(d_values, n, d_bins);
    cudaMemcpy(bins, d_bins, sizeof(bins), cudaMemcpyDeviceToHost);
    for (int b = 0; b < BINS; b++)
      if (bins[b] != expect[b]) ok = false;
  }
  printf("bin 0 holds %u values\n", bins[0]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d_values);
  cudaFree(d_bins);
  return 0;
}
