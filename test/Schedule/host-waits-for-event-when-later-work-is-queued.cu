// The host reads `mid` while a second kernel and copy are already queued on
// the same stream: it waits for an event recorded after the copy of `mid`
// (an event sync), not for the whole stream. `out` comes from the
// last op on the stream, so that wait synchronises the stream.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu
// RUN: %streamalloc --profitability=off %t.cu --dump=schedule > %t.schedule 2>&1
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize --implicit-check-not=cudaEventRecord
// RUN: %FileCheck %s --check-prefix=SCHEDULE < %t.schedule
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void step(float *x) { x[threadIdx.x] = x[threadIdx.x] * 2.0f + 1.0f; }

int main() {
  const int n = 256;
  float *in = (float *)malloc(n * sizeof(float));
  float *mid = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  float *d;
  for (int i = 0; i < n; ++i)
    in[i] = i;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, in, n * sizeof(float), cudaMemcpyHostToDevice);
  step<<<1, n>>>(d);
  cudaMemcpy(mid, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(mid, d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream([[S:[0-9]+]]));
  // CHECK-NEXT: cudaEventRecord(sa_event([[E:[0-9]+]]), sa_stream([[S]]));  // streamalloc: marks the end of cudaMemcpy for the host
  step<<<1, n>>>(d);
  cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("mid %f\n", mid[3]);
  // CHECK: cudaEventSynchronize(sa_event([[E]]));  // streamalloc: mid is read below (written by cudaMemcpy on line 28)
  // CHECK-NEXT: printf("mid %f\n", mid[3]);
  printf("out %f\n", out[3]);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: out is read below (written by cudaMemcpy on line 32)
  // CHECK-NEXT: printf("out %f\n", out[3]);
  cudaFree(d);
  // CHECK: sa_free_async(d, sa_stream([[S]]));
  free(in);
  free(mid);
  free(out);
  // CHECK: cudaStreamSynchronize(sa_stream([[S]]));  // streamalloc: finish GPU work before leaving the function
  return 0;
}

// SCHEDULE: event 0 recorded on stream 0 after op3 (for the host)
// SCHEDULE: wait 0 syncs event 0
// SCHEDULE: wait 1 syncs stream 0
