// Two functions that call each other are one strongly connected component of
// the call graph: their summaries are iterated together until they stop
// changing, so each says exactly which parameters it reads and writes
// (swapped on every call) instead of Unknown.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
static void odd(float *a, float *b, int n);

static void even(float *a, float *b, int n) {
  if (n > 0) {
    a[n] = 1.0f;
    odd(b, a, n - 1);
  }
}

static void odd(float *a, float *b, int n) {
  if (n > 0) {
    b[n] += a[n];
    even(a, b, n - 1);
  }
}

int main() {
  float x[8] = {0}, y[8] = {0};
  even(x, y, 7);
  return (int)x[1];
  // CHECK-LABEL: summary of even (host, line 10)
  // CHECK-NEXT: host reads: *a, *b
  // CHECK-NEXT: host writes: *a, *b
  // CHECK-NEXT: flags: recursive
  // CHECK-LABEL: summary of odd (host, line 17)
  // CHECK-NEXT: host reads: *a, *b
  // CHECK-NEXT: host writes: *a, *b
  // CHECK-NEXT: flags: recursive
}
