// A launch loop with a cudaDeviceSynchronize() after every launch and a clock
// read only after the loop: the per-launch syncs protect no host access, so
// they are removed (the default), and one wait right before the clock read
// stands in for them, so the printed time still covers every launch. A sync
// followed by a clock read in the same pass stays: it runs as often as that
// wait would, and keeps the program's own code. --keep-syncs keeps both.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off --keep-syncs %t.cu -o %t.keep.cu --report-file=%t.keep.report
// RUN: %FileCheck %s --check-prefix=KEEP < %t.keep.cu
// RUN: %FileCheck %s --check-prefix=KEEP-REPORT < %t.keep.report
// RUN: %nvcc %t.keep.cu
#include <cstdio>
#include <ctime>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

int main() {
  float h[64] = {}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  clock_t t0 = clock();
  for (int it = 0; it < 100; ++it) {
    step<<<1, 64>>>(d);
    cudaDeviceSynchronize();
  }
  clock_t t1 = clock();
  // CHECK: {{^    }}step<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: {{^    }}// streamalloc: removed a redundant cudaDeviceSynchronize() ({{.*}})
  // CHECK-NEXT: {{^  }}}
  // CHECK-NEXT: {{^  }}cudaStreamSynchronize(sa_stream({{[0-9]+}})); // streamalloc: the original had finished these ops when it read the clock on line 31
  // CHECK-NEXT: {{^  }}clock_t t1 = clock();
  // KEEP: {{^    }}cudaDeviceSynchronize();
  // KEEP-NEXT: {{^  }}}
  // KEEP-NEXT: {{^  }}clock_t t1 = clock();
  step<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  clock_t t2 = clock();
  // CHECK: {{^  }}step<<<1, 64, 0, sa_stream({{[0-9]+}})>>>(d);
  // CHECK-NEXT: {{^  }}cudaDeviceSynchronize();
  // CHECK-NEXT: {{^  }}clock_t t2 = clock();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f %ld %ld\n", h[0], (long)(t1 - t0), (long)(t2 - t1));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:29: cudaDeviceSynchronize(): redundant, removed: {{.*}}; the wait before the clock read on line 31 stands in for it
// REPORT: {{.*}}:41: cudaDeviceSynchronize(): redundant, kept: {{.*}}; kept: the clock is read on line 42 before the next sync, so the printed time keeps measuring this work
// REPORT: note: redundant syncs were removed (--keep-syncs keeps them){{.*}}
// KEEP-REPORT: {{.*}}:29: cudaDeviceSynchronize(): redundant, kept: {{.*}}
