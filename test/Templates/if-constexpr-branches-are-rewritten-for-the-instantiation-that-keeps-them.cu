// A template whose instantiations keep different `if constexpr` branches is
// rewritten when they ask for the same edits of the code they share: each
// branch gets the edits of the instantiation that keeps it (the others have
// no code there). step<int>'s branch runs on a stream of its own beside the
// copy of `d`, and waits only for that stream; both instantiations number
// their events alike, so the shared edits hold for each.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <type_traits>

__global__ void scale(float *p, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= s;
}
__global__ void iota(int *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    q[i] = i;
}

template <typename T> static void step(T *d, T *h, int n) {
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, h, n * sizeof(T), cudaMemcpyHostToDevice, sa_stream(0));
  if constexpr (std::is_same_v<T, float>) {
    scale<<<(n + 255) / 256, 256>>>(d, n, 2.0f);
    // CHECK: scale<<<(n + 255) / 256, 256, 0, sa_stream(0)>>>(d, n, 2.0f);
  } else {
    int *dt, ht[4];
    cudaMalloc(&dt, n * sizeof(int));
    iota<<<(n + 255) / 256, 256>>>(dt, n);
    // CHECK: iota<<<(n + 255) / 256, 256, 0, sa_stream(1)>>>(dt, n);
    cudaMemcpy(ht, dt + 8, sizeof ht, cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpyAsync(ht, dt + 8, sizeof ht, cudaMemcpyDeviceToHost, sa_stream(1));
    // CHECK: cudaStreamSynchronize(sa_stream(1));  // streamalloc: ht is read below (written by cudaMemcpy on line 38)
    printf("%d %d\n", ht[0], ht[3]);
    cudaFree(dt);
  }
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, sa_stream(0));
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: finish GPU work before step returns
}

int main() {
  const int n = 1 << 20;
  float *df, *hf;
  int *di, *hi;
  cudaMallocHost(&hf, n * sizeof(float));
  cudaMallocHost(&hi, n * sizeof(int));
  for (int i = 0; i < n; i++) {
    hf[i] = i % 7;
    hi[i] = i % 5;
  }
  cudaMalloc(&df, n * sizeof(float));
  cudaMalloc(&di, n * sizeof(int));
  step(df, hf, n);
  step(di, hi, n);
  printf("%f %d\n", hf[6], hi[4]);
  cudaFree(df);
  cudaFree(di);
  cudaFreeHost(hf);
  cudaFreeHost(hi);
  return 0;
}

// REPORT: {{.*}}:28:3: cudaMemcpy: async on stream 0, waited for before line 47
// REPORT-NEXT: {{.*}}:31:5: scale: async on stream 0, waited for before line 47
// REPORT-NEXT: {{.*}}:36:5: iota: async on stream 1, waited for before line 41
// REPORT-NEXT: {{.*}}:38:5: cudaMemcpy: async on stream 1, waited for before line 41
// REPORT-NEXT: {{.*}}:44:3: cudaMemcpy: async on stream 0, waited for before line 47
// REPORT: {{.*}}:27: template `step`: analysed per instantiation (step<float>, step<int>), which agree on every edit of the code they share (their `if constexpr` branches are rewritten for each)
