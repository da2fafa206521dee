// A scratch buffer allocated and freed in every iteration is where a memory
// pool pays: each cudaFree would otherwise sync the whole device once per
// iteration, and the host work of the next iteration could not start early.
// (The accumulator is a __device__ array: a cudaMalloc outside the loop would
// stay synchronous, and the file would then keep all of them.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *x, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = v;
}

double cpu_work(int i) {
  double s = 0;
  for (int k = 0; k < 1000; ++k)
    s += (double)(i * k % 7);
  return s;
}

__device__ float acc[1 << 16];

__global__ void add(const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    acc[i] += x[i];
}

int main() {
  const int n = 1 << 16;
  double total = 0;
  for (int it = 0; it < 8; ++it) {
    float *tmp;
    cudaMalloc(&tmp, n * sizeof(float));
    // CHECK: cudaMallocAsync(&tmp, n * sizeof(float), sa_stream([[S:[0-9]+]]));
    fill<<<(n + 255) / 256, 256>>>(tmp, n, (float)it);
    add<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
    // CHECK: sa_free_async(tmp, sa_stream([[S]]));
    total += cpu_work(it);
  }
  float last;
  cudaMemcpyFromSymbol(&last, acc, sizeof(float), (n - 1) * sizeof(float));
  printf("%f %f\n", last, total);
  return 0;
}

// REPORT: {{.*}}:40:5: cudaMalloc: async on stream {{[0-9]+}}{{.*}}
