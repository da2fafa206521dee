// A program that copies in, runs one kernel and copies back, once, gains
// nothing from streams: nothing can overlap the copies (the kernel needs the
// first, the second needs the kernel, no host work runs before their waits),
// and a memory pool for one allocation costs more than the cudaFree sync it
// saves. The output is the input, and the report says why for every op.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %FileCheck %s < %t.report
// RUN: %streamalloc --profitability=off %t.cu -o %t.all.cu
// RUN: %FileCheck %s --check-prefix=ALL < %t.all.cu
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  const int n = 1 << 10;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[n - 1]);
  cudaFree(d);
  free(h);
  return 0;
}

// CHECK: {{.*}}: 0 of 5 GPU ops made asynchronous on 0 stream(s), 0 wait(s) inserted
// CHECK-NEXT: {{.*}}:29:3: cudaMalloc: left synchronous: not stream-ordered: not worth it: its calls run once per call of `main`, outside any loop, and a stream-ordered memory pool costs about 11 ms on first use, more than the device-wide sync of a cudaFree it would save
// CHECK-NEXT: {{.*}}:30:3: cudaMemcpy: left synchronous: not worth it: nothing could overlap it (no host work before the host waits for it, no independent GPU work on another stream)
// CHECK-NEXT: {{.*}}:31:3: scale: left synchronous: not worth it: in `main` only kernels, fills and device-to-device copies could run asynchronously, as they already do in the original, all on one stream; its GPU calls are left as written
// CHECK-NEXT: {{.*}}:32:3: cudaMemcpy: left synchronous: not worth it: nothing could overlap it (no host work before the host waits for it, no independent GPU work on another stream)
// CHECK: {{.*}}:34:3: cudaFree: left synchronous: not stream-ordered: not worth it: {{.*}}
// CHECK: {{.*}}:25: host buffer `h`: pageable: pinning it costs more than its 2 copies would save (measured cost model)

// Without the cost model every safe change is made.
// ALL: cudaMallocAsync(&d, n * sizeof(float), sa_stream(0));
