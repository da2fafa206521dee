// A reference parameter names the caller's object: the helper's summary
// writes `total` and `hist` (what the reference refers to), and the call
// instantiates them with the arguments.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
static void count(const int *v, int n, long &total, int (&hist)[4]) {
  for (int i = 0; i < n; ++i) {
    total += v[i];
    hist[v[i] & 3]++;
  }
}

int main() {
  int v[8] = {0}, hist[4] = {0}, *d;
  long total = 0;
  cudaMalloc(&d, sizeof v);
  cudaMemcpy(v, d, sizeof v, cudaMemcpyDeviceToHost);
  count(v, 8, total, hist);
  return (int)total + hist[0];
  // CHECK-LABEL: summary of count (host, line 7)
  // CHECK-NEXT: host reads: *v, total, hist
  // CHECK-NEXT: host writes: total, hist
}
