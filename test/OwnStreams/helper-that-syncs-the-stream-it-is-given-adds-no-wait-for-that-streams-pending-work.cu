// A helper that puts its work on the stream it is given and syncs that
// stream before it returns is left as written (all its ops are on the
// program's own stream), so a call of it blocks exactly where the original's
// did: the caller's work pending on that stream is ordered with the helper's
// by the stream itself, and no wait is added before the call, even though
// the buffers are reached through global pointers the analysis cannot tell
// apart.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaDeviceSynchronize --implicit-check-not=sa_
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

float *d_in, *d_out, *h_sum;

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void reduce(const float *in, float *sum, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += in[i];
    *sum = s;
  }
}

void sumOnStream(float *result, const float *values, int n, cudaStream_t &stream) {
  reduce<<<1, 1, 0, stream>>>(values, d_in, n);
  cudaMemcpyAsync(h_sum, d_in, sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  *result = *h_sum;
}

void run(const float *h_in, float *sums, int rounds, int n, cudaStream_t &stream) {
  for (int r = 0; r < rounds; ++r) {
    cudaMemcpyAsync(d_in, h_in + r * n, n * sizeof(float), cudaMemcpyHostToDevice, stream);
    square<<<(n + 127) / 128, 128, 0, stream>>>(d_in, d_out, n);
    // CHECK: square<<<(n + 127) / 128, 128, 0, stream>>>(d_in, d_out, n);
    // CHECK: sumOnStream(&sums[r], d_out, n, stream);
    sumOnStream(&sums[r], d_out, n, stream);
  }
}

int main() {
  const int n = 1000, rounds = 4;
  float *h_in = new float[n * rounds], sums[rounds];
  for (int i = 0; i < n * rounds; ++i) h_in[i] = i % 7;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  h_sum = new float;
  run(h_in, sums, rounds, n, stream);
  for (int r = 0; r < rounds; ++r) printf("%g\n", sums[r]);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaStreamDestroy(stream);
  delete h_sum;
  delete[] h_in;
  return 0;
}

// REPORT: {{.*}}:44:5: sumOnStream: left synchronous: the call may return with work running on a stream of the program's own; that work is ordered with the rest, the call left as written
