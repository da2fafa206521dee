// A copy the tool leaves synchronous runs on the legacy default stream, which
// starts it only after the work queued earlier on the tool's (blocking)
// streams: reading what a pending fill and launch write on the device needs
// no host wait before it. In this loop (a residual read back each
// iteration) the original made one blocking call per iteration, and so does
// the output.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize --implicit-check-not=cudaEventSynchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void step(float *err, int it, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(err, 1.0f / (float)(it + 1) / (float)n);
}

int main() {
  const int n = 1 << 16;
  float *d_err;
  cudaMalloc(&d_err, sizeof(float));
  float err = 1.0f;
  int it = 0;
  while (err > 1e-2f && it < 1000) {
    cudaMemset(d_err, 0, sizeof(float));
    // CHECK: cudaMemsetAsync(d_err, 0, sizeof(float), sa_stream({{[0-9]+}}));
    step<<<n / 256, 256>>>(d_err, it, n);
    // CHECK: step<<<n / 256, 256, 0, sa_stream({{[0-9]+}})>>>(d_err, it, n);
    cudaMemcpy(&err, d_err, sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpy(&err, d_err, sizeof(float), cudaMemcpyDeviceToHost);
    ++it;
  }
  cudaDeviceSynchronize();
  printf("%d %f\n", it, err);
  cudaFree(d_err);
  return 0;
}

// REPORT: {{.*}}: 2 of 5 GPU ops made asynchronous on 1 stream(s), 0 wait(s) inserted
// REPORT: {{.*}}:32:5: cudaMemcpy: left synchronous: {{.*}}
