// A pointer handed to a function without a body or model escapes: what the
// struct it points to holds may be changed by that code, so a pointer loaded
// from it afterwards is Unknown, and the callee may touch anything.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
struct Buf {
  float *dev;
};

void register_buffer(Buf *b);

int main() {
  Buf b;
  cudaMalloc(&b.dev, 64);
  register_buffer(&b);
  cudaMemset(b.dev, 0, 64);
  // CHECK: op0 line 17:3 cudaMemset reads: -; writes: <unknown> (unknown: the address of `b` is taken)
  return 0;
}
