// CPU emulation of the small part of the CUDA runtime that fuzz programs (and the
// asynchronous programs streamalloc makes of them) use.  Used by fuzz/emu-check to run
// generated programs without a GPU under AddressSanitizer / MemorySanitizer, to catch
// generator bugs (out-of-bounds accesses, uninitialised reads, kernels whose result
// depends on thread order) and to compare the *sequential* meaning of a transformed
// program with its original.
//
// Everything runs synchronously on the calling thread: streams, events and async copies
// are executed immediately, so this says nothing about missing waits (that is what the GPU
// runs are for).  Kernels run one thread after another, in forward order, or in reverse
// order when SA_EMU_ORDER=reverse.  Misuse (wrong copy direction, overlapping copies,
// out-of-range device ranges, freeing a non-allocation) prints "EMU-ERROR ..." and aborts.
//
// A kernel launch `k<<<cfg>>>(args)` is not C++; fuzz/emu-check rewrites it into
// `sa_emu_launch(k, sa_emu_cfg(cfg), args)` before compiling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Under AddressSanitizer, a registered range is also checked to lie inside memory the
// program owns (a size computed wrongly would page-lock a neighbour's memory).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define SA_EMU_ASAN 1
#endif
#endif

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
typedef struct sa_emu_graph_ *cudaGraph_t;
typedef struct sa_emu_graph_exec_ *cudaGraphExec_t;
struct cudaGraphExecUpdateResultInfo {
  int result;
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2,
};

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaDeviceMapHost 0x08
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
  int kind;  // 0 free slot, 1 device, 2 pinned host, 3 registered host range (not owned)
  bool mapped;  // page-locked and mapped: kernels may use it (cudaHostGetDevicePointer)
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

inline int sa_emu_slot() {
  int i = 0;
  while (i < sa_emu_nblocks_ && sa_emu_blocks_[i].kind != 0) ++i;
  if (i == SA_EMU_MAX_ALLOCS) sa_emu_fail("too many allocations", nullptr, 0);
  if (i == sa_emu_nblocks_) ++sa_emu_nblocks_;
  return i;
}

inline void *sa_emu_alloc(size_t n, int kind) {
  void *p = malloc(n ? n : 1);
  if (!p) return nullptr;
  sa_emu_blocks_[sa_emu_slot()] = sa_emu_block{(uintptr_t)p, n, kind};
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
inline cudaError_t cudaFree(void *p) { return sa_emu_free(p, 1, "cudaFree of a non-allocation"); }
// Stream-ordered allocation: here the memory exists at once and is freed at once.
template <typename T>
cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t) {
  *p = (T *)sa_emu_alloc(n, 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t) {
  if (!p) sa_emu_fail("cudaFreeAsync of a null pointer (not documented as a no-op)");
  return sa_emu_free(p, 1, "cudaFreeAsync of a non-allocation");
}

template <typename T>
cudaError_t cudaMallocHost(T **p, size_t n) {
  *p = (T *)sa_emu_alloc(n, 2);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
// The block holding [p, p + n) if it is page-locked (pinned or registered), else null.
inline sa_emu_block *sa_emu_locked(const void *p, size_t n) {
  const sa_emu_block *b = sa_emu_find(p, n, 2);
  if (!b) b = sa_emu_find(p, n, 3);
  return const_cast<sa_emu_block *>(b);
}
template <typename T>
cudaError_t cudaHostAlloc(T **p, size_t n, unsigned int flags) {
  cudaError_t e = cudaMallocHost(p, n);
  if (e == cudaSuccess) sa_emu_locked(*p, 0)->mapped = (flags & cudaHostAllocMapped) != 0;
  return e;
}
inline cudaError_t cudaFreeHost(void *p) {
  return sa_emu_free(p, 2, "cudaFreeHost of a non-allocation");
}
// Registration is tracked like the real runtime does: registering a range twice, or
// unregistering what is not registered, is an error (here: a loud failure).
inline cudaError_t cudaHostRegister(void *p, size_t n, unsigned int flags) {
  sa_emu_host_range(p, n, "cudaHostRegister of device memory");
#ifdef SA_EMU_ASAN
  if (__asan_region_is_poisoned(p, n))
    sa_emu_fail("cudaHostRegister of a range that reaches past its allocation", p, n);
#endif
  if (sa_emu_find(p, 0, 3) || sa_emu_find(p, 0, 2))
    sa_emu_fail("cudaHostRegister of memory that is already page-locked", p, n);
  sa_emu_blocks_[sa_emu_slot()] =
      sa_emu_block{(uintptr_t)p, n, 3, (flags & cudaHostRegisterMapped) != 0};
  return cudaSuccess;
}
inline cudaError_t cudaHostUnregister(void *p) {
  for (int i = 0; i < sa_emu_nblocks_; ++i)
    if (sa_emu_blocks_[i].kind == 3 && sa_emu_blocks_[i].start == (uintptr_t)p) {
      sa_emu_blocks_[i].kind = 0;
      return cudaSuccess;
    }
  sa_emu_fail("cudaHostUnregister of memory that is not registered", p, 0);
}
// Mapped page-locked memory: the device pointer is the host pointer (unified addressing);
// memory that was not mapped is an error here, as it is without cudaDeviceMapHost.
inline cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned int flags) {
  const sa_emu_block *b = sa_emu_locked(h, 0);
  if (flags != 0 || !b || !b->mapped)
    sa_emu_fail("cudaHostGetDevicePointer of memory that is not mapped page-locked", h, 0);
  *d = h;
  return cudaSuccess;
}
inline bool sa_emu_is_mapped(const void *p) {
  const sa_emu_block *b = sa_emu_locked(p, 0);
  return b && b->mapped;
}
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p) {
  a->type = sa_emu_find(p, 0, 1)                            ? cudaMemoryTypeDevice
            : (sa_emu_find(p, 0, 2) || sa_emu_find(p, 0, 3)) ? cudaMemoryTypeHost
                                                              : cudaMemoryTypeUnregistered;
  a->device = 0;
  a->devicePointer = a->type == cudaMemoryTypeUnregistered ? nullptr : (void *)p;
  a->hostPointer = a->type == cudaMemoryTypeHost ? (void *)p : nullptr;
  return cudaSuccess;
}

inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
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
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                                   cudaStream_t = 0) {
  return cudaMemcpy(dst, src, n, kind);
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
                                     cudaStream_t = 0) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

inline cudaError_t cudaMemset(void *p, int v, size_t n) {
  if (n == 0) return cudaSuccess;
  sa_emu_dev_range(p, n, "cudaMemset: not a device range");
  memset(p, v, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t = 0) {
  return cudaMemset(p, v, n);
}

template <typename T>
cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n, size_t off = 0,
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
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,
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
cudaError_t cudaMemcpyToSymbolAsync(T &sym, const void *src, size_t n, size_t off,
                                    cudaMemcpyKind kind, cudaStream_t = 0) {
  return cudaMemcpyToSymbol(sym, src, n, off, kind);
}
template <typename T>
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &sym, size_t n, size_t off,
                                      cudaMemcpyKind kind, cudaStream_t = 0) {
  return cudaMemcpyFromSymbol(dst, sym, n, off, kind);
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
// CUDA graphs: here captured work runs at once and a graph launch does nothing, which
// is the same sequential meaning; fuzz/emu-defer records captured work and replays it.
inline cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) {
  return cudaSuccess;
}
inline cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *g) {
  *g = (cudaGraph_t)0x10;
  return cudaSuccess;
}
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t, unsigned long long = 0) {
  *x = (cudaGraphExec_t)0x20;
  return cudaSuccess;
}
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t, cudaGraph_t,
                                       cudaGraphExecUpdateResultInfo *) {
  return cudaSuccess;
}
inline cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaGraphDestroy(cudaGraph_t) { return cudaSuccess; }
inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t) { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int = 0) {
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = (cudaEvent_t)(uintptr_t)(sa_emu_handles_ += 16);
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int) {
  return cudaEventCreate(e);
}
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0) { return cudaSuccess; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.0f;
  return cudaSuccess;
}

inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
inline cudaError_t cudaSetDeviceFlags(unsigned int) { return cudaSuccess; }
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
  sa_emu_cfg(dim3 g_, dim3 b_, size_t = 0, cudaStream_t = 0) : g(g_), b(b_) {}
};

template <typename T>
inline void sa_emu_kernel_arg(T *p) {
  if (p && !sa_emu_is_dev(p) && !sa_emu_is_mapped(p))
    sa_emu_fail("kernel argument is not device memory", p, 0);
}
template <typename T>
inline void sa_emu_kernel_arg(const T &) {}

template <typename... P, typename... A>
void sa_emu_launch(void (*k)(P...), sa_emu_cfg c, A &&...a) {
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
