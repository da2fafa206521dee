// bench/pin-cost.cu: the constants of streamalloc's pinning cost model
// (include/streamalloc/Transform/HostPinning.h, PinCostModel), measured on the GPU machine.
//
//   nvcc -O2 -arch=sm_90 bench/pin-cost.cu -o pin-cost && ./pin-cost
//
// For a few buffer sizes it times, best of several repetitions:
//   malloc_touch_free     malloc + first touch (memset) + free        (what the program does now)
//   pinned_touch_free     cudaMallocHost + memset + cudaFreeHost       (--pin=alloc)
//   register_unregister   cudaHostRegister + cudaHostUnregister of touched malloc memory
//   h2d/d2h pageable and pinned copy bandwidth (cudaMemcpy)
// and prints "key value" lines: per-GB costs (s/GB), bandwidths (GB/s) and the fixed costs of
// small (4 KiB) allocations. Not a benchmark program (it is not in programs/).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#define CHECK(call)                                                                            \
  do {                                                                                         \
    cudaError_t err_ = (call);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      fprintf(stderr, "pin-cost: CUDA error %s at line %d\n", cudaGetErrorString(err_),       \
              __LINE__);                                                                       \
      exit(2);                                                                                 \
    }                                                                                          \
  } while (0)

static double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double best(double a, double b) { return a < b ? a : b; }

// Reading the touched memory back into a volatile keeps the compiler from
// removing malloc + memset + free as dead code.
static volatile unsigned char sink;
static void touch(char *p, size_t bytes, int value) {
  memset(p, value, bytes);
  for (size_t i = 0; i < bytes; i += 4096)
    sink = sink + (unsigned char)p[i];
}

struct Costs {
  double malloc_s, pinned_s, register_s, unregister_s;
};

static Costs allocation_costs(size_t bytes, int reps) {
  Costs c = {1e9, 1e9, 1e9, 1e9};
  for (int r = 0; r < reps; ++r) {
    double t = now();
    char *p = (char *)malloc(bytes);
    touch(p, bytes, r);
    free(p);
    c.malloc_s = best(c.malloc_s, now() - t);

    t = now();
    char *q = nullptr;
    CHECK(cudaMallocHost((void **)&q, bytes));
    touch(q, bytes, r);
    CHECK(cudaFreeHost(q));
    c.pinned_s = best(c.pinned_s, now() - t);

    char *m = (char *)malloc(bytes);
    touch(m, bytes, r);
    t = now();
    CHECK(cudaHostRegister(m, bytes, cudaHostRegisterDefault));
    double mid = now();
    CHECK(cudaHostUnregister(m));
    double end = now();
    free(m);
    c.register_s = best(c.register_s, mid - t);
    c.unregister_s = best(c.unregister_s, end - mid);
  }
  return c;
}

static double copy_gbps(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, int reps) {
  double t_best = 1e9;
  for (int r = 0; r < reps; ++r) {
    double t = now();
    CHECK(cudaMemcpy(dst, src, bytes, kind));
    t_best = best(t_best, now() - t);
  }
  return (double)bytes / t_best / 1e9;
}

int main() {
  CHECK(cudaFree(nullptr)); // context creation is not part of any figure
  const double GB = 1e9;
  const size_t sizes[] = {(size_t)64 << 20, (size_t)512 << 20};
  for (size_t bytes : sizes) {
    Costs c = allocation_costs(bytes, 3);
    unsigned mb = (unsigned)(bytes >> 20);
    printf("malloc_touch_free_s_per_GB@%uMiB %.4f\n", mb, c.malloc_s / (bytes / GB));
    printf("pinned_touch_free_s_per_GB@%uMiB %.4f\n", mb, c.pinned_s / (bytes / GB));
    printf("alloc_extra_s_per_GB@%uMiB %.4f\n", mb, (c.pinned_s - c.malloc_s) / (bytes / GB));
    printf("register_s_per_GB@%uMiB %.4f\n", mb, c.register_s / (bytes / GB));
    printf("unregister_s_per_GB@%uMiB %.4f\n", mb, c.unregister_s / (bytes / GB));
  }
  Costs small = allocation_costs(4096, 20);
  printf("alloc_fixed_s %.7f\n", small.pinned_s - small.malloc_s);
  printf("register_fixed_s %.7f\n", small.register_s + small.unregister_s);

  const size_t bytes = (size_t)256 << 20;
  char *pageable = (char *)malloc(bytes), *pinned = nullptr, *dev = nullptr;
  memset(pageable, 1, bytes);
  CHECK(cudaMallocHost((void **)&pinned, bytes));
  memset(pinned, 1, bytes);
  CHECK(cudaMalloc((void **)&dev, bytes));
  printf("h2d_pageable_GBps %.2f\n", copy_gbps(dev, pageable, bytes, cudaMemcpyHostToDevice, 5));
  printf("d2h_pageable_GBps %.2f\n", copy_gbps(pageable, dev, bytes, cudaMemcpyDeviceToHost, 5));
  printf("h2d_pinned_GBps %.2f\n", copy_gbps(dev, pinned, bytes, cudaMemcpyHostToDevice, 5));
  printf("d2h_pinned_GBps %.2f\n", copy_gbps(pinned, dev, bytes, cudaMemcpyDeviceToHost, 5));
  CHECK(cudaFree(dev));
  CHECK(cudaFreeHost(pinned));
  free(pageable);
  return 0;
}
