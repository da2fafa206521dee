// heat2d (expert asynchronous version): explicit 2D heat diffusion (5-point Jacobi
// stencil) on a 4096 x 4096 plate with a hot top edge, snapshot statistics every
// SNAP_EVERY steps, CPU check of the last step.
//
// Hand-written asynchronous version: the stencil runs on a compute stream; a snapshot is
// a device-to-device copy into one of two snapshot buffers on that stream, followed by a
// download into pinned host memory on a copy stream. The host always queues the next
// SNAP_EVERY steps before it waits for a snapshot, so its statistics overlap the GPU.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),    \
              __FILE__, __LINE__);                                             \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

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
  const int SNAPS = STEPS / SNAP_EVERY;
  float *h_grid, *h_prev, *h_snap[2];
  CHECK(cudaMallocHost(&h_grid, bytes));
  CHECK(cudaMallocHost(&h_prev, bytes));
  CHECK(cudaMallocHost(&h_snap[0], bytes));
  CHECK(cudaMallocHost(&h_snap[1], bytes));
  float *d_a, *d_b, *d_snap[2];
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_snap[0], bytes));
  CHECK(cudaMalloc(&d_snap[1], bytes));

  cudaStream_t compute, copy;
  CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
  cudaEvent_t snap_taken[2], snap_home[2];
  for (int i = 0; i < 2; ++i) {
    CHECK(cudaEventCreateWithFlags(&snap_taken[i], cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&snap_home[i], cudaEventDisableTiming));
  }

  init_plate(h_grid, N);
  CHECK(cudaMemcpyAsync(d_a, h_grid, bytes, cudaMemcpyHostToDevice, compute));
  CHECK(cudaMemcpyAsync(d_b, h_grid, bytes, cudaMemcpyHostToDevice, compute));

  dim3 block(32, 8);
  dim3 grid(N / 32, N / 8);
  // Queues the steps of segment k and its snapshot; returns nothing, keeps d_a/d_b swapped.
  auto enqueue_segment = [&](int k) {
    for (int step = k * SNAP_EVERY + 1; step <= (k + 1) * SNAP_EVERY; ++step) {
      heat_step<<<grid, block, 0, compute>>>(d_a, d_b, N, ALPHA);
      float *tmp = d_a;
      d_a = d_b;
      d_b = tmp;
    }
    const int slot = k % 2;
    if (k >= 2) // d_snap[slot] is still being downloaded for snapshot k-2
      CHECK(cudaStreamWaitEvent(compute, snap_home[slot], 0));
    CHECK(cudaMemcpyAsync(d_snap[slot], d_a, bytes, cudaMemcpyDeviceToDevice, compute));
    CHECK(cudaEventRecord(snap_taken[slot], compute));
    CHECK(cudaStreamWaitEvent(copy, snap_taken[slot], 0));
    // h_snap[slot] was last read by the host for snapshot k-2, which finished before
    // this call (the host processes snapshot k-1 only after queueing segment k).
    CHECK(cudaMemcpyAsync(h_snap[slot], d_snap[slot], bytes, cudaMemcpyDeviceToHost, copy));
    CHECK(cudaEventRecord(snap_home[slot], copy));
  };

  enqueue_segment(0);
  for (int k = 0; k < SNAPS; ++k) {
    if (k + 1 < SNAPS) enqueue_segment(k + 1); // keep the GPU busy while we read snapshot k
    const int slot = k % 2;
    CHECK(cudaEventSynchronize(snap_home[slot]));
    double total;
    float maxv;
    size_t hot;
    grid_stats(h_snap[slot], N, &total, &maxv, &hot);
    printf("step %5d: total %.6f max %.6f hot-cells %zu\n", (k + 1) * SNAP_EVERY, total,
           maxv, hot);
  }
  CHECK(cudaGetLastError());

  // Reference check of the last step: the last snapshot holds step STEPS, d_b step STEPS-1.
  const float *h_last = h_snap[(SNAPS - 1) % 2];
  CHECK(cudaMemcpyAsync(h_prev, d_b, bytes, cudaMemcpyDeviceToHost, compute));
  CHECK(cudaStreamSynchronize(compute));
  CHECK(cudaStreamSynchronize(copy));
  double maxdiff = 0.0;
  size_t out_of_range = 0;
  for (int y = 1; y < N - 1; ++y)
    for (int x = 1; x < N - 1; ++x) {
      size_t i = (size_t)y * N + x;
      float c = h_prev[i];
      float ref = c + ALPHA * (h_prev[i - 1] + h_prev[i + 1] + h_prev[i - N] +
                               h_prev[i + N] - 4.0f * c);
      double d = fabs((double)ref - (double)h_last[i]);
      if (d > maxdiff) maxdiff = d;
      if (h_last[i] < -1e-6f || h_last[i] > 1.0f + 1e-6f) ++out_of_range;
    }
  for (int i = 0; i < 2; ++i) {
    CHECK(cudaEventDestroy(snap_taken[i]));
    CHECK(cudaEventDestroy(snap_home[i]));
    CHECK(cudaFree(d_snap[i]));
    CHECK(cudaFreeHost(h_snap[i]));
  }
  CHECK(cudaStreamDestroy(compute));
  CHECK(cudaStreamDestroy(copy));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFreeHost(h_grid));
  CHECK(cudaFreeHost(h_prev));
  if (maxdiff > 1e-5 || out_of_range != 0) {
    printf("FAILED: last step differs from CPU reference by %.3e, %zu cells out of [0,1]\n",
           maxdiff, out_of_range);
    return 1;
  }
  printf("heat2d: OK (last step matches CPU reference)\n");
  return 0;
}
