// One call of this static function passes the same buffer as `src` and as
// `scratch`: they may be the same memory, so clearing `scratch` waits for
// the copy out of `src`.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=summaries > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
static void upload_then_clear(float *d, const float *src, float *scratch, int n) {
  cudaMemcpy(d, src, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < n; ++i)
    scratch[i] = 0.0f;
    // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: *scratch (which may overlap *src) is written below (read by cudaMemcpy on line 12)
    // CHECK-NEXT: for (int i = 0; i < n; ++i)
    // DUMP: aliases: *src and *scratch may be the same memory (call on line 24)
}

int main() {
  float h[16] = {0}, s[16], *d;
  cudaMalloc(&d, sizeof h);
  upload_then_clear(d, h, s, 16);
  upload_then_clear(d, h, h, 16);
  cudaFree(d);
  return 0;
}
