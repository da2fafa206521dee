// A kernel that takes a struct by value reads and writes through the
// pointers in its fields (`*v.in`, `*v.out`); a launch maps them to what the
// argument's fields point to.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
struct View {
  const float *in;
  float *out;
  int n;
};

__global__ void copy(View v) {
  if (threadIdx.x < v.n)
    v.out[threadIdx.x] = v.in[threadIdx.x];
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 64);
  cudaMalloc(&b, 64);
  View v = {a, b, 16};
  copy<<<1, 16>>>(v);
  // CHECK-LABEL: summary of copy (kernel, line 13)
  // CHECK-NEXT: device reads: *v.in
  // CHECK-NEXT: device writes: *v.out
  // CHECK: op0 line 23:3 copy reads: a; writes: b
  return 0;
}
