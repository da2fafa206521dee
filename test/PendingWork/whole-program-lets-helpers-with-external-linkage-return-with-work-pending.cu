// With --whole-program (the file is the whole program), a helper with
// external linkage that only this file declares has every caller in view and
// returns with its work pending; one that an included header declares still
// waits, since other units may call it. --whole-program takes one input.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --whole-program --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report -- -I %S/Inputs
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc -I %S/Inputs %t.out.cu
// RUN: %not %streamalloc --whole-program %t.cu %t.cu -i 2>&1 | %FileCheck %s --check-prefix=TWO
#include "declares-upload-shared.h"
#include <cstdio>

void upload_local(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  // CHECK-NOT: Synchronize
  // CHECK: }
}

void upload_shared(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before upload_shared returns
}

int main() {
  float h[64] = {1}, g[64] = {2}, *d, *e;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&e, sizeof g);
  upload_local(d, h, 64);
  upload_shared(e, g, 64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(d);
  cudaFree(e);
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]: `upload_local` returns with its work pending on stream {{[0-9]+}}: each caller waits for it before its first access that conflicts with it (`main` line [[#]])
// REPORT-DAG: {{.*}}:[[#]]: `upload_shared` waits for its GPU work before it returns: an included file declares it, so other translation units may call it
// TWO: streamalloc: error: --whole-program takes one input file, without -p or --summary-source (the program must be that one translation unit)
