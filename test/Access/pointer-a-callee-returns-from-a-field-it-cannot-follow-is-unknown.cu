// `std::unique_ptr<T[]>::get()` returns the pointer its constructor stored in
// a member the caller's analysis never sees stored. That pointer may be any
// memory, not none: the copy into it writes Unknown memory, so the checksum
// that reads the buffer through get() right after is ordered after it (here:
// the copy stays synchronous). Before, the copy wrote nothing the host read,
// and the read went ahead of it (fuzz v8, seed 0).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=accesses | %FileCheck %s --check-prefix=ACC
// RUN: %streamalloc %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <memory>

__global__ void fill(unsigned *d, unsigned v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = v * i + 1;
}

static unsigned checksum(const unsigned *p, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; ++i)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

int main() {
  std::unique_ptr<unsigned[]> up(new unsigned[256]);
  unsigned *d = nullptr;
  cudaMalloc(&d, 256 * sizeof(unsigned));
  fill<<<1, 256>>>(d, 7u, 256);
  cudaMemcpy(up.get(), d, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpy(up.get(), d, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("%08x\n", checksum(up.get(), 256));
  cudaFree(d);
  return 0;
}

// ACC: op1 line [[#]]:3 cudaMemcpy effects: <unknown>:W, d:R (unknown: a pointer returned by `std::unique_ptr<unsigned int[]>::get`, whose target the analysis does not follow)
