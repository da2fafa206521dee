// A helper of the file (static) whose every call passes buffers the caller
// pins: its copies are weighed as copies of page-locked memory, so the two
// independent chains run on two streams and the host work before the waits
// overlaps them. The second helper is also called with a stack array, which
// stays pageable: its copy stays synchronous and the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *d, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= f;
}

static double reference(const float *z, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += z[i];
  return s;
}

static double process(float *x, float *y, const float *z, int n) {
  float *d_x, *d_y;
  size_t bytes = n * sizeof(float);
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d_x, x, bytes, cudaMemcpyHostToDevice, sa_stream(0));
  cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d_y, y, bytes, cudaMemcpyHostToDevice, sa_stream(1));
  scale<<<(n + 255) / 256, 256>>>(d_x, 2.0f, n);
  scale<<<(n + 255) / 256, 256>>>(d_y, 3.0f, n);
  cudaMemcpy(x, d_x, bytes, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(x, d_x, bytes, cudaMemcpyDeviceToHost, sa_stream(0));
  cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(y, d_y, bytes, cudaMemcpyDeviceToHost, sa_stream(1));
  double ref = reference(z, n);
  cudaFree(d_x);
  cudaFree(d_y);
  return ref;
}

static float first_scaled(float *h, float *d) {
  cudaMemcpy(d, h, 4 * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpy(d, h, 4 * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, 4>>>(d, 2.0f, 4);
  cudaMemcpy(h, d, 4 * sizeof(float), cudaMemcpyDeviceToHost);
  return h[0];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 22;
  float *x = (float *)malloc(n * sizeof(float));
  // CHECK: float *x = (float *)sa_registered_malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  // CHECK: float *y = (float *)sa_registered_malloc(n * sizeof(float));
  float *z = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    x[i] = y[i] = z[i] = 1.0f;
  double ref = process(x, y, z, n);
  printf("%f %f %f\n", x[0], y[n - 1], ref);
  float *d;
  cudaMalloc(&d, 4 * sizeof(float));
  float small[4] = {1, 2, 3, 4};
  float f = first_scaled(x, d) + first_scaled(small, d);
  printf("%f\n", f);
  cudaFree(d);
  free(x);
  free(y);
  free(z);
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}:3: cudaMemcpy: async on stream 0, waited for before line {{[0-9]+}}
// REPORT: {{.*}}:{{[0-9]+}}:3: cudaMemcpy: left synchronous: not worth it: its host memory `*h` stays pageable, so an asynchronous copy would block the host like cudaMemcpy does and cost more, and no independent GPU work on another stream could overlap it
// REPORT: {{.*}}:{{[0-9]+}}: host buffer `x`: registered: so that its {{[0-9]+}} copies run at full speed (all in `first_scaled`, `process`, which it is passed to)
