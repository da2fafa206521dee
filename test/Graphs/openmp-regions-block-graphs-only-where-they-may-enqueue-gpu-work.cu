// OpenMP threads run only inside their region. A region of plain host work
// (the CPU reference below) cannot put work on a captured stream, so the loop
// of launches becomes a graph; a region that calls the program's own code
// (which may launch) stops every loop of the file from becoming one.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --report %t.cu -o %t.out.cu -- -fopenmp 2> %t.report
// RUN: %FileCheck %s --check-prefix=PLAIN < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --report %t.cu -o /dev/null -- -fopenmp -DCALLS_PROGRAM 2>&1 | %FileCheck %s --check-prefix=CALLS
#include <cstdio>

__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

static float reference(int i) { return 2.0f * i; }

int main() {
  const int n = 256;
  float *x, h[n], ref[n];
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  for (int i = 0; i < 500; ++i) {
    bump<<<1, n>>>(x, n);
    bump<<<1, n>>>(x, n);
  }
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
#ifdef CALLS_PROGRAM
    ref[i] = reference(i);
#else
    ref[i] = 1000.0f + 0.0f * i;
#endif
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f %f %f\n", h[0], ref[0], reference(0));
  cudaFree(x);
  return 0;
}

// PLAIN: {{.*}}.cu:26: loop in `main`: each iteration runs as one CUDA graph on stream 0 (2 GPU ops; {{.*}})
// CALLS: {{.*}}.cu:26: loop in `main`: not a CUDA graph: the program starts host threads (an OpenMP region that calls the program's own code or CUDA on line 30), and a capture would record the GPU work another thread puts on its stream
