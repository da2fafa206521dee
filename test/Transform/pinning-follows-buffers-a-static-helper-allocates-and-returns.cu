// A host buffer made by a static helper of the file that allocates it and
// returns it (`float *x = make_buffer(n);`) is pinned like a buffer the
// function allocates itself: the helper's malloc or calloc becomes the
// page-locked form, for every call of the helper, and every release of the
// calls' results is rewritten. A helper other files may call (unless the
// file is the whole program), or one called from another function too, is
// left as written: the buffers it returns are registered where it returns
// them (pinning-registers-the-buffer-a-helper-left-as-written-returns.cu).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --pin=alloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --profitability=off --pin=alloc --whole-program %t.cu -o %t.whole.cu --report-file=%t.whole
// RUN: %FileCheck %s --check-prefix=WHOLE < %t.whole
#include <cstdio>
#include <cstdlib>

static float *make_random(size_t n) {
  float *p = (float *)malloc(n * sizeof(float));
  // CHECK: float *p = (float *)sa_pinned_malloc(n * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    p[i] = (float)rand() / RAND_MAX;
  return p;
}

static float *make_zeros(size_t n) { return (float *)calloc(n, sizeof(float)); }
// CHECK: static float *make_zeros(size_t n) { return (float *)sa_pinned_calloc(n, sizeof(float)); }

float *make_shared(size_t n) { return (float *)malloc(n * sizeof(float)); }
// CHECK: float *make_shared(size_t n) { return (float *)malloc(n * sizeof(float)); }

static float *make_twice_used(size_t n) { return (float *)malloc(n * sizeof(float)); }
// CHECK: static float *make_twice_used(size_t n) { return (float *)malloc(n * sizeof(float)); }

static float checksum(size_t n) {
  float *t = make_twice_used(n);
  float s = t[0];
  free(t);
  return s;
}

int main() {
  const size_t n = 1 << 20;
  float *x = make_random(n), *y = make_random(n);
  float *out = make_zeros(n);
  float *s = make_shared(n), *u = make_twice_used(n);
  // CHECK: float *s = sa_registered_result(make_shared(n), (unsigned long)(n) * 4ul), *u = sa_registered_result(make_twice_used(n), (unsigned long)(n) * 4ul);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, y, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, s, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d, u, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f %f\n", out[1], checksum(n));
  free(x);
  // CHECK: sa_pinned_free(x);
  free(y);
  // CHECK: sa_pinned_free(y);
  free(out);
  // CHECK: sa_pinned_free(out);
  free(s);
  // CHECK: sa_registered_free(s);
  free(u);
  // CHECK: sa_registered_free(u);
  cudaFree(d);
  return 0;
}

// REPORT-DAG: {{.*}}:46: host buffer `x (allocated in `make_random`)`: allocated page-locked: {{.*}}
// REPORT-DAG: {{.*}}:46: host buffer `y (allocated in `make_random`)`: allocated page-locked: {{.*}}
// REPORT-DAG: {{.*}}:47: host buffer `out (allocated in `make_zeros`)`: allocated page-locked: {{.*}}
// REPORT-DAG: {{.*}}:48: host buffer `s (allocated in `make_shared`)`: registered: {{.*}}; registered where `make_shared` returns it (the helper is left as written)
// REPORT-DAG: {{.*}}:48: host buffer `u (allocated in `make_twice_used`)`: registered: {{.*}}; registered where `make_twice_used` returns it (the helper is left as written)
// WHOLE: {{.*}}:48: host buffer `s (allocated in `make_shared`)`: allocated page-locked: {{.*}}
