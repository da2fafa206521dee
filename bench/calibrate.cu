// bench/calibrate.cu: machine constants for bench/run's overlap bound, measured once per
// run on the GPU machine: context creation time, pinned and pageable copy bandwidth in
// both directions, the fixed cost of a small pinned copy, and kernel launch cost.
// Prints "key value" lines on stdout. Not a benchmark program (it is not in programs/).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "calibrate: CUDA error %s at line %d\n",                 \
              cudaGetErrorString(err_), __LINE__);                             \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

__global__ void empty_kernel() {}

// Best-of-reps GPU time (seconds) of one asynchronous copy on the legacy stream.
static double time_async_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                              int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a, 0));
    CHECK(cudaMemcpyAsync(dst, src, n, kind, 0));
    CHECK(cudaEventRecord(b, 0));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (ms * 1e-3 < best) best = ms * 1e-3;
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return best;
}

// Best-of-reps host wall time of a synchronous cudaMemcpy (what a program sees).
static double time_sync_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                             int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t = now();
    CHECK(cudaMemcpy(dst, src, n, kind));
    t = now() - t;
    if (t < best) best = t;
  }
  return best;
}

int main() {
  double t = now();
  CHECK(cudaFree(0));
  const double ctx = now() - t;

  const size_t big = (size_t)256 << 20;
  void *pinned, *pageable, *dev;
  CHECK(cudaMallocHost(&pinned, big));
  pageable = malloc(big);
  memset(pageable, 1, big);
  memset(pinned, 1, big);
  CHECK(cudaMalloc(&dev, big));
  // warm-up
  time_async_copy(dev, pinned, big, cudaMemcpyHostToDevice, 1);

  const double h2d_pinned = big / time_async_copy(dev, pinned, big, cudaMemcpyHostToDevice, 5);
  const double d2h_pinned = big / time_async_copy(pinned, dev, big, cudaMemcpyDeviceToHost, 5);
  const double h2d_pageable = big / time_sync_copy(dev, pageable, big, cudaMemcpyHostToDevice, 3);
  const double d2h_pageable = big / time_sync_copy(pageable, dev, big, cudaMemcpyDeviceToHost, 3);

  // Fixed cost of a small pinned copy: mean GPU time of back-to-back 8-byte copies.
  const int small_reps = 200;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  double lat[2];
  for (int dir = 0; dir < 2; ++dir) {
    CHECK(cudaEventRecord(a, 0));
    for (int r = 0; r < small_reps; ++r) {
      if (dir == 0)
        CHECK(cudaMemcpyAsync(dev, pinned, 8, cudaMemcpyHostToDevice, 0));
      else
        CHECK(cudaMemcpyAsync(pinned, dev, 8, cudaMemcpyDeviceToHost, 0));
    }
    CHECK(cudaEventRecord(b, 0));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    lat[dir] = ms * 1e-3 / small_reps;
  }
  // Host wall time of a small synchronous pageable copy (each way), as programs see it.
  const double small_sync_h2d = time_sync_copy(dev, pageable, 8, cudaMemcpyHostToDevice, 50);
  const double small_sync_d2h = time_sync_copy(pageable, dev, 8, cudaMemcpyDeviceToHost, 50);

  // Kernel launch: host cost per launch and GPU time per empty kernel.
  const int launches = 2000;
  empty_kernel<<<1, 32>>>();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventRecord(a, 0));
  t = now();
  for (int r = 0; r < launches; ++r) empty_kernel<<<1, 32>>>();
  const double launch_host = (now() - t) / launches;
  CHECK(cudaEventRecord(b, 0));
  CHECK(cudaEventSynchronize(b));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  const double launch_gpu = ms * 1e-3 / launches;
  CHECK(cudaGetLastError());

  printf("ctx_s %.6f\n", ctx);
  printf("h2d_pinned_Bps %.6e\nd2h_pinned_Bps %.6e\n", h2d_pinned, d2h_pinned);
  printf("h2d_pageable_Bps %.6e\nd2h_pageable_Bps %.6e\n", h2d_pageable, d2h_pageable);
  printf("h2d_small_pinned_s %.6e\nd2h_small_pinned_s %.6e\n", lat[0], lat[1]);
  printf("h2d_small_sync_s %.6e\nd2h_small_sync_s %.6e\n", small_sync_h2d, small_sync_d2h);
  printf("launch_host_s %.6e\nlaunch_gpu_s %.6e\n", launch_host, launch_gpu);

  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  CHECK(cudaFree(dev));
  CHECK(cudaFreeHost(pinned));
  free(pageable);
  return 0;
}
