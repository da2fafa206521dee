// The DESIGN.md example: copies and kernels become asynchronous, the two
// independent chains (x and y) go to two streams, host work on unrelated data
// runs while the GPU works, and the single wait (for both streams) sits right
// before the first statement that reads a result.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

// CHECK: #include <cstdlib>
// CHECK-EMPTY:
// CHECK-NEXT: #include <atomic>
// CHECK-NEXT: #include <cstdlib>
// CHECK-NEXT: #include <cstring>
// CHECK-NEXT: // streamalloc: blocking CUDA streams for the work made asynchronous below, created

__global__ void scale(float *x, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= k;
}

int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *h_x = (float *)malloc(bytes), *h_y = (float *)malloc(bytes);
  // CHECK: float *h_x = (float *)sa_registered_malloc(bytes), *h_y = (float *)sa_registered_malloc(bytes);
  // CHECK: float *h_z = (float *)malloc(bytes);
  float *h_z = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i)
    h_x[i] = h_y[i] = h_z[i] = 1.0f;
  float *d_x, *d_y;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  int blocks = (n + 255) / 256;
  cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d_x, h_x, bytes, cudaMemcpyHostToDevice, sa_stream(0));
  cudaMemcpy(d_y, h_y, bytes, cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d_y, h_y, bytes, cudaMemcpyHostToDevice, sa_stream(1));
  scale<<<blocks, 256>>>(d_x, 2.0f, n);
  // CHECK: scale<<<blocks, 256, 0, sa_stream(0)>>>(d_x, 2.0f, n);
  scale<<<blocks, 256>>>(d_y, 3.0f, n);
  // CHECK: scale<<<blocks, 256, 0, sa_stream(1)>>>(d_y, 3.0f, n);
  cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h_x, d_x, bytes, cudaMemcpyDeviceToHost, sa_stream(0));
  cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h_y, d_y, bytes, cudaMemcpyDeviceToHost, sa_stream(1));
  double ref = 0;
  for (int i = 0; i < n; ++i)
    ref += h_z[i];
  printf("%f %f %f\n", h_x[0], h_y[0], ref);
  // CHECK: cudaDeviceSynchronize();  // streamalloc: h_x is read below (written by cudaMemcpy on line 48)
  // CHECK-NEXT: printf("%f %f %f\n", h_x[0], h_y[0], ref);
  cudaFree(d_x);
  cudaFree(d_y);
  free(h_x);
  free(h_y);
  free(h_z);
  // CHECK: sa_registered_free(h_x);
  // CHECK: sa_registered_free(h_y);
  // CHECK: free(h_z);
  // CHECK: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  return 0;
}

// REPORT: {{.*}}: 6 of 6 GPU ops made asynchronous on 2 stream(s), 1 wait(s) inserted
// REPORT: {{.*}}:40:3: cudaMemcpy: async on stream 0, waited for before line 55
// REPORT: {{.*}}:42:3: cudaMemcpy: async on stream 1, waited for before line 55
// REPORT: {{.*}}:55: wait (conflict) for lines 40, 42, 44, 46, 48, 50: h_x is read below (written by cudaMemcpy on line 48){{$}}
