// A helper that calls a function with neither a body nor a model may read and
// write any memory (Unknown) and store any pointer anywhere it can reach; its
// summary says so and names the callee.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
void vendor_fft(float *data, int n);

static void transform(float *data, int n) { vendor_fft(data, n); }

int main() {
  float h[16] = {0};
  transform(h, 16);
  // CHECK-LABEL: summary of transform (host, line 9)
  // CHECK-NEXT: unknown: host RW (call to `vendor_fft`, which has no model or body)
  // CHECK-NEXT: escapes: *data
  // CHECK-NEXT: flags: may store unknown pointers
  // CHECK-LABEL: summary of main (host, line 11)
  // CHECK-NEXT: unknown: host RW (`transform` reaches call to `vendor_fft`, which has no model or body)
  return 0;
}
