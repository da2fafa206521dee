// A helper allocates two device buffers into the fields of a host struct,
// copies the struct to a device allocation and returns it. Kernels given the
// device struct write the buffers through its fields: they must be ordered
// with the copies that read those buffers. Here every op depends on the one
// before, so all run on one stream (no op races another on a second stream).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

struct Bufs {
  float *a;
  float *b;
};

__global__ void produce(Bufs *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s->a[i] = i;
}

__global__ void consume(Bufs *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s->b[i] = s->a[i] * 2;
}

static Bufs *setup(Bufs *c, int n) {
  cudaMalloc(&c->a, n * sizeof(float));
  cudaMalloc(&c->b, n * sizeof(float));
  Bufs *d;
  cudaMalloc(&d, sizeof(Bufs));
  cudaMemcpy(d, c, sizeof(Bufs), cudaMemcpyHostToDevice);
  return d;
}

int main() {
  const int n = 1 << 20;
  Bufs h;
  Bufs *d = setup(&h, n);
  float *out = (float *)malloc(n * sizeof(float));
  float *first = (float *)malloc(n * sizeof(float));
  for (int r = 0; r < 4; ++r) {
    produce<<<(n + 255) / 256, 256>>>(d, n);
    // CHECK: produce<<<(n + 255) / 256, 256, 0, sa_stream([[S:[0-9]+]])>>>(d, n);
    cudaMemcpy(first, h.a, n * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(first, h.a, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S]]));
    consume<<<(n + 255) / 256, 256>>>(d, n);
    // CHECK: consume<<<(n + 255) / 256, 256, 0, sa_stream([[S]])>>>(d, n);
    cudaMemcpy(out, h.b, n * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(out, h.b, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S]]));
  }
  printf("%f %f\n", out[n - 1], first[7]);
  cudaFree(h.a);
  cudaFree(h.b);
  cudaFree(d);
  free(out);
  free(first);
  return 0;
}

// REPORT: {{.*}}: {{[0-9]+}} of 11 GPU ops made asynchronous on 1 stream(s), {{[0-9]+}} wait(s) inserted
