// heat2d: explicit 2D heat diffusion (5-point Jacobi stencil) on a 4096 x 4096 plate
// with a hot top edge. Every SNAP_EVERY steps the whole grid is copied back and the host
// computes statistics of the snapshot; at the end the CPU re-computes the last time
// step from the previous grid as a reference check.
//
// Pattern: stencil / time-step loop with periodic readback.
// Overlap in principle: the snapshot download and the host statistics of snapshot k
// can run while the GPU computes the next SNAP_EVERY steps (the stencil needs its own
// copy of the snapshot, since it overwrites both grids).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

static const int N = 4096;
static const int STEPS = 4000;
static const int SNAP_EVERY = 200;
static const float ALPHA = 0.2f;

__global__ void heat_step(const float *in, float *out, int n, float alpha) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < n - 1 && y > 0 && y < n - 1) {
    size_t i = (size_t)y * n + x;
    float c = in[i];
    float lap = in[i - 1] + in[i + 1] + in[i - n] + in[i + n] - 4.0f * c;
    out[i] = c + alpha * lap;
  }
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static void init_plate(float *g, int n) {
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      float v;
      if (y == 0)
        v = 1.0f; // hot edge
      else if (y == n - 1 || x == 0 || x == n - 1)
        v = 0.0f; // cold edges
      else
        v = 0.5f * (float)(hash32((uint32_t)(y * n + x)) >> 8) * (1.0f / 16777216.0f);
      g[(size_t)y * n + x] = v;
    }
}

static void grid_stats(const float *g, int n, double *total, float *maxv, size_t *hot) {
  double t = 0.0;
  float m = 0.0f;
  size_t h = 0;
  const size_t count = (size_t)n * n;
  for (size_t i = 0; i < count; ++i) {
    float v = g[i];
    t += v;
    if (v > m) m = v;
    if (v > 0.25f) ++h;
  }
  *total = t;
  *maxv = m;
  *hot = h;
}

int main() {
  const size_t bytes = (size_t)N * N * sizeof(float);
  float *h_grid = (float *)malloc(bytes);
  float *h_snap = (float *)malloc(bytes);
  float *h_prev = (float *)malloc(bytes);
  init_plate(h_grid, N);

  float *d_a, *d_b;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMemcpy(d_a, h_grid, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_grid, bytes, cudaMemcpyHostToDevice); // boundary values in both

  dim3 block(32, 8);
  dim3 grid(N / 32, N / 8);
  for (int step = 1; step <= STEPS; ++step) {
    heat_step<<<grid, block>>>(d_a, d_b, N, ALPHA);
    float *tmp = d_a;
    d_a = d_b;
    d_b = tmp;
    if (step % SNAP_EVERY == 0) {
      cudaMemcpy(h_snap, d_a, bytes, cudaMemcpyDeviceToHost);
      double total;
      float maxv;
      size_t hot;
      grid_stats(h_snap, N, &total, &maxv, &hot);
      printf("step %5d: total %.6f max %.6f hot-cells %zu\n", step, total, maxv, hot);
    }
  }

  // Reference check of the last step: h_snap holds step STEPS, d_b holds step STEPS-1.
  cudaMemcpy(h_prev, d_b, bytes, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  double maxdiff = 0.0;
  size_t out_of_range = 0;
  for (int y = 1; y < N - 1; ++y)
    for (int x = 1; x < N - 1; ++x) {
      size_t i = (size_t)y * N + x;
      float c = h_prev[i];
      float ref = c + ALPHA * (h_prev[i - 1] + h_prev[i + 1] + h_prev[i - N] +
                               h_prev[i + N] - 4.0f * c);
      double d = fabs((double)ref - (double)h_snap[i]);
      if (d > maxdiff) maxdiff = d;
      if (h_snap[i] < -1e-6f || h_snap[i] > 1.0f + 1e-6f) ++out_of_range;
    }
  cudaFree(d_a);
  cudaFree(d_b);
  free(h_grid);
  free(h_snap);
  free(h_prev);
  if (maxdiff > 1e-5 || out_of_range != 0) {
    printf("FAILED: last step differs from CPU reference by %.3e, %zu cells out of [0,1]\n",
           maxdiff, out_of_range);
    return 1;
  }
  printf("heat2d: OK (last step matches CPU reference)\n");
  return 0;
}
