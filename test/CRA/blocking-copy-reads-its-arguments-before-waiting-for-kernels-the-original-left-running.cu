// A synchronous copy left as written reads its arguments when it is called,
// before it waits for earlier work; in the original, the kernel before it was
// still running then. So the reads of `host[in]` and `dev[in]` (memory the
// kernel may write, as far as `iterate` can tell) need no host wait for the
// kernel: the output reads them with no less of the GPU work done than the
// original did.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
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

static double spin(int n) {
  double x = 0;
  for (int i = 0; i < n; ++i)
    x += i * 0.5;
  return x;
}

// Ping-pong between two device buffers; `host` and `dev` may point to the
// same array as far as this function can tell.
static double iterate(float **dev, float **host, int n, int &in) {
  cudaMemcpy(dev[0], host[0], n * sizeof(float), cudaMemcpyHostToDevice);
  double work = spin(n);
  in = 0;
  while (above(host[in], n, 1.0f)) {
    halve<<<(n + 255) / 256, 256>>>(dev[1 - in], dev[in], n);
    // CHECK: halve<<<(n + 255) / 256, 256, 0, sa_stream(0)>>>(dev[1 - in], dev[in], n);
    in = 1 - in;
    cudaMemcpy(host[in], dev[in], n * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: in = 1 - in;
    // CHECK-NEXT: cudaMemcpy(host[in], dev[in], n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  return work;
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

// REPORT: {{.*}}: 2 of 5 GPU ops made asynchronous on 1 stream(s), 1 wait(s) inserted
// REPORT-NOT: wait (conflict) for line {{[0-9]+}}: *host is read below (read by kernel `halve`{{.*}}
