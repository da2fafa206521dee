// memset_symbols (expert asynchronous version): a filter-bank scan of a 16M-sample
// signal. For each of 12 bands the host designs a 127-tap band-pass filter and copies it
// into __constant__ memory with cudaMemcpyToSymbol, resets a __device__ counter
// (cudaMemcpyToSymbol) and a histogram (cudaMemset), runs the filter (which also counts
// samples above a threshold and bins the output), reads the counter back with
// cudaMemcpyFromSymbol and downloads the histogram and the filtered signal, whose energy
// the host computes and spot-checks.
//
// Hand-written asynchronous version: everything runs in order on one stream (so each
// symbol update stays behind the kernel that read the previous value), with the
// asynchronous forms cudaMemcpyToSymbolAsync / cudaMemcpyFromSymbolAsync /
// cudaMemsetAsync from pinned memory. The filtered signal, histogram, counter and taps
// are double-buffered on the host (pinned) and the output and histogram on the device,
// and the host queues band p+1 before it post-processes band p.
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

#define TAPS 127
#define HALF (TAPS / 2)
#define THREADS 256
#define NBINS 64

static const int N = 1 << 24;
static const int BANDS = 12;
static const float THRESHOLD = 0.2f;

__constant__ float c_taps[TAPS];
__device__ unsigned long long d_above;

// out[i] = sum_k taps[k] * in[i + k - HALF] (zero outside the signal)
__global__ void bandpass(const float *in, float *out, unsigned int *hist, int n, float thr) {
  __shared__ float tile[THREADS + TAPS - 1];
  __shared__ unsigned int sh_hist[NBINS];
  __shared__ unsigned int sh_above;
  const int t = threadIdx.x;
  const int base = blockIdx.x * THREADS;
  for (int k = t; k < THREADS + TAPS - 1; k += THREADS) {
    int src = base + k - HALF;
    tile[k] = (src >= 0 && src < n) ? in[src] : 0.0f;
  }
  if (t < NBINS) sh_hist[t] = 0;
  if (t == 0) sh_above = 0;
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < TAPS; ++k) acc += c_taps[k] * tile[t + k];
  const int i = base + t;
  if (i < n) {
    out[i] = acc;
    if (fabsf(acc) > thr) atomicAdd(&sh_above, 1u);
    int bin = (int)((acc + 1.0f) * (NBINS / 2));
    bin = bin < 0 ? 0 : (bin >= NBINS ? NBINS - 1 : bin);
    atomicAdd(&sh_hist[bin], 1u);
  }
  __syncthreads();
  if (t < NBINS && sh_hist[t]) atomicAdd(&hist[t], sh_hist[t]);
  if (t == 0 && sh_above) atomicAdd(&d_above, (unsigned long long)sh_above);
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static void make_signal(float *s, int n) {
  const double PI = 3.14159265358979323846;
  float t1[1009], t2[211];
  for (int i = 0; i < 1009; ++i) t1[i] = (float)sin(2.0 * PI * 50.0 * i / 1009.0);
  for (int i = 0; i < 211; ++i) t2[i] = (float)sin(2.0 * PI * 40.0 * i / 211.0);
  for (int i = 0; i < n; ++i) {
    float noise = (float)(hash32((uint32_t)i) >> 8) * (1.0f / 16777216.0f) - 0.5f;
    s[i] = 0.5f * t1[i % 1009] + 0.3f * t2[i % 211] + 0.5f * noise;
  }
}

// Windowed-sinc band-pass filter for band p.
static void make_filter(float *taps, int p) {
  const double PI = 3.14159265358979323846;
  const double f1 = 0.005 + 0.035 * p, f2 = f1 + 0.02;
  for (int k = 0; k < TAPS; ++k) {
    double m = k - HALF;
    double lp2 = (m == 0) ? 2 * f2 : sin(2 * PI * f2 * m) / (PI * m);
    double lp1 = (m == 0) ? 2 * f1 : sin(2 * PI * f1 * m) / (PI * m);
    double window = 0.5 - 0.5 * cos(2 * PI * k / (TAPS - 1));
    taps[k] = (float)((lp2 - lp1) * window);
  }
}

int main() {
  const int SLOTS = 2;
  float *h_signal = (float *)malloc(N * sizeof(float));
  make_signal(h_signal, N);
  float *h_out[SLOTS], *h_taps[SLOTS], *d_out[SLOTS];
  unsigned int *h_hist[SLOTS], *d_hist[SLOTS];
  unsigned long long *h_above, *h_zero; // h_above[SLOTS]
  CHECK(cudaMallocHost(&h_above, SLOTS * sizeof(unsigned long long)));
  CHECK(cudaMallocHost(&h_zero, sizeof(unsigned long long)));
  *h_zero = 0;
  cudaEvent_t done[SLOTS];
  for (int s = 0; s < SLOTS; ++s) {
    CHECK(cudaMallocHost(&h_out[s], N * sizeof(float)));
    CHECK(cudaMallocHost(&h_taps[s], TAPS * sizeof(float)));
    CHECK(cudaMallocHost(&h_hist[s], NBINS * sizeof(unsigned int)));
    CHECK(cudaMalloc(&d_out[s], N * sizeof(float)));
    CHECK(cudaMalloc(&d_hist[s], NBINS * sizeof(unsigned int)));
    CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
  }
  float *d_signal;
  CHECK(cudaMalloc(&d_signal, N * sizeof(float)));
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  // One upload of the signal from pageable memory (pinning it for one copy does not pay).
  CHECK(cudaMemcpyAsync(d_signal, h_signal, N * sizeof(float), cudaMemcpyHostToDevice, st));

  const int blocks = (N + THREADS - 1) / THREADS;
  auto enqueue = [&](int p) {
    const int s = p % SLOTS; // slot s was post-processed (band p-2) before this call
    make_filter(h_taps[s], p);
    CHECK(cudaMemcpyToSymbolAsync(c_taps, h_taps[s], TAPS * sizeof(float), 0,
                                  cudaMemcpyHostToDevice, st));
    CHECK(cudaMemcpyToSymbolAsync(d_above, h_zero, sizeof(unsigned long long), 0,
                                  cudaMemcpyHostToDevice, st));
    CHECK(cudaMemsetAsync(d_hist[s], 0, NBINS * sizeof(unsigned int), st));
    bandpass<<<blocks, THREADS, 0, st>>>(d_signal, d_out[s], d_hist[s], N, THRESHOLD);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyFromSymbolAsync(&h_above[s], d_above, sizeof(unsigned long long), 0,
                                    cudaMemcpyDeviceToHost, st));
    CHECK(cudaMemcpyAsync(h_hist[s], d_hist[s], NBINS * sizeof(unsigned int),
                          cudaMemcpyDeviceToHost, st));
    CHECK(cudaMemcpyAsync(h_out[s], d_out[s], N * sizeof(float), cudaMemcpyDeviceToHost, st));
    CHECK(cudaEventRecord(done[s], st));
  };

  int bad = 0;
  unsigned long long total_above = 0;
  enqueue(0);
  for (int p = 0; p < BANDS; ++p) {
    if (p + 1 < BANDS) enqueue(p + 1);
    const int s = p % SLOTS;
    CHECK(cudaEventSynchronize(done[s]));
    const float *out = h_out[s], *taps = h_taps[s];
    const unsigned int *hist = h_hist[s];
    const unsigned long long above = h_above[s];
    double energy = 0.0;
    for (int i = 0; i < N; ++i) energy += (double)out[i] * out[i];
    unsigned long long binned = 0;
    int mode = 0;
    for (int b = 0; b < NBINS; ++b) {
      binned += hist[b];
      if (hist[b] > hist[mode]) mode = b;
    }
    for (int j = 0; j < 16; ++j) {
      int i = (int)(hash32((uint32_t)(p * 16 + j)) % (uint32_t)N);
      double ref = 0.0;
      for (int k = 0; k < TAPS; ++k) {
        int src = i + k - HALF;
        if (src >= 0 && src < N) ref += (double)taps[k] * h_signal[src];
      }
      if (fabs(ref - out[i]) > 1e-4 + 1e-3 * fabs(ref)) ++bad;
    }
    if (binned != (unsigned long long)N) ++bad;
    total_above += above;
    printf("band %2d: energy %.6e above-threshold %8llu histogram-mode %2d\n", p, energy, above,
           mode);
  }
  printf("total above threshold %llu\n", total_above);

  CHECK(cudaStreamSynchronize(st));
  CHECK(cudaStreamDestroy(st));
  for (int s = 0; s < SLOTS; ++s) {
    CHECK(cudaEventDestroy(done[s]));
    CHECK(cudaFree(d_out[s]));
    CHECK(cudaFree(d_hist[s]));
    CHECK(cudaFreeHost(h_out[s]));
    CHECK(cudaFreeHost(h_taps[s]));
    CHECK(cudaFreeHost(h_hist[s]));
  }
  CHECK(cudaFreeHost(h_above));
  CHECK(cudaFreeHost(h_zero));
  CHECK(cudaFree(d_signal));
  free(h_signal);
  if (bad) {
    printf("FAILED: %d checks against the CPU reference failed\n", bad);
    return 1;
  }
  printf("memset_symbols: OK\n");
  return 0;
}
