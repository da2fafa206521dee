// The report says why a wait may make sync calls the original did not make
// there. In the first loop the download of a pass is waited for on the next
// pass, after host work it overlaps: the wait stands where the original's
// blocking copy of the previous pass was, and on the first pass it finds
// nothing pending. After the second loop, whose body syncs the device on
// every pass, the work queued before that loop is pending only if it ran no
// pass (the sync stays: a helper the loop calls leaves a kernel running).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void step(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = d[i] * 0.5f + 1.0f;
}

static void bump(float *d, int n) { step<<<n / 256, 256>>>(d, n); }

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *h, *d, *e;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(float));
  float *g = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  double sum = 0;
  for (int pass = 0; pass < 8; ++pass) {
    for (int i = 0; i < n; ++i)
      g[i] = (float)(i % (pass + 2));
    sum += h[pass];
    step<<<n / 256, 256>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaMemset(e, 0, n * sizeof(float));
  step<<<n / 256, 256>>>(e, n);
  for (int rep = 0; rep < argc; ++rep) {
    cudaDeviceSynchronize();
    sum += g[rep];
    bump(d, n);
  }
  cudaFree(e);
  printf("%f %f\n", sum, h[0]);
  cudaFree(d);
  free(g);
  cudaFreeHost(h);
  return 0;
}
// REPORT: {{.*}}:37: wait (conflict) for lines 32, 38, 39: h is read below (written by cudaMemcpy on line 39); it waits for work queued on earlier passes of its loop, which the original completed with its blocking cudaMemcpy on line 39: where that copy blocked the host, this wait does instead, and on a pass before any such copy it waits only for work queued before the loop
// REPORT: {{.*}}:48: wait (conflict) for lines 41, 42: e is written below (written by cudaMemset on line 41){{.*}}; the loop on line 43 syncs the device on every pass, so the ops it covers are complete here whenever that loop ran a pass and it returns at once; it waits for the case the loop runs none
