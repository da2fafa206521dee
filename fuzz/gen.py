#!/usr/bin/env python3
"""Random synchronous CUDA program generator for StreamAlloc differential fuzzing.

    gen.py --seed N [--size small|medium] [-o FILE|DIR]

Prints one valid, deterministic, synchronous CUDA program (legacy default stream,
blocking cudaMemcpy) that ends by printing a checksum of every live buffer.  The same
seed, size and GENERATOR_VERSION always give the same program, byte for byte.  Half of
the programs (v7) are projects of several translation units: main.cu, part1.cu
[part2.cu] and parts.h, to be compiled and linked together; -o then names a folder
(without -o each file is printed after a `// ===== NAME` line).  In Python:
generate_files(seed, size) -> [(name, text)].
Version 8 adds host templates, host lambdas, classes owning buffers, launch loops and
helpers whose copies outlive them (v8_used(seed, size) says which a program has).
Version 9 adds host buffers that a helper allocates and returns (`unsigned int *h =
make_host7(n);`, `alloc_host<unsigned int>(n)`): static, external, inline-in-a-header,
other-unit and template makers, with several argument shapes, and makers a tool must leave
pageable (v9_used(seed, size); fuzz/gen-selftest checks them).
Version 10 adds device structs of device pointers (`DPtrs {a, b[, c], n}` copied into a
device allocation, made in main or by helpers that return it, fill it through an
out-parameter or in place, some in another unit) and kernels that reach the buffers
through the struct (v10_used(seed, size)).
Version 11 adds host function templates that choose their GPU ops with `if constexpr` on
the element type (xor_dispatch_t, xor_into_t: one branch for unsigned int, another for
unsigned short on the same bytes, ops shared before and after the branches), called for
both types in one program (v11_used(seed, size): "disp_both" counts the templates a unit
instantiates for both).

Invariants the generator keeps (see README.md, "Why the programs are valid"):
  * every allocation is fully initialised right after it is made;
  * every access stays inside its allocation, for every value of the loop variables
    it depends on;
  * same-space copies (memcpy, cudaMemcpy D2D/H2H) never overlap, and a kernel's output
    range is either identical to or disjoint from each of its input ranges, so each kernel
    is race-free on its own;
  * only integer (uint32, wrap-around) arithmetic; no time, address or thread-order
    dependent values are printed;
  * (v9) a buffer a helper returns is freed exactly once, the way its helper needs (`p - K`
    for one that returns its allocation plus K elements; a helper that keeps the pointer in
    a global holds one live buffer at a time).

Reduction markers: every deletable statement ends with `//@s<ID>`; every deletable
compound statement (if/for/while, scoped block, helper function) starts on a line ending
with `//@b{<ID>` and ends on a line ending with `//@b}<ID>`.  Lines without a marker
(declarations, allocations, initialisation, the final checksums) must be kept; deleting
any set of marked units leaves a compilable, deterministic program.  (v9: a maker's
definition and its calls are unmarked; a static maker is [[maybe_unused]], since a deleted
block may hold all its calls; the `bump_int(&hnN)` / `std::min(hnN, ..)` after a call is
a marked statement of its own.)
"""

import argparse
import itertools
import os
import random
import sys

GENERATOR_VERSION = "11"
# The seed of the random choices.  8.1 changed only the prelude's HostBuf and kept 8's
# choices; 9 draws a flag of its own in every program, so every seed's choices changed;
# so does 10 (f_ds), and 11 (f_disp).
RANDOM_VERSION = "11"

SYM_N = 1024
GHOST_N = 1024
CONST_N = 256

SIZES = {
    "small": dict(main_stmts=(12, 20), helpers=(1, 3), helper_stmts=(3, 6),
                  max_depth=2, block_stmts=(1, 3), budget_us=25000,
                  helper_budget_us=2500, n_host=(3, 5), n_dev=(3, 5), max_mult=12),
    "medium": dict(main_stmts=(30, 45), helpers=(3, 6), helper_stmts=(4, 8),
                   max_depth=3, block_stmts=(1, 4), budget_us=80000,
                   helper_budget_us=5000, n_host=(4, 7), n_dev=(4, 7), max_mult=24),
}

SPINS = [0, 2, 5, 10, 20, 40, 80, 150, 300]

# v7: kernels that read or write the device symbols of main.cu (not in the other units:
# without -rdc each unit has its own copy of a __device__ variable)
SYMBOL_KERNELS = ("k_from_sym", "k_to_sym", "k_from_const")

PRELUDE = r"""#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sys/time.h>
#include <time.h>
#include <type_traits>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                      \
  do {                                                                   \
    cudaError_t check_err_ = (call);                                     \
    if (check_err_ != cudaSuccess) {                                     \
      fprintf(stderr, "CUDA error '%s' at %s:%d\n",                      \
              cudaGetErrorString(check_err_), __FILE__, __LINE__);       \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

// Error checks that leave the function (never taken: allocations do not fail here).
#define CHECK_ALLOCATION(p) if (!(p)) { printf("alloc failed\n"); return 1; }
#define CHECK_ALLOCATION_VOID(p) if (!(p)) { printf("alloc failed\n"); return; }

#define SYM_N 1024
#define GHOST_N 1024
#define CONST_N 256

struct Buf {
  unsigned int *host;
  unsigned int *dev;
  int n;
};

struct DevView {
  unsigned int *p;
  int n;
};

__device__ unsigned int g_sym[SYM_N];
__constant__ unsigned int c_tab[CONST_N];
static unsigned int g_host[GHOST_N];

// Busy-wait for roughly `us` microseconds before touching memory, so that a
// missing wait or a wrong order in a transformed program gives a wrong result.
__device__ void sa_spin(int us) {
  if (us <= 0) return;
  long long start = clock64();
  long long cycles = (long long)us * 1800;
  while (clock64() - start < cycles) {
    __nanosleep(100);
  }
}

__device__ __forceinline__ unsigned int mixf(unsigned int a, unsigned int b) {
  return (a ^ (b << 3)) + (a >> 2) + 0x9e3779b9u;
}

#define SA_FOR(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += gridDim.x * blockDim.x)

__global__ void k_add(unsigned int *dst, const unsigned int *src, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) dst[i] = dst[i] + src[i];
}

__global__ void k_scale(unsigned int *buf, unsigned int k, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) buf[i] = buf[i] * k + 1u;
}

__global__ void k_mix(unsigned int *dst, const unsigned int *a, const unsigned int *b, int n,
                      int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) dst[i] = mixf(a[i], b[i]) + (unsigned int)i;
}

__global__ void k_fill(unsigned int *dst, unsigned int v, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) dst[i] = v * (unsigned int)i + 12345u;
}

__global__ void k_from_sym(unsigned int *dst, int off, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) dst[i] += g_sym[(off + i) % SYM_N];
}

__global__ void k_to_sym(const unsigned int *src, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) {
    if (i < SYM_N) g_sym[i] = g_sym[i] * 3u + src[i];
  }
}

__global__ void k_sum(unsigned int *out, const unsigned int *src, int n, int spin_us) {
  sa_spin(spin_us);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned int s = 0;
    for (int i = 0; i < n; ++i) s = s * 31u + src[i];
    out[0] = s;
  }
}

template <typename T>
__global__ void k_xor(T *dst, const T *src, T salt, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) dst[i] ^= src[i] + salt;
}

__global__ void k_view(DevView v, unsigned int k, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, v.n) v.p[i] = v.p[i] * k + 3u;
}

__global__ void k_shift(unsigned int *dst, const unsigned int *src, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) dst[i] = src[(i + 1) % n] + 1u;
}

__global__ void k_from_const(unsigned int *dst, int off, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) dst[i] = dst[i] * 5u + c_tab[(off + i) % CONST_N];
}

// Timed regions.  A timer's value differs from run to run, so it is never printed (it
// only feeds tm_sink); what is printed is what the timer read observed: how many of the
// marked kernels (k_mark) had finished.  Each k_mark launch sets its own flag in mapped
// host memory, through the device pointer of that memory; the host reads the flags
// through a volatile pointer (tm_done).
#define TM_SLOTS 64
static volatile unsigned int *tm_flags = nullptr;
static unsigned int *tm_flags_dev = nullptr;
[[maybe_unused]] static volatile double tm_sink = 0.0;
[[maybe_unused]] static double tm_last = 0.0;

[[maybe_unused]] static double now_s() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

[[maybe_unused]] static void tm_record(double t) {
  tm_sink = tm_sink + (t - tm_last);
  tm_last = t;
}

[[maybe_unused]] static unsigned int tm_done() {
  unsigned int k = 0;
  for (int i = 0; i < TM_SLOTS; ++i) k += tm_flags[i] != 0u ? 1u : 0u;
  return k;
}

// One block only: after __syncthreads every thread's work is done when the flag is set.
__global__ void k_mark(unsigned int *buf, unsigned int k, int n, unsigned int *flag,
                       int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) buf[i] = buf[i] * k + 7u;
  __syncthreads();
  if (threadIdx.x == 0) *(volatile unsigned int *)flag = 1u;
}

static unsigned int checksum(const unsigned int *p, int n) {
  unsigned int h = 2166136261u;
  for (int i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

// A device buffer made (and initialised) by a callee, released by another.
[[maybe_unused]] static unsigned int *make_dev(int n, int v) {
  unsigned int *p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(unsigned int)));
  CHECK(cudaMemset(p, v, n * sizeof(unsigned int)));
  return p;
}

[[maybe_unused]] static void release_dev(unsigned int *p) { CHECK(cudaFree(p)); }

// Host buffers released by a callee.
[[maybe_unused]] static void release_host(unsigned int *p) { free(p); }
[[maybe_unused]] static void release_host_arr(unsigned int *p) { delete[] p; }

// v8: host function templates that copy and launch (instantiated for unsigned int and,
// on the same bytes seen as halves, unsigned short), a template over an int, and a
// class template.  The class template is in an unnamed namespace: its members launch
// kernels that are static in the other units of a program.
template <typename T>
static void upload_t(T *d, const T *h, int n) {
  CHECK(cudaMemcpy(d, h, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
}

template <typename T>
static void download_t(T *h, const T *d, int n) {
  CHECK(cudaMemcpy(h, d, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
}

// Upload, k_xor<T> on the device copy, download (`out` may be `in`).
template <typename T>
static void roundtrip_t(T *d, const T *in, T *out, T salt, int n, int spin_us) {
  upload_t(d, in, n);
  k_xor<T><<<(n + 127) / 128, 128>>>(d, d, salt, n, spin_us);
  download_t(out, d, n);
}

template <int K>
static void scale_k(unsigned int *d, int n, int spin_us) {
  k_scale<<<(n + 63) / 64, 64>>>(d, 2u * (unsigned int)K + 1u, n, spin_us);
}

namespace {
template <typename T>
struct Stage {
  T *d;
  int n;
  void put(const T *h) { upload_t(d, h, n); }
  void get(T *h) const { download_t(h, d, n); }
  void run(T salt, int spin_us) { k_xor<T><<<(n + 127) / 128, 128>>>(d, d, salt, n, spin_us); }
};
}  // namespace

// v11: host templates that choose their GPU ops with `if constexpr` on the element type
// (a kernel per type, as real code dispatches), instantiated for unsigned int and, on the
// same bytes seen as halves, unsigned short: an instantiation holds only the ops of its
// own branch, and both hold the ops before and after the branches.  The `else` branches
// (any other element type: host loops) are never instantiated here.
template <typename T>
__global__ void k_twist(T *buf, unsigned int k, int n, int spin_us) {
  sa_spin(spin_us);
  SA_FOR(i, n) buf[i] = (T)((unsigned int)buf[i] * k + 1u);
}

// Upload `in`, k_xor<T> (halves: then k_twist<T>) on the device copy, download it into
// `out` (`out` may be `in`), then one more k_twist<T> on the device copy.
template <typename T>
static void xor_dispatch_t(T *d, const T *in, T *out, T salt, int n, int spin_us) {
  CHECK(cudaMemcpy(d, in, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
  if constexpr (std::is_same_v<T, unsigned int>) {
    k_xor<T><<<(n + 127) / 128, 128>>>(d, d, salt, n, spin_us);
    download_t(out, d, n);
  } else if constexpr (std::is_same_v<T, unsigned short>) {
    k_xor<T><<<(n + 255) / 256, 256>>>(d, d, salt, n, spin_us);
    k_twist<T><<<(n + 127) / 128, 128>>>(d, 2u * (unsigned int)salt + 1u, n, 0);
    CHECK(cudaMemcpy(out, d, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
  } else {
    for (int i = 0; i < n; ++i)
      out[i] = (T)((unsigned int)in[i] ^ ((unsigned int)in[i] + salt));
  }
  k_twist<T><<<(n + 127) / 128, 128>>>(d, 5u, n, 0);
}

// Upload `in` into `d`, compute into `d2` (a range apart from `d`; halves: `d` is
// rewritten too), download `d2` into `out` (`out` may be `in`).
template <typename T>
static void xor_into_t(T *d, T *d2, const T *in, T *out, T salt, int n, int spin_us) {
  upload_t(d, in, n);
  if constexpr (std::is_same_v<T, unsigned int>) {
    CHECK(cudaMemcpy(d2, d, (size_t)n * sizeof(T), cudaMemcpyDeviceToDevice));
    k_xor<T><<<(n + 127) / 128, 128>>>(d2, d, salt, n, spin_us);
  } else if constexpr (std::is_same_v<T, unsigned short>) {
    CHECK(cudaMemset(d2, 0, (size_t)n * sizeof(T)));
    k_xor<T><<<(n + 127) / 128, 128>>>(d2, d, salt, n, spin_us);
    k_twist<T><<<(n + 63) / 64, 64>>>(d, 3u, n, 0);
  } else {
    for (int i = 0; i < n; ++i) out[i] = (T)((unsigned int)in[i] + salt);
    return;
  }
  download_t(out, d2, n);
}

// v8: lambdas are passed to this (and to std::for_each).
template <typename F>
static void for_each_index(int n, F f) {
  for (int i = 0; i < n; ++i) f(i);
}

// v8: classes that own a buffer; the destructor frees it.
struct DevBuf {
  unsigned int *p = nullptr;
  int n = 0;
  DevBuf(int n_, int v) : n(n_) {
    CHECK(cudaMalloc(&p, (size_t)n * sizeof(unsigned int)));
    CHECK(cudaMemset(p, v, (size_t)n * sizeof(unsigned int)));
  }
  ~DevBuf() { cudaFree(p); }
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
  unsigned int *data() { return p; }
  int size() const { return n; }
  void upload(const unsigned int *h) {
    CHECK(cudaMemcpy(p, h, (size_t)n * sizeof(unsigned int), cudaMemcpyHostToDevice));
  }
  void download(unsigned int *h) const {
    CHECK(cudaMemcpy(h, p, (size_t)n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  }
};

struct HostBuf {
  unsigned int *heap = nullptr;   // malloc'ed: a tool may pin it in the class
  unsigned int *locked = nullptr; // cudaMallocHost'ed when asked for
  int n = 0;
  HostBuf(int n_, unsigned int k, bool pinned = false) : n(n_) {
    if (pinned)
      CHECK(cudaMallocHost(&locked, (size_t)n * sizeof(unsigned int)));
    else
      heap = (unsigned int *)malloc((size_t)n * sizeof(unsigned int));
    unsigned int *p = data();
    for (int i = 0; i < n; ++i) p[i] = (unsigned int)i * k + 17u;
  }
  ~HostBuf() {
    if (locked)
      cudaFreeHost(locked);
    free(heap);
  }
  HostBuf(const HostBuf &) = delete;
  HostBuf &operator=(const HostBuf &) = delete;
  unsigned int *data() { return locked ? locked : heap; }
  unsigned int &operator[](int i) { return data()[i]; }
  int size() const { return n; }
};

// Class-owned buffers passed by reference (h holds at least b.size() elements).
[[maybe_unused]] static void devbuf_round(DevBuf &b, HostBuf &h, unsigned int k, int spin_us) {
  b.upload(h.data());
  k_scale<<<(b.size() + 127) / 128, 128>>>(b.data(), k, b.size(), spin_us);
  b.download(h.data());
}
"""


def _part_prelude():
    """The prelude of the other units (v7): main.cu's, without the device symbols, the
    kernels that use them and the timed regions' state (each unit would have its own
    copy), and with every kernel (k_xor's template too) static: the units are linked
    together."""
    text = PRELUDE

    def cut(start, end):
        nonlocal text
        i = text.index(start)
        j = text.index(end, i)
        text = text[:i] + text[j:]

    cut("__device__ unsigned int g_sym[SYM_N];", "// Busy-wait")
    cut("__global__ void k_from_sym(", "__global__ void k_sum(")
    cut("__global__ void k_from_const(", "static unsigned int checksum(")
    for old, new in (("\n__global__ void", "\nstatic __global__ void"),
                     ("\n__device__ void sa_spin", "\nstatic __device__ void sa_spin"),
                     ("\n__device__ __forceinline__", "\nstatic __device__ __forceinline__")):
        assert old in text, old
        text = text.replace(old, new)
    return text


PART_PRELUDE = _part_prelude()


# ---------------------------------------------------------------------------
# Memory model


class Alloc:
    """One allocation (or, inside a helper, the object one parameter points to)."""

    def __init__(self, uid, name, space, kind, size):
        self.uid = uid
        self.name = name      # variable (or field) holding the base pointer
        self.space = space    # 'host' or 'dev'
        self.kind = kind      # malloc new pinned vector stack global cuda pool struct param temp*
        self.size = size      # elements
        self.alive = True


class View:
    """A named pointer into an allocation: [off, off + len) of `alloc`."""

    def __init__(self, alloc, ptr, idx, off, length, count_expr=None, group=None,
                 exact=True, param=None):
        self.alloc = alloc
        self.ptr = ptr          # expression of pointer type at the view start
        self.idx = idx          # expression that can be subscripted from the view start
        self.off = off          # offset of the view in its allocation (elements)
        self.len = length       # elements (a lower bound when not exact)
        self.count_expr = count_expr  # run-time expression equal to the view length
        self.group = group      # views whose count_expr is the same value
        self.exact = exact      # the length is known exactly at generation time
        self.param = param      # helper parameter this view is (for const tracking)

    @property
    def space(self):
        return self.alloc.space


class Region:
    """[start, start + len) of a view, start = off + stride * var."""

    def __init__(self, view, off, length, var=None, stride=0, iters=1):
        self.view, self.off, self.len = view, off, length
        self.var, self.stride, self.iters = var, stride, iters

    def start(self, env):
        s = self.view.off + self.off
        if self.var:
            s += self.stride * env[self.var]
        return s

    def full(self):
        return self.off == 0 and not self.var and self.len == self.view.len

    def terms(self):
        t = []
        if self.off:
            t.append(str(self.off))
        if self.var:
            t.append("%s * %d" % (self.var, self.stride))
        return t


def relation(a, b):
    """'disjoint', 'equal', 'mixed' (each instance equal or disjoint) or 'partial'."""
    if a.view.alloc is not b.view.alloc:
        return "disjoint"
    vars_ = []
    iters = {}
    for r in (a, b):
        if r.var and r.var not in iters:
            vars_.append(r.var)
            iters[r.var] = r.iters
    seen = set()
    for combo in itertools.product(*[range(iters[v]) for v in vars_]):
        env = dict(zip(vars_, combo))
        sa, sb = a.start(env), b.start(env)
        if sa == sb and a.len == b.len:
            seen.add("equal")
        elif sa + a.len <= sb or sb + b.len <= sa:
            seen.add("disjoint")
        else:
            return "partial"
    if len(seen) == 2:
        return "mixed"
    return seen.pop() if seen else "disjoint"


class StructInst:
    def __init__(self, name, acc, hview, dview, n):
        self.name, self.acc, self.hview, self.dview, self.n = name, acc, hview, dview, n


class Param:
    def __init__(self, kind, name, minlen=0, by_ptr=False):
        self.kind = kind      # hptr dptr struct vec int
        self.name = name
        self.minlen = minlen
        self.by_ptr = by_ptr  # struct passed as Buf * (else Buf &)
        self.written = False


class Func:
    def __init__(self, name, is_main, gpu_ok, budget):
        self.name = name
        self.is_main = is_main
        self.gpu_ok = gpu_ok
        self.budget = budget
        self.cost = 0
        self.views = []
        self.structs = []
        self.params = []
        self.ret = "void"
        self.cleanup = []     # statements releasing temporaries (before every return)
        self.lines = []
        self.callees = []
        self.unit = 0         # v7: 0 = main.cu, k = partk.cu


class Ctx:
    def __init__(self, func, indent, depth=0, loops=(), loop_kind=None, mult=1, top=False):
        self.func = func
        self.indent = indent
        self.depth = depth
        self.loops = list(loops)     # [(var, iters)] of enclosing for loops
        self.loop_kind = loop_kind   # innermost loop: None, 'for' or 'while'
        self.mult = mult             # upper bound of executions per function call
        self.top = top               # top level of main: allocation changes allowed
        self.labels = []             # [[label, used]] right after enclosing for loops

    def child(self, loop=None, loop_kind=None, factor=1):
        loops = self.loops + ([loop] if loop else [])
        c = Ctx(self.func, self.indent + 1, self.depth + 1, loops,
                loop_kind or self.loop_kind, self.mult * factor, False)
        c.labels = self.labels
        return c


# ---------------------------------------------------------------------------
# Generator


class Gen:
    def __init__(self, seed, size):
        self.seed = seed
        self.size = size
        self.cfg = SIZES[size]
        self.r = random.Random("streamalloc-fuzz-%s-%d-%s" % (RANDOM_VERSION, seed, size))
        self.next_id = 0
        self.next_uid = 0
        self.helpers = []
        self.kernels_used = set()
        self.no_host_reads = False
        self.stream = None  # a stream of the program's own that launches go on (v4)
        self.stream_helpers = []  # v4: helpers that return with a chain running
        self.stream_helper_used = False
        self.mark_slots = 0
        self.n_parts = 0          # v7: translation units besides main.cu
        self.unit_of = []         # v7: unit of each helper
        self.part_chains = {}     # v7: unit -> own_chain helpers defined there
        self.part_decls = []      # v7: declarations for parts.h
        self.used = {"async": 0, "timer": 0, "ifdef": 0, "checkalloc": 0, "streams": 0,
                     "tmpl": 0, "lambda": 0, "class": 0, "lloop": 0, "pend": 0, "hret": 0,
                     "ds": 0, "dsop": 0, "dspat": 0, "disp": 0}
        self.pend_helpers = []    # v8: helpers whose copies outlive them
        self.pend_defs = {}       # v8: unit -> their definitions
        self.makers = []          # v9: helpers that allocate and return a host buffer
        self.tmpl_maker = None    # v9: the program's alloc_host<T> template, once defined
        self.hret_defs = {}       # v9: unit (or "h": parts.h) -> their definitions
        self.hret_log = []        # v9: (maker style, argument shape, maker, buffer) per call
        self.bump_int_used = set()  # v9: units whose functions call bump_int
        self.ds_fields = []       # v10: the fields of DPtrs (a, b[, c])
        self.ds_insts = []        # v10: main's device structs
        self.ds_makers = []       # v10: helpers that make one
        self.ds_steps = []        # v10: helpers given one that launch through it
        self.ds_defs = {}         # v10: unit -> their definitions
        self.ds_kused = {}        # v10: unit -> the kernels through DPtrs it launches
        self.ds_log = []          # v10: (style, maker) per device struct
        self.disp_log = []        # v11: (template, T, unit) per call of a dispatch template

    # -- utilities ---------------------------------------------------------
    def nid(self):
        self.next_id += 1
        return self.next_id

    def new_alloc(self, name, space, kind, size):
        self.next_uid += 1
        return Alloc(self.next_uid, name, space, kind, size)

    def emit(self, ctx, text, mark=True):
        line = "  " * ctx.indent + text
        if mark:
            line += "  //@s%d" % self.nid()
        ctx.func.lines.append(line)

    def emit_open(self, ctx, text):
        bid = self.nid()
        ctx.func.lines.append("  " * ctx.indent + text + "  //@b{%d" % bid)
        return bid

    def emit_close(self, ctx, bid, text="}"):
        ctx.func.lines.append("  " * ctx.indent + text + "  //@b}%d" % bid)

    def chance(self, p):
        return self.r.random() < p

    def choice(self, seq):
        return seq[self.r.randrange(len(seq))]

    def weighted(self, pairs):
        total = sum(w for w, _ in pairs)
        x = self.r.random() * total
        for w, v in pairs:
            x -= w
            if x < 0:
                return v
        return pairs[-1][1]

    def u32(self):
        return "%uu" % self.r.randrange(1, 1 << 16)

    def odd(self):
        return "%uu" % (self.r.randrange(1, 200) * 2 + 1)

    def host_scalar(self, ctx, odd=False):
        """A scalar argument: a literal, or a host value read at the call."""
        hv = self.live_views(ctx, "host")
        if hv and self.chance(0.25) and not self.no_host_reads:
            e = self.at(self.place(ctx, self.choice(hv), 1), "0")
            return "(%s | 1u)" % e if odd else e
        return self.odd() if odd else self.u32()

    # -- cost accounting ---------------------------------------------------
    def can_afford(self, ctx, us):
        return ctx.func.cost + us * ctx.mult <= ctx.func.budget

    def charge(self, ctx, us):
        ctx.func.cost += us * ctx.mult

    def spin(self, ctx):
        s = self.choice(SPINS)
        if not self.can_afford(ctx, s + 10):
            s = 0
        self.charge(ctx, s + 10)
        return s

    # -- views and regions ---------------------------------------------------
    def live_views(self, ctx, space, minlen=1):
        return [v for v in ctx.func.views
                if v.alloc.alive and v.space == space and v.len >= minlen]

    def pick_view(self, ctx, space, minlen=1):
        c = self.live_views(ctx, space, minlen)
        return self.choice(c) if c else None

    def pick_len(self, maxlen):
        x = self.r.random()
        if x < 0.3:
            return maxlen
        opts = [n for n in (1, 4, 16, 32, 64, 100, 128, 256, 512, 1000) if n <= maxlen]
        if x < 0.8 and opts:
            return self.choice(opts)
        return self.r.randint(1, maxlen)

    def place(self, ctx, view, length, allow_var=True):
        slack = view.len - length
        off = 0 if slack == 0 or self.chance(0.35) else self.r.randint(0, slack)
        if allow_var and ctx.loops and self.chance(0.35):
            var, iters = self.choice(ctx.loops)
            maxstride = (slack - off) // (iters - 1)
            if maxstride >= 1:
                opts = [s for s in (1, 8, 16, 32, 64, length) if s <= maxstride]
                stride = self.choice(opts) if opts else maxstride
                return Region(view, off, length, var, stride, iters)
        return Region(view, off, length)

    def ptr(self, rg):
        t = rg.terms()
        if not t:
            return rg.view.ptr
        if self.chance(0.25):
            return "&%s[%s]" % (rg.view.idx, " + ".join(t))
        return "%s + %s" % (rg.view.ptr, " + ".join(t))

    def at(self, rg, i):
        """Element expression rg[i] (i: text)."""
        t = rg.terms()
        if i != "0" or not t:
            t = t + [i]
        return "%s[%s]" % (rg.view.idx, " + ".join(t))

    def written(self, *regions):
        for rg in regions:
            if rg.view.param is not None:
                rg.view.param.written = True

    def count(self, regions, length, group_ok=True):
        """Element count: a literal or a run-time expression with the same value.

        A view's run-time length may exceed the modelled one (helper parameters), so a
        run-time expression is used only where every region is exactly known, or (group_ok)
        where every region is the whole of a view of the same group (a struct's two buffers
        share `n`): then the count is in range whatever the actual length is.
        """
        for rg in regions:
            v = rg.view
            if not (rg.full() and v.count_expr):
                continue
            same_group = all(o.full() and o.view.group is not None and o.view.group == v.group
                             for o in regions)
            if (all(o.view.exact for o in regions) or (group_ok and same_group)) \
                    and self.chance(0.5):
                return v.count_expr
        return str(length)

    def host_count(self, ctx, regions, length):
        """Sometimes a count read from host memory at the call: 1 .. length."""
        hv = self.live_views(ctx, "host")
        if length >= 2 and hv and self.chance(0.1):
            e = self.at(self.place(ctx, self.choice(hv), 1), "0")
            return "(%s %% %du + 1u)" % (e, length)
        return self.count(regions, length)

    def nbytes(self, count):
        if count.isdigit():
            x = self.r.random()
            if x < 0.2:
                return str(int(count) * 4)
            if x < 0.4:
                return "sizeof(unsigned int) * %s" % count
            return "%s * sizeof(unsigned int)" % count
        return "(size_t)%s * sizeof(unsigned int)" % count

    def api(self, ctx, call, mark=True):
        """Emit a CUDA runtime call, with or without error checking."""
        x = self.r.random()
        if x < 0.55:
            self.emit(ctx, "CHECK(%s);" % call, mark)
        elif x < 0.65:
            self.emit(ctx, 'if (%s != cudaSuccess) { fprintf(stderr, "call failed\\n"); exit(1); }'
                      % call, mark)
        else:
            self.emit(ctx, "%s;" % call, mark)

    # -- GPU operations ------------------------------------------------------
    def op_copy(self, ctx, direction):
        dspace = "dev" if direction in ("H2D", "D2D") else "host"
        sspace = "dev" if direction in ("D2H", "D2D") else "host"
        for _ in range(8):
            dv = self.pick_view(ctx, dspace)
            sv = self.pick_view(ctx, sspace)
            if not dv or not sv:
                return False
            n = self.pick_len(min(dv.len, sv.len))
            d = self.place(ctx, dv, n)
            s = self.place(ctx, sv, n)
            if dspace == sspace and relation(d, s) != "disjoint":
                continue
            kind = {"H2D": "cudaMemcpyHostToDevice", "D2H": "cudaMemcpyDeviceToHost",
                    "D2D": "cudaMemcpyDeviceToDevice", "H2H": "cudaMemcpyHostToHost"}[direction]
            if self.chance(0.06):
                kind = "cudaMemcpyDefault"
            self.written(d)
            self.charge(ctx, 10)
            self.api(ctx, "cudaMemcpy(%s, %s, %s, %s)"
                     % (self.ptr(d), self.ptr(s), self.nbytes(self.host_count(ctx, [d, s], n)),
                        kind))
            return True
        return False

    def op_memset(self, ctx):
        v = self.pick_view(ctx, "dev")
        if not v:
            return False
        d = self.place(ctx, v, self.pick_len(v.len))
        self.written(d)
        self.charge(ctx, 10)
        self.api(ctx, "cudaMemset(%s, %d, %s)"
                 % (self.ptr(d), self.r.randrange(256),
                    self.nbytes(self.host_count(ctx, [d], d.len))))
        return True

    def symbol(self):
        """The symbol a copy goes to or comes from, and its length."""
        return ("c_tab", CONST_N) if self.chance(0.35) else ("g_sym", SYM_N)

    def op_to_symbol(self, ctx):
        space = "dev" if self.chance(0.2) else "host"
        v = self.pick_view(ctx, space)
        if not v:
            return False
        sym, symn = self.symbol()
        n = self.pick_len(min(v.len, symn))
        s = self.place(ctx, v, n)
        symoff = self.r.randint(0, symn - n) if self.chance(0.5) else 0
        args = [sym, self.ptr(s), self.nbytes(self.count([s], n, group_ok=False))]
        explicit_kind = space == "dev" or self.chance(0.3)
        if symoff or explicit_kind or self.chance(0.3):
            args.append("%d * sizeof(unsigned int)" % symoff)
        if explicit_kind:
            args.append("cudaMemcpyDeviceToDevice" if space == "dev" else "cudaMemcpyHostToDevice")
        self.charge(ctx, 10)
        self.api(ctx, "cudaMemcpyToSymbol(%s)" % ", ".join(args))
        return True

    def op_from_symbol(self, ctx):
        space = "dev" if self.chance(0.2) else "host"
        v = self.pick_view(ctx, space)
        if not v:
            return False
        sym, symn = self.symbol()
        n = self.pick_len(min(v.len, symn))
        d = self.place(ctx, v, n)
        symoff = self.r.randint(0, symn - n) if self.chance(0.5) else 0
        args = [self.ptr(d), sym, self.nbytes(self.count([d], n, group_ok=False))]
        explicit_kind = space == "dev" or self.chance(0.3)
        if symoff or explicit_kind or self.chance(0.3):
            args.append("%d * sizeof(unsigned int)" % symoff)
        if explicit_kind:
            args.append("cudaMemcpyDeviceToDevice" if space == "dev" else "cudaMemcpyDeviceToHost")
        self.written(d)
        self.charge(ctx, 10)
        self.api(ctx, "cudaMemcpyFromSymbol(%s)" % ", ".join(args))
        return True

    def launch(self, count_hint):
        t = self.choice([32, 64, 128, 256])
        x = self.r.random()
        if x < 0.2 and count_hint.isdigit():
            b = "(%s + %d) / %d" % (count_hint, t - 1, t)
        else:
            b = str(self.choice([1, 2, 3, 4, 8, 16]))
        if self.stream:
            return "<<<%s, %d, 0, %s>>>" % (b, t, self.stream)
        x = self.r.random()
        if x < 0.05:
            return "<<<%s, %d, 0, 0>>>" % (b, t)
        if x < 0.15:
            return "<<<dim3(%s), dim3(%d)>>>" % (b, t)
        if x < 0.3:
            return "<<<%s, %d, 0>>>" % (b, t)
        return "<<<%s, %d>>>" % (b, t)

    def dev_pair(self, ctx, rel_ok, same_prob=0.15):
        """Two device regions of one length whose relation is in rel_ok."""
        for _ in range(8):
            dv = self.pick_view(ctx, "dev")
            sv = self.pick_view(ctx, "dev")
            if not dv:
                return None
            n = self.pick_len(min(dv.len, sv.len))
            d = self.place(ctx, dv, n)
            if "equal" in rel_ok and self.chance(same_prob):
                return d, d
            s = self.place(ctx, sv, n)
            if relation(d, s) in rel_ok:
                return d, s
        return None

    def op_kernel(self, ctx):
        if self.can_mark(ctx) and self.chance(0.15):
            return self.mark_kernel(ctx)
        kernels = [(3, "k_add"), (3, "k_scale"), (3, "k_mix"), (2, "k_fill"),
                   (1, "k_from_sym"), (1, "k_to_sym"), (1, "k_sum"), (2, "k_xor"),
                   (1, "k_view"), (1, "k_shift"), (1, "k_from_const")]
        if ctx.func.unit:
            kernels = [(w, k) for w, k in kernels if k not in SYMBOL_KERNELS]
        name = self.weighted(kernels)
        if not self.live_views(ctx, "dev"):
            return False
        ok_elem = ("disjoint", "equal", "mixed")
        if name in ("k_add", "k_xor", "k_shift"):
            pair = self.dev_pair(ctx, ("disjoint",) if name == "k_shift" else ok_elem)
            if not pair:
                return False
            d, s = pair
            n = self.count([d, s], d.len)
            spin = self.spin(ctx)
            cfg = self.launch(n)
            if name == "k_xor":
                call = "k_xor<unsigned int>%s(%s, %s, %s, %s, %d)" % (
                    cfg, self.ptr(d), self.ptr(s), self.host_scalar(ctx), n, spin)
            else:
                call = "%s%s(%s, %s, %s, %d)" % (name, cfg, self.ptr(d), self.ptr(s), n, spin)
            self.written(d)
        elif name == "k_mix":
            for _ in range(8):
                pair = self.dev_pair(ctx, ok_elem)
                if not pair:
                    return False
                d, a = pair
                bv = self.pick_view(ctx, "dev", d.len)
                if not bv:
                    continue
                b = d if self.chance(0.1) else self.place(ctx, bv, d.len)
                if relation(d, b) in ok_elem:
                    break
            else:
                return False
            n = self.count([d, a, b], d.len)
            spin = self.spin(ctx)
            call = "k_mix%s(%s, %s, %s, %s, %d)" % (self.launch(n), self.ptr(d), self.ptr(a),
                                                    self.ptr(b), n, spin)
            self.written(d)
        elif name in ("k_scale", "k_fill", "k_from_sym", "k_from_const"):
            v = self.pick_view(ctx, "dev")
            d = self.place(ctx, v, self.pick_len(v.len))
            n = self.count([d], d.len)
            spin = self.spin(ctx)
            cfg = self.launch(n)
            if name == "k_scale":
                call = "k_scale%s(%s, %s, %s, %d)" % (cfg, self.ptr(d),
                                                      self.host_scalar(ctx, True), n, spin)
            elif name == "k_fill":
                call = "k_fill%s(%s, %s, %s, %d)" % (cfg, self.ptr(d), self.host_scalar(ctx),
                                                     n, spin)
            elif name == "k_from_sym":
                call = "k_from_sym%s(%s, %d, %s, %d)" % (cfg, self.ptr(d),
                                                         self.r.randrange(SYM_N), n, spin)
            else:
                call = "k_from_const%s(%s, %d, %s, %d)" % (cfg, self.ptr(d),
                                                           self.r.randrange(CONST_N), n, spin)
            self.written(d)
        elif name == "k_to_sym":
            v = self.pick_view(ctx, "dev")
            s = self.place(ctx, v, self.pick_len(min(v.len, SYM_N)))
            n = self.count([s], s.len)
            spin = self.spin(ctx)
            call = "k_to_sym%s(%s, %s, %d)" % (self.launch(n), self.ptr(s), n, spin)
        elif name == "k_sum":
            ov = self.pick_view(ctx, "dev")
            sv = self.pick_view(ctx, "dev")
            o = self.place(ctx, ov, 1)
            s = self.place(ctx, sv, self.pick_len(sv.len))
            n = self.count([s], s.len)
            spin = self.spin(ctx)
            cfg = "<<<1, 1>>>" if self.chance(0.5) else self.launch(n)
            call = "k_sum%s(%s, %s, %s, %d)" % (cfg, self.ptr(o), self.ptr(s), n, spin)
            self.written(o)
        else:  # k_view: the pointer travels inside a struct passed by value
            v = self.pick_view(ctx, "dev")
            d = self.place(ctx, v, self.pick_len(v.len))
            n = self.count([d], d.len)
            spin = self.spin(ctx)
            self.written(d)
            bid = self.emit_open(ctx, "{")
            inner = ctx.child()
            vid = self.nid()
            self.emit(inner, "DevView dv%d = {%s, %s};" % (vid, self.ptr(d), n), mark=False)
            self.emit(inner, "k_view%s(dv%d, %s, %d);" % (self.launch(n), vid, self.odd(), spin))
            if self.chance(0.3):
                self.api(inner, "cudaGetLastError()")
            self.emit_close(ctx, bid)
            self.kernels_used.add(name)
            return True
        self.kernels_used.add(name)
        self.emit(ctx, call + ";")
        if self.chance(0.25):
            self.api(ctx, "cudaGetLastError()")
        return True

    def op_sync(self, ctx):
        x = self.r.random()
        self.charge(ctx, 5)
        if x < 0.8:
            self.api(ctx, "cudaDeviceSynchronize()")
        else:
            self.api(ctx, "cudaStreamSynchronize(0)")
        return True

    # -- 2D copies -------------------------------------------------------------
    def op_copy2d(self, ctx, direction):
        """cudaMemcpy2D between host and device: h rows of w elements, each side with its
        own pitch (equal to w or larger); the model region is the whole span."""
        dspace, sspace = ("dev", "host") if direction == "H2D" else ("host", "dev")
        w = self.choice([1, 3, 8, 16, 32, 64, 100])
        h = self.r.randint(1, 8)
        dp = w + self.choice([0, 0, 1, 7, 16, 64])
        sp = w + self.choice([0, 0, 2, 5, 32])
        dv = self.pick_view(ctx, dspace, (h - 1) * dp + w)
        sv = self.pick_view(ctx, sspace, (h - 1) * sp + w)
        if not dv or not sv:
            return False
        d = self.place(ctx, dv, (h - 1) * dp + w)
        s = self.place(ctx, sv, (h - 1) * sp + w)
        self.copy2d(ctx, d, dp, s, sp, w, h, direction)
        return True

    def copy2d(self, ctx, d, dp, s, sp, w, h, direction, mark=True):
        kind = {"H2D": "cudaMemcpyHostToDevice", "D2H": "cudaMemcpyDeviceToHost"}[direction]
        if self.chance(0.05):
            kind = "cudaMemcpyDefault"

        def pitch(p):
            return "%d * sizeof(unsigned int)" % p if self.chance(0.7) else str(p * 4)
        self.written(d)
        self.charge(ctx, 10)
        self.api(ctx, "cudaMemcpy2D(%s, %s, %s, %s, %s, %d, %s)"
                 % (self.ptr(d), pitch(dp), self.ptr(s), pitch(sp), pitch(w), h, kind), mark)

    # -- patterns for multi-stream scheduling ------------------------------------
    def regions_apart(self, ctx, wants, taken=(), tries=10):
        """Regions for wants = [(space, length)], disjoint from each other and from
        `taken`; None when none are found."""
        for _ in range(tries):
            got = []
            for space, n in wants:
                v = self.pick_view(ctx, space, n)
                if not v:
                    return None
                rg = self.place(ctx, v, n)
                if any(relation(rg, o) != "disjoint" for o in list(taken) + got):
                    break
                got.append(rg)
            else:
                return got
        return None

    def kernel_on(self, ctx, d, src=None, src2=None):
        """Emit a kernel that writes region d (reading src / src2, each of d's length and
        equal to or disjoint from d)."""
        regs = [d] + [r for r in (src, src2) if r is not None]
        n = self.count(regs, d.len)
        spin = self.spin(ctx)
        cfg = self.launch(n)
        self.written(d)
        if src2 is not None:
            name = "k_mix"
            call = "k_mix%s(%s, %s, %s, %s, %d)" % (cfg, self.ptr(d), self.ptr(src),
                                                    self.ptr(src2), n, spin)
        elif src is not None:
            name = self.choice(["k_add", "k_xor"])
            if name == "k_xor":
                call = "k_xor<unsigned int>%s(%s, %s, %s, %s, %d)" % (
                    cfg, self.ptr(d), self.ptr(src), self.host_scalar(ctx), n, spin)
            else:
                call = "k_add%s(%s, %s, %s, %d)" % (cfg, self.ptr(d), self.ptr(src), n, spin)
        else:
            name = self.weighted([(3, "k_scale")] if ctx.func.unit else
                                 [(3, "k_scale"), (1, "k_from_const"), (1, "k_from_sym")])
            if name == "k_scale":
                call = "k_scale%s(%s, %s, %s, %d)" % (cfg, self.ptr(d),
                                                      self.host_scalar(ctx, True), n, spin)
            elif name == "k_from_const":
                call = "k_from_const%s(%s, %d, %s, %d)" % (cfg, self.ptr(d),
                                                           self.r.randrange(CONST_N), n, spin)
            else:
                call = "k_from_sym%s(%s, %d, %s, %d)" % (cfg, self.ptr(d),
                                                         self.r.randrange(SYM_N), n, spin)
        self.kernels_used.add(name)
        self.emit(ctx, call + ";")

    def move(self, ctx, d, s, direction, allow_2d=True):
        """Copy region s to region d (same length) with cudaMemcpy, or sometimes with a
        cudaMemcpy2D whose pitch equals its width (the same elements)."""
        n = d.len
        rows = [r for r in (2, 4, 8) if n % r == 0]
        if allow_2d and rows and self.chance(0.2):
            h = self.choice(rows)
            self.copy2d(ctx, d, n // h, s, n // h, n // h, h, direction)
            return
        kind = {"H2D": "cudaMemcpyHostToDevice", "D2H": "cudaMemcpyDeviceToHost"}[direction]
        self.written(d)
        self.charge(ctx, 10)
        self.api(ctx, "cudaMemcpy(%s, %s, %s, %s)" % (self.ptr(d), self.ptr(s),
                                                      self.nbytes(self.count([d, s], n)), kind))

    def interleave(self, chains):
        """Run the step lists of several chains, merged in a random order that keeps
        each chain's own order."""
        chains = [list(c) for c in chains if c]
        while chains:
            c = self.choice(chains)
            c.pop(0)()
            if not c:
                chains.remove(c)

    def pat_chains(self, ctx):
        """Independent chains upload -> kernel(s) -> download on disjoint buffers,
        interleaved: a scheduler may run them on different streams."""
        taken, chains = [], []
        for _ in range(self.r.randint(2, 3)):
            n = self.choice([16, 32, 64, 100, 128, 256, 512, 1000])
            wants = [("host", n), ("dev", n)] + ([("host", n)] if self.chance(0.4) else [])
            regs = self.regions_apart(ctx, wants, taken)
            if not regs:
                continue
            taken += regs
            hin, d = regs[0], regs[1]
            hout = regs[2] if len(regs) > 2 else hin
            steps = [lambda hin=hin, d=d: self.move(ctx, d, hin, "H2D")]
            for _ in range(self.r.randint(1, 2)):
                steps.append(lambda d=d: self.kernel_on(ctx, d, d if self.chance(0.2) else None))
            steps.append(lambda hout=hout, d=d: self.move(ctx, hout, d, "D2H"))
            if self.chance(0.3):
                pid = self.nid()
                steps.append(lambda hout=hout, pid=pid: self.emit(
                    ctx, 'printf("ch%d %%08x\\n", checksum(%s, %s));'
                    % (pid, self.ptr(hout), self.count([hout], hout.len))))
            chains.append(steps)
        if len(chains) < 2:
            return False
        self.interleave(chains)
        return True

    def pat_join(self, ctx):
        """Two buffers uploaded separately, one kernel reading both, one download."""
        n = self.choice([16, 64, 128, 256, 512, 1000])
        regs = self.regions_apart(ctx, [("host", n), ("host", n), ("dev", n), ("dev", n)])
        if not regs:
            return False
        ha, hb, da, db = regs
        ups = [[lambda: self.move(ctx, da, ha, "H2D")], [lambda: self.move(ctx, db, hb, "H2D")]]
        if self.chance(0.5):
            ups[0].append(lambda: self.kernel_on(ctx, da))
        self.interleave(ups)
        dc = da
        if self.chance(0.5):
            more = self.regions_apart(ctx, [("dev", n)], regs)
            if more:
                dc = more[0]
        if dc is da and self.chance(0.5):
            self.kernel_on(ctx, da, db)
        else:
            self.kernel_on(ctx, dc, da, db)
        self.move(ctx, hb if self.chance(0.5) else ha, dc, "D2H")
        return True

    def pat_diamond(self, ctx):
        """a uploaded; b and c each computed from a (independent); a from b and c."""
        n = self.choice([16, 64, 128, 256, 512])
        regs = self.regions_apart(ctx, [("host", n), ("dev", n), ("dev", n), ("dev", n)])
        if not regs:
            return False
        h, a, b, c = regs
        self.move(ctx, a, h, "H2D")
        mids = [(b, a), (c, a)]
        self.r.shuffle(mids)
        for d, s in mids:
            self.kernel_on(ctx, d, s)
        self.kernel_on(ctx, a, b, c)
        self.move(ctx, h, a, "D2H")
        return True

    def pat_slices(self, ctx):
        """A loop whose iterations work on disjoint slices: upload, kernel, download."""
        if ctx.depth >= self.cfg["max_depth"]:
            return False
        k = self.r.randint(2, 4)
        while k > 1 and ctx.mult * k > self.cfg["max_mult"]:
            k -= 1
        if k < 2:
            return False
        s = self.choice([16, 32, 64, 128, 256])
        dv = self.pick_view(ctx, "dev", k * s)
        hv = self.pick_view(ctx, "host", k * s)
        ov = self.pick_view(ctx, "host", k * s) if self.chance(0.4) else hv
        if not dv or not hv or not ov:
            return False
        var = "it%d" % self.nid()

        def slice_of(v):
            off = self.r.randint(0, v.len - k * s) if self.chance(0.5) else 0
            return Region(v, off, s, var, s, k)

        d, hin, hout = slice_of(dv), slice_of(hv), slice_of(ov)
        bid = self.emit_open(ctx, "for (int %s = 0; %s < %d; ++%s) {" % (var, var, k, var))
        body = ctx.child((var, k), "for", k)
        self.move(body, d, hin, "H2D")
        for _ in range(self.r.randint(1, 2)):
            self.kernel_on(body, d)
        if relation(hout, hin) in ("disjoint", "equal"):
            self.move(body, hout, d, "D2H")
        else:
            self.move(body, hin, d, "D2H")
        self.emit_close(ctx, bid)
        return True

    def pat_temp(self, ctx):
        """A host buffer (malloc, new[], pinned, or v9: from a helper that allocates and
        returns it) that lives only for a few copies, freed directly or by a helper,
        sometimes allocated again with another size; sometimes a temporary device buffer
        too."""
        dv = self.pick_view(ctx, "dev")
        if not dv:
            return False
        tid = self.nid()
        name = "t%d" % tid
        kinds = [(3, "malloc"), (2, "new"), (1, "pinned")]
        if self.f_hret:
            kinds.append((2, "hret"))
        kind = self.weighted(kinds)
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        maker = self.hret_maker(ctx.func.unit) if kind == "hret" else None
        made = []

        def alloc(n, declare):
            decl = "unsigned int *" if declare else ""
            if kind == "hret":
                # (the same helper again for a second round)
                a = self.hret_alloc(inner, name, n, declare, "temphost", maker, view=False)
                made[:] = [a]
                return View(a, name, name, 0, n)
            if kind == "malloc":
                self.emit(inner, "%s%s = (unsigned int *)malloc(%d * sizeof(unsigned int));"
                          % (decl, name, n), mark=False)
            elif kind == "new":
                self.emit(inner, "%s%s = new unsigned int[%d];" % (decl, name, n), mark=False)
            else:
                if declare:
                    self.emit(inner, "unsigned int *%s = nullptr;" % name, mark=False)
                self.api(inner, "cudaMallocHost(&%s, %d * sizeof(unsigned int))" % (name, n),
                         mark=False)
            self.check_alloc(inner, name)
            self.host_init(inner, name, n)
            a = self.new_alloc(name, "host", "temphost", n)
            return View(a, name, name, 0, n)

        def release():
            if kind == "hret":
                self.emit(inner, self.hret_free(made[0]), mark=False)
            elif kind == "malloc":
                self.emit(inner, "%s(%s);" % (self.choice(["free", "release_host"]), name),
                          mark=False)
            elif kind == "new":
                self.emit(inner, ("delete[] %s;" if self.chance(0.6) else "release_host_arr(%s);")
                          % name, mark=False)
            else:
                self.api(inner, "cudaFreeHost(%s)" % name, mark=False)

        dtv = None
        if self.chance(0.35):
            m = self.choice([64, 256, 1024])
            dname = "dt%d" % tid
            self.emit(inner, "unsigned int *%s = nullptr;" % dname, mark=False)
            self.api(inner, "cudaMalloc(&%s, %d * sizeof(unsigned int))" % (dname, m), mark=False)
            self.check_alloc(inner, dname)
            self.api(inner, "cudaMemset(%s, %d, %d * sizeof(unsigned int))"
                     % (dname, self.r.randrange(256), m), mark=False)
            dtv = View(self.new_alloc(dname, "dev", "tempdev", m), dname, dname, 0, m)
        for round_ in range(2 if self.chance(0.3) else 1):
            n = self.choice([16, 64, 100, 256, 512, 1000])
            tv = alloc(n, round_ == 0)
            devs = [v for v in self.live_views(ctx, "dev", 1)] + ([dtv] if dtv else [])
            for _ in range(self.r.randint(1, 3)):
                v = self.choice(devs)
                ln = min(v.len, n)
                d = self.place(ctx, v, self.pick_len(ln))
                t = self.place(ctx, tv, d.len, allow_var=False)
                x = self.r.random()
                if x < 0.45:
                    self.move(inner, d, t, "H2D")
                    if self.chance(0.5):
                        self.kernel_on(inner, d)
                elif x < 0.9:
                    self.move(inner, t, d, "D2H")
                else:
                    self.kernel_on(inner, d)
            if self.chance(0.6):
                pid = self.nid()
                self.emit(inner, 'printf("t%d %%08x\\n", checksum(%s, %d));' % (pid, name, n))
            release()
        if dtv:
            if self.chance(0.5):
                self.emit(inner, "release_dev(%s);" % dtv.ptr, mark=False)
            else:
                self.api(inner, "cudaFree(%s)" % dtv.ptr, mark=False)
        self.emit_close(ctx, bid)
        return True

    # -- v3: the program's own asynchronous copies ---------------------------------
    PAGEABLE = ("malloc", "new", "vector", "stack", "global", "struct-host", "tempvec",
                "cls-host", "uptr", "hret")

    def legacy_sync(self, ctx):
        self.charge(ctx, 5)
        self.api(ctx, self.choice(["cudaDeviceSynchronize()", "cudaDeviceSynchronize()",
                                   "cudaStreamSynchronize(0)"]))

    def own_async(self, ctx, d, s, direction):
        kind = {"H2D": "cudaMemcpyHostToDevice", "D2H": "cudaMemcpyDeviceToHost"}[direction]
        stream = "" if self.chance(0.15) else ", 0"
        self.written(d)
        self.charge(ctx, 10)
        self.api(ctx, "cudaMemcpyAsync(%s, %s, %s, %s%s)"
                 % (self.ptr(d), self.ptr(s), self.nbytes(self.count([d, s], d.len)), kind,
                    stream))

    def op_own_async(self, ctx):
        """cudaMemcpyAsync(..., 0) as the program itself writes it.  H2D from pageable
        memory is staged before the call returns, so the host may overwrite the source
        at once; from page-locked (or possibly page-locked: helper parameters) memory
        the copy reads the source later, so a sync comes first.  D2H: always a sync
        before the destination is read."""
        if self.chance(0.6):
            dv = self.pick_view(ctx, "dev")
            hv = self.pick_view(ctx, "host")
            if not dv or not hv:
                return False
            n = self.pick_len(min(dv.len, hv.len))
            d, h = self.place(ctx, dv, n), self.place(ctx, hv, n)
            self.used["async"] += 1
            self.own_async(ctx, d, h, "H2D")
            if self.chance(0.35):
                self.kernel_on(ctx, d)
            pageable = h.view.alloc.kind in self.PAGEABLE
            if not pageable or self.chance(0.2):
                self.legacy_sync(ctx)
            if self.chance(0.85):
                # the host reuses the source buffer right away
                self.written(h)
                if self.chance(0.3):
                    self.emit(ctx, "memset(%s, %d, %s);" % (self.ptr(h), self.r.randrange(256),
                                                           self.nbytes(self.count([h], n))))
                else:
                    self.emit(ctx, "for (int i = 0; i < %s; ++i) %s = %s * %s + (unsigned int)i;"
                              % (self.count([h], n), self.at(h, "i"), self.at(h, "i"),
                                 self.odd()))
            if self.chance(0.5):
                # what reached the device, printed before later work can overwrite it
                rid = self.nid()
                bid = self.emit_open(ctx, "{")
                inner = ctx.child()
                self.emit(inner, "std::vector<unsigned int> ab%d(%d);" % (rid, n), mark=False)
                self.charge(ctx, 10)
                self.api(inner, "cudaMemcpy(ab%d.data(), %s, %d * sizeof(unsigned int), "
                         "cudaMemcpyDeviceToHost)" % (rid, self.ptr(d), n), mark=False)
                self.emit(inner, 'printf("ab%d %%08x\\n", checksum(ab%d.data(), %d));'
                          % (rid, rid, n), mark=False)
                self.emit_close(ctx, bid)
            return True
        dv = self.pick_view(ctx, "dev")
        hv = self.pick_view(ctx, "host")
        if not dv or not hv:
            return False
        n = self.pick_len(min(dv.len, hv.len))
        d, h = self.place(ctx, dv, n), self.place(ctx, hv, n)
        self.used["async"] += 1
        self.own_async(ctx, h, d, "D2H")
        if self.chance(0.3):
            # ordered after the copy on stream 0; reads no host memory (the copy may
            # still be writing its destination)
            self.no_host_reads = True
            self.kernel_on(ctx, d)
            self.no_host_reads = False
        if self.chance(0.4):
            other = self.regions_apart(ctx, [("host", self.pick_len(256))], [h])
            if other:
                x = other[0]
                self.written(x)
                self.emit(ctx, "for (int i = 0; i < %s; ++i) %s = %s * %s + (unsigned int)i;"
                          % (self.count([x], x.len), self.at(x, "i"), self.at(x, "i"),
                             self.odd()))
        self.legacy_sync(ctx)
        if self.chance(0.7):
            pid = self.nid()
            self.emit(ctx, 'printf("a%d %%08x\\n", checksum(%s, %s));'
                      % (pid, self.ptr(h), self.count([h], n)))
        return True

    def pat_own_async_temp(self, ctx):
        """The shape of the race in issue 18: a short-lived pageable buffer that a blocking
        copy reads (what makes a tool want to pin it) and that the program's own async copy
        then reads, overwritten right after that copy; what reached the device is printed."""
        pairs = self.regions_apart(ctx, [("dev", self.choice([16, 64, 100, 256]))])
        if not pairs:
            return False
        d = pairs[0]
        n = d.len
        e = self.regions_apart(ctx, [("dev", n)]) or [d]
        tid = self.nid()
        name = "pa%d" % tid
        kind = self.choice(["malloc", "malloc", "new"])
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        if kind == "malloc":
            self.emit(inner, "unsigned int *%s = (unsigned int *)malloc(%d * sizeof(unsigned int));"
                      % (name, n), mark=False)
        else:
            self.emit(inner, "unsigned int *%s = new unsigned int[%d];" % (name, n), mark=False)
        self.check_alloc(inner, name)
        self.host_init(inner, name, n)
        tv = View(self.new_alloc(name, "host", "temphost", n), name, name, 0, n)
        t = Region(tv, 0, n)
        self.used["async"] += 1
        self.move(inner, e[0], t, "H2D", allow_2d=False)
        if self.chance(0.5):
            self.kernel_on(inner, e[0])
        self.own_async(inner, d, t, "H2D")
        if self.chance(0.4):
            self.kernel_on(inner, d)
        self.emit(inner, "for (int i = 0; i < %d; ++i) %s[i] = %s[i] * %s + (unsigned int)i;"
                  % (n, name, name, self.odd()))
        rid = self.nid()
        self.emit(inner, "std::vector<unsigned int> ab%d(%d);" % (rid, n), mark=False)
        self.charge(ctx, 10)
        self.api(inner, "cudaMemcpy(ab%d.data(), %s, %d * sizeof(unsigned int), "
                 "cudaMemcpyDeviceToHost)" % (rid, self.ptr(d), n), mark=False)
        self.emit(inner, 'printf("ab%d %%08x\\n", checksum(ab%d.data(), %d));' % (rid, rid, n),
                  mark=False)
        if kind == "malloc":
            self.emit(inner, "free(%s);" % name, mark=False)
        else:
            self.emit(inner, "delete[] %s;" % name, mark=False)
        self.emit_close(ctx, bid)
        return True

    # -- v4: streams of the program's own ---------------------------------------------
    def own_stream(self):
        """A stream of `us[]`, spelled with a constant index or, sometimes, an expression
        (the tool cannot tell two such spellings apart)."""
        i = self.r.randrange(self.n_streams)
        if self.chance(0.2):
            return "us[(%d + %d) %% %d]" % (i, self.n_streams * self.r.randint(1, 3),
                                             self.n_streams)
        return "us[%d]" % i

    def stream_api(self, ctx, call):
        """A call on a stream of the program's own: checked or plain, never in a condition
        (the tool leaves such files unchanged)."""
        self.emit(ctx, ("CHECK(%s);" if self.chance(0.5) else "%s;") % call)

    def stream_step(self, ctx, stream, d, h):
        """One op on `stream`: a launch writing d, or an async copy between d and h."""
        x = self.r.random()
        if x < 0.45 or h is None:
            self.stream = stream
            self.kernel_on(ctx, d)
            self.stream = None
            return None
        self.charge(ctx, 10)
        if x < 0.75:
            self.written(d)
            self.stream_api(ctx, "cudaMemcpyAsync(%s, %s, %s, cudaMemcpyHostToDevice, %s)"
                            % (self.ptr(d), self.ptr(h), self.nbytes(self.count([d, h], d.len)),
                               stream))
            return "H2D"
        self.written(h)
        self.stream_api(ctx, "cudaMemcpyAsync(%s, %s, %s, cudaMemcpyDeviceToHost, %s)"
                        % (self.ptr(h), self.ptr(d), self.nbytes(self.count([d, h], d.len)),
                           stream))
        return "D2H"

    def stream_chain_helper(self, ctx, stream, d, h):
        """The chain in a helper of its own that returns with it running (the program
        relies on the legacy stream to order what follows the call after it): a static
        function taking the regions' pointers and the stream.  Returns whether the chain
        copies back into h."""
        self.stream_helper_used = True
        name = "own_chain%d" % self.nid()
        params = ["unsigned int *d"] + (["unsigned int *h"] if h is not None else [])
        body, d2h = [], False
        for _ in range(self.r.randint(1, 3)):
            x = self.r.random()
            if x < 0.45 or h is None:
                self.kernels_used.add("k_scale")
                body.append("  k_scale<<<%d, %d, 0, s>>>(d, %s, %d, %d);"
                            % (self.choice([1, 2, 4]), self.choice([32, 64, 128]), self.odd(),
                               d.len, self.spin(ctx)))
            elif x < 0.75:
                self.charge(ctx, 10)
                body.append("  cudaMemcpyAsync(d, h, %d * sizeof(unsigned int), "
                            "cudaMemcpyHostToDevice, s);" % d.len)
            else:
                self.charge(ctx, 10)
                d2h = True
                body.append("  cudaMemcpyAsync(h, d, %d * sizeof(unsigned int), "
                            "cudaMemcpyDeviceToHost, s);" % d.len)
        unit = 0
        if self.n_parts and self.chance(0.6):
            unit = self.r.randint(1, self.n_parts)  # v7: the chain starts in another unit
        sig = "void %s(%s, cudaStream_t s)" % (name, ", ".join(params))
        if unit:
            self.part_decls.append("%s;  // part%d.cu" % (sig, unit))
            self.part_chains.setdefault(unit, []).extend([sig + " {"] + body + ["}", ""])
        else:
            self.stream_helpers.append("static %s {" % sig)
            self.stream_helpers += body + ["}", ""]
        self.written(d)
        if h is not None:
            self.written(h)
        args = [self.ptr(d)] + ([self.ptr(h)] if h is not None else [])
        self.emit(ctx, "%s(%s, %s);" % (name, ", ".join(args), stream))
        return d2h

    def pat_own_streams(self, ctx):
        """Work on the program's own (blocking) streams amid legacy-stream work.  The
        program relies on the legacy default stream's implicit order: legacy work before
        a chain is done before it starts, and the chain is done before later legacy work
        starts; a blocking legacy copy returns only once the chain is done.  While a
        chain runs, the host touches none of its host memory and no other stream touches
        its device memory; an unrelated legacy launch may run between its ops."""
        if not (ctx.func.is_main and self.n_streams):
            return False
        self.stream_helper_used = False
        dv = self.pick_view(ctx, "dev")
        if not dv:
            return False
        n = self.pick_len(dv.len)
        d = self.place(ctx, dv, n)
        hv = self.pick_view(ctx, "host", n)
        h = self.place(ctx, hv, n) if hv and self.chance(0.7) else None
        stream = self.own_stream()
        self.used["streams"] += 1
        # Until the completion the chain may still be copying into host memory:
        # the legacy launches between its steps take no scalar read from the host.
        self.no_host_reads = True
        d2h = False
        if self.chance(0.3):
            d2h = self.stream_chain_helper(ctx, stream, d, h)
        for _ in range(0 if self.stream_helper_used else self.r.randint(1, 3)):
            d2h |= self.stream_step(ctx, stream, d, h) == "D2H"
            if self.chance(0.3):
                other = self.regions_apart(ctx, [("dev", self.pick_len(256))], [d])
                if other:
                    self.kernel_on(ctx, other[0])  # a legacy launch on other data
        handed = False
        if self.chance(0.3):
            # the same data on another stream, ordered by a legacy launch between them
            other = self.regions_apart(ctx, [("dev", self.pick_len(256))], [d])
            if other:
                self.kernel_on(ctx, other[0])
                self.stream = self.own_stream()
                self.kernel_on(ctx, d)
                self.stream = None
                handed = True
        if self.chance(0.25):
            self.kernel_on(ctx, d)  # legacy work after the chain: ordered after it
        self.no_host_reads = False
        x = self.r.random()
        if x < 0.3 and not handed:
            self.charge(ctx, 5)
            self.stream_api(ctx, "cudaStreamSynchronize(%s)" % stream)
        elif x < 0.5:
            self.charge(ctx, 5)
            self.api(ctx, "cudaDeviceSynchronize()")
        else:
            # a blocking legacy copy of other data: it also waits for the chain
            pair = self.regions_apart(ctx, [("dev", self.pick_len(256))], [d])
            hv2 = self.pick_view(ctx, "host")
            o = ho = None
            if pair and hv2:
                m = min(pair[0].len, hv2.len)
                o = Region(pair[0].view, pair[0].off, m)
                ho = self.place(ctx, hv2, m)
            if ho is None or (h is not None and relation(ho, h) != "disjoint"):
                self.charge(ctx, 5)
                self.api(ctx, "cudaDeviceSynchronize()")
            else:
                self.move(ctx, ho, o, "D2H", allow_2d=False)
        if d2h and self.chance(0.8):
            pid = self.nid()
            self.emit(ctx, 'printf("us%d %%08x\\n", checksum(%s, %s));'
                      % (pid, self.ptr(h), self.count([h], h.len)))
        return True

    # -- v3: timed regions ----------------------------------------------------------
    def can_mark(self, ctx):
        """k_mark launches run at most once per program (one flag each)."""
        return (self.f_timer and ctx.func.is_main and ctx.mult == 1
                and self.mark_slots < 64)

    def mark_kernel(self, ctx):
        v = self.pick_view(ctx, "dev")
        if not v:
            return False
        d = self.place(ctx, v, self.pick_len(v.len))
        n = self.count([d], d.len)
        spin = self.spin(ctx)
        slot = self.mark_slots
        self.mark_slots += 1
        self.written(d)
        self.kernels_used.add("k_mark")
        self.emit(ctx, "k_mark<<<1, %d>>>(%s, %s, %s, tm_flags_dev + %d, %d);"
                  % (self.choice([32, 64, 128, 256]), self.ptr(d), self.host_scalar(ctx, True),
                     n, slot, spin))
        return True

    def timer_read(self, ctx, tid):
        """A timer read as real programs write them, and in the same statement (so that no
        wait can come between them) the count of finished marked kernels; the timer's
        value goes to tm_record, the count is printed."""
        form = self.r.randrange(4)
        if form == 0:
            self.emit(ctx, "struct timeval tv%d;" % tid, mark=False)
            call = "gettimeofday(&tv%d, nullptr)" % tid
            value = "(double)tv%d.tv_sec + (double)tv%d.tv_usec * 1e-6" % (tid, tid)
        elif form == 1:
            self.emit(ctx, "struct timespec ts%d;" % tid, mark=False)
            call = "clock_gettime(CLOCK_MONOTONIC, &ts%d)" % tid
            value = "(double)ts%d.tv_sec + (double)ts%d.tv_nsec * 1e-9" % (tid, tid)
        elif form == 2:
            self.emit(ctx, "std::chrono::steady_clock::time_point tc%d;" % tid, mark=False)
            call = "tc%d = std::chrono::steady_clock::now()" % tid
            value = "std::chrono::duration<double>(tc%d.time_since_epoch()).count()" % tid
        else:
            self.emit(ctx, "double tw%d = 0.0;" % tid, mark=False)
            call = "tw%d = now_s()" % tid
            value = "tw%d" % tid
        self.emit(ctx, "unsigned int k%d = (%s, tm_done());" % (tid, call), mark=False)
        self.emit(ctx, "tm_record(%s);" % value, mark=False)
        self.emit(ctx, 'printf("timer %d observed %%u kernels complete\\n", k%d);' % (tid, tid),
                  mark=False)

    def observe(self, ctx):
        """A synchronising call, a timer read right after it, and what the timer observed.
        One deletable block, so the reducer never separates the read from its sync."""
        tid = self.nid()
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        dv = self.pick_view(ctx, "dev")
        x = self.r.random()
        if x < 0.2 and dv:
            rg = self.place(ctx, dv, 1)
            self.emit(inner, "unsigned int tr%d = 0;" % tid, mark=False)
            self.charge(ctx, 10)
            self.api(inner, "cudaMemcpy(&tr%d, %s, sizeof(unsigned int), cudaMemcpyDeviceToHost)"
                     % (tid, self.ptr(rg)), mark=False)
            self.emit(inner, 'printf("tr%d %%u\\n", tr%d);' % (tid, tid), mark=False)
        else:
            self.charge(ctx, 5)
            self.api(inner, "cudaStreamSynchronize(0)" if x < 0.45 else "cudaDeviceSynchronize()",
                     mark=False)
        self.timer_read(inner, tid)
        self.emit_close(ctx, bid)

    def pat_timed(self, ctx):
        """A timed region: observe, marked kernels among other statements, observe."""
        if ctx.depth >= self.cfg["max_depth"] or not self.live_views(ctx, "dev"):
            return False
        self.used["timer"] += 1
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        self.observe(inner)
        steps = [lambda: self.stmt(inner) for _ in range(self.r.randint(0, 2))]
        if self.can_mark(inner):
            steps += [lambda: self.mark_kernel(inner) for _ in range(self.r.randint(1, 2))]
        self.r.shuffle(steps)
        for st in steps:
            st()
        self.observe(inner)
        self.emit_close(ctx, bid)
        return True

    def timer_setup(self, ctx):
        """Before the first CUDA call: mapped page-locked memory is wanted."""
        self.api(ctx, "cudaSetDeviceFlags(cudaDeviceMapHost)", mark=False)

    def timer_alloc(self, ctx):
        """Mapped host memory for the flags of the marked kernels, zeroed."""
        self.emit(ctx, "unsigned int *tm_host = nullptr;", mark=False)
        if self.tm_registered:
            self.emit(ctx, "tm_host = (unsigned int *)malloc(TM_SLOTS * sizeof(unsigned int));",
                      mark=False)
            self.emit(ctx, "for (int i = 0; i < TM_SLOTS; ++i) tm_host[i] = 0u;", mark=False)
            self.api(ctx, "cudaHostRegister(tm_host, TM_SLOTS * sizeof(unsigned int), "
                     "cudaHostRegisterMapped)", mark=False)
        else:
            self.api(ctx, "cudaHostAlloc(&tm_host, TM_SLOTS * sizeof(unsigned int), "
                     "cudaHostAllocMapped)", mark=False)
            self.emit(ctx, "for (int i = 0; i < TM_SLOTS; ++i) tm_host[i] = 0u;", mark=False)
        self.emit(ctx, "tm_flags = tm_host;", mark=False)
        self.api(ctx, "cudaHostGetDevicePointer((void **)&tm_flags_dev, tm_host, 0)", mark=False)

    def timer_release(self, ctx):
        if self.tm_registered:
            self.api(ctx, "cudaHostUnregister(tm_host)", mark=False)
            self.emit(ctx, "free(tm_host);", mark=False)
        else:
            self.api(ctx, "cudaFreeHost(tm_host)", mark=False)

    # -- v3: inactive preprocessor blocks ----------------------------------------------
    def op_inactive(self, ctx):
        """Host reads (prints) inside a block that is never compiled: #ifdef SA_FUZZ_DEBUG,
        or the #else of an #if 1 whose active part holds ordinary statements."""
        if not self.live_views(ctx, "host"):
            return False
        self.used["ifdef"] += 1
        pad = "  " * ctx.indent

        def dead_reads():
            inner = ctx.child()
            for _ in range(self.r.randint(1, 2)):
                if self.chance(0.7):
                    self.op_host_print(inner)
                else:
                    self.op_host_reduce(inner)
        bid = self.nid()
        if ctx.depth < self.cfg["max_depth"] and self.chance(0.3):
            ctx.func.lines.append(pad + "#if 1  //@b{%d" % bid)
            live = ctx.child()
            for _ in range(self.r.randint(1, 2)):
                self.stmt(live)
            ctx.func.lines.append(pad + "#else")
            dead_reads()
        else:
            ctx.func.lines.append(pad + "#ifdef SA_FUZZ_DEBUG  //@b{%d" % bid)
            dead_reads()
        ctx.func.lines.append(pad + "#endif  //@b}%d" % bid)
        return True

    # -- v3: error checks that return ----------------------------------------------------
    def check_alloc(self, ctx, name):
        if self.f_checkalloc and self.chance(0.75):
            macro = "CHECK_ALLOCATION_VOID" if ctx.func.ret == "void" and not ctx.func.is_main \
                else "CHECK_ALLOCATION"
            self.used["checkalloc"] += 1
            self.emit(ctx, "%s(%s);" % (macro, name))

    # -- host operations -----------------------------------------------------
    def host_pair(self, ctx, disjoint):
        for _ in range(8):
            xv = self.pick_view(ctx, "host")
            yv = self.pick_view(ctx, "host")
            if not xv:
                return None
            n = self.pick_len(min(xv.len, yv.len))
            x = self.place(ctx, xv, n)
            y = self.place(ctx, yv, n)
            if not disjoint or relation(x, y) == "disjoint":
                return x, y
        return None

    def op_host_loop(self, ctx):
        pair = self.host_pair(ctx, False)
        if not pair:
            return False
        x, y = pair
        n = self.count([x, y], x.len)
        k = self.odd()
        form = self.r.randrange(4)
        xi, yi = self.at(x, "i"), self.at(y, "i")
        if form == 0:
            body = "%s = %s * %s + %s;" % (xi, xi, k, yi)
        elif form == 1:
            body = "%s += (%s >> %d) ^ %s;" % (xi, yi, self.r.randrange(1, 9), k)
        elif form == 2:
            body = "%s = %s * %s + (unsigned int)i;" % (xi, xi, k)
        else:
            body = "%s ^= %s + %s;" % (xi, yi, self.u32())
        self.written(x)
        self.emit(ctx, "for (int i = 0; i < %s; ++i) %s" % (n, body))
        return True

    def op_host_print(self, ctx):
        v = self.pick_view(ctx, "host")
        if not v:
            return False
        a = self.place(ctx, v, 1)
        w = self.pick_view(ctx, "host")
        b = self.place(ctx, w, 1)
        pid = self.nid()
        if self.chance(0.5):
            self.emit(ctx, 'printf("p%d %%u %%u\\n", %s, %s);' % (pid, self.at(a, "0"), self.at(b, "0")))
        else:
            c = self.place(ctx, v, self.pick_len(v.len))
            self.emit(ctx, 'printf("c%d %%08x\\n", checksum(%s, %s));'
                      % (pid, self.ptr(c), self.count([c], c.len)))
        return True

    def op_host_reduce(self, ctx):
        v = self.pick_view(ctx, "host")
        if not v:
            return False
        rg = self.place(ctx, v, self.pick_len(v.len))
        aid = self.nid()
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        self.emit(inner, "unsigned int acc%d = %s;" % (aid, self.u32()), mark=False)
        self.emit(inner, "for (int i = 0; i < %s; ++i) acc%d = acc%d * 31u + %s;"
                  % (self.count([rg], rg.len), aid, aid, self.at(rg, "i")), mark=False)
        if self.chance(0.4):
            t = self.place(ctx, self.pick_view(ctx, "host"), 1)
            self.written(t)
            self.emit(inner, "%s = acc%d;" % (self.at(t, "0"), aid), mark=False)
        else:
            self.emit(inner, 'printf("acc%d %%u\\n", acc%d);' % (aid, aid), mark=False)
        self.emit_close(ctx, bid)
        return True

    def op_libc(self, ctx):
        if self.chance(0.6):
            pair = self.host_pair(ctx, True)
            if not pair:
                return False
            d, s = pair
            self.written(d)
            self.emit(ctx, "memcpy(%s, %s, %s);" % (self.ptr(d), self.ptr(s),
                                                   self.nbytes(self.count([d, s], d.len))))
        else:
            v = self.pick_view(ctx, "host")
            if not v:
                return False
            d = self.place(ctx, v, self.pick_len(v.len))
            self.written(d)
            self.emit(ctx, "memset(%s, %d, %s);" % (self.ptr(d), self.r.randrange(256),
                                                   self.nbytes(self.count([d], d.len))))
        return True

    # -- conditions -----------------------------------------------------------
    def host_cond(self, ctx):
        v = self.pick_view(ctx, "host")
        if not v:
            return None
        a = self.place(ctx, v, 1)
        x = self.r.random()
        if x < 0.5:
            m = self.r.randint(2, 5)
            return "(%s %% %du) == %du" % (self.at(a, "0"), m, self.r.randrange(m))
        if x < 0.75:
            return "(%s & %du) != 0u" % (self.at(a, "0"), 1 << self.r.randrange(4))
        b = self.place(ctx, self.pick_view(ctx, "host"), 1)
        if self.at(a, "0") == self.at(b, "0"):
            return "(%s & 3u) == 1u" % self.at(a, "0")
        return "%s > %s" % (self.at(a, "0"), self.at(b, "0"))

    def simple_cond(self, ctx):
        """A condition needing no statements before it."""
        opts = []
        if self.live_views(ctx, "host"):
            opts.append((4, "host"))
        if ctx.loops:
            opts.append((2, "loop"))
        if any(p.kind == "int" for p in ctx.func.params):
            opts.append((2, "param"))
        if not opts:
            return None
        k = self.weighted(opts)
        if k == "host":
            return self.host_cond(ctx)
        if k == "loop":
            var, iters = self.choice(ctx.loops)
            return "(%s %% 2) == %d" % (var, self.r.randrange(2))
        return "(k %% 3) == %d" % self.r.randrange(3)

    def cond(self, ctx):
        """A condition; may first emit a read-back or a helper call it depends on."""
        opts = [(4, "simple")]
        if ctx.func.gpu_ok and self.live_views(ctx, "dev"):
            opts.append((4, "readback"))
        if any(h.ret != "void" for h in self.callable(ctx)):
            opts.append((2, "call"))
        k = self.weighted(opts)
        if k == "readback":
            v = self.pick_view(ctx, "dev")
            rg = self.place(ctx, v, 1)
            rid = self.nid()
            self.emit(ctx, "unsigned int rb%d = 0;" % rid, mark=False)
            self.charge(ctx, 10)
            self.api(ctx, "cudaMemcpy(&rb%d, %s, sizeof(unsigned int), cudaMemcpyDeviceToHost)"
                     % (rid, self.ptr(rg)))
            m = self.r.randint(2, 5)
            return "(rb%d %% %du) == %du" % (rid, m, self.r.randrange(m))
        if k == "call":
            h = self.choice([h for h in self.callable(ctx) if h.ret != "void"])
            args = self.call_args(ctx, h) if self.can_afford(ctx, h.cost) else None
            if args is not None:
                rid = self.nid()
                self.charge(ctx, h.cost)
                ctx.func.callees.append(h)
                if self.chance(0.3):
                    return "(%s(%s) %% 2u) == 0u" % (h.name, args)
                self.emit(ctx, "unsigned int r%d = 0;" % rid, mark=False)
                self.emit(ctx, "r%d = %s(%s);" % (rid, h.name, args))
                return "(r%d %% 3u) != %du" % (rid, self.r.randrange(3))
        return self.simple_cond(ctx)

    # -- control flow ------------------------------------------------------------
    def block_len(self):
        lo, hi = self.cfg["block_stmts"]
        return self.r.randint(lo, hi)

    def ctrl_if(self, ctx):
        if ctx.depth >= self.cfg["max_depth"]:
            return False
        c = self.cond(ctx)
        if c is None:
            return False
        bid = self.emit_open(ctx, "if (%s) {" % c)
        self.stmts(ctx.child(), self.block_len())
        if self.chance(0.5):
            ctx.func.lines.append("  " * ctx.indent + "} else {")
            self.stmts(ctx.child(), self.block_len())
        self.emit_close(ctx, bid)
        return True

    def ctrl_for(self, ctx):
        if ctx.depth >= self.cfg["max_depth"]:
            return False
        iters = self.r.randint(2, 4)
        while iters > 1 and ctx.mult * iters > self.cfg["max_mult"]:
            iters -= 1
        if iters < 2:
            return False
        var = "it%d" % self.nid()
        bound = str(iters)
        hv = self.live_views(ctx, "host")
        if hv and iters >= 3 and self.chance(0.3):
            # a trip count read from host memory: lo .. iters (the model uses the maximum)
            lo = self.r.randint(1, iters - 1)
            e = self.at(self.place(ctx, self.choice(hv), 1), "0")
            bound = "%d + (int)(%s %% %du)" % (lo, e, iters - lo + 1)
        bid = self.emit_open(ctx, "for (int %s = 0; %s < %s; ++%s) {" % (var, var, bound, var))
        body = ctx.child((var, iters), "for", iters)
        label = None
        if self.chance(0.2):
            # a goto from anywhere in the body (also from nested loops) to just after it
            label = ["out%d" % self.nid(), False]
            body.labels = ctx.labels + [label]
        self.stmts(body, self.block_len())
        if label and not label[1]:
            c = self.simple_cond(body)
            if c is not None:
                label[1] = True
                self.emit(body, "if (%s) goto %s;" % (c, label[0]))
        self.emit_close(ctx, bid)
        if label and label[1]:
            self.emit(ctx, "%s:;" % label[0], mark=False)
        return True

    def ctrl_while(self, ctx):
        if ctx.depth >= self.cfg["max_depth"]:
            return False
        g = self.r.randint(2, 4)
        while g > 1 and ctx.mult * g > self.cfg["max_mult"]:
            g -= 1
        if g < 2:
            return False
        wid = self.nid()
        readback = ctx.func.gpu_ok and self.live_views(ctx, "dev") and self.chance(0.7)
        if not readback and not self.live_views(ctx, "host"):
            return False
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        self.emit(inner, "int g%d = 0;" % wid, mark=False)
        body = inner.child(None, "while", g)
        if readback:
            rg = self.place(ctx, self.pick_view(ctx, "dev"), 1)
            m = self.r.randint(2, 7)
            self.emit(inner, "unsigned int w%d = 0;" % wid, mark=False)
            self.emit(inner, "while (g%d < %d && (w%d %% %du) != %du) {"
                      % (wid, g, wid, m, self.r.randrange(1, m)), mark=False)
            self.stmts(body, self.block_len())
            self.charge(body, 10)
            self.api(body, "cudaMemcpy(&w%d, %s, sizeof(unsigned int), cudaMemcpyDeviceToHost)"
                     % (wid, self.ptr(rg)))
            self.emit(body, "++g%d;" % wid, mark=False)
            self.emit(inner, "}", mark=False)
        else:
            c = self.host_cond(ctx)
            if self.chance(0.5):
                self.emit(inner, "while (g%d < %d && !(%s)) {" % (wid, g, c), mark=False)
                self.stmts(body, self.block_len())
                self.emit(body, "++g%d;" % wid, mark=False)
                self.emit(inner, "}", mark=False)
            else:
                self.emit(inner, "do {", mark=False)
                self.stmts(body, self.block_len())
                self.emit(body, "++g%d;" % wid, mark=False)
                self.emit(inner, "} while (g%d < %d && !(%s));" % (wid, g, c), mark=False)
        self.emit_close(ctx, bid)
        return True

    def ctrl_switch(self, ctx):
        if ctx.depth >= self.cfg["max_depth"]:
            return False
        opts = []
        if self.live_views(ctx, "host"):
            opts.append("host")
        if ctx.func.gpu_ok and self.live_views(ctx, "dev"):
            opts.append("readback")
        if ctx.loops:
            opts.append("loop")
        if not opts:
            return False
        k = self.choice(opts)
        if k == "host":
            e = self.at(self.place(ctx, self.pick_view(ctx, "host"), 1), "0")
        elif k == "readback":
            rg = self.place(ctx, self.pick_view(ctx, "dev"), 1)
            rid = self.nid()
            self.emit(ctx, "unsigned int rb%d = 0;" % rid, mark=False)
            self.charge(ctx, 10)
            self.api(ctx, "cudaMemcpy(&rb%d, %s, sizeof(unsigned int), cudaMemcpyDeviceToHost)"
                     % (rid, self.ptr(rg)))
            e = "rb%d" % rid
        else:
            e = "(unsigned int)%s" % self.choice(ctx.loops)[0]
        bid = self.emit_open(ctx, "switch (%s %% 3u) {" % e)
        for label in ("case 0u:", "case 1u:", "default:"):
            if label == "case 1u:" and self.chance(0.3):
                continue
            ctx.func.lines.append("  " * ctx.indent + "%s {" % label)
            inner = ctx.child()
            self.stmts(inner, self.block_len())
            self.emit(inner, "break;", mark=False)
            ctx.func.lines.append("  " * ctx.indent + "}")
        self.emit_close(ctx, bid)
        return True

    def ctrl_jump(self, ctx):
        """break / continue inside a loop."""
        if not ctx.loop_kind:
            return False
        c = self.simple_cond(ctx)
        if c is None:
            return False
        if ctx.labels and self.chance(0.4):
            lab = self.choice(ctx.labels)
            lab[1] = True
            self.emit(ctx, "if (%s) goto %s;" % (c, lab[0]))
            return True
        word = "continue" if ctx.loop_kind == "for" and self.chance(0.5) else "break"
        self.emit(ctx, "if (%s) %s;" % (c, word))
        return True

    def ctrl_return(self, ctx):
        """Early return from a helper."""
        f = ctx.func
        if f.is_main:
            return False
        c = self.simple_cond(ctx)
        if c is None:
            return False
        ret = "return;" if f.ret == "void" else "return %s;" % self.u32()
        self.emit(ctx, "if (%s) { %s }" % (c, " ".join(f.cleanup + [ret])))
        return True

    # -- helpers -----------------------------------------------------------------
    def callable(self, ctx):
        f = ctx.func
        hs = self.helpers if f.is_main else self.helpers[:f.idx]
        if f.unit:  # main.cu's helpers are static: the other units cannot call them
            hs = [h for h in hs if h.unit]
        return [h for h in hs if f.gpu_ok or not h.gpu_ok]

    def call_args(self, ctx, h):
        regions = []
        args = []
        for p in h.params:
            if p.kind in ("hptr", "dptr"):
                space = "host" if p.kind == "hptr" else "dev"
                for _ in range(6):
                    v = self.pick_view(ctx, space, p.minlen)
                    if not v:
                        return None
                    rg = self.place(ctx, v, p.minlen)
                    if all(relation(rg, o) == "disjoint" for o in regions):
                        break
                else:
                    return None
                regions.append(rg)
                if p.written:
                    self.written(rg)
                args.append(self.ptr(rg))
            elif p.kind == "struct":
                cands = [s for s in ctx.func.structs if s.n >= p.minlen]
                cands = [s for s in cands
                         if all(relation(Region(s.hview, 0, s.n), o) == "disjoint" and
                                relation(Region(s.dview, 0, s.n), o) == "disjoint"
                                for o in regions)]
                if not cands:
                    return None
                s = self.choice(cands)
                regions += [Region(s.hview, 0, s.hview.len), Region(s.dview, 0, s.dview.len)]
                if s.acc == "->":
                    args.append(s.name if p.by_ptr else "*" + s.name)
                else:
                    args.append("&" + s.name if p.by_ptr else s.name)
            elif p.kind == "vec":
                cands = [v for v in ctx.func.views
                         if v.alloc.alive and v.alloc.kind == "vector" and v.len >= p.minlen
                         and v.off == 0 and v.len == v.alloc.size]
                cands = [v for v in cands
                         if all(relation(Region(v, 0, v.len), o) == "disjoint" for o in regions)]
                if not cands:
                    return None
                v = self.choice(cands)
                regions.append(Region(v, 0, v.len))
                if p.written and v.param is not None:
                    v.param.written = True
                args.append(v.idx)
            else:
                if ctx.loops and self.chance(0.5):
                    args.append(self.choice(ctx.loops)[0])
                elif any(q.kind == "int" for q in ctx.func.params) and self.chance(0.5):
                    args.append("k + 1")
                else:
                    args.append(str(self.r.randrange(10)))
        return ", ".join(args)

    def op_call(self, ctx):
        hs = [h for h in self.callable(ctx) if self.can_afford(ctx, h.cost)]
        if not hs:
            return False
        h = self.choice(hs)
        args = self.call_args(ctx, h)
        if args is None:
            return False
        self.charge(ctx, h.cost)
        ctx.func.callees.append(h)
        if self.chance(0.1):
            self.emit(ctx, "{ auto *fp = &%s; fp(%s); }" % (h.name, args))
        else:
            self.emit(ctx, "%s(%s);" % (h.name, args))
        return True

    def make_helper(self, idx):
        gpu = self.chance(0.7)
        f = Func("helper%d" % idx, False, gpu, self.cfg["helper_budget_us"])
        f.idx = idx
        f.unit = self.unit_of[idx] if self.unit_of else 0
        nh = self.r.randint(0, 2)
        nd = self.r.randint(1, 2) if gpu else 0
        if not gpu and nh == 0:
            nh = 1
        params = []
        for i in range(nh):
            params.append(Param("hptr", "hp%d" % i, self.choice([16, 32, 64, 128, 256])))
        for i in range(nd):
            params.append(Param("dptr", "dp%d" % i, self.choice([16, 32, 64, 128, 256])))
        if gpu and self.chance(0.3):
            params.append(Param("struct", "b", self.choice([64, 128, 256]), self.chance(0.5)))
        if self.chance(0.25):
            params.append(Param("vec", "v", self.choice([64, 128, 256])))
        if self.chance(0.4):
            params.append(Param("int", "k"))
        self.r.shuffle(params)
        f.params = params
        f.ret = "unsigned int" if self.chance(0.35) else "void"
        for p in params:
            if p.kind in ("hptr", "dptr"):
                a = self.new_alloc(p.name, "host" if p.kind == "hptr" else "dev", "param", p.minlen)
                f.views.append(View(a, p.name, p.name, 0, p.minlen, exact=False, param=p))
            elif p.kind == "struct":
                acc = "->" if p.by_ptr else "."
                ha = self.new_alloc("b%shost" % acc, "host", "param", p.minlen)
                da = self.new_alloc("b%sdev" % acc, "dev", "param", p.minlen)
                hv = View(ha, "b%shost" % acc, "b%shost" % acc, 0, p.minlen, "b%sn" % acc, "b",
                          exact=False)
                dv = View(da, "b%sdev" % acc, "b%sdev" % acc, 0, p.minlen, "b%sn" % acc, "b",
                          exact=False)
                f.views += [hv, dv]
                f.structs.append(StructInst("b", acc, hv, dv, p.minlen))
            elif p.kind == "vec":
                a = self.new_alloc("v", "host", "vector", p.minlen)
                f.views.append(View(a, "v.data()", "v", 0, p.minlen, "(int)v.size()", "v",
                                    exact=False, param=p))
        ctx = Ctx(f, 1)
        # temporaries owned by the helper
        if gpu and self.chance(0.3):
            n = self.choice([64, 256, 1024])
            tid = self.nid()
            a = self.new_alloc("tmp%d" % tid, "dev", "tempdev", n)
            self.emit(ctx, "unsigned int *tmp%d = nullptr;" % tid, mark=False)
            self.api(ctx, "cudaMalloc(&tmp%d, %d * sizeof(unsigned int))" % (tid, n), mark=False)
            self.check_alloc(ctx, "tmp%d" % tid)
            self.api(ctx, "cudaMemset(tmp%d, %d, %d * sizeof(unsigned int))"
                     % (tid, self.r.randrange(256), n), mark=False)
            f.views.append(View(a, "tmp%d" % tid, "tmp%d" % tid, 0, n))
            f.cleanup.append("cudaFree(tmp%d);" % tid)
            f.cost += 20
        if gpu and self.f_class and self.chance(0.35):
            # v8: a DevBuf on the helper's stack, freed by its destructor at every return
            n = self.choice([64, 256, 1024])
            tid = self.nid()
            self.emit(ctx, "DevBuf tdb%d(%d, %d);" % (tid, n, self.r.randrange(256)), mark=False)
            a = self.new_alloc("tdb%d" % tid, "dev", "cls-dev", n)
            f.views.append(View(a, "tdb%d.data()" % tid, "tdb%d.data()" % tid, 0, n,
                                "tdb%d.size()" % tid, "tdb%d" % tid))
            f.cost += 20
        if self.chance(0.3):
            n = self.choice([32, 64, 256])
            tid = self.nid()
            if self.chance(0.5):
                a = self.new_alloc("loc%d" % tid, "host", "stack", n)
                self.emit(ctx, "unsigned int loc%d[%d];" % (tid, n), mark=False)
                self.emit(ctx, "for (int i = 0; i < %d; ++i) loc%d[i] = (unsigned int)i * %s;"
                          % (n, tid, self.odd()), mark=False)
                f.views.append(View(a, "loc%d" % tid, "loc%d" % tid, 0, n))
            else:
                a = self.new_alloc("tv%d" % tid, "host", "tempvec", n)
                self.emit(ctx, "std::vector<unsigned int> tv%d(%d, %s);" % (tid, n, self.u32()),
                          mark=False)
                f.views.append(View(a, "tv%d.data()" % tid, "tv%d" % tid, 0, n, "(int)tv%d.size()"
                                    % tid, "tv%d" % tid))
        made = None
        if self.f_hret and self.chance(0.3):
            # v9: a host buffer from a helper that allocates and returns it, freed before
            # every return
            n = self.choice([64, 256, 1000])
            made = self.hret_alloc(ctx, "htmp%d" % self.nid(), n, True, "temphost")
            f.cleanup.append(self.hret_free(made))
        # the body
        lo, hi = self.cfg["helper_stmts"]
        self.stmts(ctx, self.r.randint(lo, hi))
        if f.unit and gpu and self.chance(0.3):
            self.op_sync(ctx)  # v7: a callee in another unit whose body syncs
        # leaving: release temporaries, compute the result
        for c in f.cleanup:
            self.emit(ctx, c, mark=False)
        if made:
            made.alive = False  # (the result below reads no freed buffer)
        if f.ret != "void":
            hv = self.live_views(ctx, "host")
            if hv:
                rg = self.place(ctx, self.choice(hv), 1)
                self.emit(ctx, "return %s + %s;" % (self.at(rg, "0"), self.u32()), mark=False)
            else:
                self.emit(ctx, "return %s;" % self.u32(), mark=False)
        sig = []
        for p in f.params:
            if p.kind in ("hptr", "dptr"):
                sig.append("%sunsigned int *%s" % ("" if p.written else "const ", p.name))
            elif p.kind == "struct":
                sig.append("Buf *b" if p.by_ptr else "Buf &b")
            elif p.kind == "vec":
                sig.append("%sstd::vector<unsigned int> &v" % ("" if p.written else "const "))
            else:
                sig.append("int k")
        f.signature = "%s%s %s(%s)" % ("" if f.unit else "static ", f.ret, f.name, ", ".join(sig))
        if f.unit:
            self.part_decls.append("%s;  // part%d.cu" % (f.signature, f.unit))
        return f

    # -- v8: host templates -------------------------------------------------------
    def half_cast(self, ptr, const=False):
        """The same bytes as unsigned short elements."""
        return "(%sunsigned short *)(%s)" % ("const " if const else "", ptr)

    def read_back_now(self, ctx, rg):
        """The caller reads a result right after the call that wrote it."""
        pid = self.nid()
        self.emit(ctx, 'printf("rn%d %%08x\\n", checksum(%s, %s));'
                  % (pid, self.ptr(rg), self.count([rg], rg.len)))

    def op_tmpl(self, ctx):
        """A call of a host template: upload_t / download_t, roundtrip_t<T>, scale_k<K>,
        or a Stage<T> (class template) on a region; T is unsigned int or, on the same
        bytes, unsigned short."""
        if not ctx.func.gpu_ok:
            return False
        x = self.r.random()
        half = self.chance(0.35)
        T = "unsigned short" if half else "unsigned int"

        def arg(rg, const=False):
            return self.half_cast(self.ptr(rg), const) if half else self.ptr(rg)

        def cnt(rg):
            c = self.count([rg], rg.len)
            return "2 * (%s)" % c if half else c

        def salt():
            return "(unsigned short)%s" % self.u32() if half else self.u32()
        if x < 0.3:
            dv = self.pick_view(ctx, "dev")
            if not dv:
                return False
            d = self.place(ctx, dv, self.pick_len(min(dv.len, 1024)))
            hv = self.pick_view(ctx, "host", d.len)
            if not hv:
                return False
            h = self.place(ctx, hv, d.len)
            explicit = "<%s>" % T if half or self.chance(0.4) else ""
            self.charge(ctx, 10)
            if self.chance(0.5):
                self.written(d)
                self.emit(ctx, "upload_t%s(%s, %s, %s);" % (explicit, arg(d), arg(h, True),
                                                            cnt(d)))
            else:
                self.written(h)
                self.emit(ctx, "download_t%s(%s, %s, %s);" % (explicit, arg(h), arg(d, True),
                                                              cnt(d)))
                if self.chance(0.4):
                    self.read_back_now(ctx, h)
        elif x < 0.6:
            dv = self.pick_view(ctx, "dev")
            if not dv:
                return False
            d = self.place(ctx, dv, self.pick_len(min(dv.len, 1024)))
            hv = self.pick_view(ctx, "host", d.len)
            ov = self.pick_view(ctx, "host", d.len)
            if not hv:
                return False
            hin = self.place(ctx, hv, d.len)
            hout = hin
            if ov and self.chance(0.5):
                o = self.place(ctx, ov, d.len)
                if relation(o, hin) == "disjoint":
                    hout = o
            spin = self.spin(ctx)
            self.charge(ctx, 20)
            self.written(d, hout)
            self.emit(ctx, "roundtrip_t<%s>(%s, %s, %s, %s, %s, %d);"
                      % (T, arg(d), arg(hin, True), arg(hout), salt(), cnt(d), spin))
            if self.chance(0.4):
                self.read_back_now(ctx, hout)
        elif x < 0.75:
            dv = self.pick_view(ctx, "dev")
            if not dv:
                return False
            d = self.place(ctx, dv, self.pick_len(dv.len))
            self.written(d)
            self.emit(ctx, "scale_k<%d>(%s, %s, %d);" % (self.r.randrange(1, 9), self.ptr(d),
                                                         self.count([d], d.len), self.spin(ctx)))
        else:
            dv = self.pick_view(ctx, "dev")
            if not dv:
                return False
            d = self.place(ctx, dv, self.pick_len(min(dv.len, 1024)))
            hv = self.pick_view(ctx, "host", d.len)
            if not hv:
                return False
            h = self.place(ctx, hv, d.len)
            sid = self.nid()
            st = "st%d" % sid
            bid = self.emit_open(ctx, "{")
            inner = ctx.child()
            self.emit(inner, "Stage<%s> %s{%s, %s};" % (T, st, arg(d), cnt(d)), mark=False)
            steps = [self.choice(["put", "run", "get"]) for _ in range(self.r.randint(1, 3))]
            for step in steps:
                if step == "put":
                    self.charge(inner, 10)
                    self.emit(inner, "%s.put(%s);" % (st, arg(h, True)))
                elif step == "run":
                    self.emit(inner, "%s.run(%s, %d);" % (st, salt(), self.spin(inner)))
                else:
                    self.charge(inner, 10)
                    self.written(h)
                    self.emit(inner, "%s.get(%s);" % (st, arg(h)))
            self.written(d)
            if steps[-1] == "get" and self.chance(0.5):
                self.read_back_now(inner, h)
            self.emit_close(ctx, bid)
        self.used["tmpl"] += 1
        return True

    # -- v11: host templates that dispatch with `if constexpr` -----------------------
    DISP_TMPLS = ("xor_dispatch_t", "xor_into_t")
    DISP_TYPES = ("unsigned int", "unsigned short")

    def disp_both(self, unit=None):
        """v11: the (template, unit) pairs whose template the unit instantiates for both
        element types (of unit `unit` only, when given)."""
        seen = {}
        for which, T, u in self.disp_log:
            seen.setdefault((which, u), set()).add(T)
        return sorted(k for k, ts in seen.items()
                      if len(ts) == 2 and (unit is None or k[1] == unit))

    def disp_regions(self, ctx, which):
        """Regions for one call of `which`: ([d] or [d, d2 apart from d], in, out), out
        being in or a host range apart from it; None when none are found."""
        dv = self.pick_view(ctx, "dev")
        if not dv:
            return None
        n = self.pick_len(min(dv.len, 1024))
        if which == "xor_into_t":
            devs = self.regions_apart(ctx, [("dev", n), ("dev", n)])
            if not devs:
                return None
        else:
            devs = [self.place(ctx, dv, n)]
        hv = self.pick_view(ctx, "host", n)
        if not hv:
            return None
        hin = self.place(ctx, hv, n)
        hout = hin
        ov = self.pick_view(ctx, "host", n)
        if ov and self.chance(0.5):
            o = self.place(ctx, ov, n)
            if relation(o, hin) == "disjoint":
                hout = o
        return devs, hin, hout

    def disp_call(self, ctx, which, T, rgs):
        """One call `which<T>(d[, d2], in, out, salt, n, spin)`; T = unsigned short sees the
        same bytes as halves (count 2n)."""
        devs, hin, hout = rgs
        half = T == "unsigned short"

        def arg(rg, const=False):
            return self.half_cast(self.ptr(rg), const) if half else self.ptr(rg)
        c = self.count(devs + [hin, hout], hin.len)
        salt = "(unsigned short)%s" % self.u32() if half else self.u32()
        explicit = "<%s>" % T if self.chance(0.7) else ""
        spin = self.spin(ctx)
        self.charge(ctx, 30)
        self.written(*(devs + [hout]))
        args = [arg(rg) for rg in devs] + [arg(hin, True), arg(hout), salt,
                                            "2 * (%s)" % c if half else c, str(spin)]
        self.emit(ctx, "%s%s(%s);" % (which, explicit, ", ".join(args)))
        self.disp_log.append((which, T, ctx.func.unit))
        self.used["disp"] += 1

    def op_dispatch(self, ctx, which=None, T=None, pair=None):
        """A call of a v11 template (xor_dispatch_t, xor_into_t) on regions the model
        picks; T is unsigned int or, on the same bytes, unsigned short, more often the one
        the function's unit has not instantiated that template for yet.  A pair (30 %)
        calls it for the other type right after, on the same regions or on others; the
        caller sometimes prints what a call downloaded right away."""
        if not ctx.func.gpu_ok or self.no_host_reads:
            return False
        unit = ctx.func.unit
        which = which or self.choice(self.DISP_TMPLS)
        if T is None:
            seen = {t for w, t, u in self.disp_log if w == which and u == unit}
            if len(seen) == 1 and self.chance(0.7):
                T = [t for t in self.DISP_TYPES if t not in seen][0]
            else:
                T = self.choice(self.DISP_TYPES)
        if pair is None:
            pair = self.chance(0.3)
        rgs = self.disp_regions(ctx, which)
        if not rgs:
            return False
        self.disp_call(ctx, which, T, rgs)
        if self.chance(0.3):
            self.read_back_now(ctx, rgs[2])
        if pair:
            if self.chance(0.5):
                rgs = self.disp_regions(ctx, which) or rgs
            self.disp_call(ctx, which, [t for t in self.DISP_TYPES if t != T][0], rgs)
            if self.chance(0.4):
                self.read_back_now(ctx, rgs[2])
        return True

    # -- v8: host lambdas -----------------------------------------------------------
    def pat_lambda(self, ctx):
        """A lambda over slice i of a host and a device range (copies, a launch, host
        work), capturing [&], [=] or by name, called directly, in a loop, through
        for_each_index or std::for_each; afterwards the caller sometimes copies out of the
        captured buffer, or frees the block's own device buffer the lambda captured."""
        gpu = ctx.func.gpu_ok
        k = self.r.randint(1, 4)
        s = self.choice([16, 32, 64, 128, 256])
        lid = self.nid()
        hv = self.pick_view(ctx, "host", k * s)
        if not hv:
            return False
        hin = self.place(ctx, hv, k * s)
        own_dev = gpu and self.chance(0.3)
        d = None
        if gpu and not own_dev:
            dv = self.pick_view(ctx, "dev", k * s)
            if not dv:
                return False
            d = self.place(ctx, dv, k * s)
        hout = None
        if gpu and self.chance(0.4):
            ov = self.pick_view(ctx, "host", k * s)
            if ov:
                o = self.place(ctx, ov, k * s)
                if relation(o, hin) == "disjoint":
                    hout = o
        names = {"h": "lh%d" % lid, "d": "ld%d" % lid, "o": "lo%d" % lid}
        acc = self.chance(0.4)
        body_lines, used, cost = [], [], 0
        lam = ctx.child().child()

        def sl(key):
            if key not in used:
                used.append(key)
            return "%s + i * %d" % (names[key], s)

        def line(text):
            body_lines.append("  " * lam.indent + text + "  //@s%d" % self.nid())
        for _ in range(self.r.randint(1, 3)):
            x = self.r.random()
            if gpu and x < 0.35:
                line("CHECK(cudaMemcpy(%s, %s, %d * sizeof(unsigned int), "
                     "cudaMemcpyHostToDevice));" % (sl("d"), sl("h"), s))
                cost += 10
            elif gpu and x < 0.6:
                spin = self.choice([0, 0, 2, 5, 10])
                line("k_scale<<<%d, %d>>>(%s, %s, %d, %d);" % (
                    self.choice([1, 2]), self.choice([32, 64, 128]), sl("d"), self.odd(), s, spin))
                self.kernels_used.add("k_scale")
                cost += spin + 10
            elif gpu and x < 0.8:
                dst = "o" if hout is not None and self.chance(0.5) else "h"
                line("CHECK(cudaMemcpy(%s, %s, %d * sizeof(unsigned int), "
                     "cudaMemcpyDeviceToHost));" % (sl(dst), sl("d"), s))
                cost += 10
            else:
                sl("h")
                line("for (int j = 0; j < %d; ++j) %s[i * %d + j] = %s[i * %d + j] * %s + "
                     "(unsigned int)i;" % (s, names["h"], s, names["h"], s, self.odd()))
        if acc:
            sl("h")
            line("la%d += %s[i * %d];" % (lid, names["h"], s))
        copy_out = gpu and (own_dev or ("d" in used and self.chance(0.3)))
        if own_dev and "d" not in used:
            sl("d")  # (the block's own buffer: filled by a launch in the lambda)
            spin = self.choice([0, 2, 5])
            line("k_fill<<<1, 64>>>(%s, %s, %d, %d);" % (names["d"] + " + i * %d" % s,
                                                         self.u32(), s, spin))
            self.kernels_used.add("k_fill")
            cost += spin + 10
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        if "h" in used:
            self.written(hin)
            self.emit(inner, "auto *%s = %s;" % (names["h"], self.ptr(hin)), mark=False)
        if own_dev:
            self.emit(inner, "unsigned int *%s = nullptr;" % names["d"], mark=False)
            self.api(inner, "cudaMalloc(&%s, %d * sizeof(unsigned int))" % (names["d"], k * s),
                     mark=False)
            self.api(inner, "cudaMemset(%s, %d, %d * sizeof(unsigned int))"
                     % (names["d"], self.r.randrange(256), k * s), mark=False)
        elif "d" in used:
            self.written(d)
            self.emit(inner, "auto *%s = %s;" % (names["d"], self.ptr(d)), mark=False)
        if "o" in used:
            self.written(hout)
            self.emit(inner, "auto *%s = %s;" % (names["o"], self.ptr(hout)), mark=False)
        if acc:
            self.emit(inner, "unsigned int la%d = 0u;" % lid, mark=False)
        cap = self.weighted([(3, "&"), (2, "="), (3, "names")])
        if cap == "names" or (acc and cap == "="):
            parts = []
            for key in used:
                parts.append(("&" if self.chance(0.3) else "") + names[key])
            if acc:
                parts.append("&la%d" % lid)
            cap = ", ".join(parts)
        self.emit(inner, "auto lf%d = [%s](int i) {" % (lid, cap), mark=False)
        inner.func.lines += body_lines
        self.emit(inner, "};", mark=False)
        # the calls: k slices each, in one of the ways a program calls a lambda
        calls = 0
        for _ in range(self.r.randint(1, 2)):
            if not self.can_afford(inner, cost * k * 2):
                break
            how = self.choice(["direct", "loop", "for_each_index", "std"])
            if how == "direct" or k == 1:
                self.emit(inner, "lf%d(%d);" % (lid, self.r.randrange(k)))
                self.charge(inner, cost)
            elif how == "loop":
                self.emit(inner, "for (int i = 0; i < %d; ++i) lf%d(i);" % (k, lid))
                self.charge(inner, cost * k)
            elif how == "for_each_index":
                self.emit(inner, "for_each_index(%d, lf%d);" % (k, lid))
                self.charge(inner, cost * k)
            else:
                iv = "li%d_%d" % (lid, calls)
                self.emit(inner, "std::vector<int> %s(%d);" % (iv, k), mark=False)
                self.emit(inner, "for (int i = 0; i < %d; ++i) %s[i] = %d - 1 - i;" % (k, iv, k),
                          mark=False)
                self.emit(inner, "std::for_each(%s.begin(), %s.end(), lf%d);" % (iv, iv, lid))
                self.charge(inner, cost * k)
            calls += 1
        if not calls:
            self.emit(inner, "lf%d(0);" % lid)
            self.charge(inner, cost)
        if acc:
            self.emit(inner, 'printf("la%d %%08x\\n", la%d);' % (lid, lid))
        if copy_out:
            # the caller copies out of the buffer the lambda captured
            ov = self.pick_view(ctx, "host", k * s)
            if ov:
                o = self.place(ctx, ov, k * s, allow_var=False)
                self.charge(inner, 10)
                self.written(o)
                self.api(inner, "cudaMemcpy(%s, %s, %d * sizeof(unsigned int), "
                         "cudaMemcpyDeviceToHost)" % (self.ptr(o), names["d"], k * s))
                if self.chance(0.5):
                    self.read_back_now(inner, o)
        if own_dev:
            self.api(inner, "cudaFree(%s)" % names["d"], mark=False)
        self.emit_close(ctx, bid)
        self.used["lambda"] += 1
        return True

    # -- v8: classes that own buffers -----------------------------------------------
    def class_views(self, ctx, name, dev_n, host_n, pinned):
        """Declare a DevBuf and/or a HostBuf in the current scope; their views."""
        out = []
        if dev_n:
            self.emit(ctx, "DevBuf %s(%d, %d);" % ("tb" + name, dev_n, self.r.randrange(256)),
                      mark=False)
            a = self.new_alloc("tb" + name, "dev", "cls-dev", dev_n)
            out.append(View(a, "tb%s.data()" % name, "tb%s.data()" % name, 0, dev_n,
                            "tb%s.size()" % name, "tb" + name))
        if host_n:
            self.emit(ctx, "HostBuf %s(%d, %s%s);" % ("th" + name, host_n, self.odd(),
                                                    ", true" if pinned else ""), mark=False)
            a = self.new_alloc("th" + name, "host", "cls-pinned" if pinned else "cls-host",
                               host_n)
            out.append(View(a, "th%s.data()" % name, "th" + name, 0, host_n,
                            "th%s.size()" % name, "th" + name))
        return out

    def pat_scoped_buf(self, ctx):
        """A block owning a DevBuf and a HostBuf: member copies, launches, devbuf_round
        (both passed by reference), copies to and from the caller's buffers; the
        destructors free them at the block's end, after copies a tool may have made
        asynchronous."""
        if not ctx.func.gpu_ok:
            return False
        n = self.choice([64, 128, 256, 512, 1024])
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        name = str(self.nid())
        tb, th = self.class_views(inner, name, n, n + self.choice([0, 0, 64]), self.chance(0.3))
        for _ in range(self.r.randint(1, 4)):
            x = self.r.random()
            if x < 0.2:
                self.charge(inner, 10)
                self.emit(inner, "tb%s.upload(th%s.data());" % (name, name))
            elif x < 0.35:
                hv = self.pick_view(ctx, "host", n)
                if hv:
                    h = self.place(ctx, hv, n)
                    self.charge(inner, 10)
                    self.emit(inner, "tb%s.upload(%s);" % (name, self.ptr(h)))
            elif x < 0.5:
                self.kernel_on(inner, Region(tb, 0, n))
            elif x < 0.65:
                self.charge(inner, 10)
                self.emit(inner, "tb%s.download(th%s.data());" % (name, name))
            elif x < 0.75:
                hv = self.pick_view(ctx, "host", n)
                if hv:
                    h = self.place(ctx, hv, n)
                    self.written(h)
                    self.charge(inner, 10)
                    self.emit(inner, "tb%s.download(%s);" % (name, self.ptr(h)))
            elif x < 0.88:
                self.charge(inner, self.choice(SPINS[:5]) + 30)
                self.emit(inner, "devbuf_round(tb%s, th%s, %s, %d);"
                          % (name, name, self.odd(), self.choice(SPINS[:5])))
            else:
                dv = self.pick_view(ctx, "dev", 1)
                if dv:
                    m = min(n, dv.len)
                    d = self.place(ctx, dv, self.pick_len(m))
                    if self.chance(0.5):
                        self.d2d(inner, Region(tb, 0, d.len), d)
                    else:
                        self.d2d(inner, d, Region(tb, 0, d.len))
        if self.chance(0.6):
            pid = self.nid()
            self.emit(inner, 'printf("cb%d %%08x\\n", checksum(th%s.data(), th%s.size()));'
                      % (pid, name, name))
        self.emit_close(ctx, bid)
        self.used["class"] += 1
        return True

    def d2d(self, ctx, d, s):
        self.written(d)
        self.charge(ctx, 10)
        self.api(ctx, "cudaMemcpy(%s, %s, %s, cudaMemcpyDeviceToDevice)"
                 % (self.ptr(d), self.ptr(s), self.nbytes(self.count([d, s], d.len))))

    def op_class_round(self, ctx):
        """devbuf_round on main's own DevBuf and HostBuf (passed by reference)."""
        if not ctx.func.is_main:
            return False
        devs = [a for a in self.main_allocs if a.alive and a.kind == "cls-dev"]
        hosts = [a for a in self.main_allocs if a.alive and a.kind in ("cls-host", "cls-pinned")]
        pairs = [(d, h) for d in devs for h in hosts if h.size >= d.size]
        if not pairs:
            return False
        d, h = self.choice(pairs)
        spin = self.spin(ctx)
        self.charge(ctx, 20)
        self.emit(ctx, "devbuf_round(%s, %s, %s, %d);" % (d.name, h.name, self.odd(), spin))
        self.used["class"] += 1
        return True

    # -- v8: launch loops -----------------------------------------------------------
    def pat_launch_loop(self, ctx):
        """50..400 iterations of a fixed sequence of 2..5 small launches (sometimes a D2D
        copy or a memset) with loop-invariant shapes and arguments that change with the
        iteration; no host read in the body, except sometimes one after every K-th
        iteration of a value the body wrote; sometimes a sync in the body."""
        if not ctx.func.gpu_ok:
            return False
        s = self.choice([32, 64, 128])
        m = self.choice([1, 2, 4])
        regs = self.regions_apart(ctx, [("dev", m * s), ("dev", s), ("dev", s)])
        if not regs:
            return False
        a, b, c = regs
        nops = self.r.randint(2, 5)
        iters = self.r.randint(50, 400)
        while iters > 50 and iters * ctx.mult > 800:
            iters //= 2
        if not self.can_afford(ctx, iters * nops * 3):
            iters = 50
            if not self.can_afford(ctx, iters * nops * 3):
                return False
        self.charge(ctx, iters * nops * 3)
        lid = self.nid()
        var = "il%d" % lid
        sa = "%s + (%s %% %d) * %d" % (self.ptr(a), var, m, s) if m > 1 else self.ptr(a)
        pb, pc = self.ptr(b), self.ptr(c)

        def cfg():
            return self.choice(["<<<1, %d>>>" % s, "<<<2, 32>>>",
                                "<<<(%d + 63) / 64, 64>>>" % s, "<<<1, 64, 0, 0>>>"])
        it = "(unsigned int)%s" % var
        ops = [
            lambda: ("k_scale", "k_scale%s(%s, %s * 2u + %s, %d, 0);" % (cfg(), sa, it,
                                                                          self.odd(), s), "a"),
            lambda: ("k_add", "k_add%s(%s, %s, %d, 0);" % (cfg(), pb, sa, s), "b"),
            lambda: ("k_xor", "k_xor<unsigned int>%s(%s, %s, %s + %s, %d, 0);"
                     % (cfg(), sa, pb, it, self.u32(), s), "a"),
            lambda: ("k_fill", "k_fill%s(%s, %s ^ %s, %d, 0);" % (cfg(), pc, it, self.u32(), s),
                     "c"),
            lambda: ("k_mix", "k_mix%s(%s, %s, %s, %d, 0);" % (cfg(), pc, sa, pb, s), "c"),
            lambda: ("k_shift", "k_shift%s(%s, %s, %d, 0);" % (cfg(), pb, pc, s), "b"),
        ]
        body, wrote = [], []
        for _ in range(nops):
            x = self.r.random()
            if x < 0.1:
                body.append("CHECK(cudaMemcpy(%s, %s, %d * sizeof(unsigned int), "
                            "cudaMemcpyDeviceToDevice));" % (pc, sa, s))
                wrote.append("c")
            elif x < 0.17:
                body.append("CHECK(cudaMemset(%s, (int)(%s & 255), %d * sizeof(unsigned int)));"
                            % (pb, var, s))
                wrote.append("b")
            else:
                kname, text, w = self.choice(ops)()
                self.kernels_used.add(kname)
                body.append(text)
                wrote.append(w)
        self.written(a, b, c)
        bid = self.emit_open(ctx, "{")
        inner = ctx.child()
        read = self.chance(0.35)
        if read:
            self.emit(inner, "unsigned int lacc%d = 0u, lrd%d = 0u;" % (lid, lid), mark=False)
        self.emit(inner, "for (int %s = 0; %s < %d; ++%s) {" % (var, var, iters, var),
                  mark=False)
        lb = inner.child()
        sync_at = self.r.randrange(len(body) + 1) if self.chance(0.15) else -1
        for i, text in enumerate(body):
            if i == sync_at:
                self.emit(lb, "CHECK(cudaDeviceSynchronize());")
            self.emit(lb, text)
        if read:
            w = self.choice(wrote)
            src = {"a": sa, "b": pb, "c": pc}[w]
            kk = self.choice([1, 7, 16, 50])
            self.emit(lb, "if (%s %% %d == %d) { CHECK(cudaMemcpy(&lrd%d, %s, sizeof(unsigned "
                      "int), cudaMemcpyDeviceToHost)); lacc%d = lacc%d * 31u + lrd%d; }"
                      % (var, kk, kk - 1, lid, src, lid, lid, lid))
        self.emit(inner, "}", mark=False)
        if read:
            self.emit(inner, 'printf("ll%d %%08x\\n", lacc%d);' % (lid, lid))
        self.emit_close(ctx, bid)
        self.used["lloop"] += 1
        return True

    # -- v8: helpers whose copies outlive them -------------------------------------
    def pend_helper(self, ctx, kind):
        """A pend_* helper of `kind` (up, down, launch) callable from ctx's unit: an
        existing one (a helper called from several places) or a new one, static in
        main.cu or, in a program of several units, defined in a part."""
        unit = ctx.func.unit
        ok = [h for h in self.pend_helpers if h["kind"] == kind and (h["unit"] or not unit)]
        if ok and self.chance(0.5):
            return self.choice(ok)
        name = "pend_%s%d" % (kind, self.nid())
        hu = unit
        if self.n_parts and (unit or self.chance(0.6)):
            hu = self.r.randint(1, self.n_parts)
        spin = self.choice([0, 5, 10, 20, 40, 80])
        cfg = "<<<(n + 127) / 128, 128>>>"
        body, cost = [], 10
        if kind == "up":
            sig = "void %s(unsigned int *d, const unsigned int *h, int n)" % name
            body.append("  CHECK(cudaMemcpy(d, h, (size_t)n * sizeof(unsigned int), "
                        "cudaMemcpyHostToDevice));")
            if self.chance(0.5):
                body.append("  k_scale%s(d, %s, n, %d);" % (cfg, self.odd(), spin))
                cost += spin + 10
        elif kind == "down":
            sig = "void %s(unsigned int *h, unsigned int *d, int n)" % name
            if self.chance(0.5):
                body.append("  k_scale%s(d, %s, n, %d);" % (cfg, self.odd(), spin))
                cost += spin + 10
            body.append("  CHECK(cudaMemcpy(h, d, (size_t)n * sizeof(unsigned int), "
                        "cudaMemcpyDeviceToHost));")
        else:
            sig = "void %s(unsigned int *d, int n, unsigned int k)" % name
            body.append("  k_scale%s(d, k | 1u, n, %d);" % (cfg, spin))
            if self.chance(0.5):
                body.append("  k_fill%s(d + n / 2, k, n - n / 2, 0);" % cfg)
            cost += spin + 10
        self.kernels_used.update(("k_scale", "k_fill"))
        if hu:
            self.part_decls.append("%s;  // part%d.cu" % (sig, hu))
            text = [sig + " {"] + body + ["}", ""]
        else:
            text = ["[[maybe_unused]] static %s {" % sig] + body + ["}", ""]
        self.pend_defs.setdefault(hu, []).extend(text)
        h = dict(name=name, kind=kind, unit=hu, cost=cost)
        self.pend_helpers.append(h)
        return h

    def host_gap(self, ctx, avoid):
        """Host work on buffers apart from `avoid`: a loop of real work or a checksum."""
        regs = self.regions_apart(ctx, [("host", self.pick_len(1024))], avoid)
        if not regs:
            return False
        g = regs[0]
        if self.chance(0.35):
            pid = self.nid()
            self.emit(ctx, 'printf("gap%d %%08x\\n", checksum(%s, %s));'
                      % (pid, self.ptr(g), self.count([g], g.len)))
            return True
        rounds = self.choice([4, 16, 64])
        self.written(g)
        self.emit(ctx, "for (int r = 0; r < %d; ++r) for (int j = 0; j < %d; ++j) %s = %s * "
                  "1664525u + (unsigned int)(r + j);"
                  % (rounds, g.len, self.at(g, "j"), self.at(g, "j")))
        return True

    def pat_pending(self, ctx):
        """A helper that copies (or launches) and returns; the caller does host work on
        other buffers (or none), and only then uses the helper's buffers: a kernel, a
        host read of what was downloaded, a re-upload, or a free of its own buffer."""
        if not ctx.func.gpu_ok:
            return False
        kind = self.weighted([(3, "up"), (2, "down"), (1, "launch")])
        shape = self.weighted([(3, "gap"), (2, "now"), (1.5, "loop"), (1.5, "free")])
        if shape == "loop" and (ctx.depth >= self.cfg["max_depth"]
                                or ctx.mult * 2 > self.cfg["max_mult"]):
            shape = "gap"
        h = self.pend_helper(ctx, kind)
        if not self.can_afford(ctx, h["cost"] * 4 + 40):
            return False
        if shape == "loop":
            k = self.r.randint(2, 4)
            while ctx.mult * k > self.cfg["max_mult"]:
                k -= 1
            s = self.choice([16, 32, 64, 128])
            regs = self.regions_apart(ctx, [("host", k * s), ("dev", k * s)])
            if not regs:
                return False
            var = "ip%d" % self.nid()
            hr = Region(regs[0].view, regs[0].off, s, var, s, k)
            dr = Region(regs[1].view, regs[1].off, s, var, s, k)
            hfull = Region(regs[0].view, regs[0].off, k * s)
            bid = self.emit_open(ctx, "for (int %s = 0; %s < %d; ++%s) {" % (var, var, k, var))
            body = ctx.child((var, k), "for", k)
            self.pend_call(body, h, hr, dr)
            if self.chance(0.6):
                self.host_gap(body, [hfull])
            self.pend_use(body, h, hr, dr, [hfull])
            self.emit_close(ctx, bid)
        elif shape == "free":
            n = self.choice([64, 256, 1000])
            pid = self.nid()
            bid = self.emit_open(ctx, "{")
            inner = ctx.child()
            if kind == "down":
                hname = "ph%d" % pid
                self.emit(inner, "unsigned int *%s = (unsigned int *)malloc(%d * sizeof(unsigned "
                          "int));" % (hname, n), mark=False)
                self.host_init(inner, hname, n)
                hr = Region(View(self.new_alloc(hname, "host", "temphost", n), hname, hname, 0, n),
                            0, n)
                dv = self.pick_view(ctx, "dev", n)
                if not dv:
                    self.emit(inner, "free(%s);" % hname, mark=False)
                    self.emit_close(ctx, bid)
                    return True
                dr = self.place(ctx, dv, n)
                self.pend_call(inner, h, hr, dr)
                if self.chance(0.5):
                    self.host_gap(inner, [])
                pid2 = self.nid()
                self.emit(inner, 'printf("pf%d %%08x\\n", checksum(%s, %d));' % (pid2, hname, n))
                self.emit(inner, "free(%s);" % hname, mark=False)
            else:
                dname = "pd%d" % pid
                self.emit(inner, "unsigned int *%s = nullptr;" % dname, mark=False)
                self.api(inner, "cudaMalloc(&%s, %d * sizeof(unsigned int))" % (dname, n),
                         mark=False)
                self.api(inner, "cudaMemset(%s, %d, %d * sizeof(unsigned int))"
                         % (dname, self.r.randrange(256), n), mark=False)
                dr = Region(View(self.new_alloc(dname, "dev", "tempdev", n), dname, dname, 0, n),
                            0, n)
                hv = self.pick_view(ctx, "host", n)
                hr = self.place(ctx, hv, n) if hv else None
                if hr is None and kind == "up":
                    self.api(inner, "cudaFree(%s)" % dname, mark=False)
                    self.emit_close(ctx, bid)
                    return True
                self.pend_call(inner, h, hr, dr)
                if self.chance(0.5):
                    self.host_gap(inner, [hr] if hr else [])
                if self.chance(0.6):
                    hv2 = self.pick_view(ctx, "host", n)
                    if hv2:
                        o = self.place(ctx, hv2, n)
                        self.move(inner, o, dr, "D2H", allow_2d=False)
                self.api(inner, "cudaFree(%s)" % dname, mark=False)  # freed next
            self.emit_close(ctx, bid)
        else:
            n = self.pick_len(1024)
            regs = self.regions_apart(ctx, [("host", n), ("dev", n)])
            if not regs:
                return False
            hr, dr = regs
            self.pend_call(ctx, h, hr, dr)
            if shape == "gap":
                for _ in range(self.r.randint(1, 2)):
                    self.host_gap(ctx, [hr])
            self.pend_use(ctx, h, hr, dr, [hr])
        self.used["pend"] += 1
        return True

    def pend_call(self, ctx, h, hr, dr):
        self.charge(ctx, h["cost"])
        n = self.count([dr] + ([hr] if hr is not None else []), dr.len)
        self.written(dr)
        if h["kind"] == "up":
            self.emit(ctx, "%s(%s, %s, %s);" % (h["name"], self.ptr(dr), self.ptr(hr), n))
        elif h["kind"] == "down":
            self.written(hr)
            self.emit(ctx, "%s(%s, %s, %s);" % (h["name"], self.ptr(hr), self.ptr(dr), n))
        else:
            self.emit(ctx, "%s(%s, %s, %s);" % (h["name"], self.ptr(dr), n, self.u32()))

    def pend_use(self, ctx, h, hr, dr, avoid):
        """The first use of the helper's buffers after its call."""
        x = self.r.random()
        if h["kind"] == "down":
            if x < 0.6:
                pid = self.nid()
                self.emit(ctx, 'printf("pu%d %%08x\\n", checksum(%s, %s));'
                          % (pid, self.ptr(hr), self.count([hr], hr.len)))
            elif x < 0.8:
                self.move(ctx, dr, hr, "H2D", allow_2d=False)  # re-upload
            else:
                self.written(hr)
                self.emit(ctx, "for (int j = 0; j < %d; ++j) %s += 1u;" % (hr.len, self.at(hr, "j")))
            return
        if x < 0.45:
            self.kernel_on(ctx, dr)
        elif x < 0.8:
            hv = self.pick_view(ctx, "host", dr.len)
            if hv:
                o = self.place(ctx, hv, dr.len)
                self.move(ctx, o, dr, "D2H", allow_2d=False)
                pid = self.nid()
                self.emit(ctx, 'printf("pu%d %%08x\\n", checksum(%s, %s));'
                          % (pid, self.ptr(o), self.count([o], o.len)))
        elif hr is not None:
            self.move(ctx, dr, hr, "H2D", allow_2d=False)  # re-upload

    # -- v9: host buffers that a helper allocates and returns ---------------------------
    # A maker is a function that allocates a host buffer and returns it, called as
    # `unsigned int *h = make_host7(512);`.  Its style says where it is defined and what a
    # tool can do with it: `static` in the caller's unit (a tool may rewrite its allocation
    # when only the function that frees the buffers calls it), `extern` (external linkage, in
    # the caller's unit, declared nowhere else), `part` (defined in a part, declared in
    # parts.h: from another unit its body is out of sight), `inline` (defined in parts.h),
    # `tmpl` (the program's one `template <typename T> T *alloc_host(size_t n)`), and two a
    # tool must leave pageable: `past` (returns the allocation plus K elements; the caller
    # frees `p - K`) and `kept` (also stores the pointer in a global, which `drop_keptN()`
    # frees, or the caller frees it directly and the global dangles, never read again).
    HRET_STYLES = ("static", "extern", "part", "inline", "tmpl", "past", "kept")
    # How the call spells the element count: a literal, a macro, a local integer (`local`,
    # `local-addr`: its address leaves after the call, through std::min or bump_int), an
    # expression on a local (`expr`), or one with a side effect (`n++`: a tool must not
    # evaluate it again).
    HRET_ARGS = ("const", "macro", "local", "local-addr", "expr", "side")

    def hret_callable(self, m, unit):
        """Whether unit `unit` can call maker m."""
        if m["style"] in ("part", "inline"):
            return True
        if m["style"] == "tmpl":
            return m["unit"] == "h" or unit == 0
        return m["unit"] == unit

    def hret_maker(self, unit):
        """A maker unit `unit` can call: an existing one (then one function makes several
        buffers, and may be called from several functions) or a new one."""
        styles = [(3, "static"), (2, "extern"), (2, "tmpl"), (0.6, "past"), (0.6, "kept")]
        if self.n_parts:
            styles += [(1.5, "inline"), (1, "part")]
        style = self.weighted(styles)
        if style == "tmpl":
            if self.tmpl_maker is None:
                self.tmpl_maker = self.hret_define("tmpl", "h" if self.n_parts else 0)
            return self.tmpl_maker
        # a kept maker's global holds one buffer: never two of its buffers alive at once
        ok = [m for m in self.makers if m["style"] == style and style != "kept"
              and self.hret_callable(m, unit)]
        if ok and self.chance(0.5):
            return self.choice(ok)
        if style == "part":
            where = self.r.randint(1, self.n_parts)
        elif style == "inline":
            where = "h"
        else:
            where = unit
        return self.hret_define(style, where)

    def hret_bytes(self, T, cnt):
        """The bytes of `cnt` elements of T, as programs write it."""
        return self.choice(["(size_t)%s * sizeof(%s)" % (cnt, T), "%s * sizeof(%s)" % (cnt, T),
                            "sizeof(%s) * %s" % (T, cnt)])

    def hret_define(self, style, unit):
        """Define a new maker of `style` in `unit` (0: main.cu, k: partk.cu, "h": parts.h)."""
        mid = self.nid()
        tmpl = style == "tmpl"
        T = "T" if tmpl else "unsigned int"
        ptype = "size_t" if tmpl or self.chance(0.3) else "int"
        m = dict(style=style, unit=unit, K=0, init=False, kept=None, drop=None)
        m["name"] = {"past": "make_off%d", "kept": "make_kept%d"}.get(style, "make_host%d") % mid
        if tmpl:
            m["name"] = "alloc_host"
        how = self.weighted([(4, "malloc"), (1.5, "calloc"), (1.5, "aligned"), (1.5, "posix")])
        if style in ("past", "kept"):
            how = self.choice(["malloc", "malloc", "calloc"])
        if style == "past":
            m["K"] = self.choice([1, 4, 16])
        cnt = "(n + %d)" % m["K"] if m["K"] else "n"
        body = []
        # the allocation, maybe with its size in a local first
        if how == "calloc":
            alloc = "(%s *)calloc(%s, sizeof(%s))" % (T, cnt, T)
        else:
            nb = self.hret_bytes(T, cnt)
            if how == "aligned":
                al = self.choice([64, 256])
                nb = "(%s + %d) / %d * %d" % (nb, al - 1, al, al)
            if self.chance(0.3):
                body.append("  size_t bytes = %s;" % nb)
                nb = "bytes"
            if how == "posix":
                al = self.choice([16, 64, 256])
                alloc = None
                body.append("  %s *p = nullptr;" % T)
                body.append("  if (posix_memalign((void **)&p, %d, %s) != 0)" % (al, nb))
                body.append("    return nullptr;")
            elif how == "aligned":
                alloc = "(%s *)aligned_alloc(%d, %s)" % (T, al, nb)
            else:
                alloc = "(%s *)malloc(%s)" % (T, nb)
        # a maker of unsigned int may fill what it returns (then the caller need not);
        # calloc's memory is zero already
        m["init"] = how == "calloc" or (not tmpl and self.chance(0.35))
        fill = m["init"] and how != "calloc"
        if style == "kept":
            m["kept"] = "g_kept%d" % mid
            m["drop"] = "drop_kept%d" % mid
            if fill or self.chance(0.5):
                body.append("  unsigned int *p = %s;" % alloc)
                body.append("  %s = p;" % m["kept"])
                ret = "p"
            else:
                body.append("  %s = %s;" % (m["kept"], alloc))
                ret = m["kept"]
        elif alloc is not None and not fill and style != "past" and self.chance(0.6):
            ret = alloc
        else:
            if alloc is not None:
                body.append("  %s *p = %s;" % (T, alloc))
            ret = "p"
        if fill:
            body.append("  for (%s i = 0; i < n; ++i) p[%si] = (unsigned int)i * %s + %s;"
                        % (ptype, "%d + " % m["K"] if m["K"] else "", self.odd(), self.u32()))
        body.append("  return %s;" % ("p + %d" % m["K"] if m["K"] else ret))
        sig = "%s *%s(%s n)" % (T, m["name"], ptype)
        if tmpl:
            head = ["template <typename T>", sig + " {"]
        elif style in ("static", "past", "kept"):
            head = ["[[maybe_unused]] static %s {" % sig]
        elif style == "inline":
            head = ["inline %s {" % sig]
        else:
            head = [sig + " {"]
        text = []
        if m["kept"]:
            text.append("static unsigned int *%s = nullptr;" % m["kept"])
        text += head + body + ["}"]
        if m["drop"]:
            text += ["[[maybe_unused]] static void %s() {" % m["drop"],
                     "  free(%s);" % m["kept"], "  %s = nullptr;" % m["kept"], "}"]
        self.hret_defs.setdefault(unit, []).extend(text + [""])
        if style == "part":
            self.part_decls.append("%s;  // part%d.cu" % (sig, unit))
        if not tmpl:
            self.makers.append(m)
        return m

    def hret_arg(self, ctx, v):
        """The call's argument, of value v, in one of HRET_ARGS' shapes; declares what it
        needs first.  Returns (shape, text, after): `after` emits what follows the call."""
        shape = self.weighted([(3, "const"), (1.5, "macro"), (2, "local"), (1.2, "local-addr"),
                               (2, "expr"), (0.5, "side")])
        if shape in ("const", "macro"):
            text = str(v)
            if shape == "macro":
                text = "HRET_N%d" % self.nid()
                value = "(%d * %d)" % (v // 4, 4) if v % 4 == 0 and self.chance(0.3) else str(v)
                self.hret_defs.setdefault(ctx.func.unit, []).extend(
                    ["#define %s %s" % (text, value), ""])
            return shape, text, lambda: None
        var = "hn%d" % self.nid()
        typ = self.weighted([(8, "int"), (1, "long"), (1, "size_t")])
        if shape == "expr":
            if v % 2 == 0 and self.chance(0.5):
                init, text = v // 2, self.choice(["%s * 2", "2 * %s"]) % var
            else:
                c = self.r.randint(1, 64)
                init, text = v - c, "%s + %d" % (var, c)
        else:
            init, text = v, var + ("++" if shape == "side" else "")
        self.emit(ctx, "%s %s = %d;" % (typ, var, init), mark=False)

        def after():
            # the variable's address leaves after the call: it cannot change the value the
            # call read (only where the call runs once: no loop around both, no goto)
            if typ == "int" and self.chance(0.5):
                self.bump_int_used.add(ctx.func.unit)
                self.emit(ctx, "bump_int(&%s);" % var)
                return
            pid = self.nid()
            self.emit(ctx, 'printf("hn%d %%d\\n", (int)std::min(%s, (%s)%d));'
                      % (pid, var, typ, self.choice([100, 300, 5000])))
        return shape, text, after if shape == "local-addr" else (lambda: None)

    def hret_alloc(self, ctx, name, n, declare, kind="hret", maker=None, view=True):
        """`name = maker(...)`: n elements that a helper allocates and returns, initialised
        right after (unless the maker did), as an Alloc of `kind` with a.maker set (and,
        with `view`, a view of the function)."""
        m = maker or self.hret_maker(ctx.func.unit)
        a = self.new_alloc(name, "host", kind, n)
        a.maker = m
        init = m["init"]
        if m["style"] == "tmpl":
            if self.chance(0.15):
                # another instance: the same bytes as unsigned char, 4n of them
                shape, arg, after = self.hret_arg(ctx, 4 * n)
                call = "(unsigned int *)alloc_host<unsigned char>(%s)" % arg
                init = False
            else:
                shape, arg, after = self.hret_arg(ctx, n)
                call = "alloc_host<unsigned int>(%s)" % arg
        else:
            shape, arg, after = self.hret_arg(ctx, n)
            call = "%s(%s)" % (m["name"], arg)
        decl = self.choice(["unsigned int *", "unsigned int *", "auto *"]) if declare else ""
        self.emit(ctx, "%s%s = %s;" % (decl, name, call), mark=False)
        self.check_alloc(ctx, name)
        if not init or self.chance(0.5):
            self.host_init(ctx, name, n)
        after()
        self.used["hret"] += 1
        self.hret_log.append((m["style"], shape, m["name"], name))
        if view:
            ctx.func.views.append(View(a, name, name, 0, n))
        return a

    def hret_free(self, a):
        """The statement that frees hret buffer a: free, release_host (a helper frees it),
        or the kept maker's drop function; `p - K` for a past maker."""
        m = a.maker
        if m["drop"] and self.chance(0.7):
            return "%s();" % m["drop"]
        p = "%s - %d" % (a.name, m["K"]) if m["K"] else a.name
        # (released by a helper less often than a malloc'ed buffer: a tool keeps that one
        # pageable, and most of these should be ones it can pin)
        return "%s(%s);" % ("release_host" if self.chance(0.12) else "free", p)

    # -- statements --------------------------------------------------------------
    # -- v10: device structs of device pointers ----------------------------------
    # A struct `DPtrs {a, b[, c], n}` whose fields point to device buffers; a copy of it
    # lives in a device allocation (`dsN`), made in main or by a helper (returned, through
    # an out-parameter, or filled in place), and kernels given `DPtrs *` read and write the
    # buffers through its fields while main's host mirror `hsN` names the same buffers for
    # copies and raw-pointer launches.
    DS_STYLES = ("main", "fields", "ret_static", "ret_extern", "ret_part", "ret_back",
                 "out_dev", "fill_dev")

    def ds_kernel(self, unit, name):
        self.ds_kused.setdefault(unit, set()).add(name)
        return name

    def ds_kernel_defs(self, unit):
        """The struct and the kernels through it that unit `unit` uses (every kernel
        static: the units are linked together)."""
        fs = self.ds_fields
        out = ["// v10: a struct of device pointers; its copy in device memory is what the",
               "// kernels below are given.",
               "struct DPtrs {"] + ["  unsigned int *%s;" % x for x in fs] + ["  int n;", "};",
                                                                             ""]
        out += ["// Frees the buffers a device struct points to (read back first), then it.",
                "[[maybe_unused]] static void release_ds(DPtrs *d) {",
                "  DPtrs h;",
                "  CHECK(cudaMemcpy(&h, d, sizeof(DPtrs), cudaMemcpyDeviceToHost));"]
        out += ["  CHECK(cudaFree(h.%s));" % x for x in fs]
        out += ["  CHECK(cudaFree(d));", "}", ""]
        for k in sorted(self.ds_kused.get(unit, ())):
            parts = k.split("_")  # k_ds_xy, k_ds_xy_all, k_ds_get_x, k_ds_put_x, k_ds_init
            if parts[2] == "init":
                out.append("static __global__ void k_ds_init(DPtrs *s, unsigned int v, "
                           "int spin_us) {")
                out.append("  sa_spin(spin_us);")
                out.append("  SA_FOR(i, s->n) {")
                for j, x in enumerate(fs):
                    out.append("    s->%s[i] = (v + %du) * (unsigned int)i + %du;"
                               % (x, 7919 * j + 1, 1 + 13 * j))
                out += ["  }", "}", ""]
            elif parts[2] == "get":
                x = parts[3]
                out += ["static __global__ void %s(unsigned int *dst, const DPtrs *s, int off, "
                        "int n, int spin_us) {" % k, "  sa_spin(spin_us);",
                        "  SA_FOR(i, n) dst[i] = s->%s[off + i] * 3u + 1u;" % x, "}", ""]
            elif parts[2] == "put":
                x = parts[3]
                out += ["static __global__ void %s(DPtrs *s, const unsigned int *src, int off, "
                        "int n, int spin_us) {" % k, "  sa_spin(spin_us);",
                        "  SA_FOR(i, n) s->%s[off + i] += src[i] ^ 0x5bd1e995u;" % x, "}", ""]
            elif len(parts) == 4:  # k_ds_xy_all: the whole buffers, s->n elements
                x, y = parts[2]
                out += ["static __global__ void %s(DPtrs *s, unsigned int k, int spin_us) {" % k,
                        "  sa_spin(spin_us);",
                        "  SA_FOR(i, s->n) s->%s[i] = (s->%s[i] ^ s->%s[i]) * k + 5u;"
                        % (y, y, x), "}", ""]
            else:
                x, y = parts[2]
                out += ["static __global__ void %s(DPtrs *s, int off, unsigned int k, int n, "
                        "int spin_us) {" % k, "  sa_spin(spin_us);",
                        "  SA_FOR(i, n) s->%s[off + i] = s->%s[off + i] * k + s->%s[off + i];"
                        % (y, y, x), "}", ""]
        return out

    def ds_build(self, hs, d, n, unit, indent, alloc_d, style):
        """Lines that allocate and initialise the field buffers into the host struct `hs`
        (an expression ending in `.` or `->`), and fill the device struct `d`.  alloc_d:
        `d` is a pointer variable to cudaMalloc here (else already allocated)."""
        p = "  " * indent
        fs = self.ds_fields
        L = []
        chk = (lambda c: p + "CHECK(%s);" % c) if self.chance(0.7) else (lambda c: p + c + ";")
        by_kernel = self.chance(0.3)  # k_ds_init through the struct, after its copy
        for x in fs:
            L.append(chk("cudaMalloc(&%s%s, (size_t)n * sizeof(unsigned int))" % (hs, x)))
            if by_kernel:
                continue
            if self.chance(0.6):
                L.append(chk("cudaMemset(%s%s, %d, (size_t)n * sizeof(unsigned int))"
                             % (hs, x, self.r.randrange(256))))
            else:
                self.kernels_used.add("k_fill")
                L.append(p + "k_fill<<<(n + 127) / 128, 128>>>(%s%s, %s, n, 0);"
                         % (hs, x, self.u32()))
        L.append(p + "%sn = n;" % hs)
        if alloc_d:
            L.append(chk("cudaMalloc(&%s, sizeof(DPtrs))" % d))
        dd = d
        if style == "fields" or (style != "main" and self.chance(0.25)):
            # field by field: the address of a member of the device copy, on the host
            for x in fs + ["n"]:
                L.append(chk("cudaMemcpy(&(%s)->%s, &%s%s, sizeof(%s%s), "
                             "cudaMemcpyHostToDevice)" % (dd, x, hs, x, hs, x)))
        else:
            amp = "&" if not hs.endswith("->") else ""
            base = hs[:-1] if hs.endswith(".") else hs[:-2]
            L.append(chk("cudaMemcpy(%s, %s%s, sizeof(DPtrs), cudaMemcpyHostToDevice)"
                         % (dd, amp, base)))
        if by_kernel:
            self.ds_kernel(unit, "k_ds_init")
            L.append(p + "k_ds_init<<<(n + 127) / 128, 128>>>(%s, %s, 0);" % (dd, self.u32()))
        return L

    def ds_maker(self, style):
        """A helper of `style` that makes a device struct (an existing one half of the
        time, then one helper makes several)."""
        ok = [m for m in self.ds_makers if m["style"] == style]
        if ok and self.chance(0.5):
            return self.choice(ok)
        mid = self.nid()
        unit = 0
        if style == "ret_part" or (self.n_parts and style in ("ret_back", "out_dev", "fill_dev")
                                   and self.chance(0.5)):
            unit = self.r.randint(1, self.n_parts)
        ref = self.chance(0.5)  # the host struct by reference (else by pointer)
        hs = "hs." if ref else "hs->"
        hparam = "DPtrs &hs" if ref else "DPtrs *hs"
        ntype = "int"
        body = []
        if style in ("ret_static", "ret_extern", "ret_part"):
            name = "make_ds%d" % mid
            sig = "DPtrs *%s(%s, %s n)" % (name, hparam, ntype)
            body.append("  DPtrs *d = nullptr;")
            body += self.ds_build(hs, "d", "n", unit, 1, True, style)
            body.append("  return d;")
        elif style == "ret_back":
            name = "new_ds%d" % mid
            sig = "DPtrs *%s(%s n)" % (name, ntype)
            body.append("  DPtrs h;")
            body.append("  DPtrs *d = nullptr;")
            body += self.ds_build("h.", "d", "n", unit, 1, True, style)
            body.append("  return d;")
        elif style == "out_dev":
            name = "init_ds%d" % mid
            sig = "void %s(DPtrs **out, %s, %s n)" % (name, hparam, ntype)
            body += self.ds_build(hs, "*out", "n", unit, 1, True, style)
        else:  # fill_dev
            name = "fill_ds%d" % mid
            sig = "void %s(DPtrs *d, %s, %s n)" % (name, hparam, ntype)
            body += self.ds_build(hs, "d", "n", unit, 1, False, style)
        if unit:
            self.part_decls.append("%s;  // part%d.cu" % (sig, unit))
            head = sig
        elif style == "ret_extern":
            head = sig
        else:
            head = "[[maybe_unused]] static " + sig
        self.ds_defs.setdefault(unit, []).extend([head + " {"] + body + ["}", ""])
        m = dict(style=style, name=name, unit=unit, ref=ref)
        self.ds_makers.append(m)
        return m

    def ds_instance(self, ctx, i):
        """Main makes device struct i (unmarked lines: never deleted by fuzz/reduce)."""
        styles = [(2, "main"), (1.2, "fields"), (2, "ret_static"), (1.5, "ret_extern"),
                  (1.5, "ret_back"), (1.2, "out_dev"), (1.2, "fill_dev")]
        if self.n_parts:
            styles.append((2, "ret_part"))
        style = self.weighted(styles)
        n = self.choice([256, 512, 1024, 2048])
        hs, ds = "hs%d" % i, "ds%d" % i
        p = "  " * ctx.indent
        init = "{}" if self.chance(0.3) else ""
        maker = None
        if style in ("main", "fields"):
            self.emit(ctx, "DPtrs %s%s;" % (hs, init), mark=False)
            self.emit(ctx, "DPtrs *%s = nullptr;" % ds, mark=False)
            self.emit(ctx, "{", mark=False)
            lines = self.ds_build(hs + ".", ds, "n", 0, ctx.indent + 1, True, style)
            ctx.func.lines.append(p + "  const int n = %d;" % n)
            ctx.func.lines.extend(lines)
            self.emit(ctx, "}", mark=False)
        else:
            maker = self.ds_maker(style)
            arg = ("%s" if maker["ref"] else "&%s") % hs
            if style == "ret_back":
                self.emit(ctx, "DPtrs *%s = %s(%d);" % (ds, maker["name"], n), mark=False)
                self.emit(ctx, "DPtrs %s%s;" % (hs, init), mark=False)
                self.api(ctx, "cudaMemcpy(&%s, %s, sizeof(DPtrs), cudaMemcpyDeviceToHost)"
                         % (hs, ds), mark=False)
            elif style == "out_dev":
                self.emit(ctx, "DPtrs %s%s;" % (hs, init), mark=False)
                self.emit(ctx, "DPtrs *%s = nullptr;" % ds, mark=False)
                self.emit(ctx, "%s(&%s, %s, %d);" % (maker["name"], ds, arg, n), mark=False)
            elif style == "fill_dev":
                self.emit(ctx, "DPtrs %s%s;" % (hs, init), mark=False)
                self.emit(ctx, "DPtrs *%s = nullptr;" % ds, mark=False)
                self.api(ctx, "cudaMalloc(&%s, sizeof(DPtrs))" % ds, mark=False)
                self.emit(ctx, "%s(%s, %s, %d);" % (maker["name"], ds, arg, n), mark=False)
            else:
                self.emit(ctx, "DPtrs %s%s;" % (hs, init), mark=False)
                self.emit(ctx, "%s *%s = %s(%s, %d);" % (self.choice(["DPtrs", "auto"]), ds,
                                                        maker["name"], arg, n), mark=False)
        fields = {}
        for x in self.ds_fields:
            a = self.new_alloc("%s.%s" % (hs, x), "dev", "ds", n)
            v = View(a, "%s.%s" % (hs, x), "%s.%s" % (hs, x), 0, n, "%s.n" % hs, hs)
            ctx.func.views.append(v)
            self.main_allocs.append(a)
            fields[x] = v
        inst = dict(hs=hs, ds=ds, n=n, fields=fields, style=style,
                    maker=maker["name"] if maker else None)
        self.ds_insts.append(inst)
        self.ds_log.append((style, inst["maker"]))
        self.used["ds"] += 1
        return inst

    def ds_release(self, ctx, inst):
        if self.chance(0.4):
            self.emit(ctx, "release_ds(%s);" % inst["ds"], mark=False)
            return
        for x in self.ds_fields:
            self.api(ctx, "cudaFree(%s.%s)" % (inst["hs"], x), mark=False)
        self.api(ctx, "cudaFree(%s)" % inst["ds"], mark=False)

    def ds_step_helper(self):
        """A helper given the device struct that launches 1-2 kernels through it, static
        in main.cu or (several units) defined in a part."""
        if self.ds_steps and self.chance(0.5):
            return self.choice(self.ds_steps)
        name = "ds_step%d" % self.nid()
        unit = self.r.randint(1, self.n_parts) if self.n_parts and self.chance(0.6) else 0
        sig = "void %s(DPtrs *s, int off, int n, int spin_us)" % name
        body, pairs = [], []
        for _ in range(self.r.randint(1, 2)):
            x, y = self.r.sample(self.ds_fields, 2)
            k = self.ds_kernel(unit, "k_ds_%s%s" % (x, y))
            body.append("  %s<<<(n + 127) / 128, 128>>>(s, off, %s, n, spin_us);"
                        % (k, self.odd()))
            pairs.append((x, y))
        if unit:
            self.part_decls.append("%s;  // part%d.cu" % (sig, unit))
            head = sig
        else:
            head = "[[maybe_unused]] static " + sig
        self.ds_defs.setdefault(unit, []).extend([head + " {"] + body + ["}", ""])
        h = dict(name=name, unit=unit, pairs=pairs)
        self.ds_steps.append(h)
        return h

    def ds_regions(self, ctx, inst, length):
        """The same region [off, off + length) of every field buffer of inst."""
        v0 = inst["fields"][self.ds_fields[0]]
        rg = self.place(ctx, v0, length)
        return {x: Region(v, rg.off, rg.len, rg.var, rg.stride, rg.iters)
                for x, v in inst["fields"].items()}

    def ds_off(self, rg):
        return " + ".join(rg.terms()) or "0"

    def ds_through(self, ctx, inst, rgs, x, y):
        """A kernel through the device struct reading field x and writing field y over
        the regions rgs (or a ds_step helper doing one or two of those)."""
        any_rg = rgs[x]
        n = self.count([rgs[x], rgs[y]], any_rg.len)
        self.used["dsop"] += 1
        if self.chance(0.2):
            h = self.ds_step_helper()
            spin = self.spin(ctx)
            self.charge(ctx, (spin + 10) * len(h["pairs"]))
            for _, yy in h["pairs"]:
                self.written(rgs[yy])
            self.emit(ctx, "%s(%s, %s, %s, %d);" % (h["name"], inst["ds"], self.ds_off(any_rg),
                                                    n, spin))
            return
        spin = self.spin(ctx)
        self.written(rgs[y])
        if any_rg.full() and self.chance(0.35):
            k = self.ds_kernel(0, "k_ds_%s%s_all" % (x, y))
            self.emit(ctx, "%s<<<%s, 128>>>(%s, %s, %d);"
                      % (k, self.choice(["(%s.n + 127) / 128" % inst["hs"], "4", "8"]),
                         inst["ds"], self.host_scalar(ctx, True), spin))
            return
        k = self.ds_kernel(0, "k_ds_%s%s" % (x, y))
        self.emit(ctx, "%s%s(%s, %s, %s, %s, %d);" % (k, self.launch(n), inst["ds"],
                                                      self.ds_off(any_rg),
                                                      self.host_scalar(ctx, True), n, spin))

    def op_ds_kernel(self, ctx):
        """One launch given a device struct: field to field, to a raw device range, or
        from one."""
        if not self.ds_insts:
            return False
        inst = self.choice(self.ds_insts)
        length = self.pick_len(inst["n"])
        rgs = self.ds_regions(ctx, inst, length)
        x, y = self.r.sample(self.ds_fields, 2)
        kind = self.weighted([(4, "through"), (1.5, "get"), (1.5, "put")])
        if kind == "through":
            self.ds_through(ctx, inst, rgs, x, y)
            return True
        other = self.regions_apart(ctx, [("dev", length)], [rgs[x]])
        if not other:
            return False
        o = other[0]
        n = self.count([rgs[x], o], length)
        spin = self.spin(ctx)
        self.used["dsop"] += 1
        if kind == "get":
            self.written(o)
            k = self.ds_kernel(0, "k_ds_get_%s" % x)
            self.emit(ctx, "%s%s(%s, %s, %s, %s, %d);" % (k, self.launch(n), self.ptr(o),
                                                          inst["ds"], self.ds_off(rgs[x]), n,
                                                          spin))
        else:
            k = self.ds_kernel(0, "k_ds_put_%s" % x)
            self.emit(ctx, "%s%s(%s, %s, %s, %s, %d);" % (k, self.launch(n), inst["ds"],
                                                          self.ptr(o), self.ds_off(rgs[x]), n,
                                                          spin))
        return True

    def pat_ds(self, ctx):
        """Ops ordered only through the device struct: an upload into the host mirror's
        field x, a kernel through the struct reading x and writing y (maybe a raw launch on
        y too), a download of y through the mirror, and a checksum of it."""
        if not self.ds_insts or self.no_host_reads:
            return False
        inst = self.choice(self.ds_insts)
        length = self.pick_len(min(inst["n"], 1024))
        hr = self.regions_apart(ctx, [("host", length), ("host", length)])
        if not hr:
            return False
        rgs = self.ds_regions(ctx, inst, length)
        x, y = self.r.sample(self.ds_fields, 2)
        self.used["dspat"] += 1
        if self.chance(0.8):
            self.move(ctx, rgs[x], hr[0], "H2D")
        self.ds_through(ctx, inst, rgs, x, y)
        if self.chance(0.3):
            self.kernel_on(ctx, rgs[y])
        if self.chance(0.3) and len(self.ds_fields) > 2:
            z = [f for f in self.ds_fields if f not in (x, y)][0]
            self.ds_through(ctx, inst, rgs, y, z)
            y = z
        self.move(ctx, hr[1], rgs[y], "D2H")
        pid = self.nid()
        self.emit(ctx, 'printf("ds%d %%08x\\n", checksum(%s, %s));'
                  % (pid, self.ptr(hr[1]), self.count([hr[1]], length)))
        return True

    def stmts(self, ctx, n):
        for _ in range(n):
            self.stmt(ctx)

    def stmt(self, ctx):
        f = ctx.func
        opts = [(5, self.op_host_loop), (2, self.op_host_print), (1, self.op_host_reduce),
                (1, self.op_libc), (3, self.ctrl_if), (2, self.ctrl_for), (1, self.ctrl_while),
                (4, self.op_call), (1, self.ctrl_switch)]
        if f.gpu_ok:
            opts += [(4, lambda c: self.op_copy(c, "H2D")), (4, lambda c: self.op_copy(c, "D2H")),
                     (2, lambda c: self.op_copy(c, "D2D")), (0.3, lambda c: self.op_copy(c, "H2H")),
                     (2, self.op_memset), (9, self.op_kernel), (1, self.op_sync),
                     (0.6, lambda c: self.op_copy2d(c, "H2D")),
                     (0.6, lambda c: self.op_copy2d(c, "D2H")),
                     (1.5, self.pat_chains), (0.7, self.pat_join), (0.5, self.pat_diamond),
                     (1, self.pat_slices), (1.2, self.pat_temp)]
        if f.gpu_ok and not f.unit:
            opts += [(1, self.op_to_symbol), (1, self.op_from_symbol)]
        if f.gpu_ok and self.f_async:
            opts += [(2.5, self.op_own_async), (1, self.pat_own_async_temp)]
        if f.gpu_ok and self.f_timer and not f.unit:
            opts.append((1.2, self.pat_timed))
        if f.is_main and self.n_streams:
            opts.append((3, self.pat_own_streams))
        if self.f_ifdef:
            opts.append((1.2, self.op_inactive))
        if f.gpu_ok and self.f_tmpl:
            opts.append((2, self.op_tmpl))
        if f.gpu_ok and self.f_disp:
            opts.append((2, self.op_dispatch))
        if self.f_lambda:
            opts.append((1.5, self.pat_lambda))
        if f.gpu_ok and self.f_class:
            opts.append((1, self.pat_scoped_buf))
            if f.is_main:
                opts.append((0.7, self.op_class_round))
        if f.gpu_ok and self.f_lloop:
            opts.append((0.6, self.pat_launch_loop))
        if f.gpu_ok and self.f_pend:
            opts.append((2, self.pat_pending))
        if f.is_main and self.ds_insts:
            opts += [(5, self.op_ds_kernel), (2.5, self.pat_ds)]
        if ctx.loop_kind:
            opts.append((1, self.ctrl_jump))
        if not f.is_main:
            opts.append((1, self.ctrl_return))
        if ctx.top:
            opts += [(1, self.op_free), (1.5, self.op_realloc)]
        if f.is_main:
            opts.append((0.7, self.op_swap))
        for _ in range(30):
            if self.weighted(opts)(ctx):
                return
        self.emit(ctx, 'printf("nop\\n");')

    # -- main --------------------------------------------------------------------
    def host_init(self, ctx, ptr_idx, n):
        self.emit(ctx, "for (int i = 0; i < %d; ++i) %s[i] = (unsigned int)i * %s + %s;"
                  % (n, ptr_idx, self.odd(), self.u32()), mark=False)

    def dev_init(self, ctx, name, n):
        x = self.r.random()
        hosts = [v for v in ctx.func.views if v.alloc.alive and v.space == "host"
                 and v.len >= n and v.off == 0]
        if x < 0.4 and hosts:
            src = self.choice(hosts)
            self.api(ctx, "cudaMemcpy(%s, %s, %d * sizeof(unsigned int), cudaMemcpyHostToDevice)"
                     % (name, src.ptr, n), mark=False)
        elif x < 0.75:
            self.api(ctx, "cudaMemset(%s, %d, %d * sizeof(unsigned int))"
                     % (name, self.r.randrange(256), n), mark=False)
        else:
            self.kernels_used.add("k_fill")
            self.emit(ctx, "k_fill<<<%d, 128>>>(%s, %s, %d, 0);"
                      % (self.choice([1, 4, 8]), name, self.u32(), n), mark=False)

    def alloc_host(self, ctx, name, kind, n, declare, maker=None):
        if kind == "hret":
            return self.hret_alloc(ctx, name, n, declare, maker=maker)
        a = self.new_alloc(name, "host", kind, n)
        decl = "unsigned int *" if declare else ""
        if kind == "malloc":
            self.emit(ctx, "%s%s = (unsigned int *)malloc(%d * sizeof(unsigned int));"
                      % (decl, name, n), mark=False)
        elif kind == "new":
            self.emit(ctx, "%s%s = new unsigned int[%d];" % (decl, name, n), mark=False)
        elif kind == "pinned":
            if declare:
                self.emit(ctx, "unsigned int *%s = nullptr;" % name, mark=False)
            self.api(ctx, "cudaMallocHost(&%s, %d * sizeof(unsigned int))" % (name, n), mark=False)
        self.check_alloc(ctx, name)
        self.host_init(ctx, name, n)
        v = View(a, name, name, 0, n)
        ctx.func.views.append(v)
        return a

    def alloc_dev(self, ctx, name, n, declare, kind="cuda"):
        a = self.new_alloc(name, "dev", kind, n)
        if self.chance(0.15):
            self.emit(ctx, "%s%s = make_dev(%d, %d);" % ("unsigned int *" if declare else "",
                                                        name, n, self.r.randrange(256)),
                      mark=False)
            self.check_alloc(ctx, name)
            ctx.func.views.append(View(a, name, name, 0, n))
            return a
        if declare:
            self.emit(ctx, "unsigned int *%s = nullptr;" % name, mark=False)
        self.api(ctx, "cudaMalloc(&%s, %d * sizeof(unsigned int))" % (name, n), mark=False)
        self.check_alloc(ctx, name)
        self.dev_init(ctx, name, n)
        ctx.func.views.append(View(a, name, name, 0, n))
        return a

    def op_swap(self, ctx):
        """Exchange two buffers (ping-pong).  Only between buffers of one kind and size
        that no other pointer aliases: then the model need not know which is which."""
        f = ctx.func
        aliased = set(v.alloc.uid for v in f.views if v.ptr != v.alloc.name
                      and not v.ptr.endswith(".data()"))
        cands = [a for a in self.main_allocs if a.alive and a.kind in ("cuda", "malloc")
                 and a.uid not in aliased]
        pairs = [(a, b) for i, a in enumerate(cands) for b in cands[i + 1:]
                 if a.kind == b.kind and a.size == b.size]
        if not pairs:
            return False
        a, b = self.choice(pairs)
        if self.chance(0.5):
            self.emit(ctx, "std::swap(%s, %s);" % (a.name, b.name))
        else:
            self.emit(ctx, "{ unsigned int *t = %s; %s = %s; %s = t; }"
                      % (a.name, a.name, b.name, b.name))
        return True

    def op_free(self, ctx):
        f = ctx.func
        cands = [a for a in self.main_allocs if a.alive and a.kind in ("malloc", "new", "pinned",
                                                                       "cuda", "pool", "hret")]
        if not cands:
            return False
        a = self.choice(cands)
        a.alive = False
        self.free_stmt(ctx, a, mark=True)
        return True

    def free_stmt(self, ctx, a, mark):
        if a.kind in ("cls-dev", "cls-host", "cls-pinned", "uptr"):
            return  # v8: freed by its destructor at the end of main
        if a.kind == "ds":
            return  # v10: freed with its device struct (ds_release)
        if a.kind == "malloc":
            self.emit(ctx, "%s(%s);" % ("release_host" if self.chance(0.25) else "free", a.name),
                      mark)
        elif a.kind == "hret":
            self.emit(ctx, self.hret_free(a), mark)
        elif a.kind == "new":
            self.emit(ctx, ("release_host_arr(%s);" if self.chance(0.25) else "delete[] %s;")
                      % a.name, mark)
        elif a.kind == "pinned":
            self.api(ctx, "cudaFreeHost(%s)" % a.name, mark)
        elif a.kind == "cuda" and self.chance(0.3):
            self.emit(ctx, "release_dev(%s);" % a.name, mark)
        elif a.kind in ("cuda", "pool", "struct-dev"):
            self.api(ctx, "cudaFree(%s)" % a.name, mark)
        elif a.kind == "struct-host":
            self.emit(ctx, "free(%s);" % a.name, mark)

    def op_realloc(self, ctx):
        # a freed pointer gets a new allocation of a possibly different size,
        # or a vector is re-assigned (its data may move)
        dead = [a for a in self.main_allocs if not a.alive and a.kind != "pool"
                and not any(b.name == a.name and b.alive for b in self.main_allocs)]
        vecs = [a for a in self.main_allocs if a.alive and a.kind == "vector"]
        if dead and (not vecs or self.chance(0.7)):
            old = self.choice(dead)
            n = self.choice([256, 512, 1000, 1024, 2048])
            if old.space == "host":
                # (v9: a helper's buffer comes from the same helper again)
                a = self.alloc_host(ctx, old.name, old.kind, n, False,
                                    maker=getattr(old, "maker", None))
            else:
                a = self.alloc_dev(ctx, old.name, n, False)
            self.main_allocs.remove(old)
            self.main_allocs.append(a)
            return True
        if vecs:
            old = self.choice(vecs)
            old.alive = False
            n = self.choice([256, 512, 1024, 2048])
            a = self.new_alloc(old.name, "host", "vector", n)
            self.emit(ctx, "%s.assign(%d, %s);" % (old.name, n, self.u32()), mark=False)
            ctx.func.views.append(View(a, "%s.data()" % old.name, old.name, 0, n,
                                       "(int)%s.size()" % old.name, old.name))
            self.main_allocs.remove(old)
            self.main_allocs.append(a)
            return True
        return False

    def reachable(self, f):
        seen, todo = [], list(f.callees)
        while todo:
            h = todo.pop()
            if h not in seen:
                seen.append(h)
                todo += h.callees
        return seen

    def make_main(self):
        f = Func("main", True, True, self.cfg["budget_us"])
        ctx = Ctx(f, 1, top=True)
        self.main_allocs = []
        if self.f_timer:
            self.timer_setup(ctx)
        # the global host array and the symbol
        ga = self.new_alloc("g_host", "host", "global", GHOST_N)
        self.host_init(ctx, "g_host", GHOST_N)
        f.views.append(View(ga, "g_host", "g_host", 0, GHOST_N))
        self.main_allocs.append(ga)
        self.api(ctx, "cudaMemcpyToSymbol(g_sym, g_host, SYM_N * sizeof(unsigned int))",
                 mark=False)
        self.api(ctx, "cudaMemcpyToSymbol(c_tab, g_host + %d, CONST_N * sizeof(unsigned int))"
                 % self.r.randrange(GHOST_N - CONST_N), mark=False)
        # host buffers
        lo, hi = self.cfg["n_host"]
        sizes = [256, 512, 1000, 1024, 2048, 4096]
        need_vec = any(p.kind == "vec" for h in self.helpers for p in h.params)
        for i in range(self.r.randint(lo, hi)):
            kinds = [(3, "malloc"), (2, "new"), (2, "vector"), (1, "stack"), (2, "pinned")]
            if self.f_hret:
                kinds.append((3, "hret"))  # v9: a buffer a helper allocates and returns
            kind = self.weighted(kinds)
            if need_vec and i == 0:
                kind = "vector"
            elif self.f_hret and i == (1 if need_vec else 0):
                kind = "hret"  # at least one in a program picked for it
            n = self.choice(sizes)
            name = "%s%d" % ({"malloc": "h", "new": "h", "pinned": "hp", "vector": "v",
                              "stack": "s", "hret": "hr"}[kind], i)
            if kind == "vector":
                a = self.new_alloc(name, "host", "vector", n)
                self.emit(ctx, "std::vector<unsigned int> %s(%d, %s);" % (name, n, self.u32()),
                          mark=False)
                if self.chance(0.5):
                    self.host_init(ctx, name, n)
                f.views.append(View(a, "%s.data()" % name, name, 0, n, "(int)%s.size()" % name,
                                    name))
            elif kind == "stack":
                n = min(n, 2048)
                a = self.new_alloc(name, "host", "stack", n)
                self.emit(ctx, "unsigned int %s[%d];" % (name, n), mark=False)
                self.host_init(ctx, name, n)
                f.views.append(View(a, name, name, 0, n))
            else:
                a = self.alloc_host(ctx, name, kind, n, True)
            self.main_allocs.append(a)
        # device buffers; maybe one pool carved into views
        lo, hi = self.cfg["n_dev"]
        for i in range(self.r.randint(lo, hi)):
            a = self.alloc_dev(ctx, "d%d" % i, self.choice(sizes), True)
            self.main_allocs.append(a)
        if self.chance(0.6):
            n = 8192
            a = self.new_alloc("d_pool", "dev", "pool", n)
            self.emit(ctx, "unsigned int *d_pool = nullptr;", mark=False)
            self.api(ctx, "cudaMalloc(&d_pool, %d * sizeof(unsigned int))" % n, mark=False)
            self.dev_init(ctx, "d_pool", n)
            f.views.append(View(a, "d_pool", "d_pool", 0, n))
            self.main_allocs.append(a)
            for j in range(self.r.randint(2, 4)):
                ln = self.choice([256, 512, 1024, 2048])
                off = self.r.randrange(0, n - ln + 1, 64)
                self.emit(ctx, "unsigned int *d_part%d = d_pool + %d;" % (j, off), mark=False)
                f.views.append(View(a, "d_part%d" % j, "d_part%d" % j, off, ln))
        # structs holding a host and a device buffer
        need_struct = any(p.kind == "struct" for h in self.helpers for p in h.params)
        for j in range(self.r.randint(1 if need_struct else 0, 2)):
            n = self.choice([256, 512, 1024])
            name = "sb%d" % j
            by_ptr = self.chance(0.3)
            ha = self.new_alloc("%s.host" % name, "host", "struct-host", n)
            da = self.new_alloc("%s.dev" % name, "dev", "struct-dev", n)
            self.emit(ctx, "Buf %s;" % name, mark=False)
            self.emit(ctx, "%s.n = %d;" % (name, n), mark=False)
            self.emit(ctx, "%s.host = (unsigned int *)malloc(%d * sizeof(unsigned int));"
                      % (name, n), mark=False)
            self.host_init(ctx, "%s.host" % name, n)
            self.api(ctx, "cudaMalloc(&%s.dev, %d * sizeof(unsigned int))" % (name, n), mark=False)
            self.dev_init(ctx, "%s.dev" % name, n)
            if by_ptr:
                self.emit(ctx, "Buf *%sp = &%s;" % (name, name), mark=False)
                acc, sname = "->", name + "p"
            else:
                acc, sname = ".", name
            hv = View(ha, "%s%shost" % (sname, acc), "%s%shost" % (sname, acc), 0, n,
                      "%s%sn" % (sname, acc), name)
            dv = View(da, "%s%sdev" % (sname, acc), "%s%sdev" % (sname, acc), 0, n,
                      "%s%sn" % (sname, acc), name)
            f.views += [hv, dv]
            f.structs.append(StructInst(sname, acc, hv, dv, n))
            self.main_allocs += [ha, da]
        # v10: device structs of device pointers
        if self.f_ds:
            for j in range(self.r.randint(1, 2)):
                self.ds_instance(ctx, j)
        # v8: buffers owned by objects of main: DevBuf, HostBuf, std::unique_ptr<[]>
        if self.f_class:
            for j in range(self.r.randint(1, 3)):
                n = self.choice([256, 512, 1024, 2048])
                x = self.r.random()
                if x < 0.4:
                    name = "db%d" % j
                    self.emit(ctx, "DevBuf %s(%d, %d);" % (name, n, self.r.randrange(256)),
                              mark=False)
                    a = self.new_alloc(name, "dev", "cls-dev", n)
                    f.views.append(View(a, "%s.data()" % name, "%s.data()" % name, 0, n,
                                        "%s.size()" % name, name))
                elif x < 0.75:
                    name = "hb%d" % j
                    pinned = self.chance(0.3)
                    self.emit(ctx, "HostBuf %s(%d, %s%s);" % (name, n, self.odd(),
                                                            ", true" if pinned else ""),
                              mark=False)
                    a = self.new_alloc(name, "host", "cls-pinned" if pinned else "cls-host", n)
                    f.views.append(View(a, "%s.data()" % name, name, 0, n, "%s.size()" % name,
                                        name))
                else:
                    name = "up%d" % j
                    self.emit(ctx, "std::unique_ptr<unsigned int[]> %s(new unsigned int[%d]);"
                              % (name, n), mark=False)
                    self.host_init(ctx, name, n)
                    a = self.new_alloc(name, "host", "uptr", n)
                    f.views.append(View(a, "%s.get()" % name, name, 0, n))
                self.main_allocs.append(a)
        # aliases: a second name for a buffer, or a pointer into it
        for _ in range(self.r.randint(0, 3)):
            base = self.choice([v for v in f.views if v.off == 0 and v.len == v.alloc.size
                                and v.alloc.kind not in ("vector", "pool")])
            aid = self.nid()
            name = "%s_al%d" % ("d" if base.space == "dev" else "h", aid)
            if self.chance(0.5) or base.len < 512:
                self.emit(ctx, "unsigned int *%s = %s;" % (name, base.ptr), mark=False)
                f.views.append(View(base.alloc, name, name, 0, base.len))
            else:
                off = self.r.randrange(1, base.len - 255)
                ln = self.r.randint(256, base.len - off)
                self.emit(ctx, "unsigned int *%s = %s + %d;" % (name, base.ptr, off), mark=False)
                f.views.append(View(base.alloc, name, name, off, ln))
        if self.f_timer:
            self.timer_alloc(ctx)
        if self.n_streams:
            self.emit(ctx, "cudaStream_t us[%d];" % self.n_streams, mark=False)
            self.emit(ctx, "for (int si = 0; si < %d; ++si)" % self.n_streams, mark=False)
            self.emit(ctx.child(), "CHECK(cudaStreamCreate(&us[si]));", mark=False)
        # the body
        lo, hi = self.cfg["main_stmts"]
        self.stmts(ctx, self.r.randint(lo, hi))
        # every construct this program was picked for appears at least once
        for flag, key, op in ((self.f_async, "async", self.op_own_async),
                              (self.n_streams, "streams", self.pat_own_streams),
                              (self.f_timer, "timer", self.pat_timed),
                              (self.f_ifdef, "ifdef", self.op_inactive),
                              (self.f_tmpl, "tmpl", self.op_tmpl),
                              (self.f_lambda, "lambda", self.pat_lambda),
                              (self.f_class, "class", self.pat_scoped_buf),
                              (self.f_lloop, "lloop", self.pat_launch_loop),
                              (self.f_pend, "pend", self.pat_pending),
                              (self.f_ds, "dspat", self.pat_ds),
                              (self.f_disp, "disp", self.op_dispatch)):
            for _ in range(5):
                if not flag or self.used[key] or op(ctx):
                    break
        # v10: a device struct is used through at least two launches
        for _ in range(5):
            if not self.ds_insts or self.used["dsop"] >= 2:
                break
            self.op_ds_kernel(ctx)
        # v11: main.cu instantiates a dispatch template for both element types
        for _ in range(5):
            if not self.f_disp or self.disp_both(0):
                break
            done = [(w, t) for w, t, u in self.disp_log if u == 0]
            if done:
                self.op_dispatch(ctx, done[0][0], [t for t in self.DISP_TYPES
                                                   if t != done[0][1]][0], False)
            else:
                self.op_dispatch(ctx, pair=True)
        # make sure every helper runs at least once (directly or through another helper)
        for h in self.helpers:
            if h not in self.reachable(f) and self.can_afford(ctx, h.cost):
                args = self.call_args(ctx, h)
                if args is not None:
                    self.charge(ctx, h.cost)
                    f.callees.append(h)
                    self.emit(ctx, "%s(%s);" % (h.name, args))
        # checksums of everything still alive, then release
        self.emit(ctx, 'printf("-- checksums\\n");', mark=False)
        for a in self.main_allocs:
            if not a.alive:
                continue
            pv = [v for v in f.views if v.alloc is a and v.off == 0 and v.len == a.size][0]
            if a.space == "host":
                self.emit(ctx, 'printf("%s %%08x\\n", checksum(%s, %d));' % (a.name, pv.ptr, a.size),
                          mark=False)
            else:
                cid = self.nid()
                self.emit(ctx, "std::vector<unsigned int> chk%d(%d);" % (cid, a.size), mark=False)
                self.api(ctx, "cudaMemcpy(chk%d.data(), %s, %d * sizeof(unsigned int), "
                         "cudaMemcpyDeviceToHost)" % (cid, pv.ptr, a.size), mark=False)
                self.emit(ctx, 'printf("%s %%08x\\n", checksum(chk%d.data(), %d));'
                          % (a.name, cid, a.size), mark=False)
        cid = self.nid()
        self.emit(ctx, "std::vector<unsigned int> chk%d(SYM_N);" % cid, mark=False)
        self.api(ctx, "cudaMemcpyFromSymbol(chk%d.data(), g_sym, SYM_N * sizeof(unsigned int))"
                 % cid, mark=False)
        self.emit(ctx, 'printf("g_sym %%08x\\n", checksum(chk%d.data(), SYM_N));' % cid,
                  mark=False)
        cid = self.nid()
        self.emit(ctx, "unsigned int chk%d[CONST_N];" % cid, mark=False)
        self.api(ctx, "cudaMemcpyFromSymbol(chk%d, c_tab, sizeof(chk%d))" % (cid, cid),
                 mark=False)
        self.emit(ctx, 'printf("c_tab %%08x\\n", checksum(chk%d, CONST_N));' % cid,
                  mark=False)
        for a in self.main_allocs:
            if a.alive:
                self.free_stmt(ctx, a, mark=False)
        for inst in self.ds_insts:
            self.ds_release(ctx, inst)
        if self.n_streams:
            self.emit(ctx, "for (int si = 0; si < %d; ++si)" % self.n_streams, mark=False)
            self.emit(ctx.child(), "CHECK(cudaStreamDestroy(us[si]));", mark=False)
        if self.f_timer:
            self.timer_release(ctx)
        if self.chance(0.1 if self.f_hret else 0.3) and not self.f_class:
            # (v8: not with DevBuf / HostBuf in main: their destructors run after it; v9:
            # rarer with helpers' buffers, which a tool keeps pageable where a reset follows)
            self.api(ctx, "cudaDeviceReset()", mark=False)
        self.emit(ctx, "return 0;", mark=False)
        return f

    # -- the whole program ------------------------------------------------------
    def program(self):
        # v3 constructs, each in a good share of programs
        self.f_async = self.chance(0.6)
        self.f_timer = self.chance(0.5)
        self.tm_registered = self.chance(0.4)
        self.f_ifdef = self.chance(0.5)
        self.f_checkalloc = self.chance(0.5)
        # v4: streams of the program's own (blocking ones), in half of the programs
        self.n_streams = self.r.randint(1, 3) if self.chance(0.5) else 0
        # v7: half of the programs are projects of two or three translation units
        self.n_parts = self.r.randint(1, 2) if self.chance(0.5) else 0
        # v8: templates, lambdas, classes owning buffers, launch loops, helpers whose
        # copies outlive them, each in a share of the programs
        self.f_tmpl = self.chance(0.4)
        self.f_lambda = self.chance(0.4)
        self.f_class = self.chance(0.4)
        self.f_lloop = self.chance(0.35)
        self.f_pend = self.chance(0.45)
        # v9: host buffers that a helper allocates and returns
        self.f_hret = self.chance(0.35)
        # v10: device structs of device pointers
        self.f_ds = self.chance(0.3)
        if self.f_ds:
            self.ds_fields = ["a", "b", "c"] if self.chance(0.5) else ["a", "b"]
        # v11: host templates that dispatch with `if constexpr` on the element type
        self.f_disp = self.chance(0.35)
        lo, hi = self.cfg["helpers"]
        n_helpers = self.r.randint(lo, hi) + self.n_parts
        if self.n_parts:
            units = list(range(1, self.n_parts + 1))
            units += [self.r.randint(0, self.n_parts) for _ in range(n_helpers - len(units))]
            self.r.shuffle(units)
            self.unit_of = units
        for i in range(n_helpers):
            self.helpers.append(self.make_helper(i))
        main = self.make_main()
        self.main = main
        out = self.header("")
        out.append(PRELUDE)
        out += self.ds_unit_prelude(0)
        if self.n_parts:
            out.append('#include "parts.h"')
            out.append("")
        out += self.hret_unit_defs(0)
        out += self.pend_defs.get(0, [])
        out += self.helper_defs(0)
        out += self.stream_helpers
        out.append("int main() {")
        out += main.lines
        out.append("}")
        files = [("main.cu", "\n".join(out) + "\n")]
        for u in range(1, self.n_parts + 1):
            out = self.header(" unit part%d.cu" % u)
            out.append(PART_PRELUDE)
            out += self.ds_unit_prelude(u)
            out.append('#include "parts.h"')
            out.append("")
            out += self.hret_unit_defs(u)
            out += self.pend_defs.get(u, [])
            out += self.helper_defs(u)
            out += self.part_chains.get(u, [])
            files.append(("part%d.cu" % u, "\n".join(out).rstrip("\n") + "\n"))
        if self.n_parts:
            out = ["// Functions the units of this program define for each other (generated by",
                   "// fuzz/gen.py, GENERATOR_VERSION %s seed %d size %s)."
                   % (GENERATOR_VERSION, self.seed, self.size),
                   "#pragma once"] + (["#include <cstdlib>"] if "h" in self.hret_defs else []) + [
                   "#include <vector>", "#include <cuda_runtime.h>", "",
                   "struct Buf;"] + (["struct DPtrs;"] if self.f_ds else []) + [""] \
                + self.part_decls
            if "h" in self.hret_defs:
                out += [""] + self.hret_defs["h"][:-1]  # (v9: inline makers, alloc_host<T>)
            files.append(("parts.h", "\n".join(out) + "\n"))
        return files

    def ds_unit_prelude(self, unit):
        """v10: DPtrs, release_ds, the kernels through it and the helpers making or given
        one that unit `unit` defines (before parts.h, which only declares DPtrs)."""
        if not self.f_ds:
            return []
        return self.ds_kernel_defs(unit) + self.ds_defs.get(unit, [])

    def hret_unit_defs(self, unit):
        """v9: the makers a unit defines, and the bump_int its functions call."""
        out = []
        if unit in self.bump_int_used:
            out += ["[[maybe_unused]] static void bump_int(int *p) { *p += 1; }", ""]
        return out + self.hret_defs.get(unit, [])

    def header(self, what):
        return ["// StreamAlloc differential fuzz program%s (generated by fuzz/gen.py)." % what,
                "// GENERATOR_VERSION %s seed %d size %s" % (GENERATOR_VERSION, self.seed,
                                                            self.size),
                "// Synchronous and deterministic: prints a checksum of every buffer, exits 0.",
                "// Lines ending in //@s<ID> and blocks //@b{<ID> .. //@b}<ID> are deletable"
                " units for fuzz/reduce."]

    def helper_defs(self, unit):
        out = []
        for h in self.helpers:
            if h.unit != unit:
                continue
            bid = self.nid()
            out.append("%s {  //@b{%d" % (h.signature, bid))
            out += h.lines
            out.append("}  //@b}%d" % bid)
            out.append("")
        return out


def generate_files(seed, size="small"):
    """The program as [(file name, text)]: [("main.cu", text)] for a single-file program,
    else main.cu, part1.cu [, part2.cu] and parts.h (v7), to be built together."""
    return Gen(seed, size).program()


def generate(seed, size="small"):
    """A single-file program's text; a program of several units is refused (use
    generate_files)."""
    files = generate_files(seed, size)
    if len(files) != 1:
        raise ValueError("seed %d (%s) is a program of %d files: use generate_files"
                         % (seed, size, len(files)))
    return files[0][1]


V8_CONSTRUCTS = ("tmpl", "lambda", "class", "lloop", "pend")


def v8_used(seed, size="small"):
    """The v8 constructs the program of (seed, size) emits, as {name: count}: tmpl (host
    templates), lambda, class (block-scoped DevBuf/HostBuf), lloop (launch loops), pend
    (helpers whose copies outlive them)."""
    g = Gen(seed, size)
    g.program()
    return {k: g.used[k] for k in V8_CONSTRUCTS if g.used[k]}


V9_CONSTRUCTS = ("hret",)


def v9_used(seed, size="small"):
    """The v9 constructs the program of (seed, size) emits, as {name: count}: hret (calls of
    helpers that allocate and return a host buffer; Gen.hret_log lists each call's maker
    style and argument shape)."""
    g = Gen(seed, size)
    g.program()
    return {k: g.used[k] for k in V9_CONSTRUCTS if g.used[k]}


V10_CONSTRUCTS = ("ds", "dsop", "dspat")


def v10_used(seed, size="small"):
    """The v10 constructs the program of (seed, size) emits, as {name: count}: ds (device
    structs of device pointers main makes; Gen.ds_log gives each one's style and maker),
    dsop (launches through one, directly or by a ds_step helper), dspat (upload, launch
    through the struct, download patterns)."""
    g = Gen(seed, size)
    g.program()
    return {k: g.used[k] for k in V10_CONSTRUCTS if g.used[k]}


V11_CONSTRUCTS = ("disp", "disp_both")


def v11_used(seed, size="small"):
    """The v11 constructs the program of (seed, size) emits, as {name: count}: disp (calls
    of the host templates that dispatch with `if constexpr`, xor_dispatch_t and
    xor_into_t; Gen.disp_log gives each call's template, element type and unit),
    disp_both (the (template, unit) pairs instantiated for both unsigned int and unsigned
    short: such a template's two instantiations differ only inside its branches)."""
    g = Gen(seed, size)
    g.program()
    got = {"disp": g.used["disp"], "disp_both": len(g.disp_both())}
    return {k: got[k] for k in V11_CONSTRUCTS if got[k]}


def is_multi(seed, size="small"):
    return len(generate_files(seed, size)) > 1


def uses_own_streams(files):
    """Whether a program runs work on streams of its own (v4 chains, v5 own_chain helpers)."""
    return any("cudaStream_t us[" in t or "cudaStream_t s)" in t for _, t in files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("-o", "--output", help="write here instead of stdout (a program of "
                    "several units: a folder, created if needed)")
    ap.add_argument("--version", action="version", version=GENERATOR_VERSION)
    a = ap.parse_args()
    files = generate_files(a.seed, a.size)
    if a.output and len(files) > 1:
        os.makedirs(a.output, exist_ok=True)
        for name, text in files:
            with open(os.path.join(a.output, name), "w") as fh:
                fh.write(text)
    elif a.output:
        with open(a.output, "w") as fh:
            fh.write(files[0][1])
    elif len(files) > 1:
        for name, text in files:
            sys.stdout.write("// ===== %s\n%s" % (name, text))
    else:
        sys.stdout.write(files[0][1])


if __name__ == "__main__":
    main()
