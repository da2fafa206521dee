// pipeline: rounds of GPU work written in an included header (include/pipeline.cuh),
// and a second translation unit that includes the same header.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "pipeline.cuh"

int main(int argc, char *argv[]) {
  if (argc != 3) {
    printf("Usage: %s <n> <rounds>\n", argv[0]);
    return 1;
  }
  const int n = atoi(argv[1]);
  const int rounds = atoi(argv[2]);
  double average = 0.0;
  bool ok = cube_rounds(n, rounds, &average);
  double expect = 0.0;
  for (int i = 0; i < n; i++) expect += (double)(i % 7) * (i % 7) * (i % 7);
  if (cube_sum(n) != expect) ok = false;
  printf("Average round time: %f (s)\n", average);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
