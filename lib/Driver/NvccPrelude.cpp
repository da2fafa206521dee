//===- NvccPrelude.cpp - What nvcc declares implicitly and Clang lacks ----===//
//
// The prelude is force-included after Clang's CUDA wrapper header (so the CUDA
// headers and their `__host__`/`__device__` macros are already there). It only
// exists in the parse's in-memory file system: the rewrite edits the main
// file, so nothing of it reaches the output.
#include "streamalloc/Driver/NvccPrelude.h"

namespace streamalloc {

llvm::StringRef nvccPreludePath() { return "/streamalloc-virtual/nvcc_prelude.h"; }

llvm::StringRef nvccPreludeText() {
  return R"prelude(// streamalloc: nvcc's implicit declarations that Clang's CUDA mode lacks.
#pragma once
#pragma clang system_header

// CUDA 13 declares these enums in crt/device_functions.h, which Clang's
// wrapper replaces with its own declarations.
#ifndef __NV_ATOMIC_RELAXED
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
#endif

// nvcc's `__nv_atomic_*` are compiler builtins on device code; Clang knows
// none of them. Declarations suffice: the host-side parse never generates
// device code, it only needs kernel bodies to type-check.
#if !__has_builtin(__nv_atomic_load_n)
template <typename T>
__device__ T __nv_atomic_load_n(const T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_load(const T *, T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_store_n(T *, T, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_store(T *, T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ T __nv_atomic_exchange_n(T *, T, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_exchange(T *, T *, T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ bool __nv_atomic_compare_exchange_n(T *, T *, T, bool, int, int,
                                               int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int, int,
                                             int = __NV_THREAD_SCOPE_SYSTEM);
#define __STREAMALLOC_NV_FETCH(OP)                                                                \
  template <typename T>                                                                            \
  __device__ T __nv_atomic_fetch_##OP(T *, T, int, int = __NV_THREAD_SCOPE_SYSTEM);
__STREAMALLOC_NV_FETCH(add)
__STREAMALLOC_NV_FETCH(sub)
__STREAMALLOC_NV_FETCH(and)
__STREAMALLOC_NV_FETCH(or)
__STREAMALLOC_NV_FETCH(xor)
__STREAMALLOC_NV_FETCH(min)
__STREAMALLOC_NV_FETCH(max)
#undef __STREAMALLOC_NV_FETCH
__device__ void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM);
#endif

// nvcc makes CUDA's min/max overloads (crt/math_functions.hpp) callable from
// host code; Clang's wrapper includes them as device-only. The host overloads
// below are the same pairs, with the same result types (mixed signedness
// converts to the unsigned type, float with double to double).
#define __STREAMALLOC_HOST_MINMAX(R, A, B)                                                        \
  static inline __host__ R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; }        \
  static inline __host__ R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }
__STREAMALLOC_HOST_MINMAX(int, int, int)
__STREAMALLOC_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
__STREAMALLOC_HOST_MINMAX(unsigned int, int, unsigned int)
__STREAMALLOC_HOST_MINMAX(unsigned int, unsigned int, int)
__STREAMALLOC_HOST_MINMAX(long int, long int, long int)
__STREAMALLOC_HOST_MINMAX(unsigned long int, unsigned long int, unsigned long int)
__STREAMALLOC_HOST_MINMAX(unsigned long int, long int, unsigned long int)
__STREAMALLOC_HOST_MINMAX(unsigned long int, unsigned long int, long int)
__STREAMALLOC_HOST_MINMAX(long long int, long long int, long long int)
__STREAMALLOC_HOST_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
__STREAMALLOC_HOST_MINMAX(unsigned long long int, long long int, unsigned long long int)
__STREAMALLOC_HOST_MINMAX(unsigned long long int, unsigned long long int, long long int)
#undef __STREAMALLOC_HOST_MINMAX
// Floating point follows fmin/fmax (a NaN operand yields the other one).
static inline __host__ float min(const float a, const float b) { return fminf(a, b); }
static inline __host__ float max(const float a, const float b) { return fmaxf(a, b); }
static inline __host__ double min(const double a, const double b) { return fmin(a, b); }
static inline __host__ double max(const double a, const double b) { return fmax(a, b); }
static inline __host__ double min(const float a, const double b) { return fmin(a, b); }
static inline __host__ double max(const float a, const double b) { return fmax(a, b); }
static inline __host__ double min(const double a, const float b) { return fmin(a, b); }
static inline __host__ double max(const double a, const float b) { return fmax(a, b); }

// nvcc defines __NVCC__, and programs test it to choose CUDA over HIP. CCCL's
// and nv/target's compiler detection test it too and would then take Clang
// for nvcc, so those headers are read first, while it is undefined; their
// include guards keep Clang's answer for the rest of the file.
#if __has_include(<nv/target>)
#include <nv/target>
#endif
#if __has_include(<cuda/std/__cccl/compiler.h>)
#include <cuda/std/__cccl/compiler.h>
#endif
#define __NVCC__ 1
)prelude";
}

} // namespace streamalloc
