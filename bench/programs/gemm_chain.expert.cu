// gemm_chain (expert asynchronous version): two independent three-layer dense towers (an
// MLP-style chain of SGEMM + bias + ReLU over 4096 x 4096 activations), then a CPU
// double-precision reference check of a few sampled rows of each tower.
//
// Pattern: chains of dense linear algebra with a CPU reference check afterwards.
// Hand-written asynchronous version: all host buffers are pinned (cudaMallocHost), each
// tower has its own stream, every matrix is uploaded as soon as it is generated (so the
// upload overlaps the generation of the next one), tower 0 computes while the host
// generates tower 1, and the CPU checks tower 0 while tower 1 computes and downloads.
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

static const int N = 4096;        // activations and weights are N x N
static const int LAYERS = 3;
static const int TOWERS = 2;
static const int SAMPLE_ROWS = 3; // rows per tower checked on the CPU

#define BM 64
#define BN 64
#define BK 16

// C = A * B for row-major n x n matrices, n a multiple of 64.
// 256 threads, each computing a 4 x 4 block of C.
__global__ void __launch_bounds__(256)
sgemm(const float *__restrict__ A, const float *__restrict__ B,
      float *__restrict__ C, int n) {
  __shared__ float As[BK][BM + 4];
  __shared__ __align__(16) float Bs[BK][BN];
  const int t = threadIdx.x;
  const int tx = t % 16, ty = t / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  const int ar = t / 4, ac = (t % 4) * 4;
  const int br = t / 16, bc = (t % 16) * 4;
  for (int k0 = 0; k0 < n; k0 += BK) {
    float4 a4 = *reinterpret_cast<const float4 *>(
        &A[(size_t)(row0 + ar) * n + k0 + ac]);
    As[ac + 0][ar] = a4.x;
    As[ac + 1][ar] = a4.y;
    As[ac + 2][ar] = a4.z;
    As[ac + 3][ar] = a4.w;
    *reinterpret_cast<float4 *>(&Bs[br][bc]) =
        *reinterpret_cast<const float4 *>(&B[(size_t)(k0 + br) * n + col0 + bc]);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty * 4 + i];
      float4 b4 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * 4]);
      float b[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float4 out = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    *reinterpret_cast<float4 *>(&C[(size_t)(row0 + ty * 4 + i) * n + col0 + tx * 4]) = out;
  }
}

// x[r][c] = relu?(x[r][c] + bias[c])
__global__ void bias_act(float *x, const float *bias, int n, int relu) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t total = (size_t)n * n;
  if (i < total) {
    float v = x[i] + bias[i % n];
    x[i] = relu ? fmaxf(v, 0.0f) : v;
  }
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static void fill_uniform(float *a, size_t count, uint32_t seed, float lo, float hi) {
  for (size_t i = 0; i < count; ++i) {
    uint32_t h = hash32((uint32_t)i * 0x9E3779B9u + seed * 0x85ebca6bU + 1u);
    a[i] = lo + (hi - lo) * ((float)(h >> 8) * (1.0f / 16777216.0f));
  }
}

// Propagates one row through a tower in double precision and returns the largest
// absolute error against the GPU result row.
static double check_row(const float *x_row, float *const *w, float *const *b,
                        const float *gpu_row, int n, double *ref_scale) {
  double *cur = (double *)malloc(n * sizeof(double));
  double *next = (double *)malloc(n * sizeof(double));
  for (int j = 0; j < n; ++j) cur[j] = x_row[j];
  for (int l = 0; l < LAYERS; ++l) {
    for (int j = 0; j < n; ++j) next[j] = b[l][j];
    for (int k = 0; k < n; ++k) {
      double xk = cur[k];
      if (xk == 0.0) continue;
      const float *wrow = w[l] + (size_t)k * n;
      for (int j = 0; j < n; ++j) next[j] += xk * wrow[j];
    }
    if (l < LAYERS - 1)
      for (int j = 0; j < n; ++j) next[j] = next[j] > 0.0 ? next[j] : 0.0;
    double *tmp = cur;
    cur = next;
    next = tmp;
  }
  double maxerr = 0.0, scale = 0.0;
  for (int j = 0; j < n; ++j) {
    double e = fabs(cur[j] - (double)gpu_row[j]);
    if (e > maxerr) maxerr = e;
    if (fabs(cur[j]) > scale) scale = fabs(cur[j]);
  }
  *ref_scale = scale;
  free(cur);
  free(next);
  return maxerr;
}

int main() {
  const size_t elems = (size_t)N * N;
  const size_t bytes = elems * sizeof(float);
  const float wscale = sqrtf(6.0f / N);

  float *h_x[TOWERS], *h_w[TOWERS][LAYERS], *h_b[TOWERS][LAYERS], *h_y[TOWERS];
  float *d_x[TOWERS], *d_w[TOWERS][LAYERS], *d_b[TOWERS][LAYERS];
  float *d_t0[TOWERS], *d_t1[TOWERS];
  for (int t = 0; t < TOWERS; ++t) {
    CHECK(cudaMallocHost(&h_x[t], bytes));
    CHECK(cudaMallocHost(&h_y[t], bytes));
    CHECK(cudaMalloc(&d_x[t], bytes));
    CHECK(cudaMalloc(&d_t0[t], bytes));
    CHECK(cudaMalloc(&d_t1[t], bytes));
    for (int l = 0; l < LAYERS; ++l) {
      CHECK(cudaMallocHost(&h_w[t][l], bytes));
      CHECK(cudaMallocHost(&h_b[t][l], N * sizeof(float)));
      CHECK(cudaMalloc(&d_w[t][l], bytes));
      CHECK(cudaMalloc(&d_b[t][l], N * sizeof(float)));
    }
  }

  cudaStream_t stream[TOWERS];
  cudaEvent_t done[TOWERS];
  for (int t = 0; t < TOWERS; ++t) {
    CHECK(cudaStreamCreateWithFlags(&stream[t], cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&done[t], cudaEventDisableTiming));
  }

  dim3 grid(N / BN, N / BM);
  const int ew_blocks = (int)((elems + 255) / 256);
  for (int t = 0; t < TOWERS; ++t) {
    cudaStream_t s = stream[t];
    // Generate and upload matrix by matrix: each upload overlaps the next generation.
    fill_uniform(h_x[t], elems, 100 + t, -1.0f, 1.0f);
    CHECK(cudaMemcpyAsync(d_x[t], h_x[t], bytes, cudaMemcpyHostToDevice, s));
    for (int l = 0; l < LAYERS; ++l) {
      fill_uniform(h_w[t][l], elems, 200 + 10 * t + l, -wscale, wscale);
      fill_uniform(h_b[t][l], N, 300 + 10 * t + l, -0.1f, 0.1f);
      CHECK(cudaMemcpyAsync(d_w[t][l], h_w[t][l], bytes, cudaMemcpyHostToDevice, s));
      CHECK(cudaMemcpyAsync(d_b[t][l], h_b[t][l], N * sizeof(float),
                            cudaMemcpyHostToDevice, s));
    }
    // The whole tower is queued on its stream; the host goes on to the next tower.
    const float *in = d_x[t];
    float *out = d_t0[t];
    for (int l = 0; l < LAYERS; ++l) {
      sgemm<<<grid, 256, 0, s>>>(in, d_w[t][l], out, N);
      bias_act<<<ew_blocks, 256, 0, s>>>(out, d_b[t][l], N, l < LAYERS - 1);
      in = out;
      out = (out == d_t0[t]) ? d_t1[t] : d_t0[t];
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_y[t], in, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaEventRecord(done[t], s));
  }

  int failures = 0;
  for (int t = 0; t < TOWERS; ++t) {
    // Tower t's result is needed now; later towers keep running on their streams.
    CHECK(cudaEventSynchronize(done[t]));
    double sum = 0.0, asum = 0.0;
    for (size_t i = 0; i < elems; ++i) {
      sum += h_y[t][i];
      asum += fabs(h_y[t][i]);
    }
    double worst = 0.0;
    for (int s = 0; s < SAMPLE_ROWS; ++s) {
      int r = (int)((977u * (unsigned)(t + 1) + 1231u * (unsigned)s + 17u) % N);
      double scale;
      double err = check_row(h_x[t] + (size_t)r * N, h_w[t], h_b[t],
                             h_y[t] + (size_t)r * N, N, &scale);
      double rel = err / (1.0 + scale);
      if (rel > worst) worst = rel;
      if (rel > 2e-3) {
        fprintf(stderr, "tower %d row %d: error %.3e (scale %.3e)\n", t, r, err, scale);
        ++failures;
      }
    }
    printf("tower %d: checksum %.6e abs %.6e sampled-rows %d max-rel-err %s\n", t,
           sum, asum, SAMPLE_ROWS, worst < 1e-4 ? "<1e-4" : "<2e-3-or-worse");
  }

  // Every stream has been waited on above (its last operation is the recorded event).
  for (int t = 0; t < TOWERS; ++t) {
    CHECK(cudaEventDestroy(done[t]));
    CHECK(cudaStreamDestroy(stream[t]));
    CHECK(cudaFree(d_x[t]));
    CHECK(cudaFree(d_t0[t]));
    CHECK(cudaFree(d_t1[t]));
    CHECK(cudaFreeHost(h_x[t]));
    CHECK(cudaFreeHost(h_y[t]));
    for (int l = 0; l < LAYERS; ++l) {
      CHECK(cudaFree(d_w[t][l]));
      CHECK(cudaFree(d_b[t][l]));
      CHECK(cudaFreeHost(h_w[t][l]));
      CHECK(cudaFreeHost(h_b[t][l]));
    }
  }
  if (failures) {
    printf("FAILED: %d sampled rows out of tolerance\n", failures);
    return 1;
  }
  printf("gemm_chain: OK\n");
  return 0;
}
