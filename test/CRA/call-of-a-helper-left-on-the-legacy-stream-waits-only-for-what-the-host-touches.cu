// `smooth` only launches a kernel, which already runs asynchronously in the
// original, so the tool leaves it as written: on the legacy default stream.
// Work there starts only after all the work queued before it on the tool's
// streams (which are blocking streams), so the upload still in flight when
// `main` calls it needs no host wait: the kernel reads `d` after it anyway.
// What a callee touches on the host still counts (its host code, the host
// buffer of a copy to the device). A helper defined after its caller is
// analysed later, so the caller cannot rely on it and waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void blur(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    d[i] = 0.5f * d[i] + 0.25f * (d[i - 1] + d[i + 1]);
}

static void smooth(float *d, int n) {
  for (int pass = 0; pass < 4; ++pass)
    blur<<<n / 256, 256>>>(d, n);
}

static void report(const float *h, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += h[i];
  printf("%f\n", sum);
}

static void smoothLater(float *d, int n);

int main() {
  const int n = 1 << 20;
  float *h, *d, *e;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 7);
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(e, h, n * sizeof(float), cudaMemcpyHostToDevice);
  float *g = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    g[i] = (float)(i % 5);
  smooth(d, n);
  // CHECK: float *g = (float *)malloc(n * sizeof(float));
  // CHECK-NEXT: for (int i = 0; i < n; ++i)
  // CHECK-NEXT: g[i] = (float)(i % 5);
  // CHECK-NEXT: smooth(d, n);
  // CHECK-NOT: Synchronize
  smoothLater(e, n);
  // CHECK: cudaStreamSynchronize(sa_stream(1)); // streamalloc: e is written below (written by cudaMemcpy on line 46)
  // CHECK-NEXT: smoothLater(e, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  report(h, n);
  report(g, n);
  free(g);
  cudaFree(d);
  cudaFree(e);
  cudaFreeHost(h);
  return 0;
}

static void smoothLater(float *d, int n) {
  for (int pass = 0; pass < 4; ++pass)
    blur<<<n / 256, 256>>>(d, n);
}
// REPORT-NOT: wait (conflict) for {{.*}}: {{.*}}`smooth`
// REPORT: {{.*}}:45:3: cudaMemcpy: async on stream 0{{$}}
