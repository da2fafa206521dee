// The program's own asynchronous calls on the legacy stream (cudaMemcpyAsync,
// cudaMemsetAsync, the 2D and symbol forms) are modelled as what they read
// and write; they order with the tool's blocking streams on the GPU.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu --dump=accesses | %FileCheck %s
__device__ float sym[16];

int main() {
  float h[16] = {0}, *d;
  size_t pitch;
  cudaMalloc(&d, sizeof h);
  cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, 0);
  cudaMemsetAsync(d, 0, sizeof h, 0);
  cudaMemcpy2DAsync(h, 16, d, 16, 16, 1, cudaMemcpyDeviceToHost, 0);
  cudaMemcpyToSymbolAsync(sym, h, sizeof h, 0, cudaMemcpyHostToDevice, 0);
  cudaMemcpyFromSymbolAsync(h, sym, sizeof h, 0, cudaMemcpyDeviceToHost, 0);
  return 0;
  // CHECK-LABEL: function main
  // CHECK: ops:
  // CHECK-NEXT: statements:
  // CHECK: line 13: host h:R, d:W
  // CHECK-NEXT: line 14: host d:W
  // CHECK-NEXT: line 15: host h:W, d:R
  // CHECK-NEXT: line 16: host h:R
  // CHECK-NEXT: line 17: host h:W
}
