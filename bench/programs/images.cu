// images: a batch of 32 independent 2048 x 2048 grey-scale images. Each image is
// synthesised on the host, uploaded, smoothed with a bilateral filter (radius 5),
// turned into a Sobel edge map and a histogram on the GPU; the edge map and the
// histogram come back, the host computes an Otsu threshold and edge statistics, and
// for every 8th image spot-checks edge pixels against a CPU implementation.
//
// Pattern: several independent tasks (independent images).
// Overlap in principle: synthesising image i+1 and post-processing image i-1 on the
// host while image i is uploaded, filtered and downloaded; uploads and downloads of
// different images on the two copy engines.
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

static const int W = 2048, H = 2048;
static const int NUM_IMAGES = 32;
#define RADIUS 5
#define SIGMA_S 3.0f
#define SIGMA_R 25.0f

__device__ __host__ inline int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

__global__ void bilateral(const unsigned char *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float c = in[y * w + x];
  float sum = 0.0f, wsum = 0.0f;
  for (int dy = -RADIUS; dy <= RADIUS; ++dy)
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      float v = in[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
      float d2 = (float)(dx * dx + dy * dy);
      float wt = expf(-d2 / (2.0f * SIGMA_S * SIGMA_S) -
                      (v - c) * (v - c) / (2.0f * SIGMA_R * SIGMA_R));
      sum += wt * v;
      wsum += wt;
    }
  out[y * w + x] = sum / wsum;
}

__global__ void sobel(const float *s, unsigned char *edges, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int xm = clampi(x - 1, 0, w - 1), xp = clampi(x + 1, 0, w - 1);
  int ym = clampi(y - 1, 0, h - 1), yp = clampi(y + 1, 0, h - 1);
  float gx = (s[ym * w + xp] + 2.0f * s[y * w + xp] + s[yp * w + xp]) -
             (s[ym * w + xm] + 2.0f * s[y * w + xm] + s[yp * w + xm]);
  float gy = (s[yp * w + xm] + 2.0f * s[yp * w + x] + s[yp * w + xp]) -
             (s[ym * w + xm] + 2.0f * s[ym * w + x] + s[ym * w + xp]);
  float mag = sqrtf(gx * gx + gy * gy) * 0.25f;
  edges[y * w + x] = (unsigned char)(mag > 255.0f ? 255.0f : mag);
}

__global__ void histogram256(const float *s, int n, unsigned int *hist) {
  __shared__ unsigned int sh[256];
  sh[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&sh[clampi((int)s[i], 0, 255)], 1u);
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

// A synthetic scene: shaded background, a few bright discs, sensor noise.
static void synthesize(unsigned char *img, int w, int h, int index) {
  int cx[4], cy[4], r2[4];
  for (int k = 0; k < 4; ++k) {
    uint32_t hk = hash32((uint32_t)(index * 4 + k + 1));
    cx[k] = (int)(hk % (uint32_t)w);
    cy[k] = (int)((hk >> 11) % (uint32_t)h);
    int r = 100 + (int)((hk >> 22) % 300u);
    r2[k] = r * r;
  }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int v = 40 + (x + 2 * y + 13 * index) % 256 / 4;
      for (int k = 0; k < 4; ++k) {
        int dx = x - cx[k], dy = y - cy[k];
        if (dx * dx + dy * dy < r2[k]) v += 90;
      }
      v += (int)(hash32((uint32_t)(y * w + x) * 31u + (uint32_t)index) % 21u) - 10;
      img[y * w + x] = (unsigned char)clampi(v, 0, 255);
    }
}

static int otsu(const unsigned int *hist, long total) {
  double sum_all = 0.0;
  for (int i = 0; i < 256; ++i) sum_all += (double)i * hist[i];
  double w0 = 0.0, sum0 = 0.0, best = -1.0;
  int best_t = 0;
  for (int t = 0; t < 256; ++t) {
    w0 += hist[t];
    if (w0 == 0.0 || w0 == (double)total) continue;
    sum0 += (double)t * hist[t];
    double m0 = sum0 / w0, m1 = (sum_all - sum0) / ((double)total - w0);
    double between = w0 * ((double)total - w0) * (m0 - m1) * (m0 - m1);
    if (between > best) {
      best = between;
      best_t = t;
    }
  }
  return best_t;
}

// CPU reference of the edge value at (x, y): bilateral on the 3x3 neighbourhood, then Sobel.
static int cpu_edge(const unsigned char *in, int w, int h, int x, int y) {
  float s[3][3];
  for (int j = -1; j <= 1; ++j)
    for (int i = -1; i <= 1; ++i) {
      int px = clampi(x + i, 0, w - 1), py = clampi(y + j, 0, h - 1);
      float c = in[py * w + px];
      float sum = 0.0f, wsum = 0.0f;
      for (int dy = -RADIUS; dy <= RADIUS; ++dy)
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
          float v = in[clampi(py + dy, 0, h - 1) * w + clampi(px + dx, 0, w - 1)];
          float d2 = (float)(dx * dx + dy * dy);
          float wt = expf(-d2 / (2.0f * SIGMA_S * SIGMA_S) -
                          (v - c) * (v - c) / (2.0f * SIGMA_R * SIGMA_R));
          sum += wt * v;
          wsum += wt;
        }
      s[j + 1][i + 1] = sum / wsum;
    }
  float gx = (s[0][2] + 2.0f * s[1][2] + s[2][2]) - (s[0][0] + 2.0f * s[1][0] + s[2][0]);
  float gy = (s[2][0] + 2.0f * s[2][1] + s[2][2]) - (s[0][0] + 2.0f * s[0][1] + s[0][2]);
  float mag = sqrtf(gx * gx + gy * gy) * 0.25f;
  return (int)(mag > 255.0f ? 255.0f : mag);
}

int main() {
  const int n = W * H;
  unsigned char *h_img = (unsigned char *)malloc(n);
  unsigned char *h_edges = (unsigned char *)malloc(n);
  unsigned int h_hist[256];

  unsigned char *d_img, *d_edges;
  float *d_smooth;
  unsigned int *d_hist;
  CHECK(cudaMalloc(&d_img, n));
  CHECK(cudaMalloc(&d_edges, n));
  CHECK(cudaMalloc(&d_smooth, n * sizeof(float)));
  CHECK(cudaMalloc(&d_hist, 256 * sizeof(unsigned int)));

  dim3 block(32, 8), grid(W / 32, H / 8);
  long total_edges = 0;
  int mismatches = 0;
  for (int i = 0; i < NUM_IMAGES; ++i) {
    synthesize(h_img, W, H, i);
    CHECK(cudaMemcpy(d_img, h_img, n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_hist, 0, 256 * sizeof(unsigned int)));
    bilateral<<<grid, block>>>(d_img, d_smooth, W, H);
    sobel<<<grid, block>>>(d_smooth, d_edges, W, H);
    histogram256<<<512, 256>>>(d_smooth, n, d_hist);
    CHECK(cudaMemcpy(h_edges, d_edges, n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_hist, d_hist, sizeof(h_hist), cudaMemcpyDeviceToHost));

    long count = 0;
    for (int k = 0; k < 256; ++k) count += h_hist[k];
    int t = otsu(h_hist, count);
    long strong = 0;
    double edge_sum = 0.0;
    for (int p = 0; p < n; ++p) {
      edge_sum += h_edges[p];
      if (h_edges[p] > 64) ++strong;
    }
    if (count != n) ++mismatches;
    if (i % 8 == 0) {
      for (int k = 0; k < 64; ++k) {
        uint32_t hk = hash32((uint32_t)(i * 64 + k) + 777u);
        int x = (int)(hk % W), y = (int)((hk >> 12) % H);
        int ref = cpu_edge(h_img, W, H, x, y);
        if (abs(ref - (int)h_edges[y * W + x]) > 1) ++mismatches;
      }
    }
    total_edges += strong;
    printf("image %2d: otsu %3d strong-edges %7ld mean-edge %.4f\n", i, t, strong,
           edge_sum / n);
  }
  printf("total strong edges %ld\n", total_edges);

  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_edges));
  CHECK(cudaFree(d_smooth));
  CHECK(cudaFree(d_hist));
  free(h_img);
  free(h_edges);
  if (mismatches) {
    printf("FAILED: %d mismatches against the CPU reference\n", mismatches);
    return 1;
  }
  printf("images: OK\n");
  return 0;
}
