// bench/fixed-costs.cu: the fixed costs of the CUDA calls streamalloc adds or removes, for its
// profitability model (issue 12): per-process first-use costs and per-call host costs, measured
// on the GPU machine with CLOCK_MONOTONIC around each call. Not a benchmark program.
//
//   nvcc -O2 -arch=sm_90 -o fixed-costs bench/fixed-costs.cu
//   ./fixed-costs                     every mode, each in fresh processes (re-runs itself)
//   ./fixed-costs --processes 5       fresh processes per first-use mode (default 3)
//   ./fixed-costs --first MODE        one first-use mode in this process: context, stream,
//                                     event, pool or graph (raw numbers of one process), or
//                                     graphs: the per-call costs of CUDA graphs
//   ./fixed-costs --calls             the per-call costs in this process
//
// A first-use cost is only real as the first such call of a process, so each first-use mode runs
// in a process of its own, doing nothing before its call but creating the context. The default
// invocation is an orchestrator that never touches the GPU itself: it runs the modes as child
// processes of /proc/self/exe, interleaved, and prints for every key the median over the
// processes that reported it. Within a process, a repeated ("later") call is the median of many
// calls. Output: "key value" lines in seconds, and "#" comment lines (the spread of the first-use
// figures over processes). See bench/README.md for what each key measures.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "fixed-costs: CUDA error %s at line %d\n", cudaGetErrorString(err_),         \
              __LINE__);                                                                           \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

static double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double median(std::vector<double> xs) {
  if (xs.empty())
    return 0.0;
  std::sort(xs.begin(), xs.end());
  size_t n = xs.size();
  return n % 2 ? xs[n / 2] : 0.5 * (xs[n / 2 - 1] + xs[n / 2]);
}

static void emit(const char *key, double seconds) { printf("%s %.6e\n", key, seconds); }

// Host times of repeated calls, reported as their median.
struct Samples {
  std::vector<double> times;
  double started = 0;
  void start() { started = now(); }
  void stop() { times.push_back(now() - started); }
  double median() const { return ::median(times); }
};

// The median host time of `reps` back-to-back calls of `call`.
template <typename Call> static double per_call(int reps, Call call) {
  Samples s;
  for (int r = 0; r < reps; ++r) {
    s.start();
    call();
    s.stop();
  }
  return s.median();
}

// Every mode starts here: the first runtime call of the process creates the context (with
// CUDA_MODULE_LOADING=EAGER, as corpus/run and bench/run run programs, it also loads this
// program's one small module).
static void create_context() {
  double t = now();
  CHECK(cudaFree(0));
  emit("context_create_s", now() - t);
}

__global__ void empty_kernel() {}

const size_t MB = (size_t)1 << 20;
const int LATER = 50; // repetitions of a "later" call in a first-use mode

static void first_stream() {
  cudaStream_t first;
  double t = now();
  CHECK(cudaStreamCreate(&first));
  emit("stream_create_first_s", now() - t);
  std::vector<cudaStream_t> later(LATER);
  Samples created, destroyed;
  for (cudaStream_t &s : later) {
    created.start();
    CHECK(cudaStreamCreate(&s));
    created.stop();
  }
  for (cudaStream_t s : later) {
    destroyed.start();
    CHECK(cudaStreamDestroy(s));
    destroyed.stop();
  }
  CHECK(cudaStreamDestroy(first));
  emit("stream_create_s", created.median());
  emit("stream_destroy_s", destroyed.median());
}

static void first_event() {
  cudaEvent_t first;
  double t = now();
  CHECK(cudaEventCreateWithFlags(&first, cudaEventDisableTiming));
  emit("event_create_first_s", now() - t);
  std::vector<cudaEvent_t> later(LATER);
  Samples created, destroyed;
  for (cudaEvent_t &e : later) {
    created.start();
    CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    created.stop();
  }
  for (cudaEvent_t e : later) {
    destroyed.start();
    CHECK(cudaEventDestroy(e));
    destroyed.stop();
  }
  CHECK(cudaEventDestroy(first));
  emit("event_create_s", created.median());
  emit("event_destroy_s", destroyed.median());
}

// Stream-ordered allocation on the legacy stream, so that no stream creation is mixed in.
static void first_pool() {
  void *p = nullptr;
  double t = now();
  CHECK(cudaMallocAsync(&p, MB, 0));
  emit("malloc_async_first_s", now() - t);
  CHECK(cudaFreeAsync(p, 0));
  CHECK(cudaStreamSynchronize(0));
  // After a synchronisation the pool (release threshold 0 by default) may have given its
  // memory back, as in a program that syncs between allocations.
  Samples allocated, freed, reused;
  for (int r = 0; r < LATER; ++r) {
    allocated.start();
    CHECK(cudaMallocAsync(&p, MB, 0));
    allocated.stop();
    freed.start();
    CHECK(cudaFreeAsync(p, 0));
    freed.stop();
    CHECK(cudaStreamSynchronize(0));
  }
  // Without a synchronisation in between, the block just freed is served again by the pool.
  for (int r = 0; r < LATER; ++r) {
    reused.start();
    CHECK(cudaMallocAsync(&p, MB, 0));
    reused.stop();
    CHECK(cudaFreeAsync(p, 0));
  }
  CHECK(cudaStreamSynchronize(0));
  emit("malloc_async_1mb_s", allocated.median());
  emit("malloc_async_1mb_reuse_s", reused.median());
  emit("free_async_1mb_s", freed.median());
}

static void calls() {
  const int reps = 200;
  cudaStream_t s, s2;
  cudaEvent_t e;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  empty_kernel<<<1, 1, 0, s>>>(); // the kernel's first launch is not a per-call cost
  CHECK(cudaStreamSynchronize(s));

  emit("event_record_s", per_call(reps, [&] { CHECK(cudaEventRecord(e, s)); }));
  CHECK(cudaStreamSynchronize(s));
  emit("stream_wait_event_s", per_call(reps, [&] { CHECK(cudaStreamWaitEvent(s2, e, 0)); }));
  CHECK(cudaStreamSynchronize(s2));
  emit("stream_sync_idle_s", per_call(reps, [&] { CHECK(cudaStreamSynchronize(s)); }));
  emit("event_sync_done_s", per_call(reps, [&] { CHECK(cudaEventSynchronize(e)); }));
  Samples launch;
  for (int r = 0; r < 5 * reps; ++r) {
    launch.start();
    empty_kernel<<<1, 1, 0, s>>>();
    launch.stop();
    if (r % 64 == 63) // keep the launch queue short: a full one blocks the host
      CHECK(cudaStreamSynchronize(s));
  }
  emit("launch_empty_s", launch.median());
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  emit("device_sync_idle_s", per_call(reps, [&] { CHECK(cudaDeviceSynchronize()); }));

  const struct {
    const char *malloc_key, *free_key;
    size_t bytes;
    int reps;
  } sizes[] = {{"malloc_1mb_s", "free_1mb_s", MB, 50},
               {"malloc_256mb_s", "free_256mb_s", 256 * MB, 10}};
  for (const auto &z : sizes) {
    Samples allocated, freed;
    for (int r = 0; r < z.reps; ++r) {
      void *d = nullptr;
      allocated.start();
      CHECK(cudaMalloc(&d, z.bytes));
      allocated.stop();
      freed.start();
      CHECK(cudaFree(d));
      freed.stop();
    }
    emit(z.malloc_key, allocated.median());
    emit(z.free_key, freed.median());
  }

  char *host = (char *)malloc(8); // pageable
  memset(host, 1, 8);
  void *dev = nullptr;
  CHECK(cudaMalloc(&dev, 8));
  emit("memcpy_h2d_8b_pageable_s",
       per_call(reps, [&] { CHECK(cudaMemcpy(dev, host, 8, cudaMemcpyHostToDevice)); }));
  Samples async_copy; // each call finds the stream idle, as the synchronous copy does
  for (int r = 0; r < reps; ++r) {
    async_copy.start();
    CHECK(cudaMemcpyAsync(dev, host, 8, cudaMemcpyHostToDevice, s));
    async_copy.stop();
    CHECK(cudaStreamSynchronize(s));
  }
  emit("memcpy_async_h2d_8b_pageable_s", async_copy.median());
  CHECK(cudaFree(dev));
  free(host);
  CHECK(cudaEventDestroy(e));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(s2));
}

// A kernel a launch-bound loop is made of: one block, a few hundred nanoseconds of work.
__global__ void tiny_kernel(float *p) { p[threadIdx.x] = p[threadIdx.x] * 0.5f + 1.0f; }

// Captures `nodes` launches of tiny_kernel on `s` into a graph.
static cudaGraph_t capture_tiny(cudaStream_t s, float *d, int nodes) {
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < nodes; ++i)
    tiny_kernel<<<1, 32, 0, s>>>(d);
  CHECK(cudaStreamEndCapture(s, &g));
  return g;
}

// The first graph of a process: capture and instantiation of a 4-node graph.
static void first_graph() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  float *d;
  CHECK(cudaMalloc(&d, 32 * sizeof(float)));
  empty_kernel<<<1, 1, 0, s>>>();
  tiny_kernel<<<1, 32, 0, s>>>(d);
  CHECK(cudaStreamSynchronize(s));
  double t = now();
  cudaGraph_t g = capture_tiny(s, d, 4);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  emit("graph_capture_instantiate_first_s", now() - t);
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaFree(d));
  CHECK(cudaStreamDestroy(s));
}

// Per-call costs of replaying a launch sequence as a graph, and the device time per kernel of
// a launch-bound sequence with and without one. Keys end in _n4, _n16, _n64: nodes per graph.
static void graph_calls() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  float *d;
  CHECK(cudaMalloc(&d, 32 * sizeof(float)));
  CHECK(cudaMemset(d, 0, 32 * sizeof(float)));
  tiny_kernel<<<1, 32, 0, s>>>(d);
  CHECK(cudaStreamSynchronize(s));
  cudaGraphExec_t warm; // the process's first instantiation is not a per-call cost
  cudaGraph_t wg = capture_tiny(s, d, 4);
  CHECK(cudaGraphInstantiate(&warm, wg, 0));
  CHECK(cudaGraphExecDestroy(warm));
  CHECK(cudaGraphDestroy(wg));
  const int reps = 50;
  for (int nodes : {4, 16, 64}) {
    std::string suffix = "_n" + std::to_string(nodes) + "_s";
    Samples captured, instantiated, updated, destroyed;
    cudaGraphExec_t x = nullptr;
    for (int r = 0; r < reps; ++r) {
      captured.start();
      cudaGraph_t g = capture_tiny(s, d, nodes);
      captured.stop();
      if (r == 0) {
        instantiated.start();
        CHECK(cudaGraphInstantiate(&x, g, 0));
        instantiated.stop();
      } else {
        cudaGraphExecUpdateResultInfo info;
        updated.start();
        CHECK(cudaGraphExecUpdate(x, g, &info));
        updated.stop();
        cudaGraphExec_t y;
        instantiated.start();
        CHECK(cudaGraphInstantiate(&y, g, 0));
        instantiated.stop();
        destroyed.start();
        CHECK(cudaGraphExecDestroy(y));
        destroyed.stop();
      }
      CHECK(cudaGraphDestroy(g));
    }
    emit(("graph_capture" + suffix).c_str(), captured.median());
    emit(("graph_instantiate" + suffix).c_str(), instantiated.median());
    emit(("graph_exec_update" + suffix).c_str(), updated.median());
    emit(("graph_exec_destroy" + suffix).c_str(), destroyed.median());
    Samples launched;
    for (int r = 0; r < 4 * reps; ++r) {
      launched.start();
      CHECK(cudaGraphLaunch(x, s));
      launched.stop();
      if (r % 16 == 15)
        CHECK(cudaStreamSynchronize(s));
    }
    CHECK(cudaStreamSynchronize(s));
    emit(("graph_launch" + suffix).c_str(), launched.median());
    // Wall time per kernel of a long launch-bound sequence: stream launches, then graph replays.
    const int kernels = 64 * 256;
    double t = now();
    for (int i = 0; i < kernels; ++i)
      tiny_kernel<<<1, 32, 0, s>>>(d);
    CHECK(cudaStreamSynchronize(s));
    emit(("stream_sequence_per_kernel" + suffix).c_str(), (now() - t) / kernels);
    t = now();
    for (int i = 0; i < kernels / nodes; ++i)
      CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    emit(("graph_sequence_per_kernel" + suffix).c_str(), (now() - t) / kernels);
    CHECK(cudaGraphExecDestroy(x));
  }
  CHECK(cudaFree(d));
  CHECK(cudaStreamDestroy(s));
}

static void nothing_more() {}

// Every mode creates the context first; `context` does nothing else.
static const struct {
  const char *name;
  void (*body)();
  bool first_use; // run once per --processes round by the orchestrator
} MODES[] = {{"context", nothing_more, true},
             {"stream", first_stream, true},
             {"event", first_event, true},
             {"pool", first_pool, true},
             {"graph", first_graph, true},
             {"calls", calls, false},
             {"graphs", graph_calls, false}};

static int run_mode(const std::string &mode) {
  for (const auto &m : MODES)
    if (mode == m.name) {
      create_context();
      m.body();
      return 0;
    }
  fprintf(stderr, "fixed-costs: unknown mode '%s' (context, stream, event, pool, graph, calls, "
                  "graphs)\n",
          mode.c_str());
  return 2;
}

// What the child processes printed.
struct Collected {
  std::vector<std::string> order; // keys as they first appeared
  std::map<std::string, std::vector<double>> values;
};

// Runs `self --first MODE` (or --calls) and adds what it printed to `out`.
static bool run_child(const std::string &self, const std::string &mode, Collected &out) {
  std::string cmd = "'" + self + "' " + (mode == "calls" ? "--calls" : "--first " + mode);
  FILE *p = popen(cmd.c_str(), "r");
  if (!p)
    return false;
  char key[128];
  double value;
  while (fscanf(p, "%127s %lf", key, &value) == 2) {
    std::vector<double> &v = out.values[key];
    if (v.empty())
      out.order.push_back(key);
    v.push_back(value);
  }
  return pclose(p) == 0;
}

static int orchestrate(int processes) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    fprintf(stderr, "fixed-costs: cannot read /proc/self/exe\n");
    return 2;
  }
  self[n] = '\0';
  Collected samples;
  double t0 = now();
  // Interleaved, so that a drift of the machine spreads over every mode alike.
  for (int r = 0; r <= processes; ++r)
    for (const auto &m : MODES) {
      // the first-use modes `processes` times, then the per-call one once
      if (m.first_use != (r < processes))
        continue;
      if (!run_child(self, m.name, samples)) {
        fprintf(stderr, "fixed-costs: the '%s' process failed\n", m.name);
        return 2;
      }
    }
  const char *loading = getenv("CUDA_MODULE_LOADING");
  printf("# fixed-costs: seconds of host time per call; first-use figures: median over fresh "
         "processes (%d per mode); per-call figures: median of many calls in one process; "
         "CUDA_MODULE_LOADING=%s\n",
         processes, loading ? loading : "(unset: lazy)");
  for (const std::string &k : samples.order)
    emit(k.c_str(), median(samples.values[k]));
  for (const std::string &k : samples.order) {
    const std::vector<double> &v = samples.values[k];
    if (k.find("_first_s") != std::string::npos || k == "context_create_s")
      printf("# %s over %zu processes: min %.6e max %.6e\n", k.c_str(), v.size(),
             *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  }
  printf("# total run time %.1f s\n", now() - t0);
  return 0;
}

int main(int argc, char **argv) {
  int processes = 3;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--first" && i + 1 < argc)
      return run_mode(argv[i + 1]);
    if (a == "--calls")
      return run_mode("calls");
    if (a == "--processes" && i + 1 < argc) {
      processes = atoi(argv[++i]);
      continue;
    }
    fprintf(stderr, "usage: %s [--processes N] | --first context|stream|event|pool|graph|graphs | "
                    "--calls\n",
            argv[0]);
    return 2;
  }
  return orchestrate(processes < 1 ? 1 : processes);
}
