// A helper's summary is in terms of its parameters; each call maps them to
// its own arguments, so the same helper reads `a` at one call and `b` at the
// other, and only the call that writes the buffer being copied back waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=summaries > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>

static void scale(float *p, int n, float f) {
  for (int i = 0; i < n; ++i)
    p[i] *= f;
}

int main() {
  float a[64] = {0}, b[64] = {0}, *d;
  cudaMalloc(&d, sizeof a);
  cudaMemset(d, 0, sizeof a);
  cudaMemcpy(a, d, sizeof a, cudaMemcpyDeviceToHost);
  scale(b, 64, 2.0f);
  // CHECK: cudaMemcpyAsync(a, d, sizeof a, cudaMemcpyDeviceToHost, sa_stream({{[0-9]+}}));
  // CHECK: scale(b, 64, 2.0f);
  scale(a, 64, 2.0f);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: a is written below (written by cudaMemcpy on line 22)
  // CHECK-NEXT: scale(a, 64, 2.0f);
  // DUMP-LABEL: summary of scale (host, line 13)
  // DUMP-NEXT: host reads: *p
  // DUMP-NEXT: host writes: *p
  printf("%f %f\n", a[0], b[0]);
  cudaFree(d);
  return 0;
}
