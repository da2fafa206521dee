// A std::vector's elements are registered by a guard declared right after
// the last statement that may reallocate them (the push_back loop; the call
// of a helper that grows the vector through a reference), in the vector's
// own block, so the guard is destroyed first. Pointers taken from data(),
// references passed to helpers that do not resize it, an iterator loop and a
// const vector are followed. Also with --pin=alloc: a vector allocates its elements itself.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %streamalloc %t.cu --pin=alloc -o %t.alloc.cu
// RUN: %FileCheck %s < %t.alloc.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <vector>

__global__ void twice(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

static void fill(std::vector<float> &v, int n) {
  for (int i = 0; i < n; i++)
    v.push_back(0.5f * (i % 5));
}

static void upload(float *d, std::vector<float> &v) {
  cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice);
}

static float sum(const std::vector<float> &v) {
  float s = 0;
  for (float x : v)
    s += x;
  return s;
}

// CHECK: struct sa_registered_scope {
// CHECK-NEXT:   void *p;
// CHECK-NEXT:   sa_registered_scope(const void *q, size_t bytes) : p(sa_register(const_cast<void *>(q), bytes)) {}
// CHECK-NEXT:   ~sa_registered_scope() {
// CHECK-NEXT:     if (sa_is_page_locked(p) && cudaHostUnregister(p) != cudaSuccess)
// CHECK-NEXT:       (void)cudaGetLastError();
int main() {
  const int n = 1 << 24;
  std::vector<float> a;
  for (int i = 0; i < n; i++)
    a.push_back(1.0f + i % 3);
  // CHECK: a.push_back(1.0f + i % 3);
  // CHECK-NEXT: sa_registered_scope sa_registered_a(a.data(), a.size() * sizeof(*a.data()));  // streamalloc: `a`'s elements page-locked while it lives
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  float *h = a.data();
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  twice<<<n / 256, 256>>>(d, n);
  float before = sum(a);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::vector<float> b;
  fill(b, n);
  // CHECK: fill(b, n);
  // CHECK-NEXT: sa_registered_scope sa_registered_b(b.data(), b.size() * sizeof(*b.data()));  // streamalloc: `b`'s elements page-locked while it lives
  upload(d, b);
  twice<<<n / 256, 256>>>(d, n);
  for (auto it = b.begin(); it != b.end(); ++it)
    *it += 1.0f;
  const std::vector<float> c(n, 2.0f);
  // CHECK: const std::vector<float> c(n, 2.0f);
  // CHECK-NEXT: sa_registered_scope sa_registered_c(c.data(), c.size() * sizeof(*c.data()));  // streamalloc: `c`'s elements page-locked while it lives
  float middle = sum(b);
  cudaMemcpy(d, c.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f %f %f\n", before, middle, sum(a), sum(c));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}: host buffer `a`: registered: {{.*}}; its elements are registered from line {{[0-9]+}}, where `a` has its final size, to the end of its scope
