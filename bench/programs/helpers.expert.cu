// helpers (expert asynchronous version): a parameter study of a population model. For
// each of 8 datasets of 4M parameter sets (growth rate r, harvesting rate h, initial
// population x0) the GPU integrates dx/dt = r x (1 - x) - h x (logistic growth with
// harvesting) with 2000 midpoint steps per sample. The GPU work sits in small helper
// functions (gpu_submit, gpu_fetch); the caller does the host work: it makes the
// dataset, integrates a subset of the samples on the CPU as a reference, and summarises
// the results.
//
// Hand-written asynchronous version: the helpers take a stream and return without
// waiting; gpu_fetch queues the download and records an event that the caller waits on
// just before it reads the results. Two slots (pinned buffers, device buffers, stream)
// let the caller make dataset d and integrate its reference while dataset d-1 finishes
// on the GPU, and summarise dataset d-1 while dataset d is on the GPU.
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

static const size_t SAMPLES = (size_t)1 << 22;
static const int NUM_DATASETS = 8;
static const int ODE_STEPS = 2000;
static const float ODE_DT = 0.01f;
static const int REF_STRIDE = 4096; // every REF_STRIDE-th sample is integrated on the CPU

__host__ __device__ inline float growth(float x, float r, float h) {
  return r * x * (1.0f - x) - h * x;
}

__host__ __device__ inline float integrate(float r, float h, float x) {
  for (int k = 0; k < ODE_STEPS; ++k) {
    float mid = x + 0.5f * ODE_DT * growth(x, r, h);
    x = x + ODE_DT * growth(mid, r, h);
    x = x < 0.0f ? 0.0f : x;
  }
  return x;
}

// params: r[0..n), h[n..2n), x0[2n..3n)
__global__ void integrate_all(const float *params, float *out, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = integrate(params[i], params[n + i], params[2 * n + i]);
}

struct DeviceWork {
  float *d_params;
  float *d_out;
  size_t n;
  cudaStream_t stream;
  cudaEvent_t fetched;
};

static void gpu_setup(DeviceWork &w, size_t n) {
  w.n = n;
  CHECK(cudaMalloc(&w.d_params, 3 * n * sizeof(float)));
  CHECK(cudaMalloc(&w.d_out, n * sizeof(float)));
  CHECK(cudaStreamCreateWithFlags(&w.stream, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&w.fetched, cudaEventDisableTiming));
}

// h_params must be pinned and stay unchanged until the work's event has completed.
static void gpu_submit(DeviceWork &w, const float *h_params) {
  CHECK(cudaMemcpyAsync(w.d_params, h_params, 3 * w.n * sizeof(float), cudaMemcpyHostToDevice,
                        w.stream));
  integrate_all<<<(unsigned)((w.n + 255) / 256), 256, 0, w.stream>>>(w.d_params, w.d_out, w.n);
}

// Queues the download; the caller waits on w.fetched before reading h_out (pinned).
static void gpu_fetch(const DeviceWork &w, float *h_out) {
  CHECK(cudaMemcpyAsync(h_out, w.d_out, w.n * sizeof(float), cudaMemcpyDeviceToHost, w.stream));
  CHECK(cudaEventRecord(w.fetched, w.stream));
}

static void gpu_teardown(DeviceWork &w) {
  CHECK(cudaStreamSynchronize(w.stream));
  CHECK(cudaEventDestroy(w.fetched));
  CHECK(cudaStreamDestroy(w.stream));
  CHECK(cudaFree(w.d_params));
  CHECK(cudaFree(w.d_out));
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static void make_dataset(float *params, size_t n, int d) {
  const uint32_t seed = 0x9e3779b9u * (uint32_t)(d + 1);
  for (size_t i = 0; i < n; ++i) {
    uint32_t k = (uint32_t)i * 3u + seed;
    params[i] = 0.5f + 1.5f * (float)(hash32(k) >> 8) * (1.0f / 16777216.0f);
    params[n + i] = 1.2f * (float)(hash32(k + 1) >> 8) * (1.0f / 16777216.0f);
    params[2 * n + i] = 0.05f + 0.9f * (float)(hash32(k + 2) >> 8) * (1.0f / 16777216.0f);
  }
}

// CPU reference for every REF_STRIDE-th sample.
static void reference(const float *params, size_t n, float *ref) {
  for (size_t j = 0; j < n / REF_STRIDE; ++j) {
    size_t i = j * REF_STRIDE;
    ref[j] = integrate(params[i], params[n + i], params[2 * n + i]);
  }
}

struct Summary {
  double mean, stddev, extinct;
  int mismatches;
};

static Summary analyse(const float *out, size_t n, const float *ref) {
  double s = 0.0, s2 = 0.0;
  size_t ext = 0;
  for (size_t i = 0; i < n; ++i) {
    double v = out[i];
    s += v;
    s2 += v * v;
    if (out[i] < 1e-3f) ++ext;
  }
  Summary r;
  r.mean = s / n;
  r.stddev = sqrt(s2 / n - r.mean * r.mean);
  r.extinct = (double)ext / n;
  r.mismatches = 0;
  for (size_t j = 0; j < n / REF_STRIDE; ++j)
    if (fabsf(ref[j] - out[j * REF_STRIDE]) > 1e-5f + 1e-3f * fabsf(ref[j])) ++r.mismatches;
  return r;
}

int main() {
  const int SLOTS = 2;
  const size_t nref = SAMPLES / REF_STRIDE;
  float *h_params[SLOTS], *h_out[SLOTS];
  float *h_ref = (float *)malloc(NUM_DATASETS * nref * sizeof(float));
  DeviceWork work[SLOTS];
  for (int s = 0; s < SLOTS; ++s) {
    CHECK(cudaMallocHost(&h_params[s], 3 * SAMPLES * sizeof(float)));
    CHECK(cudaMallocHost(&h_out[s], SAMPLES * sizeof(float)));
    gpu_setup(work[s], SAMPLES);
  }

  int mismatches = 0;
  double grand = 0.0;
  auto summarise = [&](int d) {
    const int s = d % SLOTS;
    CHECK(cudaEventSynchronize(work[s].fetched));
    Summary r = analyse(h_out[s], SAMPLES, h_ref + d * nref);
    mismatches += r.mismatches;
    grand += r.mean;
    printf("dataset %d: mean %.6f stddev %.6f extinct %.4f\n", d, r.mean, r.stddev,
           r.extinct);
  };

  for (int d = 0; d < NUM_DATASETS; ++d) {
    const int s = d % SLOTS;
    // Slot s held dataset d-2, which was summarised (its event waited for) last iteration.
    make_dataset(h_params[s], SAMPLES, d);
    gpu_submit(work[s], h_params[s]);
    gpu_fetch(work[s], h_out[s]);
    reference(h_params[s], SAMPLES, h_ref + d * nref); // reads inputs only
    if (d > 0) summarise(d - 1);
  }
  summarise(NUM_DATASETS - 1);
  CHECK(cudaGetLastError());

  for (int s = 0; s < SLOTS; ++s) {
    gpu_teardown(work[s]);
    CHECK(cudaFreeHost(h_params[s]));
    CHECK(cudaFreeHost(h_out[s]));
  }
  free(h_ref);
  printf("grand mean %.6f\n", grand / NUM_DATASETS);
  if (mismatches) {
    printf("FAILED: %d samples differ from the CPU integration\n", mismatches);
    return 1;
  }
  printf("helpers: OK\n");
  return 0;
}
