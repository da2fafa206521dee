// A scratch buffer allocated and freed in every iteration of a loop: the
// allocation and the release become stream-ordered on the stream of the
// kernels that use it, so no iteration waits for the GPU (the original
// cudaFree synchronised the device, and a wait before it was needed too).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void square(const float *in, float *tmp) { tmp[threadIdx.x] = in[threadIdx.x] * in[threadIdx.x]; }
__global__ void accumulate(float *acc, const float *tmp) { acc[threadIdx.x] += tmp[threadIdx.x]; }

int main() {
  float h[32];
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  float *d_in, *d_acc;
  cudaMalloc(&d_in, sizeof(h));
  cudaMalloc(&d_acc, sizeof(h));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemset(d_acc, 0, sizeof(h));
  for (int it = 0; it < 4; ++it) {
    // CHECK: for (int it = 0; it < 4; ++it) {
    float *tmp;
    cudaMalloc(&tmp, sizeof(h));
    // CHECK: cudaMallocAsync(&tmp, sizeof(h), sa_stream([[S:[0-9]+]]));
    // CHECK-NOT: Synchronize
    square<<<1, 32>>>(d_in, tmp);
    // CHECK: square<<<1, 32, 0, sa_stream([[S]])>>>(d_in, tmp);
    // CHECK-NOT: Synchronize
    accumulate<<<1, 32>>>(d_acc, tmp);
    // CHECK: accumulate<<<1, 32, 0, sa_stream([[S]])>>>(d_acc, tmp);
    // CHECK-NOT: Synchronize
    cudaFree(tmp);
    // CHECK: sa_free_async(tmp, sa_stream([[S]]));
    // CHECK-NOT: Synchronize
  }
  // CHECK: }
  // CHECK: cudaMemcpyAsync(h, d_acc, sizeof(h), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  cudaMemcpy(h, d_acc, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%f\n", h[31]);
  cudaFree(d_in);
  cudaFree(d_acc);
  // CHECK: sa_free_async(d_in, sa_stream({{[0-9]+}}));
  // CHECK: sa_free_async(d_acc, sa_stream({{[0-9]+}}));
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]:5: cudaMalloc: async on stream {{[0-9]+}}, waited for before line {{[0-9]+}}
// REPORT-DAG: {{.*}}:[[#]]:5: cudaFree: async on stream {{[0-9]+}}, waited for before line {{[0-9]+}}
// The one wait after the loop is what is left of the syncs of its frees.
// REPORT: {{.*}}:44: wait (conflict) for lines 21, 23, 28, 31, 34, 37, 43: h is read below (written by cudaMemcpy on line 43); it stands in for the device-wide sync of the cudaFree on line 37, which is stream-ordered now and no longer blocks where it runs
