// offload: a timed region around copies, a kernel and a host reference (a get_time()
// wrapper of gettimeofday), a debug print in an #ifdef block this build does not compile.
#include <cstdio>
#include <cstdlib>
#include <sys/time.h>
#include <cuda_runtime.h>

static double get_time() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

int main(int argc, char *argv[]) {
  if (argc != 3) {
    printf("Usage: %s <n> <repeat>\n", argv[0]);
    return 1;
  }
  const int n = atoi(argv[1]);
  const int repeat = atoi(argv[2]);
  const size_t bytes = n * sizeof(float);
  float *in = (float *)malloc(bytes);
  float *out = (float *)malloc(bytes);
  float *ref = (float *)malloc(bytes);
  float *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);

  bool ok = true;
  double total = 0.0;
  for (int r = 0; r < repeat; r++) {
    for (int i = 0; i < n; i++) in[i] = (float)((i + r) % 13);
    double start = get_time();
    cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
    square<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) ref[i] = in[i] * in[i];
#ifdef DEBUG
    printf("repeat %d: out[1] = %f\n", r, out[1]);
#endif
    total += get_time() - start;
    for (int i = 0; i < n; i++)
      if (out[i] != ref[i]) ok = false;
  }
  printf("Average offload time: %f (s)\n", total / repeat);
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(d_in);
  cudaFree(d_out);
  free(in);
  free(out);
  free(ref);
  return 0;
}
