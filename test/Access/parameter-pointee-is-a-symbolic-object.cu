// Inside a function, what a pointer parameter points to is a symbolic object
// named like the expression (`*in`), what a reference parameter refers to is
// the parameter (`acc`), and a pointer loaded from there is one more level
// (`**rows`).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
__global__ void k(const float *in, float **rows, float *out) {
  out[threadIdx.x] = in[threadIdx.x] + rows[1][threadIdx.x];
}

static void total(const float *in, int n, double &acc) {
  for (int i = 0; i < n; ++i)
    acc += in[i];
}

int main() {
  float h[4] = {1, 2, 3, 4};
  double s = 0;
  total(h, 4, s);
  return (int)s;
  // CHECK-LABEL: summary of k (kernel, line 8)
  // CHECK-NEXT: device reads: *in, *rows, **rows
  // CHECK-NEXT: device writes: *out
  // CHECK-LABEL: summary of total (host, line 12)
  // CHECK-NEXT: host reads: *in, acc
  // CHECK-NEXT: host writes: acc
}
