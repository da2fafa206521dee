// monte_carlo (expert asynchronous version): prices 64 European options by Monte Carlo
// on the GPU (8M paths of 256 log-normal steps each, counter-based random numbers,
// deterministic reductions) and, independently, by a 3000-step binomial tree on the CPU.
// The two prices must agree within the Monte Carlo error.
//
// Hand-written asynchronous version: the option kernels are spread over four streams
// (each kernel fills only part of the GPU), joined by events into one stream that
// downloads the partial sums into pinned memory; the CPU computes all binomial trees
// meanwhile and waits only before it reads the Monte Carlo sums.
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

static const int OPTIONS = 64;
static const int PATHS = 1 << 23;
static const int STEPS = 256;
static const int BLOCKS = 512;
static const int THREADS = 256;
static const int TREE_STEPS = 3000;

struct Option {
  float s0, strike, rate, vol, expiry;
  int is_call;
};

__host__ __device__ inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// One option: each thread simulates PATHS / (BLOCKS * THREADS) paths; per-block sums of
// the discounted payoff and its square go to sum[blockIdx.x], sumsq[blockIdx.x].
__global__ void mc_option(Option opt, int index, double *sum, double *sumsq) {
  __shared__ double s1[THREADS], s2[THREADS];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int per_thread = PATHS / (BLOCKS * THREADS);
  const float dt = opt.expiry / STEPS;
  const float drift = (opt.rate - 0.5f * opt.vol * opt.vol) * dt;
  const float diffusion = opt.vol * sqrtf(dt);
  const float discount = expf(-opt.rate * opt.expiry);
  double a1 = 0.0, a2 = 0.0;
  for (int k = 0; k < per_thread; ++k) {
    const uint32_t path = (uint32_t)(tid * per_thread + k);
    const uint32_t key = hash32(path ^ hash32((uint32_t)index * 0x9e3779b9u + 17u));
    float logs = 0.0f;
    for (int st = 0; st < STEPS; st += 2) {
      uint32_t h1 = hash32(key + (uint32_t)st * 0x85ebca6bu);
      uint32_t h2 = hash32(h1 ^ 0x68e31da4u);
      float u1 = ((h1 >> 8) + 1u) * (1.0f / 16777216.0f); // (0, 1]
      float u2 = (h2 >> 8) * (1.0f / 16777216.0f);
      float r = sqrtf(-2.0f * logf(u1));
      float sn, cs;
      sincospif(2.0f * u2, &sn, &cs);
      logs += drift + diffusion * r * cs;
      logs += drift + diffusion * r * sn;
    }
    float st_price = opt.s0 * expf(logs);
    float payoff = opt.is_call ? fmaxf(st_price - opt.strike, 0.0f)
                               : fmaxf(opt.strike - st_price, 0.0f);
    double v = (double)(discount * payoff);
    a1 += v;
    a2 += v * v;
  }
  s1[threadIdx.x] = a1;
  s2[threadIdx.x] = a2;
  __syncthreads();
  for (int w = THREADS / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) {
      s1[threadIdx.x] += s1[threadIdx.x + w];
      s2[threadIdx.x] += s2[threadIdx.x + w];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    sum[blockIdx.x] = s1[0];
    sumsq[blockIdx.x] = s2[0];
  }
}

static Option make_option(int i) {
  float u[4];
  for (int k = 0; k < 4; ++k)
    u[k] = (float)(hash32((uint32_t)(i * 4 + k) + 4242u) >> 8) * (1.0f / 16777216.0f);
  Option o;
  o.s0 = 100.0f;
  o.strike = 80.0f + 40.0f * u[0];
  o.rate = 0.01f + 0.04f * u[1];
  o.vol = 0.1f + 0.4f * u[2];
  o.expiry = 0.25f + 1.75f * u[3];
  o.is_call = i % 2 == 0;
  return o;
}

// Cox-Ross-Rubinstein binomial tree, European exercise, double precision.
static double binomial(const Option &o, int steps) {
  const double dt = (double)o.expiry / steps;
  const double up = exp((double)o.vol * sqrt(dt)), down = 1.0 / up;
  const double growth = exp((double)o.rate * dt);
  const double p = (growth - down) / (up - down), q = 1.0 - p;
  const double disc = 1.0 / growth;
  double *v = (double *)malloc((steps + 1) * sizeof(double));
  for (int j = 0; j <= steps; ++j) {
    double s = o.s0 * pow(up, j) * pow(down, steps - j);
    v[j] = o.is_call ? fmax(s - o.strike, 0.0) : fmax(o.strike - s, 0.0);
  }
  for (int n = steps - 1; n >= 0; --n)
    for (int j = 0; j <= n; ++j) v[j] = disc * (p * v[j + 1] + q * v[j]);
  double price = v[0];
  free(v);
  return price;
}

int main() {
  const int STREAMS = 4;
  Option opts[OPTIONS];
  for (int i = 0; i < OPTIONS; ++i) opts[i] = make_option(i);
  double *d_sum, *d_sumsq, *h_sum, *h_sumsq;
  CHECK(cudaMalloc(&d_sum, OPTIONS * BLOCKS * sizeof(double)));
  CHECK(cudaMalloc(&d_sumsq, OPTIONS * BLOCKS * sizeof(double)));
  CHECK(cudaMallocHost(&h_sum, OPTIONS * BLOCKS * sizeof(double)));
  CHECK(cudaMallocHost(&h_sumsq, OPTIONS * BLOCKS * sizeof(double)));
  cudaStream_t stream[STREAMS];
  cudaEvent_t joined[STREAMS], home;
  for (int s = 0; s < STREAMS; ++s) {
    CHECK(cudaStreamCreateWithFlags(&stream[s], cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&joined[s], cudaEventDisableTiming));
  }
  CHECK(cudaEventCreateWithFlags(&home, cudaEventDisableTiming));

  for (int i = 0; i < OPTIONS; ++i)
    mc_option<<<BLOCKS, THREADS, 0, stream[i % STREAMS]>>>(opts[i], i, d_sum + i * BLOCKS,
                                                           d_sumsq + i * BLOCKS);
  CHECK(cudaGetLastError());
  for (int s = 1; s < STREAMS; ++s) { // stream 0 downloads after every stream's kernels
    CHECK(cudaEventRecord(joined[s], stream[s]));
    CHECK(cudaStreamWaitEvent(stream[0], joined[s], 0));
  }
  CHECK(cudaMemcpyAsync(h_sum, d_sum, OPTIONS * BLOCKS * sizeof(double), cudaMemcpyDeviceToHost,
                        stream[0]));
  CHECK(cudaMemcpyAsync(h_sumsq, d_sumsq, OPTIONS * BLOCKS * sizeof(double),
                        cudaMemcpyDeviceToHost, stream[0]));
  CHECK(cudaEventRecord(home, stream[0]));

  double tree[OPTIONS]; // CPU work that needs no GPU result
  for (int i = 0; i < OPTIONS; ++i) tree[i] = binomial(opts[i], TREE_STEPS);

  CHECK(cudaEventSynchronize(home));
  int bad = 0;
  double total = 0.0;
  for (int i = 0; i < OPTIONS; ++i) {
    double s = 0.0, s2 = 0.0;
    for (int b = 0; b < BLOCKS; ++b) {
      s += h_sum[i * BLOCKS + b];
      s2 += h_sumsq[i * BLOCKS + b];
    }
    double mean = s / PATHS;
    double stderr_ = sqrt((s2 / PATHS - mean * mean) / PATHS);
    if (fabs(mean - tree[i]) > 5.0 * stderr_ + 0.02) ++bad;
    total += mean;
    if (i % 8 == 0)
      printf("option %2d (%s K=%.2f T=%.2f): mc %.5f +- %.5f  tree %.5f\n", i,
             opts[i].is_call ? "call" : "put ", opts[i].strike, opts[i].expiry, mean, stderr_,
             tree[i]);
  }
  printf("sum of MC prices %.6f\n", total);
  for (int s = 0; s < STREAMS; ++s) {
    CHECK(cudaEventDestroy(joined[s]));
    CHECK(cudaStreamDestroy(stream[s]));
  }
  CHECK(cudaEventDestroy(home));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_sumsq));
  CHECK(cudaFreeHost(h_sum));
  CHECK(cudaFreeHost(h_sumsq));
  if (bad) {
    printf("FAILED: %d options disagree with the binomial tree\n", bad);
    return 1;
  }
  printf("monte_carlo: OK\n");
  return 0;
}
