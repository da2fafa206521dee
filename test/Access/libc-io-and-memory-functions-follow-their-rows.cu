// libc functions touch what their table rows say: fwrite reads its buffer and
// writes the program's output, fread and memset write their buffer, memcpy
// and strcpy read one and write the other, strlen reads.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=accesses | %FileCheck %s
#include <cstdio>
#include <cstring>

int main() {
  char a[64], b[64], c[64], e[64];
  FILE *f = fopen("data.bin", "rb");
  fread(a, 1, sizeof a, f);
  memset(b, 0, sizeof b);
  memcpy(c, a, sizeof a);
  strcpy(e, "x");
  size_t n = strlen(c);
  fwrite(b, 1, n, stdout);
  fclose(f);
  // CHECK: line 13: host a:W
  // CHECK-NEXT: line 14: host b:W
  // CHECK-NEXT: line 15: host a:R, c:W
  // CHECK-NEXT: line 16: host e:W
  // CHECK-NEXT: line 17: host c:R
  // CHECK-NEXT: line 18: host the program's output:W, b:R
  return 0;
}
