// A copy that is the body of a loop, waited for at the top of the next pass
// (the next copy's arguments may be what it writes) and again right after the
// loop, has no host work to overlap on either way on: it stays cudaMemcpy,
// and the host makes the two blocking calls the original made instead of
// three syncs. With nothing else left to gain, the function stays as written.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=sa_stream
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void halve(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 0.5f;
}

// Defined in another translation unit.
bool above(const float *h, int n, float limit);

// As far as this function can tell, `dev` and `host` may point to the same
// array, and `in` into it.
static void iterate(float **dev, float **host, int n, int &in) {
  for (int b = 0; b < 2; ++b)
    cudaMemcpy(dev[b], host[b], n * sizeof(float), cudaMemcpyHostToDevice);
  in = 0;
  // CHECK: for (int b = 0; b < 2; ++b)
  // CHECK-NEXT: cudaMemcpy(dev[b], host[b], n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-NEXT: in = 0;
  while (above(host[in], n, 1.0f)) {
    halve<<<(n + 255) / 256, 256>>>(dev[1 - in], dev[in], n);
    in = 1 - in;
    cudaMemcpy(host[in], dev[in], n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

int main() {
  const int n = 1 << 16;
  float *host[2], *dev[2];
  for (int b = 0; b < 2; ++b) {
    host[b] = (float *)malloc(n * sizeof(float));
    cudaMalloc(&dev[b], n * sizeof(float));
  }
  for (int i = 0; i < n; ++i)
    host[0][i] = host[1][i] = (float)(i % 100);
  int in = 0;
  iterate(dev, host, n, in);
  printf("%d %f\n", in, host[in][n - 1]);
  for (int b = 0; b < 2; ++b) {
    free(host[b]);
    cudaFree(dev[b]);
  }
  return 0;
}

// REPORT: {{.*}}: 0 of 5 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// REPORT: {{.*}}:28:5: cudaMemcpy: left synchronous: not worth it: nothing could overlap it (no host work before the host waits for it, no independent GPU work on another stream)
