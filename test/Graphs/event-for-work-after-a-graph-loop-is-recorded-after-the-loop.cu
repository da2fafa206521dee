// A later op on another stream that depends on a loop replayed as a graph
// waits for an event. Recorded after the op inside the body, the record
// would be part of the capture; it goes after the loop instead, where the
// stream holds every graph launch of the loop.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}
__global__ void combine(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= y[i];
}

int main() {
  const int n = 256;
  float *a, *b, *c, h[n] = {1};
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  for (int i = 0; i < 500; ++i) {
    bump<<<1, n>>>(a, n);
    bump<<<1, n>>>(b, n);
  }
  cudaMemcpy(c, h, sizeof h, cudaMemcpyHostToDevice);
  combine<<<1, n>>>(c, a, n);
  cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}

// CHECK:  for (int i = 0; i < 500; ++i) {
// CHECK-NEXT:    for (int sa_capture_0 = sa_graph_begin(0, {{[0-9]+}}u, sa_stream(0)); {{.*}}
// CHECK-NEXT:    bump<<<1, n, 0, sa_stream(0)>>>(a, n);
// CHECK-NEXT:    bump<<<1, n, 0, sa_stream(0)>>>(b, n);
// CHECK-NEXT:    }  // streamalloc: end of the ops captured into the graph
// CHECK-NEXT:  }
// CHECK-NEXT:  cudaEventRecord(sa_event([[E:[0-9]+]]), sa_stream(0));  // streamalloc: marks the end of bump for another stream
// CHECK-NEXT:  cudaMemcpyAsync(c, h, sizeof h, cudaMemcpyHostToDevice, sa_stream([[S:[0-9]+]]));
// CHECK:  cudaStreamWaitEvent(sa_stream([[S]]), sa_event([[E]]), 0);  // streamalloc: order after bump on line 32 (another stream)
// CHECK-NEXT:  combine<<<1, n, 0, sa_stream([[S]])>>>(c, a, n);
