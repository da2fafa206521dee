// A kernel launch does not block the host in the original either: the host
// statements after it, up to the original's next blocking call, already ran
// concurrently with it, so they cannot conflict with it in a race-free
// program, whatever the analysis can prove about them (DESIGN.md §3a). The
// write through `g_out` (memory the analysis cannot name) gets no wait before
// the original's sync point; after the blocking cudaMemcpy of another buffer
// (where the original had finished the kernel) the same write waits.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

float *g_out; // globals hold pointers the analysis cannot follow

__global__ void fill(float *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  float h[64], *d, *e;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&e, sizeof h);
  g_out = (float *)malloc(sizeof h);
  fill<<<1, 64>>>(d);
  g_out[0] = 1.0f;
  // CHECK: fill<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: {{^  }}g_out[0] = 1.0f;
  cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
  g_out[1] = 2.0f;
  // CHECK: {{^  }}cudaDeviceSynchronize(); // streamalloc: the next statement may touch what kernel `fill` on line 26 uses (a pointer stored in global `g_out`)
  // CHECK-NEXT: {{^  }}g_out[1] = 2.0f;
  printf("%f %f\n", h[0], g_out[0]);
  free(g_out);
  cudaFree(d);
  cudaFree(e);
  return 0;
}

// REPORT-NOT: {{.*}}:27: wait
// REPORT: {{.*}}:31: wait (conflict) for lines 26, 30: the next statement may touch what kernel `fill` on line 26 uses (a pointer stored in global `g_out`){{$}}
