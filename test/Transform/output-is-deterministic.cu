// The same input always gives the same output. Memory-object ids once came
// from the iteration order of a DenseMap keyed by pointers, so when a pending
// op wrote two host allocations and the next statement read both, the wait's
// comment named `h` in some runs and `g` in others. Twelve runs must agree.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.0.cu
// RUN: for i in 1 2 3 4 5 6 7 8 9 10 11; do %streamalloc %t.cu -o %t.$i.cu && cmp %t.0.cu %t.$i.cu || exit 1; done
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  float *h = (float *)malloc(64);
  float *g = (float *)malloc(64);
  float *d;
  cudaMalloc(&d, 64);
  cudaMemset(d, 0, 64);
  float *p = h;
  if (argc > 1)
    p = g;
  cudaMemcpy(p, d, 64, cudaMemcpyDeviceToHost);
  printf("%f %f\n", h[0], g[0]);
  free(h);
  free(g);
  cudaFree(d);
  return 0;
}
