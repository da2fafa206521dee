// batch_stream: a signal-processing service. A long recording is streamed through the
// GPU in batches of 4M samples: per batch the host acquires the samples (with the
// filter's history), uploads them, the GPU runs a 1024-tap FIR low-pass filter with a
// per-block energy sum and adds the filtered values to a running histogram, the
// filtered batch comes back and the host counts peaks and spot-checks a few outputs
// against a CPU FIR.
//
// Pattern: streaming batches (H2D -> kernel -> D2H -> host post-processing per batch).
// Overlap in principle: acquisition of batch b+1 and post-processing of batch b-1 on
// the host, the upload of b+1 and download of b-1 on the copy engines, and the
// filtering of b on the GPU can all run at once (with two sets of buffers).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define TAPS 1024
#define FIR_THREADS 256
#define NBINS 256

static const int BATCH = 1 << 22;       // samples per batch
static const int NUM_BATCHES = 48;
static const long RECORDING = 1L << 24; // samples in the (looped) recording
static const float PEAK_THRESHOLD = 0.5f;

// out[i] = sum_k taps[k] * in[i + TAPS - 1 - k]; part[block] = sum of out^2 in the block.
__global__ void fir_energy(const float *in, const float *taps, float *out, float *part) {
  __shared__ float s_in[FIR_THREADS + TAPS - 1];
  __shared__ float s_taps[TAPS];
  __shared__ float s_red[FIR_THREADS];
  const int base = blockIdx.x * FIR_THREADS;
  const int t = threadIdx.x;
  for (int k = t; k < FIR_THREADS + TAPS - 1; k += FIR_THREADS) s_in[k] = in[base + k];
  for (int k = t; k < TAPS; k += FIR_THREADS) s_taps[k] = taps[k];
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < TAPS; ++k) acc += s_taps[k] * s_in[t + TAPS - 1 - k];
  out[base + t] = acc;
  s_red[t] = acc * acc;
  __syncthreads();
  for (int w = FIR_THREADS / 2; w > 0; w /= 2) {
    if (t < w) s_red[t] += s_red[t + w];
    __syncthreads();
  }
  if (t == 0) part[blockIdx.x] = s_red[0];
}

__global__ void histogram_add(const float *v, int n, unsigned int *hist) {
  __shared__ unsigned int sh[NBINS];
  sh[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int bin = (int)((v[i] + 2.0f) * 64.0f);
    bin = bin < 0 ? 0 : (bin >= NBINS ? NBINS - 1 : bin);
    atomicAdd(&sh[bin], 1u);
  }
  __syncthreads();
  if (sh[threadIdx.x]) atomicAdd(&hist[threadIdx.x], sh[threadIdx.x]);
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static void make_recording(float *rec, long n) {
  const double PI = 3.14159265358979323846;
  float t1[997], t2[131];
  for (int i = 0; i < 997; ++i) t1[i] = (float)sin(2.0 * PI * 10.0 * i / 997.0);
  for (int i = 0; i < 131; ++i) t2[i] = (float)sin(2.0 * PI * 3.0 * i / 131.0);
  for (long i = 0; i < n; ++i) {
    float noise = (float)(hash32((uint32_t)i) >> 8) * (1.0f / 16777216.0f) - 0.5f;
    rec[i] = 0.6f * t1[i % 997] + 0.3f * t2[i % 131] + 0.4f * noise;
  }
}

static void make_lowpass(float *taps) {
  const double PI = 3.14159265358979323846;
  const double fc = 0.02; // cut-off, cycles per sample
  double sum = 0.0;
  double tmp[TAPS];
  for (int k = 0; k < TAPS; ++k) {
    double m = k - (TAPS - 1) / 2.0;
    double sinc = (m == 0.0) ? 2.0 * fc : sin(2.0 * PI * fc * m) / (PI * m);
    double window = 0.54 - 0.46 * cos(2.0 * PI * k / (TAPS - 1));
    tmp[k] = sinc * window;
    sum += tmp[k];
  }
  for (int k = 0; k < TAPS; ++k) taps[k] = (float)(tmp[k] / sum);
}

// Copies samples [first, first + count) of the endless (looped) recording.
static void acquire(float *dst, const float *rec, long first, long count) {
  long pos = ((first % RECORDING) + RECORDING) % RECORDING;
  while (count > 0) {
    long chunk = RECORDING - pos < count ? RECORDING - pos : count;
    memcpy(dst, rec + pos, chunk * sizeof(float));
    dst += chunk;
    count -= chunk;
    pos = 0;
  }
}

static long count_peaks(const float *x, int n, float thr) {
  long c = 0;
  for (int i = 1; i < n - 1; ++i)
    if (x[i] > thr && x[i] > x[i - 1] && x[i] >= x[i + 1]) ++c;
  return c;
}

int main() {
  const int in_len = BATCH + TAPS - 1;
  const int blocks = BATCH / FIR_THREADS;
  float *recording = (float *)malloc(RECORDING * sizeof(float));
  make_recording(recording, RECORDING);
  float taps[TAPS];
  make_lowpass(taps);

  float *h_in = (float *)malloc(in_len * sizeof(float));
  float *h_out = (float *)malloc(BATCH * sizeof(float));
  float *h_part = (float *)malloc(blocks * sizeof(float));
  unsigned int h_hist[NBINS];

  float *d_in, *d_out, *d_part, *d_taps;
  unsigned int *d_hist;
  cudaMalloc(&d_in, in_len * sizeof(float));
  cudaMalloc(&d_out, BATCH * sizeof(float));
  cudaMalloc(&d_part, blocks * sizeof(float));
  cudaMalloc(&d_taps, TAPS * sizeof(float));
  cudaMalloc(&d_hist, NBINS * sizeof(unsigned int));
  cudaMemcpy(d_taps, taps, TAPS * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_hist, 0, NBINS * sizeof(unsigned int));

  long total_peaks = 0;
  int bad_samples = 0;
  for (int b = 0; b < NUM_BATCHES; ++b) {
    acquire(h_in, recording, (long)b * BATCH - (TAPS - 1), in_len);
    cudaMemcpy(d_in, h_in, in_len * sizeof(float), cudaMemcpyHostToDevice);
    fir_energy<<<blocks, FIR_THREADS>>>(d_in, d_taps, d_out, d_part);
    histogram_add<<<1024, NBINS>>>(d_out, BATCH, d_hist);
    cudaMemcpy(h_out, d_out, BATCH * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_part, d_part, blocks * sizeof(float), cudaMemcpyDeviceToHost);

    long peaks = count_peaks(h_out, BATCH, PEAK_THRESHOLD);
    double energy = 0.0;
    for (int i = 0; i < blocks; ++i) energy += h_part[i];
    for (int j = 0; j < 4; ++j) { // spot check against a CPU FIR
      int p = (int)(((unsigned)b * 7919u + (unsigned)j * 1000003u) % (unsigned)BATCH);
      double ref = 0.0;
      for (int k = 0; k < TAPS; ++k) ref += (double)taps[k] * h_in[p + TAPS - 1 - k];
      if (fabs(ref - h_out[p]) > 1e-4 + 1e-3 * fabs(ref)) ++bad_samples;
    }
    total_peaks += peaks;
    printf("batch %2d: peaks %ld energy %.6e\n", b, peaks, energy);
  }

  cudaMemcpy(h_hist, d_hist, NBINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  unsigned long long count = 0, acc = 0;
  int mode = 0, median = -1;
  for (int i = 0; i < NBINS; ++i) {
    count += h_hist[i];
    if (h_hist[i] > h_hist[mode]) mode = i;
  }
  for (int i = 0; i < NBINS && median < 0; ++i) {
    acc += h_hist[i];
    if (2 * acc >= count) median = i;
  }
  printf("total peaks %ld, histogram count %llu, median bin %d, mode bin %d\n", total_peaks,
         count, median, mode);

  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_part);
  cudaFree(d_taps);
  cudaFree(d_hist);
  free(recording);
  free(h_in);
  free(h_out);
  free(h_part);
  if (bad_samples || count != (unsigned long long)NUM_BATCHES * BATCH) {
    printf("FAILED: %d spot checks off, histogram count %llu\n", bad_samples, count);
    return 1;
  }
  printf("batch_stream: OK\n");
  return 0;
}
