// stencil: 1-D three-point Jacobi sweeps, buffers owned by a class, an OpenMP reference.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <omp.h>
#include <cuda_runtime.h>

__global__ void sweep(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
  else if (i == 0 || i == n - 1) out[i] = in[i];
}

class Grid {
 public:
  explicit Grid(int n) : n_(n) {
    cudaMalloc(&a_, n * sizeof(float));
    cudaMalloc(&b_, n * sizeof(float));
  }
  ~Grid() {
    cudaFree(a_);
    cudaFree(b_);
  }
  void upload(const float *h) { cudaMemcpy(a_, h, n_ * sizeof(float), cudaMemcpyHostToDevice); }
  void step() {
    sweep<<<(n_ + 127) / 128, 128>>>(a_, b_, n_);
    float *t = a_;
    a_ = b_;
    b_ = t;
  }
  void download(float *h) { cudaMemcpy(h, a_, n_ * sizeof(float), cudaMemcpyDeviceToHost); }

 private:
  int n_;
  float *a_, *b_;
};

int main(int argc, char *argv[]) {
  if (argc != 3) {
    printf("Usage: %s <n> <steps>\n", argv[0]);
    return 1;
  }
  const int n = atoi(argv[1]);
  const int steps = atoi(argv[2]);
  float *h = (float *)malloc(n * sizeof(float));
  float *ref = (float *)malloc(n * sizeof(float));
  float *tmp = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) ref[i] = h[i] = (i % 32) ? 0.0f : 1.0f;

  Grid g(n);
  g.upload(h);
  for (int s = 0; s < steps; s++) g.step();
  g.download(h);

  for (int s = 0; s < steps; s++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      tmp[i] = (i > 0 && i < n - 1) ? (ref[i - 1] + ref[i] + ref[i + 1]) / 3.0f : ref[i];
    float *t = ref;
    ref = tmp;
    tmp = t;
  }
  bool ok = true;
  for (int i = 0; i < n; i++)
    if (std::fabs(ref[i] - h[i]) > 1e-5f) ok = false;
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(h);
  free(ref);
  free(tmp);
  return 0;
}
