// cudaMemPrefetchAsync and cudaMemAdvise move or describe managed memory but
// never change what it holds: a pending kernel on it does not wait for them.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
__global__ void inc(float *x) { x[threadIdx.x] += 1.0f; }

int main() {
  float *m;
  cudaMallocManaged(&m, 64 * sizeof(float));
  inc<<<1, 64>>>(m);
  // CHECK: inc<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(m);
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  // CHECK: cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemAdvise(m, 64 * sizeof(float), cudaMemAdviseSetReadMostly, gpu);
  // CHECK: cudaMemAdvise(m, 64 * sizeof(float), cudaMemAdviseSetReadMostly, gpu);
  cudaMemPrefetchAsync(m, 64 * sizeof(float), gpu, 0, 0);
  // CHECK: cudaMemPrefetchAsync(m, 64 * sizeof(float), gpu, 0, 0);
  float first = m[0];
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: m is read below (written by kernel `inc` on line 13)
  // CHECK-NEXT: float first = m[0];
  cudaFree(m);
  return (int)first;
}
