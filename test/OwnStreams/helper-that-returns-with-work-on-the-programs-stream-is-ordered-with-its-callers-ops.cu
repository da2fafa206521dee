// `upload` puts a copy and a launch on the stream its caller passes and
// returns with them running (the program relies on the legacy default stream
// to order later work after them). The call is modelled as an op on a stream
// of the program's own: the caller's upload of `e` and launch on `e` run
// alongside it, and the launch on `d`, which reads what `upload` wrote, waits
// for it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}

void upload(float *d, const float *h, int n, cudaStream_t &s) {
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  scale<<<n / 256, 256, 0, s>>>(d, 2.0f, n);
}

int main() {
  const int n = 1 << 20;
  float *h, *g, *d, *e;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMallocHost(&g, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    h[i] = i;
    g[i] = 1;
  }
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpy(e, g, n * sizeof(float), cudaMemcpyHostToDevice);
  upload(d, h, n, s);
  scale<<<n / 256, 256>>>(e, 3.0f, n);
  scale<<<n / 256, 256>>>(d, 5.0f, n);
  cudaMemcpy(g, e, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f\n", h[3], g[3]);
  cudaStreamDestroy(s);
  return 0;
}

// CHECK: cudaMemcpyAsync(e, g, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream([[E:[0-9]]]));
// CHECK-NEXT: upload(d, h, n, s);
// CHECK-NEXT: scale<<<n / 256, 256, 0, sa_stream([[E]])>>>(e, 3.0f, n);
// CHECK-NEXT: cudaDeviceSynchronize(); // streamalloc: kernel `scale` below uses d after the work `upload` (line 40) leaves on a stream of the program's own, on another stream; the legacy default stream ordered them in the original
// CHECK-NEXT: scale<<<n / 256, 256, 0, sa_stream({{[0-9]}})>>>(d, 5.0f, n);

// REPORT: {{.*}}:40:3: upload: left synchronous: the call may return with work running on a stream of the program's own; that work is ordered with the rest, the call left as written
