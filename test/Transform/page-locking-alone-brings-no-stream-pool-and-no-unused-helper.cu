// Where the only change is page-locking a buffer (its copies stay
// synchronous and get faster), the output has no stream pool, no release
// calls and none of the page-locking helpers it does not call: nvcc reports
// no unused function.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=sa_stream --implicit-check-not=sa_release_streams --implicit-check-not=calloc
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc -Werror all-warnings %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  const int n = 1 << 22;
  float *h = (float *)malloc(n * sizeof(float));
  // CHECK: float *h = (float *)sa_registered_malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[n - 1]);
  cudaFree(d);
  free(h);
  // CHECK: sa_registered_free(h);
  return 0;
}

// REPORT: {{.*}}: 0 of 5 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// REPORT: {{.*}}:22: host buffer `h`: registered: so that its 2 copies run at full speed
