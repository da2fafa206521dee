#include <cstdio>
int main() {
  int h[4] = {0}, *d;
  cudaMalloc(&d, sizeof h);
#ifdef WITH_COPY
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
#endif
  printf("%d\n", h[0]);
  return 0;
}
