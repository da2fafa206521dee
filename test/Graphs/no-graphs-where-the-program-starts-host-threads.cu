// A capture records the GPU work that any thread puts on the captured
// stream, and the tool's streams are shared: in a program that starts host
// threads no loop becomes a graph, and the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --report %t.cu -o %t.out.cu -- -std=c++17 2> %t.report
// RUN: %FileCheck %s < %t.report
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=sa_graph < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <thread>

__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

static void log_progress(int *done) { *done = 1; }

int main() {
  const int n = 256;
  float *x, *y, h[n];
  int done = 0;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  std::thread logger(log_progress, &done);
  for (int i = 0; i < 500; ++i) {
    bump<<<1, n>>>(x, n);
    bump<<<1, n>>>(y, n);
  }
  logger.join();
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f %d\n", h[0], done);
  cudaFree(x);
  cudaFree(y);
  return 0;
}

// CHECK: {{.*}}.cu:30: loop in `main`: not a CUDA graph: the program starts host threads (std::thread on line 29), and a capture would record the GPU work another thread puts on its stream
// OUT: int main() {
