// A download of page-locked memory in an error-check macro (`do { ... }
// while (0)`), read by the next statement: nothing runs between the copy and
// the wait it would need, so it stays cudaMemcpy instead of becoming
// cudaMemcpyAsync followed at once by a stream sync. The scan for host work
// goes on after the macro's statement. With host work after it, the same
// copy becomes asynchronous.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
#define CHECK(call)                                                      \
  do {                                                                   \
    cudaError_t err_ = (call);                                           \
    if (err_ != cudaSuccess) {                                           \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                 \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

static double work(const float *z, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += z[i];
  return s;
}

int main() {
  const int n = 1 << 20;
  float *h, *d, *z = (float *)calloc(n, sizeof(float));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK: CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%f\n", h[0]);
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK: CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream(0)));
  double r = work(z, n);
  printf("%f %f\n", r, h[1]);
  CHECK(cudaFree(d));
  CHECK(cudaFreeHost(h));
  free(z);
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}:9: cudaMemcpy: left synchronous: not worth it: nothing could overlap it (no host work before the host waits for it, no independent GPU work on another stream)
// REPORT: {{.*}}:{{[0-9]+}}:9: cudaMemcpy: async on stream 0, waited for before line {{[0-9]+}}
