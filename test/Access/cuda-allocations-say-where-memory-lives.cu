// CUDA allocations are objects whose kind says where the memory lives:
// cudaMalloc and cudaMallocPitch on the device, cudaMallocHost and
// cudaHostAlloc pinned on the host, cudaMallocManaged reachable from both.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --stream-ordered-alloc=off %t.cu --dump=accesses | %FileCheck %s
int main() {
  float *d, *p, *h, *ha, *m;
  size_t pitch;
  cudaMalloc(&d, 64);
  cudaMallocPitch(&p, &pitch, 64, 4);
  cudaMallocHost(&h, 64);
  cudaHostAlloc(&ha, 64, cudaHostAllocDefault);
  cudaMallocManaged(&m, 64);
  cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(p, ha, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(m, d, 64, cudaMemcpyDeviceToDevice);
  // CHECK-LABEL: function main
  // CHECK: #{{[0-9]+}} d (device-alloc, line 10)
  // CHECK-NEXT: #{{[0-9]+}} p (device-alloc, line 11)
  // CHECK-NEXT: #{{[0-9]+}} h (pinned-alloc, line 12)
  // CHECK-NEXT: #{{[0-9]+}} ha (pinned-alloc, line 13)
  // CHECK-NEXT: #{{[0-9]+}} m (managed-alloc, line 14)
  // CHECK: op2 line 17:3 cudaMemcpy effects: d:R, m:W
  return 0;
}
