// A stream-ordered cudaFree is ordered after every op that uses the buffer:
// `a` is uploaded on one stream and read by a kernel that runs on the other
// stream, so the release goes on the kernel's stream, behind the kernel,
// which already waited for the upload's event: the release needs no wait of
// its own and never runs ahead of the kernel or the upload.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %streamalloc --profitability=off %t.cu --dump=schedule > %t.dump
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=PLAN < %t.dump
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void add(const float *a, float *b) { b[threadIdx.x] += a[threadIdx.x]; }

int main() {
  float ha[32], hb[32];
  for (int i = 0; i < 32; ++i)
    ha[i] = hb[i] = i;
  float *a, *b;
  cudaMalloc(&a, sizeof(ha));
  cudaMalloc(&b, sizeof(hb));
  // CHECK: cudaMallocAsync(&a, sizeof(ha), sa_stream([[SA:[0-9]+]]));
  // CHECK: cudaMallocAsync(&b, sizeof(hb), sa_stream([[SB:[0-9]+]]));
  cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(a, ha, sizeof(ha), cudaMemcpyHostToDevice, sa_stream([[SA]]));
  // CHECK-NEXT: cudaEventRecord(sa_event([[E:[0-9]+]]), sa_stream([[SA]]));  // streamalloc: marks the end of cudaMemcpy for another stream
  cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice);
  add<<<1, 32>>>(a, b);
  cudaFree(a);
  // CHECK: cudaStreamWaitEvent(sa_stream([[SB]]), sa_event([[E]]), 0);  // streamalloc: order after cudaMemcpy on line {{[0-9]+}} (another stream)
  // CHECK-NEXT: add<<<1, 32, 0, sa_stream([[SB]])>>>(a, b);
  // CHECK-NEXT: sa_free_async(a, sa_stream([[SB]]));
  cudaMemcpy(hb, b, sizeof(hb), cudaMemcpyDeviceToHost);
  printf("%f\n", hb[31]);
  cudaFree(b);
  // CHECK: sa_free_async(b, sa_stream([[SB]]));
  // CHECK: cudaDeviceSynchronize();  // streamalloc: finish GPU work before leaving the function
  return 0;
}

// The release of `a` depends on its allocation, the upload and the kernel.
// PLAN: op5 line {{[0-9]+}} cudaFree -> stream {{[0-9]+}}
// PLAN-DAG: edge op0 -> op5 on a
// PLAN-DAG: edge op2 -> op5 on a
// PLAN-DAG: edge op4 -> op5 on a
