// A static helper that copies into and launches on buffers reached through
// its parameters (a struct by reference holding device pointers) needs no
// wait between its ops: every caller passes distinct buffers, and the struct
// itself is not device memory. It returns with that work pending (every call
// of it is seen), and its caller waits once, before it frees the buffers.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdlib>

struct DeviceWork {
  float *d_in;
  float *d_out;
  size_t n;
};

__global__ void twice(const float *in, float *out, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

static void setup(DeviceWork &w, size_t n) {
  w.n = n;
  cudaMalloc(&w.d_in, n * sizeof(float));
  cudaMalloc(&w.d_out, n * sizeof(float));
}

static void submit(DeviceWork &w, const float *h_in, float *h_out) {
  cudaMemcpy(w.d_in, h_in, w.n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(w.d_in, h_in, w.n * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  twice<<<(unsigned)((w.n + 255) / 256), 256>>>(w.d_in, w.d_out, w.n);
  // CHECK: twice<<<(unsigned)((w.n + 255) / 256), 256, 0, sa_stream({{[0-9]+}})>>>(w.d_in, w.d_out, w.n);
  cudaMemcpy(h_out, w.d_out, w.n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h_out, w.d_out, w.n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
}

int main() {
  float *in = (float *)calloc(1024, sizeof(float)), *out = (float *)malloc(1024 * sizeof(float));
  DeviceWork w;
  setup(w, 1024);
  submit(w, in, out);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: in is written below (read by the GPU work `submit` (line {{[0-9]+}}) returns with)
  free(in);
  free(out);
  return 0;
}
