// A pinned buffer's every release must be rewritten with its allocation:
// page-locked memory freed by a plain free() or delete[] would stay
// registered. Each spelling of a release of the start of the buffer is
// rewritten (parentheses, `&p[0]`, `&*p`, `p + 0`, `delete[] (p)`); a release
// the rewrite cannot reach (in a helper, of a member's address) keeps the
// buffer pageable, and the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

struct Pair {
  float x, y;
};

static void release(float *x) { free(x); }

int main() {
  const int n = 1 << 22;
  float *a = (float *)malloc(n * sizeof(float));
  float *b = (float *)malloc(n * sizeof(float));
  float *c = (float *)malloc(n * sizeof(float));
  float *e = new float[n];
  float *f = (float *)malloc(n * sizeof(float));
  float *g = (float *)malloc(n * sizeof(float));
  Pair *p = (Pair *)malloc(n * sizeof(Pair));
  float *d;
  cudaMalloc(&d, n * sizeof(Pair));
  cudaMemcpy(a, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(b, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(c, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(e, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(f, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(g, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(p, d, n * sizeof(Pair), cudaMemcpyDeviceToHost);
  printf("%f %f %f %f %f %f %f\n", a[0], b[0], c[0], e[0], f[0], g[0], p[0].y);
  free(&(a[0]));
  // CHECK: sa_registered_free(&(a[0]));
  free((b));
  // CHECK: sa_registered_free((b));
  free(c + 0);
  // CHECK: sa_registered_free(c + 0);
  delete[] (e);
  // CHECK: sa_registered_free((e));
  release(f);
  // CHECK: release(f);
  free(&*g);
  // CHECK: sa_registered_free(&*g);
  free(&p[0].x);
  // CHECK: free(&p[0].x);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:24: host buffer `a`: registered: {{.*}}
// REPORT: {{.*}}:25: host buffer `b`: registered: {{.*}}
// REPORT: {{.*}}:26: host buffer `c`: registered: {{.*}}
// REPORT: {{.*}}:27: host buffer `e`: registered: {{.*}}
// REPORT: {{.*}}:28: host buffer `f`: pageable: it is released in `release` (line 20)
// REPORT: {{.*}}:29: host buffer `g`: registered: {{.*}}
// REPORT: {{.*}}:30: host buffer `p`: pageable: a pointer into it is passed to `free` (line 53)
