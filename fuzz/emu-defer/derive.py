#!/usr/bin/env python3
"""Derives the deferred CPU emulation from fuzz/emu/cuda_runtime.h.

    fuzz/emu-defer/derive.py OUT_DIR     # writes OUT_DIR/cuda_runtime.h

The deferred emulation is the synchronous one with one change: work enqueued on a stream
other than the legacy default stream is not run at the call. It is queued per stream and
runs only when the host must wait for it: a stream, event or device synchronisation, work
on the legacy stream (which orders after every blocking stream), cudaFree / cudaFreeHost,
cudaDeviceReset. cudaMallocAsync returns the address at once, but the memory counts as device
memory only when its stream reaches the allocation; cudaFreeAsync frees it when its stream
reaches the release. Streams are drained in an adversarial order (SA_EMU_STREAMS=reverse, the
default, or forward) that honours only the event dependencies the program states
(cudaEventRecord / cudaStreamWaitEvent, per record). The program's own cudaMemcpyAsync on
the legacy stream is deferred as well, on a queue of the legacy stream ordered with the
others as the legacy stream is with blocking streams; a pageable source is staged (read) at
the call, as the runtime does, a page-locked one is read only when the copy runs, so a tool
that pins the source of such a copy while the program overwrites it right after the call
gets a wrong result. Kernel launches on the legacy stream are deferred on that queue too
(they do not block the host on a GPU either). Work still queued when the program exits never runs. A missing wait therefore shows up as a stale read, a lost write, missing
kernel output or an AddressSanitizer error, instead of going unnoticed.

Each edit below names the text of emu/cuda_runtime.h it replaces; when that header changes
so that an edit no longer applies, this script fails and says which one.
"""
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
SOURCE = os.path.join(HERE, "..", "emu", "cuda_runtime.h")

QUEUES = r'''
// --- deferred execution (fuzz/emu-defer/derive.py) ---------------------------------------
struct sa_emu_item {
  int kind;  // 0 work, 1 event record (seq), 2 wait for a record (seq)
  long seq;
  std::function<void()> fn;
};
inline std::map<cudaStream_t, std::deque<sa_emu_item>> sa_emu_queues_;
inline std::vector<cudaStream_t> sa_emu_order_;
inline long sa_emu_seq_ = 0;
inline std::map<cudaEvent_t, long> sa_emu_latest_;         // latest record of each event
inline std::map<long, cudaStream_t> sa_emu_record_stream_;  // records not yet reached
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
  if (q.empty()) {
    fprintf(stderr, "EMU-ERROR an event record was never queued\n");
    abort();
  }
  sa_emu_item it = q.front();
  q.pop_front();
  if (it.kind == 0) it.fn();
  else if (it.kind == 1) sa_emu_record_stream_.erase(it.seq);
  else sa_emu_until_record(it.seq);
}
inline void sa_emu_run_stream(cudaStream_t s) {
  while (!sa_emu_q(s).empty()) sa_emu_step(s);
}
// The legacy stream's own deferred work (the program's cudaMemcpyAsync on stream 0) is a
// queue too, under the key 0; it is ordered with the other streams as the legacy stream
// is with blocking streams: each waits for what the other had queued before.
inline bool sa_emu_pending(cudaStream_t s) {
  auto it = sa_emu_queues_.find(s);
  return it != sa_emu_queues_.end() && !it->second.empty();
}
inline void sa_emu_order_after(cudaStream_t waiter, cudaStream_t s) {
  long seq = ++sa_emu_seq_;
  sa_emu_record_stream_[seq] = s;
  sa_emu_q(s).push_back({1, seq, nullptr});
  sa_emu_q(waiter).push_back({2, seq, nullptr});
}
inline void sa_emu_flush_all() {
  std::vector<cudaStream_t> order = sa_emu_order_;
  const char *e = getenv("SA_EMU_STREAMS");
  if (!(e && strcmp(e, "forward") == 0))
    for (size_t i = 0, j = order.size(); i + 1 < j; ++i, --j) std::swap(order[i], order[j - 1]);
  for (cudaStream_t s : order) sa_emu_run_stream(s);
}
// CUDA graphs: work submitted to a capturing stream is recorded, and a graph launch
// submits the recorded work again, in order.
struct sa_emu_graph_ {
  std::vector<std::function<void()>> work;
};
struct sa_emu_graph_exec_ {
  std::vector<std::function<void()>> work;
};
inline std::map<cudaStream_t, sa_emu_graph_ *> sa_emu_capturing_;
// Runs fn now (legacy stream: after everything queued) or queues it on stream s.
inline void sa_emu_submit(cudaStream_t s, std::function<void()> fn) {
  if (auto c = sa_emu_capturing_.find(s); c != sa_emu_capturing_.end()) {
    c->second->work.push_back(fn);
    return;
  }
  if (!sa_emu_capturing_.empty() && !sa_emu_async(s)) {
    fprintf(stderr, "EMU-ERROR legacy-stream work while a stream is being captured\n");
    abort();
  }
  if (sa_emu_async(s)) {
    if (sa_emu_pending(0)) sa_emu_order_after(s, 0);
    sa_emu_q(s).push_back({0, 0, fn});
  } else {
    sa_emu_flush_all();
    fn();
  }
}
// Queues fn as deferred work of the legacy stream, after the work already queued anywhere.
inline void sa_emu_submit_legacy(std::function<void()> fn) {
  std::vector<cudaStream_t> order = sa_emu_order_;
  for (cudaStream_t t : order)
    if (t != 0 && sa_emu_pending(t)) sa_emu_order_after(0, t);
  sa_emu_q(0).push_back({0, 0, fn});
}
'''

GRAPHS_SYNC = r'''inline cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) {
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
'''

GRAPHS_DEFERRED = r'''inline cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode) {
  if (!sa_emu_async(s) || sa_emu_capturing_.count(s)) sa_emu_fail("capture of this stream");
  sa_emu_capturing_[s] = new sa_emu_graph_;
  return cudaSuccess;
}
inline cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g) {
  auto c = sa_emu_capturing_.find(s);
  if (c == sa_emu_capturing_.end()) sa_emu_fail("end of a capture never begun");
  *g = c->second;
  sa_emu_capturing_.erase(c);
  return cudaSuccess;
}
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g, unsigned long long = 0) {
  *x = new sa_emu_graph_exec_{g->work};
  return cudaSuccess;
}
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g,
                                       cudaGraphExecUpdateResultInfo *) {
  if (x->work.size() != g->work.size()) return cudaErrorInvalidValue;  // topology changed
  x->work = g->work;
  return cudaSuccess;
}
inline cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s) {
  for (const std::function<void()> &fn : x->work) sa_emu_submit(s, fn);
  return cudaSuccess;
}
inline cudaError_t cudaGraphDestroy(cudaGraph_t g) {
  delete g;
  return cudaSuccess;
}
inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x) {
  delete x;
  return cudaSuccess;
}
'''

EDITS = [
    ("graphs record captured work and replay it", GRAPHS_SYNC, GRAPHS_DEFERRED),
    ("includes",
     "#include <cstring>\n",
     "#include <cstring>\n#include <deque>\n#include <functional>\n#include <map>\n"
     "#include <memory>\n#include <tuple>\n#include <vector>\n"),
    ("queues after the handle types",
     "typedef struct sa_emu_event_ *cudaEvent_t;\n",
     "typedef struct sa_emu_event_ *cudaEvent_t;\n" + QUEUES),
    ("cudaFree waits for the device",
     'inline cudaError_t cudaFree(void *p) { return sa_emu_free(p, 1, "cudaFree of a non-allocation"); }',
     'inline cudaError_t cudaFree(void *p) {\n  sa_emu_flush_all();\n'
     '  return sa_emu_free(p, 1, "cudaFree of a non-allocation");\n}'),
    ("stream-ordered allocation: usable once its stream reaches it, freed when its stream does",
     "template <typename T>\n"
     "cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t) {\n"
     "  *p = (T *)sa_emu_alloc(n, 1);\n"
     "  return *p ? cudaSuccess : cudaErrorMemoryAllocation;\n}\n"
     "inline cudaError_t cudaFreeAsync(void *p, cudaStream_t) {\n"
     "  if (!p) sa_emu_fail(\"cudaFreeAsync of a null pointer (not documented as a no-op)\");\n"
     "  return sa_emu_free(p, 1, \"cudaFreeAsync of a non-allocation\");\n}",
     "template <typename T>\n"
     "cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t s) {\n"
     "  void *m = malloc(n ? n : 1);\n"
     "  if (!m) return cudaErrorMemoryAllocation;\n"
     "  *p = (T *)m;  // the address is known at once; the memory is device memory only\n"
     "  sa_emu_submit(s, [=] { sa_emu_blocks_[sa_emu_slot()] = sa_emu_block{(uintptr_t)m, n, 1}; });\n"
     "  return cudaSuccess;\n}\n"
     "inline cudaError_t cudaFreeAsync(void *p, cudaStream_t s) {\n"
     "  if (!p) sa_emu_fail(\"cudaFreeAsync of a null pointer (not documented as a no-op)\");\n"
     "  sa_emu_submit(s, [=] { sa_emu_free(p, 1, \"cudaFreeAsync of a non-allocation\"); });\n"
     "  return cudaSuccess;\n}"),
    ("cudaFreeHost waits for the device",
     "inline cudaError_t cudaFreeHost(void *p) {\n  return",
     "inline cudaError_t cudaFreeHost(void *p) {\n  sa_emu_flush_all();\n  return"),
    ("cudaMemcpy body becomes the deferred work",
     "inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {\n"
     "  if (n == 0) return cudaSuccess;",
     "inline cudaError_t sa_emu_memcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {\n"
     "  if (n == 0) return cudaSuccess;"),
    ("cudaMemcpy and cudaMemcpyAsync submit it",
     "inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,\n"
     "                                   cudaStream_t = 0) {\n"
     "  return cudaMemcpy(dst, src, n, kind);\n}",
     "inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {\n"
     "  sa_emu_submit(0, [=] { sa_emu_memcpy(dst, src, n, kind); });\n  return cudaSuccess;\n}\n"
     "inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,\n"
     "                                   cudaStream_t s = 0) {\n"
     "  if (sa_emu_async(s) || n == 0) {\n"
     "    sa_emu_submit(s, [=] { sa_emu_memcpy(dst, src, n, kind); });\n"
     "    return cudaSuccess;\n  }\n"
     "  // The program's own copy on the legacy stream runs later, in stream order, except\n"
     "  // that a pageable source is staged now (the runtime copies it before returning);\n"
     "  // from page-locked memory the source is read only when the copy runs.\n"
     "  bool from_host = kind == cudaMemcpyHostToDevice ||\n"
     "                   (kind == cudaMemcpyDefault && !sa_emu_is_dev(src));\n"
     "  bool to_host = kind == cudaMemcpyDeviceToHost || (kind == cudaMemcpyDefault && !sa_emu_is_dev(dst));\n"
     "  if (kind == cudaMemcpyHostToHost || (from_host && to_host)) {\n"
     "    sa_emu_submit(0, [=] { sa_emu_memcpy(dst, src, n, kind); });\n"
     "    return cudaSuccess;\n  }\n"
     "  if (from_host && !sa_emu_locked(src, n)) {\n"
     "    auto staged = std::make_shared<std::vector<unsigned char>>(\n"
     "        (const unsigned char *)src, (const unsigned char *)src + n);\n"
     "    sa_emu_submit_legacy([=] { sa_emu_memcpy(dst, staged->data(), n, kind); });\n"
     "  } else {\n"
     "    sa_emu_submit_legacy([=] { sa_emu_memcpy(dst, src, n, kind); });\n  }\n"
     "  return cudaSuccess;\n}"),
    ("cudaMemcpy2DAsync is queued as one piece of work",
     "                                     size_t width, size_t height, cudaMemcpyKind kind,\n"
     "                                     cudaStream_t = 0) {\n"
     "  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);",
     "                                     size_t width, size_t height, cudaMemcpyKind kind,\n"
     "                                     cudaStream_t s = 0) {\n"
     "  sa_emu_submit(s, [=] {\n"
     "    for (size_t r = 0; r < height; ++r)\n"
     "      sa_emu_memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);\n"
     "  });\n  return cudaSuccess;"),
    ("cudaMemset and cudaMemsetAsync",
     "inline cudaError_t cudaMemset(void *p, int v, size_t n) {\n"
     "  if (n == 0) return cudaSuccess;\n"
     "  sa_emu_dev_range(p, n, \"cudaMemset: not a device range\");\n"
     "  memset(p, v, n);\n  return cudaSuccess;\n}\n"
     "inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t = 0) {\n"
     "  return cudaMemset(p, v, n);\n}",
     "inline cudaError_t sa_emu_memset(void *p, int v, size_t n) {\n"
     "  if (n == 0) return cudaSuccess;\n"
     "  sa_emu_dev_range(p, n, \"cudaMemset: not a device range\");\n"
     "  memset(p, v, n);\n  return cudaSuccess;\n}\n"
     "inline cudaError_t cudaMemset(void *p, int v, size_t n) {\n"
     "  sa_emu_submit(0, [=] { sa_emu_memset(p, v, n); });\n  return cudaSuccess;\n}\n"
     "inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s = 0) {\n"
     "  sa_emu_submit(s, [=] { sa_emu_memset(p, v, n); });\n  return cudaSuccess;\n}"),
    ("symbol copy bodies become the deferred work (to)",
     "cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n, size_t off = 0,\n"
     "                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {",
     "cudaError_t sa_emu_to_symbol(T &sym, const void *src, size_t n, size_t off = 0,\n"
     "                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {"),
    ("symbol copy bodies become the deferred work (from)",
     "cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,\n"
     "                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {",
     "cudaError_t sa_emu_from_symbol(void *dst, const T &sym, size_t n, size_t off = 0,\n"
     "                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {"),
    ("symbol copies submit it",
     "template <typename T>\n"
     "cudaError_t cudaMemcpyToSymbolAsync(T &sym, const void *src, size_t n, size_t off,\n"
     "                                    cudaMemcpyKind kind, cudaStream_t = 0) {\n"
     "  return cudaMemcpyToSymbol(sym, src, n, off, kind);\n}\n"
     "template <typename T>\n"
     "cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &sym, size_t n, size_t off,\n"
     "                                      cudaMemcpyKind kind, cudaStream_t = 0) {\n"
     "  return cudaMemcpyFromSymbol(dst, sym, n, off, kind);\n}",
     "template <typename T>\n"
     "cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n, size_t off = 0,\n"
     "                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {\n"
     "  T *ps = &sym;\n"
     "  sa_emu_submit(0, [=] { sa_emu_to_symbol(*ps, src, n, off, kind); });\n"
     "  return cudaSuccess;\n}\n"
     "template <typename T>\n"
     "cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,\n"
     "                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {\n"
     "  const T *ps = &sym;\n"
     "  sa_emu_submit(0, [=] { sa_emu_from_symbol(dst, *ps, n, off, kind); });\n"
     "  return cudaSuccess;\n}\n"
     "template <typename T>\n"
     "cudaError_t cudaMemcpyToSymbolAsync(T &sym, const void *src, size_t n, size_t off,\n"
     "                                    cudaMemcpyKind kind, cudaStream_t s = 0) {\n"
     "  T *ps = &sym;\n"
     "  sa_emu_submit(s, [=] { sa_emu_to_symbol(*ps, src, n, off, kind); });\n"
     "  return cudaSuccess;\n}\n"
     "template <typename T>\n"
     "cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &sym, size_t n, size_t off,\n"
     "                                      cudaMemcpyKind kind, cudaStream_t s = 0) {\n"
     "  const T *ps = &sym;\n"
     "  sa_emu_submit(s, [=] { sa_emu_from_symbol(dst, *ps, n, off, kind); });\n"
     "  return cudaSuccess;\n}"),
    ("stream synchronisation runs the stream",
     "inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }",
     "inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {\n"
     "  sa_emu_run_stream(sa_emu_async(s) ? s : 0);\n  return cudaSuccess;\n}"),
    ("a stream waits for the latest record of the event",
     "inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int = 0) {\n"
     "  return cudaSuccess;\n}",
     "inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int = 0) {\n"
     "  auto it = sa_emu_latest_.find(e);\n"
     "  if (it == sa_emu_latest_.end() || !sa_emu_record_stream_.count(it->second))\n"
     "    return cudaSuccess;\n"
     "  if (sa_emu_async(s)) sa_emu_q(s).push_back({2, it->second, nullptr});\n"
     "  else sa_emu_until_record(it->second);\n  return cudaSuccess;\n}"),
    ("events are records in their stream",
     "inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0) { return cudaSuccess; }\n"
     "inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }",
     "inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) {\n"
     "  long seq = ++sa_emu_seq_;\n  sa_emu_latest_[e] = seq;\n"
     "  if (sa_emu_async(s)) {\n    sa_emu_record_stream_[seq] = s;\n"
     "    sa_emu_q(s).push_back({1, seq, nullptr});\n"
     "  } else {\n    sa_emu_flush_all();\n  }\n  return cudaSuccess;\n}\n"
     "inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {\n"
     "  auto it = sa_emu_latest_.find(e);\n"
     "  if (it != sa_emu_latest_.end()) sa_emu_until_record(it->second);\n"
     "  return cudaSuccess;\n}"),
    ("device synchronisation and reset run everything",
     "inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }\n"
     "inline cudaError_t cudaDeviceReset() { return cudaSuccess; }",
     "inline cudaError_t cudaDeviceSynchronize() {\n  sa_emu_flush_all();\n  return cudaSuccess;\n}\n"
     "inline cudaError_t cudaDeviceReset() {\n  sa_emu_flush_all();\n  return cudaSuccess;\n}"),
    ("a launch configuration keeps its stream",
     "struct sa_emu_cfg {\n  dim3 g, b;\n"
     "  sa_emu_cfg(dim3 g_, dim3 b_, size_t = 0, cudaStream_t = 0) : g(g_), b(b_) {}\n};",
     "struct sa_emu_cfg {\n  dim3 g, b;\n  cudaStream_t s;\n"
     "  sa_emu_cfg(dim3 g_, dim3 b_, size_t = 0, cudaStream_t s_ = 0) : g(g_), b(b_), s(s_) {}\n};"),
    ("a launch copies its arguments and submits the kernel",
     "template <typename... P, typename... A>\n"
     "void sa_emu_launch(void (*k)(P...), sa_emu_cfg c, A &&...a) {\n"
     "  (sa_emu_kernel_arg(a), ...);",
     "template <typename... P, typename... A>\n"
     "void sa_emu_run(void (*k)(P...), sa_emu_cfg c, A... a);\n"
     "template <typename... P, typename... A>\n"
     "void sa_emu_launch(void (*k)(P...), sa_emu_cfg c, A &&...a) {\n"
     "  auto args = std::make_tuple(P(a)...);\n"
     "  auto fn = [=] { std::apply([&](auto... x) { sa_emu_run(k, c, x...); }, args); };\n"
     "  // a kernel on the legacy stream does not block the host either\n"
     "  if (sa_emu_async(c.s)) sa_emu_submit(c.s, fn);\n"
     "  else sa_emu_submit_legacy(fn);\n"
     "}\n"
     "template <typename... P, typename... A>\n"
     "void sa_emu_run(void (*k)(P...), sa_emu_cfg c, A... a) {\n"
     "  (sa_emu_kernel_arg(a), ...);"),
]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = open(SOURCE).read()
    for what, old, new in EDITS:
        if text.count(old) != 1:
            print("derive.py: emu/cuda_runtime.h changed; this edit no longer applies: " + what,
                  file=sys.stderr)
            return 1
        text = text.replace(old, new)
    text = ("// GENERATED by fuzz/emu-defer/derive.py from fuzz/emu/cuda_runtime.h: the deferred\n"
            "// emulation (see derive.py). Do not edit.\n") + text
    os.makedirs(sys.argv[1], exist_ok=True)
    with open(os.path.join(sys.argv[1], "cuda_runtime.h"), "w") as fh:
        fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
