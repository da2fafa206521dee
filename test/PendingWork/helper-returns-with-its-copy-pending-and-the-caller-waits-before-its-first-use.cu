// A static helper uploads the caller's buffer and returns. Every call of it
// is in view, so it returns with the copy still running on its stream; the
// caller's host work on other memory overlaps the copy, the kernel on the
// uploaded buffer follows it on the same stream, and the host waits only
// where it reads what that work writes. The caller's buffer is registered so
// the copy really runs asynchronously. The report names the helper's
// decision and its caller.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void bump(unsigned *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1;
}

static void upload(unsigned *d, const unsigned *h, int n) {
  cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice, sa_stream([[S:[0-9]+]]));
  // CHECK-NOT: Synchronize
  // CHECK: }
}

int main() {
  const int n = 1 << 20;
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
  // CHECK: unsigned *h = (unsigned *)sa_registered_malloc(n * sizeof(unsigned));
  unsigned *g = (unsigned *)malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; ++i)
    h[i] = g[i] = i;
  unsigned *d;
  cudaMalloc(&d, n * sizeof(unsigned));
  for (int it = 0; it < 10; ++it) {
    upload(d, h, n);
    // CHECK: upload(d, h, n);
    // CHECK-NOT: Synchronize
    double s = 0;
    for (int i = 0; i < n; ++i) {
      g[i] = g[i] * 3 + i;
      s += g[i];
    }
    printf("%f\n", s);
    bump<<<(n + 255) / 256, 256>>>(d, n);
    // CHECK: bump<<<(n + 255) / 256, 256, 0, sa_stream([[S]])>>>(d, n);
    // The blocking copy back on the legacy stream waits for the helper's work.
    cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    // CHECK-NOT: Synchronize
    // CHECK: cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  }
  printf("%u\n", h[5]);
  cudaFree(d);
  free(h);
  free(g);
  return 0;
}

// REPORT: {{.*}}:[[#]]:3: cudaMemcpy: async on stream [[S:[0-9]+]], still pending when `upload` returns (its callers wait)
// REPORT: {{.*}}:[[#]]:5: work `upload` returns with: async on stream [[S]]
// REPORT: {{.*}}:[[#]]: `upload` returns with its work pending on stream [[S]]: each caller waits for it before its first access that conflicts with it (`main` line [[#]])
