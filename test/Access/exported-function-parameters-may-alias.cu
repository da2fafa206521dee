// A function other files may call cannot know its callers: what its
// parameters point to may be the same memory, so a host write through one
// waits for the copy that uses the others.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=summaries > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
void upload_then_clear(float *d, const float *src, float *scratch, int n) {
  cudaMemcpy(d, src, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < n; ++i)
    scratch[i] = 0.0f;
    // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: *scratch (which may overlap *d, *src) is written below (written by cudaMemcpy on line 12)
    // CHECK-NEXT: for (int i = 0; i < n; ++i)
    // DUMP: aliases: what parameters point to may overlap each other and globals (`upload_then_clear` may be called from other files)
}

int main() {
  float h[16] = {0}, s[16], *d;
  cudaMalloc(&d, sizeof h);
  upload_then_clear(d, h, s, 16);
  cudaFree(d);
  return 0;
}
