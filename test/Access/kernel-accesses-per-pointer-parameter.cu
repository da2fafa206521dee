// A launch instantiates the kernel's summary with its arguments: a pointer
// parameter the kernel only reads gives R, one it updates gives RW, one it
// only stores to gives W, and scalars passed by value give nothing.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu --dump=accesses > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump

__global__ void axpy(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

__global__ void init(float *out, float v) { out[threadIdx.x] = v; }

int main() {
  // DUMP-LABEL: function main
  float *dx, *dy;
  cudaMalloc(&dx, 256 * sizeof(float));
  cudaMalloc(&dy, 256 * sizeof(float));
  init<<<1, 256>>>(dx, 1.0f);
  // DUMP: op0 line 22:3 init effects: dx:W
  axpy<<<1, 256>>>(dx, dy, 2.0f, 256);
  // DUMP-NEXT: op1 line 24:3 axpy effects: dx:R, dy:RW
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
