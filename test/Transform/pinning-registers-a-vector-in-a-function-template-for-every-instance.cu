// A vector in a function template is registered in the template's text when
// every instantiation agrees on it (the guard's text does not depend on the
// element type).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <vector>

template <typename T> __global__ void twice(T *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

template <typename T> T run(int n) {
  std::vector<T> h;
  for (int i = 0; i < n; i++)
    h.push_back(T(i % 7));
  // CHECK: h.push_back(T(i % 7));
  // CHECK-NEXT: sa_registered_scope sa_registered_h(h.data(), h.size() * sizeof(*h.data()));  // streamalloc: `h`'s elements page-locked while it lives
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(d, n);
  T local = 0;
  for (int i = 0; i < n; i++)
    local += h[i];
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h[n - 1] + local;
}

int main() {
  printf("%f %d\n", run<float>(1 << 22), run<int>(1 << 22));
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}: host buffer `h`: registered: {{.*}}; its elements are registered from line {{[0-9]+}}, where `h` has its final size, to the end of its scope
// REPORT: {{.*}}:{{[0-9]+}}: template `run`: analysed per instantiation (run<float>, run<int>), which agree on every edit
