// --cuda-graphs=off keeps the launches of a loop that would run as a graph
// as they are written (on the planned stream), and the report says so.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --cuda-graphs=off --report %t.cu -o %t.out.cu 2> %t.report
// RUN: %FileCheck %s < %t.report
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=sa_graph < %t.out.cu
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --report %t.cu -o /dev/null 2>&1 | %FileCheck %s --check-prefix=ON
#include <cstdio>

__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

int main() {
  const int n = 256;
  float *x, h[n] = {0};
  cudaMalloc(&x, n * sizeof(float));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  for (int i = 0; i < 500; ++i) {
    bump<<<1, n>>>(x, n);
    bump<<<1, n>>>(x, n);
    bump<<<1, n>>>(x, n);
  }
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(x);
  return 0;
}

// CHECK: {{.*}}.cu:23: loop in `main`: not a CUDA graph: --cuda-graphs=off
// OUT: int main() {
// ON: {{.*}}.cu:23: loop in `main`: each iteration runs as one CUDA graph on stream 0 (3 GPU ops; {{.*}})
