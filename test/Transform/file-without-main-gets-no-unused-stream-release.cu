// A file without main (a library of the program) whose ops run on the pool's
// streams releases nothing (the program's main file does that), so it gets no
// stream-release helper either: an unused static function is nvcc's warning
// #177-D, which -Werror all-warnings turns into a failure.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=sa_release_streams
// RUN: %nvcc -Werror all-warnings %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = i;
}

void process(int n) {
  size_t bytes = n * sizeof(float);
  float *h_x = (float *)malloc(bytes);
  float *d_x;
  cudaMalloc(&d_x, bytes);
  fill<<<(n + 255) / 256, 256>>>(d_x, n);
  cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost);
  // CHECK:  cudaMemcpyAsync(h_x, d_x, bytes, cudaMemcpyDeviceToHost, sa_stream(0));
  double s = 0;
  for (int i = 0; i < 1000; ++i)
    s += i * 0.5;
  // CHECK:  cudaStreamSynchronize(sa_stream(0));  // streamalloc: h_x is read below (written by cudaMemcpy on line 25)
  printf("%f %f\n", h_x[1], s);
  cudaFree(d_x);
  free(h_x);
}
