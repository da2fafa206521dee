// The pool's streams are ordinary blocking streams (plain cudaStreamCreate,
// no non-blocking flag), so GPU work the tool leaves on the legacy default
// stream, like this op spelled in a macro body, still runs after the work
// queued on them. (The host also waits before the macro, which the legacy
// stream's ordering makes unnecessary: a precision issue, not checked here.)
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=NonBlocking --implicit-check-not=cudaStreamCreateWithFlags
// RUN: %nvcc %t.out.cu
#include <cstdio>
// CHECK: static inline cudaStream_t sa_stream(int i) {
// CHECK: cudaStreamCreate(&{{.+}});

#define DOWNLOAD(dst, src, bytes) cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost)

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[32] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  // CHECK: cudaMemsetAsync(d, 0, sizeof h, sa_stream({{[0-9]+}}));
  inc<<<1, 32>>>(d);
  // CHECK: inc<<<1, 32, 0, sa_stream({{[0-9]+}})>>>(d);
  DOWNLOAD(h, d, sizeof h);
  // CHECK: DOWNLOAD(h, d, sizeof h);
  printf("%d\n", h[0]);
  cudaFree(d);
  return 0;
}
