// In a loop without a blocking call, every host statement of every iteration
// runs before the original's next sync after the launch: a host write the
// analysis cannot tell apart from the kernel's buffer gets no wait, not in
// this iteration and not in the next. When the loop body blocks in the
// original (a synchronous copy to the host), the next iteration's statements
// come after that sync point: the same write waits, at the top of the body.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

float *g_log; // globals hold pointers the analysis cannot follow

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

void unsynchronised(float *d, float *h) {
  for (int it = 0; it < 4; ++it) {
    step<<<1, 64>>>(d);
    g_log[it] = it;
  }
  // CHECK-LABEL: void unsynchronised(float *d, float *h) {
  // CHECK-NEXT: {{^  }}for (int it = 0; it < 4; ++it) {
  // CHECK-NEXT: {{^    }}step<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: {{^    }}g_log[it] = it;
  // CHECK-NEXT: {{^  }}}
  cudaMemcpy(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
}

void copiesEveryIteration(float *d, float *e, float *h) {
  for (int it = 0; it < 4; ++it) {
    g_log[it] = it;
    step<<<1, 64>>>(d);
    cudaMemcpy(h + it, e, sizeof(float), cudaMemcpyDeviceToHost);
  }
  // CHECK-LABEL: void copiesEveryIteration(float *d, float *e, float *h) {
  // CHECK-NEXT: {{^  }}for (int it = 0; it < 4; ++it) {
  // CHECK-NEXT: {{^    }}cudaStreamSynchronize(sa_stream({{[0-9]+}})); // streamalloc: {{.*}}
  // CHECK-NEXT: {{^    }}g_log[it] = it;
}

int main() {
  float h[64] = {}, *d, *e;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&e, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(e, h, sizeof h, cudaMemcpyHostToDevice);
  g_log = (float *)malloc(sizeof h);
  unsynchronised(d, h);
  copiesEveryIteration(d, e, h);
  printf("%f %f\n", h[0], g_log[3]);
  free(g_log);
  cudaFree(d);
  cudaFree(e);
  return 0;
}
