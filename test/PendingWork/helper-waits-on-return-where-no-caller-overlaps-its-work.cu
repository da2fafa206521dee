// With the cost model on, a helper returns with its work pending only where
// some caller has host work to overlap it with. Here the only caller reads
// the downloaded result right after the call, so the helper keeps its copy
// as written, and the report says why. A second helper has two callers, one
// of which overlaps its work: it returns first, and the caller that reads the
// result at once waits right after the call (the same wait, moved).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2;
}

static void fetch(float *h, const float *d, int n) {
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

static void fetch_shared(float *h, float *d, int n) {
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S:[0-9]+]]));
  // CHECK-NOT: Synchronize
  // CHECK: }
}

static double reader(float *h, float *d, int n) {
  fetch_shared(h, d, n);
  // CHECK: fetch_shared(h, d, n);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: *h is read below (written by the GPU work `fetch_shared` (line [[#]]) returns with)
  return h[0] + h[n - 1];
}

int main() {
  const int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float)), *g = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = g[i] = i;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  fetch(h, d, n);
  printf("%f\n", h[7]);
  fetch_shared(h, d, n);
  // CHECK: fetch_shared(h, d, n);
  // CHECK-NOT: Synchronize
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += g[i];
  printf("%f\n", s);
  // CHECK: printf("%f\n", s);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: h is read below (written by the GPU work `fetch_shared` (line [[#]]) returns with)
  printf("%f\n", h[7]);
  printf("%f\n", reader(h, d, n));
  cudaFree(d);
  free(h);
  free(g);
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]: `fetch` waits for its GPU work before it returns: no caller overlaps the work it would return with: not worth it: no host work comes between the call of `fetch` and the wait for the work it would return with (line [[#]])
// REPORT-DAG: {{.*}}:[[#]]: `fetch_shared` returns with its work pending on stream [[S:[0-9]+]]: each caller waits for it before its first access that conflicts with it (`main` line [[#]], `reader` line [[#]])
