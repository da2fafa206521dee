// no_overlap (expert asynchronous version): power iteration with host-side normalisation
// over a 12288 x 12288 matrix generated on the GPU.
//
// Hand-written asynchronous version: there is nothing independent to overlap, so the
// expert keeps the chain on one stream and only removes overheads: the two small
// vectors live in pinned memory, each iteration is upload + kernel + download queued
// back to back with a single wait on the download, and the matrix generation overlaps
// the host's setup of the first vector.
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

static const int N = 12288;
static const int ITERS = 1500;

__host__ __device__ inline float entry(int i, int j) {
  uint32_t x = (uint32_t)i * (uint32_t)N + (uint32_t)j;
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return (float)(x >> 8) * (1.0f / 16777216.0f);
}

__global__ void init_matrix(float *a, int n) {
  size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < (size_t)n * n) a[k] = entry((int)(k / n), (int)(k % n));
}

// y = A x, one warp per row.
__global__ void matvec(const float *a, const float *x, float *y, int n) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= n) return;
  const float4 *arow = reinterpret_cast<const float4 *>(a + (size_t)row * n);
  const float4 *x4 = reinterpret_cast<const float4 *>(x);
  float s = 0.0f;
  for (int c = lane; c < n / 4; c += 32) {
    float4 av = arow[c], xv = x4[c];
    s += av.x * xv.x + av.y * xv.y + av.z * xv.z + av.w * xv.w;
  }
  for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
  if (lane == 0) y[row] = s;
}

int main() {
  float *h_x, *h_y;
  CHECK(cudaMallocHost(&h_x, N * sizeof(float)));
  CHECK(cudaMallocHost(&h_y, N * sizeof(float)));
  float *h_xprev = (float *)malloc(N * sizeof(float));
  float *d_a, *d_x, *d_y;
  CHECK(cudaMalloc(&d_a, (size_t)N * N * sizeof(float)));
  CHECK(cudaMalloc(&d_x, N * sizeof(float)));
  CHECK(cudaMalloc(&d_y, N * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  init_matrix<<<(unsigned)(((size_t)N * N + 255) / 256), 256, 0, s>>>(d_a, N);
  for (int i = 0; i < N; ++i) h_x[i] = 1.0f / sqrtf((float)N);

  double lambda = 0.0;
  for (int it = 0; it < ITERS; ++it) {
    // h_x is rewritten below only after the stream has finished with it (synchronised).
    CHECK(cudaMemcpyAsync(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice, s));
    matvec<<<N / 8, 256, 0, s>>>(d_a, d_x, d_y, N);
    CHECK(cudaMemcpyAsync(h_y, d_y, N * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    double norm2 = 0.0, rq = 0.0;
    for (int i = 0; i < N; ++i) {
      norm2 += (double)h_y[i] * h_y[i];
      rq += (double)h_x[i] * h_y[i];
      h_xprev[i] = h_x[i];
    }
    lambda = rq;
    float inv = (float)(1.0 / sqrt(norm2));
    for (int i = 0; i < N; ++i) h_x[i] = h_y[i] * inv;
    if (it % 150 == 0) printf("iter %4d: lambda %.6f\n", it, lambda);
  }
  CHECK(cudaGetLastError());

  // CPU check of 16 rows of the last product y = A x_prev.
  int bad = 0;
  for (int k = 0; k < 16; ++k) {
    int r = (k * 7919 + 13) % N;
    double sum = 0.0;
    for (int j = 0; j < N; ++j) sum += (double)entry(r, j) * h_xprev[j];
    if (fabs(sum - h_y[r]) > 1e-4 * fabs(sum) + 1e-6) ++bad;
  }
  double xsum = 0.0;
  for (int i = 0; i < N; ++i) xsum += h_x[i] * (double)(i % 7 + 1);
  printf("lambda %.6f, eigenvector checksum %.8f\n", lambda, xsum);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFreeHost(h_x));
  CHECK(cudaFreeHost(h_y));
  free(h_xprev);
  if (bad) {
    printf("FAILED: %d rows differ from the CPU product\n", bad);
    return 1;
  }
  printf("no_overlap: OK\n");
  return 0;
}
