// A loop whose body is only GPU work the device does on its own (launches
// whose arguments change with the iteration, a fill, a device-to-device
// copy) runs each iteration as one CUDA graph: the body is captured on its
// stream and launched once. Its independent ops share that stream, since a
// capture records one stream's work; the first iterations run directly
// until they have paid for the graph's set-up. The host's read after the
// loop waits for the stream, which holds the graph launches.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --report %t.cu -o %t.out.cu 2> %t.report
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}
__global__ void shift(float *y, const float *x, int n, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i] + step;
}

int main() {
  const int n = 1024;
  float *x, *y, *z, h[n];
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&z, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  for (int step = 0; step < 1000; ++step) {
    scale<<<4, 256>>>(x, 0.5f, n);
    shift<<<4, 256>>>(y, x, n, step);
    cudaMemset(z, 0, n * sizeof(float));
    cudaMemcpy(z, y, n * sizeof(float), cudaMemcpyDeviceToDevice);
  }
  cudaMemcpy(h, z, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[1]);
  cudaFree(x);
  cudaFree(y);
  cudaFree(z);
  return 0;
}

// REPORT: {{.*}}.cu:35: loop in `main`: each iteration runs as one CUDA graph on stream 0 (4 GPU ops; the first {{[0-9]+}} iterations of the program run directly, to pay for the graph's set-up)

// CHECK: struct sa_graph_slot {
// CHECK: static sa_graph_slot sa_graphs_[1];
// CHECK: static inline int sa_graph_begin(int i, unsigned direct, cudaStream_t s) {
// CHECK:   if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
// CHECK: static inline int sa_graph_end(int i, cudaStream_t s, int pass) {
// CHECK:     if (cudaGraphExecUpdate(g.exec, graph, &info) != cudaSuccess) {
// CHECK:     ok = cudaGraphInstantiate(&g.exec, graph, 0) == cudaSuccess;
// CHECK:   if (ok && cudaGraphLaunch(g.exec, s) == cudaSuccess)
// CHECK: static inline void sa_release_streams() {
// CHECK-NEXT:   for (sa_graph_slot &g : sa_graphs_)
// CHECK:       cudaGraphExecDestroy(g.exec);
// CHECK:  for (int step = 0; step < 1000; ++step) {
// CHECK-NEXT:    for (int sa_capture_0 = sa_graph_begin(0, {{[0-9]+}}u, sa_stream(0)); sa_capture_0; sa_capture_0 = sa_graph_end(0, sa_stream(0), sa_capture_0)) {  // streamalloc: each iteration's 4 GPU ops run as one CUDA graph (captured, then launched once)
// CHECK-NEXT:    scale<<<4, 256, 0, sa_stream(0)>>>(x, 0.5f, n);
// CHECK-NEXT:    shift<<<4, 256, 0, sa_stream(0)>>>(y, x, n, step);
// CHECK-NEXT:    cudaMemsetAsync(z, 0, n * sizeof(float), sa_stream(0));
// CHECK-NEXT:    cudaMemcpyAsync(z, y, n * sizeof(float), cudaMemcpyDeviceToDevice, sa_stream(0));
// CHECK-NEXT:    }  // streamalloc: end of the ops captured into the graph
// CHECK-NEXT:  }
