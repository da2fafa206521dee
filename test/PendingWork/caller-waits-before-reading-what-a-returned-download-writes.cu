// A static helper launches a kernel and downloads its result into the
// caller's buffer, and returns with both still running. The caller prints a
// checksum of other memory first (host work that overlaps the download), and
// waits for the helper's stream only right before it reads the result: the
// report shows that wait in the caller.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

static void compute_and_download(float *h_out, const float *d_in, float *d_out, int n) {
  square<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: square<<<(n + 255) / 256, 256, 0, sa_stream([[S:[0-9]+]])>>>(d_in, d_out, n);
  // CHECK: cudaMemcpyAsync(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S]]));
  // CHECK-NOT: Synchronize
  // CHECK: }
}

int main() {
  const int n = 1 << 20;
  float *h_in = (float *)malloc(n * sizeof(float));
  float *h_out = (float *)malloc(n * sizeof(float));
  float *other = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    h_in[i] = i % 7;
    other[i] = i % 5;
  }
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  compute_and_download(h_out, d_in, d_out, n);
  // CHECK: compute_and_download(h_out, d_in, d_out, n);
  // CHECK-NOT: Synchronize
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += other[i] * 0.5;
  printf("other %f\n", s);
  // CHECK: printf("other %f\n", s);
  // CHECK-NOT: Synchronize
  double t = 0;
  // CHECK: double t = 0;
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h_out is read below (written by the GPU work `compute_and_download` (line [[#]]) returns with)
  for (int i = 0; i < n; ++i)
    t += h_out[i];
  printf("result %f\n", t);
  cudaFree(d_in);
  cudaFree(d_out);
  free(h_in);
  free(h_out);
  free(other);
  return 0;
}

// REPORT: {{.*}}:[[#]]: wait (conflict) for line [[CALL:[0-9]+]]: h_out is read below (written by the GPU work `compute_and_download` (line [[CALL]]) returns with)
// REPORT: {{.*}}:[[#]]: `compute_and_download` returns with its work pending on stream {{[0-9]+}}: each caller waits for it before its first access that conflicts with it (`main` line [[CALL]])
