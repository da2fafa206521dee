// Two malloc calls are two memory objects: writing one buffer while a copy
// out of the other is pending needs no wait; only the write to the buffer
// being copied does.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu --dump=accesses > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

int main() {
  float *in = (float *)calloc(64, sizeof(float));
  float *out = (float *)calloc(64, sizeof(float));
  // DUMP-DAG: #{{[0-9]+}} in (host-alloc, line 15)
  // DUMP-DAG: #{{[0-9]+}} out (host-alloc, line 16)
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaMemcpy(d, in, 64 * sizeof(float), cudaMemcpyHostToDevice);
  // DUMP: op0 line 21:3 cudaMemcpy effects: {{in:R, d:W|d:W, in:R}}
  // CHECK: cudaMemcpyAsync(d, in, 64 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  for (int i = 0; i < 64; ++i)
    out[i] = 2.0f * i;
  // CHECK: for (int i = 0; i < 64; ++i)
  // CHECK-NEXT: out[i] = 2.0f * i;
  in[0] = 1.0f;
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: in is written below (read by cudaMemcpy on line 21)
  // CHECK-NEXT: in[0] = 1.0f;
  printf("%f %f\n", in[0], out[1]);
  cudaFree(d);
  free(in);
  free(out);
  return 0;
}
