// A host buffer that a helper allocates and returns, where the helper cannot
// be rewritten (it is in a shared header, a template, or other files may call
// it), is registered where the helper returns it: the call is wrapped in
// sa_registered_result with the bytes the helper allocates, restated in the
// caller's terms, and its releases unregister it. Where that size cannot be
// restated exactly, or the helper may return something else, the buffer stays
// pageable and the report says why. A posix_memalign of the function itself
// is registered where it allocates, like aligned_alloc. The output runs on
// the CPU emulation under AddressSanitizer, which checks that each
// registered range lies inside its allocation.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report -- -I %S/Inputs
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc -I %S/Inputs %t.out.cu
// RUN: %emu-nvcc -I %S/Inputs %t.out.cu -o %t.exe
// RUN: %t.exe | %FileCheck %s --check-prefix=OUTPUT
#include <cstdio>
#include <cuda_runtime.h>
#include "returned-buffers.h"

#define WIDTH 256
#define MAKE(n) make_random_float(n)

struct pair2 {
  float x, y;
};

size_t g_n = 1 << 10;

double *drand_alloc(int n) { return (double *)calloc(n, sizeof(double)); }
float *global_sized() { return (float *)malloc(g_n * sizeof(float)); }
float *changed_size(size_t n) {
  n *= 2;
  return (float *)malloc(n * sizeof(float));
}
float *past_start(size_t n) {
  float *p = (float *)malloc((n + 1) * sizeof(float));
  return p + 1;
}
float *with_new(size_t n) { return new float[n]; }

int main() {
  int rows = 64, cols = 256;
  size_t n = 1 << 10;
  float *x = make_random_float(rows * cols);
  // CHECK: float *x = sa_registered_result(make_random_float(rows * cols), (unsigned long)(rows * cols) * 4ul);
  double *q = drand_alloc(rows);
  // CHECK: double *q = sa_registered_result(drand_alloc(rows), (unsigned long)(int)(rows) * 8ul);
  pair2 *h = allocate_aligned<pair2>(cols);
  // CHECK: pair2 *h = sa_registered_result(allocate_aligned<pair2>(cols), (unsigned long)(cols) * 8ul);
  float *y = make_random_float(rows * WIDTH);
  // CHECK: float *y = sa_registered_result(make_random_float(rows * WIDTH), (unsigned long)(rows * WIDTH) * 4ul);
  float *m = MAKE(rows);
  float *pm = nullptr;
  if (posix_memalign((void **)&pm, 64, n * sizeof(float)))
    return 1;
  // CHECK: if (sa_registered_posix_memalign((void **)&pm, 64, n * sizeof(float)))
  float *g = global_sized();
  float *c = changed_size(n);
  float *s = past_start(n);
  float *w = with_new(n);
  size_t *where = &n;
  float *a = make_random_float(*where);
  float *d;
  cudaMalloc(&d, 4 * rows * cols * sizeof(float));
  cudaMemcpy(d, x, rows * cols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, q, rows * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(d, h, cols * sizeof(pair2), cudaMemcpyHostToDevice);
  cudaMemcpy(d, y, rows * WIDTH * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, m, rows * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, pm, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, g, g_n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, c, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, s, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, w, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(x, d, rows * cols * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%d\n", x[0] == x[0]);
  // OUTPUT: 1
  free(x);
  // CHECK: sa_registered_free(x);
  free(q);
  // CHECK: sa_registered_free(q);
  free(h);
  // CHECK: sa_registered_free(h);
  free(y);
  // CHECK: sa_registered_free(y);
  free(m);
  // CHECK: free(m);
  free(pm);
  // CHECK: sa_registered_free(pm);
  free(g);
  // CHECK: free(g);
  free(c);
  free(s - 1);
  delete[] w;
  free(a);
  // CHECK: free(a);
  cudaFree(d);
  return 0;
}

// REPORT-DAG: {{.*}}: host buffer `x (allocated in `make_random_float`)`: registered: {{.*}}; registered where `make_random_float` returns it (the helper is left as written)
// REPORT-DAG: {{.*}}: host buffer `q (allocated in `drand_alloc`)`: registered: {{.*}}
// REPORT-DAG: {{.*}}: host buffer `h (allocated in `allocate_aligned`)`: registered: {{.*}}
// REPORT-DAG: {{.*}}: host buffer `m (allocated in `make_random_float`)`: pageable: {{.*}}, which is defined in another file, and the call is spelled through a macro
// REPORT-DAG: {{.*}}: host buffer `g (allocated in `global_sized`)`: pageable: it may also hold memory from `global_sized` (line {{[0-9]+}}), which other files may call (it is not `static`), and the size it allocates reads `g_n`, which is neither a parameter nor a local of `global_sized`
// REPORT-DAG: {{.*}}: host buffer `c (allocated in `changed_size`)`: pageable: {{.*}}, and the size it allocates reads `n`, which `changed_size` may change before it allocates
// REPORT-DAG: {{.*}}: host buffer `s (allocated in `past_start`)`: pageable: {{.*}}, and that memory cannot be registered where it is returned: it may return a pointer past the start of its allocation (line {{[0-9]+}})
// REPORT-DAG: {{.*}}: host buffer `w (allocated in `with_new`)`: pageable: {{.*}}, and that memory cannot be registered where it is returned: it returns memory that may come from an allocation other than malloc, calloc, aligned_alloc or posix_memalign (line {{[0-9]+}})
// REPORT-DAG: {{.*}}: host buffer `a (allocated in `make_random_float`)`: pageable: {{.*}}, which is defined in another file, and the size it allocates depends on an argument that is not a plain value (line {{[0-9]+}})
