// A buffer passed to a lambda is followed into the parameter it is passed
// to: the call's first argument is the closure object, so `up(h, other)`
// gives `h` to `p`, not to `q`. Here `p` reaches the program's own
// cudaMemcpyAsync, and `h` is overwritten right after the call: pinned, the
// copy would be truly asynchronous and read the zeros, so `h` stays
// pageable. (Before, the tracer followed `h` into `q` and registered it.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
#include <cstring>

// CHECK-NOT: sa_registered_malloc
// CHECK-NOT: sa_pinned_malloc

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

int main() {
  const int n = 1 << 22;
  float *h = (float *)malloc(n * sizeof(float));
  float *other = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  auto up = [&](float *p, float *q) {
    cudaMemcpyAsync(d, p, n * sizeof(float), cudaMemcpyHostToDevice, 0);
    q[0] = 1.0f;
  };
  for (int i = 0; i < n; ++i)
    h[i] = i;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  up(h, other);
  memset(h, 0, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f\n", h[5], other[0]);
  free(h);
  free(other);
  cudaFree(d);
  return 0;
}
// REPORT: {{.*}}: host buffer `h`: pageable: the program's own cudaMemcpyAsync on line {{[0-9]+}} would become truly asynchronous{{.*}}
