// Deferred variant of fuzz/emu/cuda_runtime.h, for checking waits without a GPU.
//
// Work enqueued on a stream other than the legacy default stream is not run at the call:
// it is queued per stream and runs only when the host must wait for it (a stream, event or
// device synchronisation, work on the legacy stream, which orders after every blocking
// stream, cudaFree/cudaFreeHost, cudaDeviceReset). Streams are drained in an adversarial
// order (SA_EMU_STREAMS=reverse, the default, or forward), honouring only the event
// dependencies the program states (cudaEventRecord / cudaStreamWaitEvent, per record).
// A missing wait therefore shows up as a stale read or a lost write (a different output),
// a missing cross-stream dependency as ops running in the wrong order, and a buffer freed
// or a stack array left while work on it is queued as an AddressSanitizer error.
// Work still queued when the program exits never runs (as on a GPU whose context is torn
// down): output a kernel would have printed is missing.
//
// Kept in step with fuzz/emu/cuda_runtime.h (same API surface); fuzz/defer-check uses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __constant__

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1)
      : x(x_), y(y_), z(z_) {}
};
typedef dim3 uint3;

inline dim3 blockIdx, threadIdx, blockDim, gridDim;

inline long long sa_emu_clock_ = 0;
// Advances by a lot on every read, so that delay loops end after one iteration.
inline long long clock64() { return sa_emu_clock_ += (1LL << 40); }
inline void __nanosleep(unsigned int) {}
inline void __syncthreads() {}

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
} cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

typedef struct sa_emu_stream_ *cudaStream_t;
typedef struct sa_emu_event_ *cudaEvent_t;

// DEFERRED MODE (validation only): work on a non-default stream is queued per stream and
// runs only when the host must wait for it; streams are drained in an adversarial order
// (SA_EMU_STREAMS=reverse|forward), honouring only event dependencies.
struct sa_emu_item {
  int kind;  // 0 work, 1 record (seq), 2 wait for record (seq)
  long seq;
  std::function<void()> fn;
};
inline std::map<cudaStream_t, std::deque<sa_emu_item>> sa_emu_queues_;
inline std::vector<cudaStream_t> sa_emu_order_;
inline long sa_emu_seq_ = 0;
inline std::map<cudaEvent_t, long> sa_emu_latest_;       // latest record of each event
inline std::map<long, cudaStream_t> sa_emu_record_stream_; // pending records
inline bool sa_emu_async(cudaStream_t s) {
  return s != 0 && s != (cudaStream_t)0x1 && s != (cudaStream_t)0x2;
}
inline std::deque<sa_emu_item> &sa_emu_q(cudaStream_t s) {
  auto it = sa_emu_queues_.find(s);
  if (it == sa_emu_queues_.end()) {
    sa_emu_order_.push_back(s);
    return sa_emu_queues_[s];
  }
  return it->second;
}
inline void sa_emu_step(cudaStream_t s);
inline void sa_emu_until_record(long seq) {
  while (sa_emu_record_stream_.count(seq)) sa_emu_step(sa_emu_record_stream_[seq]);
}
inline void sa_emu_step(cudaStream_t s) {
  std::deque<sa_emu_item> &q = sa_emu_q(s);
  if (q.empty()) { fprintf(stderr, "EMU-ERROR record never queued\n"); abort(); }
  sa_emu_item it = q.front();
  q.pop_front();
  if (it.kind == 0) it.fn();
  else if (it.kind == 1) sa_emu_record_stream_.erase(it.seq);
  else sa_emu_until_record(it.seq);
}
inline void sa_emu_run_stream(cudaStream_t s) {
  while (!sa_emu_q(s).empty()) sa_emu_step(s);
}
inline bool sa_emu_forward_streams() {
  const char *e = getenv("SA_EMU_STREAMS");
  return e && strcmp(e, "forward") == 0;
}
inline void sa_emu_flush_all() {
  std::vector<cudaStream_t> order = sa_emu_order_;
  if (!sa_emu_forward_streams())
    for (size_t i = 0, j = order.size(); i + 1 < j; ++i, --j) std::swap(order[i], order[j - 1]);
  for (cudaStream_t s : order) sa_emu_run_stream(s);
}
inline void sa_emu_flush(cudaStream_t s) { sa_emu_run_stream(s); }
inline void sa_emu_submit(cudaStream_t s, std::function<void()> fn) {
  if (sa_emu_async(s)) {
    sa_emu_q(s).push_back({0, 0, fn});
  } else {
    sa_emu_flush_all();
    fn();
  }
}

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

[[noreturn]] inline void sa_emu_fail(const char *what, const void *p = nullptr,
                                      size_t n = 0) {
  fprintf(stderr, "EMU-ERROR %s (ptr %p, %zu bytes)\n", what, p, n);
  fflush(stderr);
  abort();
}

// The allocation registry: a plain array (no library code, so that MemorySanitizer sees
// every access).  Programs here make a few dozen allocations.
struct sa_emu_block {
  uintptr_t start;
  size_t size;
  int kind;  // 0 free slot, 1 device, 2 pinned host
};

enum { SA_EMU_MAX_ALLOCS = 1 << 16 };
inline sa_emu_block sa_emu_blocks_[SA_EMU_MAX_ALLOCS];
inline int sa_emu_nblocks_ = 0;

// The allocation of the given kind holding [p, p + n), or null.
inline const sa_emu_block *sa_emu_find(const void *p, size_t n, int kind) {
  uintptr_t a = (uintptr_t)p;
  for (int i = 0; i < sa_emu_nblocks_; ++i) {
    const sa_emu_block &b = sa_emu_blocks_[i];
    if (b.kind == kind && a >= b.start && a + n <= b.start + b.size &&
        (n > 0 || a < b.start + b.size))
      return &b;
  }
  return nullptr;
}

inline bool sa_emu_is_dev(const void *p) { return sa_emu_find(p, 0, 1) != nullptr; }

inline void sa_emu_dev_range(const void *p, size_t n, const char *what) {
  if (!sa_emu_find(p, n, 1)) sa_emu_fail(what, p, n);
}

inline void sa_emu_host_range(const void *p, size_t n, const char *what) {
  if (sa_emu_is_dev(p)) sa_emu_fail(what, p, n);
}

inline bool sa_emu_reverse() {
  static int r = -1;
  if (r < 0) {
    const char *e = getenv("SA_EMU_ORDER");
    r = (e && strcmp(e, "reverse") == 0) ? 1 : 0;
  }
  return r == 1;
}

inline void *sa_emu_alloc(size_t n, int kind) {
  void *p = malloc(n ? n : 1);
  if (!p) return nullptr;
  int i = 0;
  while (i < sa_emu_nblocks_ && sa_emu_blocks_[i].kind != 0) ++i;
  if (i == SA_EMU_MAX_ALLOCS) sa_emu_fail("too many allocations", p, n);
  if (i == sa_emu_nblocks_) ++sa_emu_nblocks_;
  sa_emu_blocks_[i] = sa_emu_block{(uintptr_t)p, n, kind};
  return p;
}

inline cudaError_t sa_emu_free(void *p, int kind, const char *what) {
  if (!p) return cudaSuccess;
  for (int i = 0; i < sa_emu_nblocks_; ++i) {
    sa_emu_block &b = sa_emu_blocks_[i];
    if (b.kind == kind && b.start == (uintptr_t)p) {
      b.kind = 0;
      free(p);
      return cudaSuccess;
    }
  }
  sa_emu_fail(what, p, 0);
}

template <typename T>
cudaError_t cudaMalloc(T **p, size_t n) {
  *p = (T *)sa_emu_alloc(n, 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFree(void *p) {
  sa_emu_flush_all();
  return sa_emu_free(p, 1, "cudaFree of a non-allocation");
}
template <typename T>
cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t) { return cudaMalloc(p, n); }
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t) { return cudaFree(p); }

template <typename T>
cudaError_t cudaMallocHost(T **p, size_t n) {
  *p = (T *)sa_emu_alloc(n, 2);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
template <typename T>
cudaError_t cudaHostAlloc(T **p, size_t n, unsigned int) { return cudaMallocHost(p, n); }
inline cudaError_t cudaFreeHost(void *p) {
  sa_emu_flush_all();
  return sa_emu_free(p, 2, "cudaFreeHost of a non-allocation");
}
inline cudaError_t cudaHostRegister(void *p, size_t n, unsigned int) {
  sa_emu_host_range(p, n, "cudaHostRegister of device memory");
  return cudaSuccess;
}
inline cudaError_t cudaHostUnregister(void *) { return cudaSuccess; }

inline cudaError_t sa_emu_memcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
  if (n == 0) return cudaSuccess;
  bool dd = sa_emu_is_dev(dst), sd = sa_emu_is_dev(src);
  switch (kind) {
    case cudaMemcpyHostToDevice:
      sa_emu_dev_range(dst, n, "cudaMemcpy H2D: destination is not a device range");
      sa_emu_host_range(src, n, "cudaMemcpy H2D: source is device memory");
      break;
    case cudaMemcpyDeviceToHost:
      sa_emu_host_range(dst, n, "cudaMemcpy D2H: destination is device memory");
      sa_emu_dev_range(src, n, "cudaMemcpy D2H: source is not a device range");
      break;
    case cudaMemcpyDeviceToDevice:
      sa_emu_dev_range(dst, n, "cudaMemcpy D2D: destination is not a device range");
      sa_emu_dev_range(src, n, "cudaMemcpy D2D: source is not a device range");
      break;
    case cudaMemcpyHostToHost:
      sa_emu_host_range(dst, n, "cudaMemcpy H2H: destination is device memory");
      sa_emu_host_range(src, n, "cudaMemcpy H2H: source is device memory");
      break;
    case cudaMemcpyDefault:
      if (dd) sa_emu_dev_range(dst, n, "cudaMemcpyDefault: destination overruns its allocation");
      if (sd) sa_emu_dev_range(src, n, "cudaMemcpyDefault: source overruns its allocation");
      break;
    default:
      sa_emu_fail("cudaMemcpy: bad kind", dst, n);
  }
  uintptr_t a = (uintptr_t)dst, b = (uintptr_t)src;
  if (a < b + n && b < a + n) sa_emu_fail("cudaMemcpy: overlapping ranges", dst, n);
  memcpy(dst, src, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
  sa_emu_submit(0, [=] { sa_emu_memcpy(dst, src, n, kind); });
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                                   cudaStream_t s = 0) {
  sa_emu_submit(s, [=] { sa_emu_memcpy(dst, src, n, kind); });
  return cudaSuccess;
}

// 2D copies: `height` rows of `width` bytes, rows `dpitch` / `spitch` bytes apart.  Each
// row is checked and copied like a cudaMemcpy of its own; the pitches must not be smaller
// than the width.
inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) sa_emu_fail("cudaMemcpy2D: pitch below width", dst, width);
  for (size_t r = 0; r < height; ++r) {
    cudaError_t e = cudaMemcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width,
                               kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind kind,
                                     cudaStream_t s = 0) {
  sa_emu_submit(s, [=] {
    for (size_t r = 0; r < height; ++r)
      sa_emu_memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
  });
  return cudaSuccess;
}

inline cudaError_t sa_emu_memset(void *p, int v, size_t n) {
  if (n == 0) return cudaSuccess;
  sa_emu_dev_range(p, n, "cudaMemset: not a device range");
  memset(p, v, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemset(void *p, int v, size_t n) {
  sa_emu_submit(0, [=] { sa_emu_memset(p, v, n); });
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s = 0) {
  sa_emu_submit(s, [=] { sa_emu_memset(p, v, n); });
  return cudaSuccess;
}

template <typename T>
cudaError_t sa_emu_to_symbol(T &sym, const void *src, size_t n, size_t off = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  if (off + n > sizeof(T)) sa_emu_fail("cudaMemcpyToSymbol: out of range", src, off + n);
  if (kind == cudaMemcpyDeviceToDevice)
    sa_emu_dev_range(src, n, "cudaMemcpyToSymbol D2D: source is not a device range");
  else if (kind == cudaMemcpyHostToDevice)
    sa_emu_host_range(src, n, "cudaMemcpyToSymbol H2D: source is device memory");
  else if (kind != cudaMemcpyDefault)
    sa_emu_fail("cudaMemcpyToSymbol: bad kind", src, n);
  memcpy((char *)&sym + off, src, n);
  return cudaSuccess;
}
template <typename T>
cudaError_t sa_emu_from_symbol(void *dst, const T &sym, size_t n, size_t off = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  if (off + n > sizeof(T)) sa_emu_fail("cudaMemcpyFromSymbol: out of range", dst, off + n);
  if (kind == cudaMemcpyDeviceToDevice)
    sa_emu_dev_range(dst, n, "cudaMemcpyFromSymbol D2D: destination is not a device range");
  else if (kind == cudaMemcpyDeviceToHost)
    sa_emu_host_range(dst, n, "cudaMemcpyFromSymbol D2H: destination is device memory");
  else if (kind != cudaMemcpyDefault)
    sa_emu_fail("cudaMemcpyFromSymbol: bad kind", dst, n);
  memcpy(dst, (const char *)&sym + off, n);
  return cudaSuccess;
}
template <typename T>
cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n, size_t off = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  T *ps = &sym;
  sa_emu_submit(0, [=] { sa_emu_to_symbol(*ps, src, n, off, kind); });
  return cudaSuccess;
}
template <typename T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  const T *ps = &sym;
  sa_emu_submit(0, [=] { sa_emu_from_symbol(dst, *ps, n, off, kind); });
  return cudaSuccess;
}
template <typename T>
cudaError_t cudaMemcpyToSymbolAsync(T &sym, const void *src, size_t n, size_t off,
                                    cudaMemcpyKind kind, cudaStream_t s = 0) {
  T *ps = &sym;
  sa_emu_submit(s, [=] { sa_emu_to_symbol(*ps, src, n, off, kind); });
  return cudaSuccess;
}
template <typename T>
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &sym, size_t n, size_t off,
                                      cudaMemcpyKind kind, cudaStream_t s = 0) {
  const T *ps = &sym;
  sa_emu_submit(s, [=] { sa_emu_from_symbol(dst, *ps, n, off, kind); });
  return cudaSuccess;
}

// Streams and events: everything already happened.
inline int sa_emu_handles_ = 16;
inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
  *s = (cudaStream_t)(uintptr_t)(sa_emu_handles_ += 16);
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int, int) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (sa_emu_async(s)) sa_emu_flush(s);
  return cudaSuccess;
}
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int = 0) {
  auto it = sa_emu_latest_.find(e);
  if (it == sa_emu_latest_.end() || !sa_emu_record_stream_.count(it->second)) return cudaSuccess;
  if (sa_emu_async(s)) sa_emu_q(s).push_back({2, it->second, nullptr});
  else sa_emu_until_record(it->second);
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = (cudaEvent_t)(uintptr_t)(sa_emu_handles_ += 16);
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int) {
  return cudaEventCreate(e);
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) {
  long seq = ++sa_emu_seq_;
  sa_emu_latest_[e] = seq;
  if (sa_emu_async(s)) {
    sa_emu_record_stream_[seq] = s;
    sa_emu_q(s).push_back({1, seq, nullptr});
  } else {
    sa_emu_flush_all();
  }
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  auto it = sa_emu_latest_.find(e);
  if (it != sa_emu_latest_.end()) sa_emu_until_record(it->second);
  return cudaSuccess;
}
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.0f;
  return cudaSuccess;
}

inline cudaError_t cudaDeviceSynchronize() {
  sa_emu_flush_all();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceReset() {
  sa_emu_flush_all();
  return cudaSuccess;
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
inline const char *cudaGetErrorString(cudaError_t e) {
  return e == cudaSuccess ? "no error" : "emulated error";
}
inline const char *cudaGetErrorName(cudaError_t e) {
  return e == cudaSuccess ? "cudaSuccess" : "cudaErrorEmulated";
}

// Kernel launches.
struct sa_emu_cfg {
  dim3 g, b;
  cudaStream_t s;
  sa_emu_cfg(dim3 g_, dim3 b_, size_t = 0, cudaStream_t s_ = 0) : g(g_), b(b_), s(s_) {}
};

template <typename T>
inline void sa_emu_kernel_arg(T *p) {
  if (p && !sa_emu_is_dev(p)) sa_emu_fail("kernel argument is not device memory", p, 0);
}
template <typename T>
inline void sa_emu_kernel_arg(const T &) {}

template <typename... P, typename... A>
void sa_emu_run(void (*k)(P...), sa_emu_cfg c, A... a);
template <typename... P, typename... A>
void sa_emu_launch(void (*k)(P...), sa_emu_cfg c, A &&...a) {
  auto args = std::make_tuple(P(a)...);
  sa_emu_submit(c.s, [=] { std::apply([&](auto... x) { sa_emu_run(k, c, x...); }, args); });
}
template <typename... P, typename... A>
void sa_emu_run(void (*k)(P...), sa_emu_cfg c, A... a) {
  (sa_emu_kernel_arg(a), ...);
  bool rev = sa_emu_reverse();
  gridDim = c.g;
  blockDim = c.b;
  unsigned int nb = c.g.x * c.g.y * c.g.z, nt = c.b.x * c.b.y * c.b.z;
  for (unsigned int bi = 0; bi < nb; ++bi) {
    unsigned int b = rev ? nb - 1 - bi : bi;
    blockIdx = dim3(b % c.g.x, (b / c.g.x) % c.g.y, b / (c.g.x * c.g.y));
    for (unsigned int ti = 0; ti < nt; ++ti) {
      unsigned int t = rev ? nt - 1 - ti : ti;
      threadIdx = dim3(t % c.b.x, (t / c.b.x) % c.b.y, t / (c.b.x * c.b.y));
      k(a...);
    }
  }
}
