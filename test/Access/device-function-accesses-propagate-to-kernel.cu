// A __device__ function called from a kernel contributes its own accesses,
// mapped through the call's arguments: the kernel that only forwards its
// pointers reads and writes what the helper reads and writes.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu --dump=accesses > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump

__device__ void accumulate(float *acc, const float *v, int i) { acc[i] += v[i]; }

__device__ void forward(float *acc, const float *v) { accumulate(acc, v, threadIdx.x); }

__global__ void add(float *dst, const float *src, float *unused) { forward(dst, src); }

int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 32 * sizeof(float));
  cudaMalloc(&b, 32 * sizeof(float));
  cudaMalloc(&c, 32 * sizeof(float));
  add<<<1, 32>>>(a, b, c);
  // DUMP: op0 line 20:3 add effects: a:RW, b:R
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
