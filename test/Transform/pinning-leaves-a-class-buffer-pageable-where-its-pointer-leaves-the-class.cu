// A buffer a constructor allocates into a member stays pageable, with the
// reason, when pinning cannot see its whole life: the member's address is
// taken (a cudaMallocHost branch), a reference into it reaches the program's
// own cudaMemcpyAsync, it is released outside the class, its pointer goes to
// a function without a body, or the class is a template.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc -c %t.out.cu -o %t.o
#include <cstdio>
#include <cstdlib>

// CHECK-NOT: sa_registered_
// CHECK-NOT: sa_pinned_

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

struct MaybePinned {
  float *p = nullptr;
  bool pinned;
  MaybePinned(int n, bool pin) : pinned(pin) {
    if (pin)
      cudaMallocHost(&p, n * sizeof(float));
    else
      p = (float *)malloc(n * sizeof(float));
  }
  ~MaybePinned() {
    if (pinned)
      cudaFreeHost(p);
    else
      free(p);
  }
  float *data() { return p; }
};

struct Elements {
  float *p;
  explicit Elements(int n) : p(new float[n]) {}
  ~Elements() { delete[] p; }
  float &operator[](int i) { return p[i]; }
};

struct Handed {
  float *p;
  explicit Handed(int n) { p = (float *)malloc(n * sizeof(float)); }
  float *data() { return p; }
};

struct Kept {
  float *p;
  explicit Kept(int n) { p = (float *)malloc(n * sizeof(float)); }
  ~Kept() { free(p); }
  float *data() { return p; }
};
void keep(float *);

template <class T> struct Typed {
  T *p;
  explicit Typed(int n) { p = (T *)malloc(n * sizeof(T)); }
  ~Typed() { free(p); }
  T *data() { return p; }
};

static double cpu_work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += i * 0.5;
  return s;
}

int main() {
  const int n = 1 << 20;
  MaybePinned a(n, false);
  Elements b(n);
  Handed c(n);
  Kept e(n);
  Typed<float> f(n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, &b[1], sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyAsync(d, &b[0], n * sizeof(float), cudaMemcpyHostToDevice, 0);
  cudaMemcpy(d, c.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, e.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, f.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(a.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(c.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(e.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(f.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = cpu_work(n);
  keep(e.data());
  printf("%f %f %f %f\n", a.data()[5], c.data()[3], f.data()[1], s);
  free(c.data());
  cudaFree(d);
  return 0;
}
// REPORT: {{.*}}: host buffer `p (allocated in `MaybePinned`)`: pageable: it is held by `MaybePinned::p`, and the address of `p` is taken or it is bound to a reference (line {{[0-9]+}})
// REPORT: {{.*}}: host buffer `{{.*}} (allocated in `Elements`)`: pageable: it is held by `Elements::p`, and the program's own cudaMemcpyAsync on line {{[0-9]+}} would become truly asynchronous{{.*}}
// REPORT: {{.*}}: host buffer `p (allocated in `Handed`)`: pageable: it is held by `Handed::p`, and it is released in `main`{{.*}}
// REPORT: {{.*}}: host buffer `p (allocated in `Kept`)`: pageable: it is held by `Kept::p`, and a pointer into it is passed to `keep`, whose body the analysis cannot see{{.*}}
// REPORT: {{.*}}: host buffer `p (allocated in `Typed`)`: pageable: it is owned by `Typed`, a class template or a union
