// A lambda that may run on another thread, or later, is left as written: its
// work stays on the legacy stream, which orders it with the tool's blocking
// streams. Stored in a std::function it may run anywhere; a library function
// other than a sequential algorithm (std::bind here) may keep it or hand it
// to a thread. The report says which use it was.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <functional>


__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main() {
  int h[64] = {0}, *d;
  cudaMalloc(&d, sizeof h);
  std::function<void(int)> stored = [&](int p) {
    inc<<<1, 32>>>(d + 32 * p);
    // CHECK: inc<<<1, 32>>>(d + 32 * p);
    cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: cudaMemcpy(h + 32 * p, d + 32 * p, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  };
  stored(0);
  auto handed = [&](int p) {
    inc<<<1, 32>>>(d + 32 * p);
    // CHECK: inc<<<1, 32>>>(d + 32 * p);
  };
  std::bind(handed, 1)();
  printf("%d %d\n", h[0], h[63]);
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:22:5: inc: left synchronous: inside a lambda that may run other than during a call on its caller's thread: it is passed to a constructor of `std::function<void (int)>`, which may keep it or run it on another thread (line 21); its work stays on the legacy stream, which orders it with the rest
// REPORT: {{.*}}:24:5: cudaMemcpy: left synchronous: inside a lambda that may run other than during a call on its caller's thread: it is passed to a constructor of `std::function<void (int)>`, which may keep it or run it on another thread (line 21); its work stays on the legacy stream, which orders it with the rest
// REPORT: {{.*}}:29:5: inc: left synchronous: inside a lambda that may run other than during a call on its caller's thread: it is passed to `std::bind`, which is not known to run it only before it returns, on the caller's thread (line 32); its work stays on the legacy stream, which orders it with the rest
