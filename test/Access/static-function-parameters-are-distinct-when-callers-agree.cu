// A static function whose every call is in view asks its callers whether its
// parameters may be the same memory: here no call passes one buffer twice,
// so the host loop over `scratch` overlaps the copy out of `src` (and the
// function returns with the copy pending: its only caller waits for it).
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
    // CHECK: cudaMemcpyAsync(d, src, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
    // CHECK: for (int i = 0; i < n; ++i)
    // CHECK: scratch[i] = 0.0f;
    // DUMP: aliases: none (every call site is in view)
}

int main() {
  float h[16] = {0}, s[16], *d;
  cudaMalloc(&d, sizeof h);
  upload_then_clear(d, h, s, 16);
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: d is written below (written by the GPU work `upload_then_clear` (line {{[0-9]+}}) returns with)
  cudaFree(d);
  return 0;
}
