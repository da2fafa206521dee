// A helper that uploads through a pointer parameter, with no caller in view
// (other files may call it), cannot know whether what its callers pass is
// page-locked. Made asynchronous, the copy of that pageable memory would
// block the host just as cudaMemcpy does, and cost more: it stays
// cudaMemcpy, and the report says so. Without the cost model it is made
// asynchronous (the analysis allows it).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.report
// RUN: diff %t.cu %t.out.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.all.cu
// RUN: %FileCheck %s --check-prefix=ALL < %t.all.cu
// RUN: %nvcc %t.out.cu
__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= x[i];
}

void upload_and_square(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  square<<<(n + 255) / 256, 256>>>(d, n);
}

// CHECK: {{.*}}:{{[0-9]+}}:3: cudaMemcpy: left synchronous: not worth it: its host memory `*h{{.*}}` stays pageable, so an asynchronous copy would block the host like cudaMemcpy does and cost more, and no independent GPU work on another stream could overlap it
// ALL: cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
