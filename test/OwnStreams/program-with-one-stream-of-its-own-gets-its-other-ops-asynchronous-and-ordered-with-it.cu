// A program with one stream of its own: its launch on that stream is left as
// written, and the legacy-stream ops around it become asynchronous. In the
// original the legacy default stream ordered them with the launch (a blocking
// stream waits for earlier legacy work, and legacy work for it); the output
// orders them itself: the host waits for the upload `scale` reads before
// launching it, and for `scale` before `add`, which reads its result, is
// enqueued. The independent work (the second upload, `scale` of d_c, the host
// work) runs alongside.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}

__global__ void add(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i];
}

double hostWork(const float *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * 0.5;
  return s;
}

int main() {
  const int n = 1 << 20;
  size_t bytes = n * sizeof(float);
  float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    h_a[i] = i;
    h_b[i] = 1;
    h_c[i] = 2;
  }
  float *d_a, *d_b, *d_c;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMalloc(&d_c, bytes);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_c, h_c, bytes, cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256, 0, s>>>(d_a, 2.0f, n);
  cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice);
  add<<<(n + 255) / 256, 256>>>(d_b, d_a, n);
  scale<<<(n + 255) / 256, 256>>>(d_c, 3.0f, n);
  double r = hostWork(h_c, n);
  cudaMemcpy(h_b, d_b, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost);
  printf("%f %f %f\n", h_b[10], h_c[10], r);
  cudaStreamDestroy(s);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  free(h_a);
  free(h_b);
  free(h_c);
  return 0;
}

// CHECK: cudaStreamCreate(&s);
// CHECK-NEXT: cudaMemcpyAsync(d_a, h_a, bytes, cudaMemcpyHostToDevice, sa_stream([[A:[0-9]]]));
// CHECK: cudaMemcpyAsync(d_c, h_c, bytes, cudaMemcpyHostToDevice, sa_stream([[C:[0-9]]]));
// CHECK-NEXT: cudaStreamSynchronize(sa_stream([[A]])); // streamalloc: kernel `scale` below uses d_a after cudaMemcpy on line 52, on another stream; the legacy default stream ordered them in the original
// CHECK-NEXT: scale<<<(n + 255) / 256, 256, 0, s>>>(d_a, 2.0f, n);
// CHECK-NEXT: cudaMemcpyAsync(d_b, h_b, bytes, cudaMemcpyHostToDevice, sa_stream([[B:[0-9]]]));
// CHECK-NEXT: cudaDeviceSynchronize(); // streamalloc: kernel `add` below uses d_a after kernel `scale` on line 54, on another stream; the legacy default stream ordered them in the original
// CHECK: add<<<(n + 255) / 256, 256, 0, sa_stream([[B]])>>>(d_b, d_a, n);
// CHECK-NEXT: scale<<<(n + 255) / 256, 256, 0, sa_stream([[C]])>>>(d_c, 3.0f, n);
// CHECK-NEXT: double r = hostWork(h_c, n);
// CHECK-NEXT: cudaMemcpyAsync(h_b, d_b, bytes, cudaMemcpyDeviceToHost, sa_stream([[B]]));
// CHECK-NEXT: cudaMemcpyAsync(h_c, d_c, bytes, cudaMemcpyDeviceToHost, sa_stream([[C]]));
// CHECK: printf("%f %f %f\n", h_b[10], h_c[10], r);

// REPORT: {{.*}}:54:3: scale: left synchronous: it already runs on a stream of the program's own
// REPORT: {{.*}}:55:3: cudaMemcpy: async on stream [[B:[0-9]]], waited for before line 56
// REPORT-NEXT: {{.*}}:56:3: add: async on stream [[B]], waited for before line 61
