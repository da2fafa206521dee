// Issue 18, point 1 (written by hand, not generated): the program's own cudaMemcpyAsync on
// stream 0 from a pageable malloc buffer, overwritten by the host right after the call.
// Deterministic as written (the runtime stages a pageable source before returning); a tool
// that pins h_in (cudaHostRegister, e.g. for the blocking copy of h_in that it makes
// asynchronous) makes the program's own copy truly asynchronous, and the overwrite races
// with it.  fuzz/defer-check shows it: with --tool fuzz/fake-tool
// --tool-arg=--mode=pin-all it mismatches, with --mode=identity it matches.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void k_twice(unsigned int *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    d[i] = d[i] * 2u + 1u;
}

int main() {
  const int n = 256;
  unsigned int *h_in = (unsigned int *)malloc(n * sizeof(unsigned int));
  unsigned int *h_out = (unsigned int *)malloc(n * sizeof(unsigned int));
  for (int i = 0; i < n; ++i) h_in[i] = (unsigned int)i;
  unsigned int *d = nullptr, *d2 = nullptr;
  cudaMalloc(&d, n * sizeof(unsigned int));
  cudaMalloc(&d2, n * sizeof(unsigned int));
  cudaMemcpy(d2, h_in, n * sizeof(unsigned int), cudaMemcpyHostToDevice);
  k_twice<<<2, 64>>>(d2, n);
  cudaMemcpyAsync(d, h_in, n * sizeof(unsigned int), cudaMemcpyHostToDevice, 0);
  k_twice<<<2, 64>>>(d, n);
  for (int i = 0; i < n; ++i) h_in[i] = 1000u + (unsigned int)i;  // reuses the source buffer
  cudaMemcpy(h_out, d, n * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  unsigned int s = 0;
  for (int i = 0; i < n; ++i) s = s * 31u + h_out[i];
  printf("out %u %u %08x\n", h_out[0], h_out[n - 1], s);
  printf("in %u\n", h_in[7]);
  cudaMemcpy(h_out, d2, n * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  printf("out2 %u %u\n", h_out[0], h_out[n - 1]);
  cudaFree(d2);
  cudaFree(d);
  free(h_out);
  free(h_in);
  return 0;
}
