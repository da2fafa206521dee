// A loop becomes a graph only where a capture can hold its whole body and
// pays: host work in the body, a copy to the host, a sync, a single launch
// per iteration, a stream of the program's own, and a host wait inside the
// body (here for the work on the program's own stream), and an argument with
// an effect of its own (it would happen twice if a failed capture made the
// body run again) each keep the loop's launches as written, and the report
// says which.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --report %t.cu -o %t.out.cu 2> %t.report
// RUN: %FileCheck %s < %t.report
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=sa_graph < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

int main() {
  const int n = 256;
  float *x, *y, h[n] = {0};
  float sum = 0.0f;
  cudaStream_t own;
  cudaStreamCreate(&own);
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  for (int i = 0; i < 100; ++i) {
    bump<<<1, n>>>(x, n);
    sum += i * 0.5f;
    bump<<<1, n>>>(y, n);
  }
  for (int i = 0; i < 100; ++i) {
    bump<<<1, n>>>(x, n);
    cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  }
  for (int i = 0; i < 100; ++i) {
    bump<<<1, n>>>(x, n);
    cudaDeviceSynchronize();
    bump<<<1, n>>>(y, n);
  }
  for (int i = 0; i < 100; ++i)
    bump<<<1, n>>>(x, n);
  for (int i = 0; i < 100; ++i) {
    bump<<<1, n>>>(x, n);
    bump<<<1, n, 0, own>>>(y, n);
  }
  int calls = 0;
  for (int i = 0; i < 100; ++i) {
    bump<<<1, n>>>(x, n);
    bump<<<1, n>>>(x, n - calls++ % 2);
  }
  for (int i = 0; i < 100; ++i) {
    bump<<<1, n>>>(x, n);
    bump<<<1, n>>>(y, n);
  }
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f %f\n", h[0], sum);
  cudaStreamDestroy(own);
  cudaFree(x);
  cudaFree(y);
  return 0;
}

// CHECK: {{.*}}.cu:31: loop in `main`: not a CUDA graph: line 33 of its body is host work, which a capture does not record
// CHECK: {{.*}}.cu:36: loop in `main`: not a CUDA graph: line 38 of its body copies to or from host memory (cudaMemcpy)
// CHECK: {{.*}}.cu:40: loop in `main`: not a CUDA graph: line 42 of its body is host work, which a capture does not record
// CHECK: {{.*}}.cu:45: loop in `main`: not a CUDA graph: not worth it: 1 op per iteration; a graph would save {{.*}} of the {{.*}} the launches cost the host
// CHECK: {{.*}}.cu:47: loop in `main`: not a CUDA graph: line 49 of its body puts bump on a stream of the program's own
// CHECK: {{.*}}.cu:52: loop in `main`: not a CUDA graph: line 54 of its body has an effect besides its op (line 54), which would happen again if a failed capture ran the body directly
// CHECK: {{.*}}.cu:56: loop in `main`: not a CUDA graph: the host waits inside its body, on line 58
// OUT: int main() {
