// A redundant sync wrapped in an error-checking macro is removed (the
// default) as a whole statement, `CHECK(...);` with its `;`, for both common macro
// shapes (do { } while (0) and { check(...); }). A sync whose result the
// program uses stays, and the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

inline void gpuAssert(cudaError_t code, const char *file, int line) {
  if (code != cudaSuccess) {
    fprintf(stderr, "%s %s:%d\n", cudaGetErrorString(code), file, line);
    exit(code);
  }
}
#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

int main() {
  const int n = 256;
  float *h = (float *)malloc(n * sizeof(float)), *d;
  for (int i = 0; i < n; ++i) h[i] = i;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  // CHECK: CHECK(cudaMalloc(&d, n * sizeof(float)));
  // CHECK-NEXT: {{^  }}// streamalloc: removed a redundant cudaDeviceSynchronize() (no GPU op is pending here; see the report)
  CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<1, n>>>(d, n);
  gpuErrchk(cudaDeviceSynchronize());
  // CHECK: scale<<<1, n, 0, sa_stream({{[0-9]+}})>>>(d, n);
  // CHECK-NEXT: {{^  }}// streamalloc: removed a redundant cudaDeviceSynchronize() (the tool's own waits cover the 2 ops pending here; see the report)
  cudaError_t err = cudaDeviceSynchronize();
  // CHECK: {{^  }}cudaError_t err = cudaDeviceSynchronize();
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  // CHECK: {{^  }}if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%f %d\n", h[1], (int)err);
  CHECK(cudaFree(d));
  free(h);
  return 0;
}

// REPORT: {{.*}}:41: cudaDeviceSynchronize(): redundant, removed: no GPU op is pending here
// REPORT-NEXT: {{.*}}:46: cudaDeviceSynchronize(): redundant, removed: no host access before the next sync conflicts with the 2 ops pending here (lines 44, 45); the tool's own waits cover them
// REPORT-NEXT: {{.*}}:49: cudaDeviceSynchronize(): redundant, kept: {{.*}}; kept: its result is stored in `err`
// REPORT-NEXT: {{.*}}:51: cudaDeviceSynchronize(): redundant, kept: {{.*}}; kept: its result is checked
