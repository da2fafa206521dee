// A buffer that main allocates and only a helper copies (main passes it on)
// is pinned in main for the helper's copies: they run at full speed. The
// report names the helper. A buffer the helper only reads on the host is
// left alone (no copy uses it).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void twice(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

void sort_on_gpu(int *input, const int *weights, int n) {
  int *d;
  size_t bytes = n * sizeof(int);
  cudaMalloc(&d, bytes);
  cudaMemcpy(d, input, bytes, cudaMemcpyHostToDevice);
  twice<<<(n + 255) / 256, 256>>>(d, n + weights[0] * 0);
  cudaMemcpy(input, d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 22;
  int *data = (int *)malloc(n * sizeof(int));
  // CHECK: int *data = (int *)sa_registered_malloc(n * sizeof(int));
  int *weights = (int *)malloc(sizeof(int));
  // CHECK: int *weights = (int *)malloc(sizeof(int));
  weights[0] = 1;
  for (int i = 0; i < n; i++)
    data[i] = i % 7;
  sort_on_gpu(data, weights, n);
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += data[i];
  printf("%ld\n", sum);
  free(data);
  // CHECK: sa_registered_free(data);
  free(weights);
  // CHECK: free(weights);
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}: host buffer `data`: registered: so that its 2 copies run at full speed (all in `sort_on_gpu`, which it is passed to)
// REPORT-NOT: host buffer `weights`
