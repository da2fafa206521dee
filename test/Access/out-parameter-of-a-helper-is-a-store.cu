// A helper that allocates into its caller's struct (`cudaMalloc(&b->dev, n)`)
// stores a fresh device object there; the caller then knows what b.dev
// points to, and an op on it touches that object, not Unknown.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
struct Buf {
  float *dev;
  int n;
};

static void make(Buf *b, int n) {
  b->n = n;
  cudaMalloc(&b->dev, n * sizeof(float));
}

int main() {
  Buf b;
  make(&b, 64);
  cudaMemset(b.dev, 0, b.n * sizeof(float));
  // CHECK-LABEL: summary of make (host, line 12)
  // CHECK-NEXT: host writes: *b
  // CHECK-NEXT: stores: b->dev = new b->dev (device-alloc)
  // CHECK-LABEL: summary of main (host, line 17)
  // CHECK: op0 line 20:3 cudaMemset reads: -; writes: b->dev (allocated in `make`)
  return 0;
}
