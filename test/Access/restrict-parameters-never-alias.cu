// `__restrict__` promises that nothing else reaches what the parameter points
// to, even in a function other files may call: clearing `scratch` overlaps
// the copy out of `src`.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=summaries > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
void upload_then_clear(float *__restrict__ d, const float *__restrict__ src,
                       float *__restrict__ scratch, int n) {
  cudaMemcpy(d, src, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < n; ++i)
    scratch[i] = 0.0f;
    // CHECK: cudaMemcpyAsync(d, src, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
    // CHECK: for (int i = 0; i < n; ++i)
    // CHECK: scratch[i] = 0.0f;
    // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: finish GPU work before upload_then_clear returns
    // DUMP: aliases: what parameters point to may overlap each other and globals (`upload_then_clear` may be called from other files; __restrict__ parameters excepted)
}

int main() {
  float h[16] = {0}, s[16], *d;
  cudaMalloc(&d, sizeof h);
  upload_then_clear(d, h, s, 16);
  cudaFree(d);
  return 0;
}
