// memset_symbols: a filter-bank scan of a 16M-sample signal. For each of 12 bands the
// host designs a 127-tap band-pass filter and copies it into __constant__ memory with
// cudaMemcpyToSymbol, resets a __device__ counter (cudaMemcpyToSymbol) and a histogram
// (cudaMemset), runs the filter (which also counts samples above a threshold and bins
// the output), reads the counter back with cudaMemcpyFromSymbol and downloads the
// histogram and the filtered signal, whose energy the host computes and spot-checks.
//
// Pattern: cudaMemset and symbol copies (__constant__ and __device__ variables).
// Overlap in principle: the host post-processing of band p (energy of 16M samples) and
// the download of band p can run while band p+1 is designed and filtered, if the
// filtered signal and histogram are double-buffered; the symbol updates for band p+1
// must stay ordered after band p's kernel (they overwrite what it reads).
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
  float *h_signal = (float *)malloc(N * sizeof(float));
  float *h_out = (float *)malloc(N * sizeof(float));
  unsigned int h_hist[NBINS];
  make_signal(h_signal, N);

  float *d_signal, *d_out;
  unsigned int *d_hist;
  CHECK(cudaMalloc(&d_signal, N * sizeof(float)));
  CHECK(cudaMalloc(&d_out, N * sizeof(float)));
  CHECK(cudaMalloc(&d_hist, NBINS * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_signal, h_signal, N * sizeof(float), cudaMemcpyHostToDevice));

  const int blocks = (N + THREADS - 1) / THREADS;
  int bad = 0;
  unsigned long long total_above = 0;
  for (int p = 0; p < BANDS; ++p) {
    float taps[TAPS];
    make_filter(taps, p);
    const unsigned long long zero = 0;
    CHECK(cudaMemcpyToSymbol(c_taps, taps, sizeof(taps)));
    CHECK(cudaMemcpyToSymbol(d_above, &zero, sizeof(zero)));
    CHECK(cudaMemset(d_hist, 0, NBINS * sizeof(unsigned int)));
    bandpass<<<blocks, THREADS>>>(d_signal, d_out, d_hist, N, THRESHOLD);
    CHECK(cudaGetLastError());
    unsigned long long above;
    CHECK(cudaMemcpyFromSymbol(&above, d_above, sizeof(above)));
    CHECK(cudaMemcpy(h_hist, d_hist, sizeof(h_hist), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));

    double energy = 0.0;
    for (int i = 0; i < N; ++i) energy += (double)h_out[i] * h_out[i];
    unsigned long long binned = 0;
    int mode = 0;
    for (int b = 0; b < NBINS; ++b) {
      binned += h_hist[b];
      if (h_hist[b] > h_hist[mode]) mode = b;
    }
    for (int j = 0; j < 16; ++j) {
      int i = (int)(hash32((uint32_t)(p * 16 + j)) % (uint32_t)N);
      double ref = 0.0;
      for (int k = 0; k < TAPS; ++k) {
        int src = i + k - HALF;
        if (src >= 0 && src < N) ref += (double)taps[k] * h_signal[src];
      }
      if (fabs(ref - h_out[i]) > 1e-4 + 1e-3 * fabs(ref)) ++bad;
    }
    if (binned != (unsigned long long)N) ++bad;
    total_above += above;
    printf("band %2d: energy %.6e above-threshold %8llu histogram-mode %2d\n", p, energy, above,
           mode);
  }
  printf("total above threshold %llu\n", total_above);

  CHECK(cudaFree(d_signal));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_hist));
  free(h_signal);
  free(h_out);
  if (bad) {
    printf("FAILED: %d checks against the CPU reference failed\n", bad);
    return 1;
  }
  printf("memset_symbols: OK\n");
  return 0;
}
