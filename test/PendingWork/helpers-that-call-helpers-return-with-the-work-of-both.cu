// A helper that calls a helper returning with work pending, and adds work of
// its own on the same stream, returns with both pending: its caller waits for
// them once, before it reads the result. A helper whose work stays pending on
// two streams joins the second into the first before it returns (on the
// device: the host goes on), so its callers wait for one stream.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void inc(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

static void upload(int *d, const int *h, int n) {
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, sa_stream([[S:[0-9]+]]));
  // CHECK-NOT: Synchronize
  // CHECK: }
}

static void upload_and_step(int *d, const int *h, int n) {
  upload(d, h, n);
  inc<<<(n + 255) / 256, 256>>>(d, n);
  // CHECK: inc<<<(n + 255) / 256, 256, 0, sa_stream([[S]])>>>(d, n);
  // CHECK-NOT: Synchronize
  // CHECK: }
}

static void upload_two(int *a, int *b, const int *h, int n) {
  cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, n * sizeof(int), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(a, h, n * sizeof(int), cudaMemcpyHostToDevice, sa_stream([[A:[0-9]+]]));
  // CHECK: cudaMemcpyAsync(b, h, n * sizeof(int), cudaMemcpyHostToDevice, sa_stream([[B:[0-9]+]]));
  // CHECK: cudaEventRecord(sa_event([[E:[0-9]+]]), sa_stream([[B]]));  // streamalloc: upload_two returns with this work pending; its callers wait for sa_stream([[A]])
  // CHECK: cudaStreamWaitEvent(sa_stream([[A]]), sa_event([[E]]), 0);  // streamalloc: upload_two returns with this work pending; its callers wait for sa_stream([[A]])
  // CHECK-NOT: Synchronize
  // CHECK: }
}

int main() {
  int h[256], r[256], *a, *b;
  for (int i = 0; i < 256; ++i)
    h[i] = i;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  upload_and_step(a, h, 256);
  int s = 0;
  for (int i = 0; i < 256; ++i)
    s += i * i;
  printf("%d\n", s);
  upload_two(a, b, h, 256);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: a is written below (written by the GPU work `upload_and_step` (line [[#]]) returns with)
  // CHECK-NEXT: upload_two(a, b, h, 256);
  cudaMemcpy(r, a, sizeof r, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(r, a, sizeof r, cudaMemcpyDeviceToHost, sa_stream([[A]]));
  printf("%d %d\n", r[3], r[255]);
  cudaFree(a);
  cudaFree(b);
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]: `upload` returns with its work pending on stream [[S:[0-9]+]]: each caller waits for it before its first access that conflicts with it (`upload_and_step` line [[#]])
// REPORT-DAG: {{.*}}:[[#]]: `upload_and_step` returns with its work pending on stream [[S]]: each caller waits for it before its first access that conflicts with it (`main` line [[#]])
// REPORT-DAG: {{.*}}:[[#]]: `upload_two` returns with its work pending on stream {{[0-9]+}}: each caller waits for it before its first access that conflicts with it (`main` line [[#]])
