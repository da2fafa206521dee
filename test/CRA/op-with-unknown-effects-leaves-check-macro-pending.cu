// An op whose source is Unknown (a pointer returned by std::vector::data)
// inside CHECK(...): the macro's block declares `err_`, but no one takes its
// address, so Unknown effects cannot reach it and the copy may stay pending
// after the macro. The stream-ordered copy is waited for only before return.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=cudaStreamSynchronize
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s\n", cudaGetErrorString(err_));            \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main() {
  std::vector<float> points(64, 1.0f);
  float *d;
  CHECK(cudaMalloc(&d, 64 * sizeof(float)));
  CHECK(cudaMemcpy(d, points.data(), 64 * sizeof(float), cudaMemcpyHostToDevice));
  // CHECK: CHECK(cudaMemcpyAsync(d, points.data(), 64 * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0)));
  printf("uploaded\n");
  // CHECK: printf("uploaded\n");
  // CHECK: cudaStreamSynchronize(sa_stream(0));  // streamalloc: finish GPU work before leaving the function
  // CHECK-NEXT: sa_release_streams();  // streamalloc: release the streams before CUDA shuts down
  // CHECK-NEXT: return 0;
  return 0;
}

// REPORT: {{.*}}:28:9: cudaMemcpy: async on stream 0, waited for before line 35
