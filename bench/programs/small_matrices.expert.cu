// small_matrices (expert asynchronous version): dominant eigenpairs of 512 independent
// 256 x 256 matrices by power iteration (60 iterations each). Each problem is uploaded,
// iterated with one-block kernels (a warp-per-row matrix-vector product and a
// normalisation), and its eigenvalue and eigenvector are copied back. Every 32nd problem
// is re-solved on the CPU in double precision as a reference.
//
// Hand-written asynchronous version: 16 streams, each with its own matrix and vector
// buffers; problem p runs on stream p % 16, so up to 16 one-block kernel chains run side
// by side. Each matrix is generated straight into pinned memory just before its problem
// is queued, results are gathered on the device and downloaded once, and the CPU
// reference solutions are computed while the GPU is still working.
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

static const int NUM = 512;  // problems
static const int M = 256;    // matrix dimension
static const int ITERS = 60; // power iterations
static const int THREADS = 256;

__global__ void init_vector(float *x, int m) {
  int i = threadIdx.x;
  if (i < m) x[i] = 1.0f / sqrtf((float)m);
}

// y = A x, one warp per row, rows strided over the warps of the single block.
__global__ void matvec(const float *A, const float *x, float *y, int m) {
  __shared__ float sx[THREADS];
  for (int i = threadIdx.x; i < m; i += blockDim.x) sx[i] = x[i];
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nwarps = blockDim.x / 32;
  for (int row = warp; row < m; row += nwarps) {
    float s = 0.0f;
    for (int c = lane; c < m; c += 32) s += A[(size_t)row * m + c] * sx[c];
    for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) y[row] = s;
  }
}

// lambda = ||y||, x = y / ||y||  (one block of THREADS >= m threads)
__global__ void normalize(const float *y, float *x, float *lambda, int m) {
  __shared__ float sh[THREADS];
  const int t = threadIdx.x;
  float v = t < m ? y[t] : 0.0f;
  sh[t] = v * v;
  __syncthreads();
  for (int w = THREADS / 2; w > 0; w /= 2) {
    if (t < w) sh[t] += sh[t + w];
    __syncthreads();
  }
  float nrm = sqrtf(sh[0]);
  if (t < m) x[t] = v / nrm;
  if (t == 0) *lambda = nrm;
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static void make_matrix(float *a, int m, int problem) {
  const uint32_t seed = 0x51ed27u * (uint32_t)(problem + 1);
  for (int i = 0; i < m * m; ++i)
    a[i] = (float)(hash32((uint32_t)i ^ seed) >> 8) * (1.0f / 16777216.0f);
}

// Power iteration in double precision; returns the eigenvalue estimate.
static double cpu_power(const float *a, int m, int iters, double *x) {
  double *y = (double *)malloc(m * sizeof(double));
  for (int i = 0; i < m; ++i) x[i] = 1.0 / sqrt((double)m);
  double lambda = 0.0;
  for (int it = 0; it < iters; ++it) {
    double nrm2 = 0.0;
    for (int r = 0; r < m; ++r) {
      double s = 0.0;
      for (int c = 0; c < m; ++c) s += (double)a[(size_t)r * m + c] * x[c];
      y[r] = s;
      nrm2 += s * s;
    }
    lambda = sqrt(nrm2);
    for (int i = 0; i < m; ++i) x[i] = y[i] / lambda;
  }
  free(y);
  return lambda;
}

int main() {
  const int STREAMS = 16;
  const size_t mat = (size_t)M * M;
  float *h_A, *h_vec, *h_lambda;
  CHECK(cudaMallocHost(&h_A, NUM * mat * sizeof(float)));
  CHECK(cudaMallocHost(&h_vec, (size_t)NUM * M * sizeof(float)));
  CHECK(cudaMallocHost(&h_lambda, NUM * sizeof(float)));

  float *d_A[STREAMS], *d_x[STREAMS], *d_y[STREAMS];
  cudaStream_t stream[STREAMS];
  cudaEvent_t done[STREAMS];
  for (int s = 0; s < STREAMS; ++s) {
    CHECK(cudaMalloc(&d_A[s], mat * sizeof(float)));
    CHECK(cudaMalloc(&d_x[s], M * sizeof(float)));
    CHECK(cudaMalloc(&d_y[s], M * sizeof(float)));
    CHECK(cudaStreamCreateWithFlags(&stream[s], cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
  }
  float *d_vec, *d_lambda;
  CHECK(cudaMalloc(&d_vec, (size_t)NUM * M * sizeof(float)));
  CHECK(cudaMalloc(&d_lambda, NUM * sizeof(float)));

  for (int p = 0; p < NUM; ++p) {
    const int s = p % STREAMS;
    cudaStream_t st = stream[s];
    float *a = h_A + p * mat;
    make_matrix(a, M, p);
    // d_A[s], d_x[s], d_y[s] were last used by problem p - STREAMS on the same stream.
    CHECK(cudaMemcpyAsync(d_A[s], a, mat * sizeof(float), cudaMemcpyHostToDevice, st));
    init_vector<<<1, THREADS, 0, st>>>(d_x[s], M);
    for (int it = 0; it < ITERS; ++it) {
      matvec<<<1, THREADS, 0, st>>>(d_A[s], d_x[s], d_y[s], M);
      normalize<<<1, THREADS, 0, st>>>(d_y[s], d_x[s], d_lambda + p, M);
    }
    CHECK(cudaMemcpyAsync(d_vec + (size_t)p * M, d_x[s], M * sizeof(float),
                          cudaMemcpyDeviceToDevice, st));
  }
  CHECK(cudaGetLastError());
  // Join all streams into stream 0 and download the gathered results there.
  for (int s = 0; s < STREAMS; ++s) {
    CHECK(cudaEventRecord(done[s], stream[s]));
    CHECK(cudaStreamWaitEvent(stream[0], done[s], 0));
  }
  CHECK(cudaMemcpyAsync(h_lambda, d_lambda, NUM * sizeof(float), cudaMemcpyDeviceToHost,
                        stream[0]));
  CHECK(cudaMemcpyAsync(h_vec, d_vec, (size_t)NUM * M * sizeof(float), cudaMemcpyDeviceToHost,
                        stream[0]));

  // CPU references need only the matrices: compute them while the GPU finishes.
  const int NCHECK = (NUM + 31) / 32;
  double *xref = (double *)malloc((size_t)NCHECK * M * sizeof(double));
  double *lref = (double *)malloc(NCHECK * sizeof(double));
  for (int c = 0; c < NCHECK; ++c)
    lref[c] = cpu_power(h_A + (size_t)c * 32 * mat, M, ITERS, xref + (size_t)c * M);

  CHECK(cudaStreamSynchronize(stream[0]));
  int checked = 0, failures = 0;
  for (int p = 0; p < NUM; p += 32) {
    const double *xr = xref + (size_t)(p / 32) * M;
    double lr = lref[p / 32];
    double verr = 0.0;
    for (int i = 0; i < M; ++i) verr = fmax(verr, fabs(xr[i] - h_vec[(size_t)p * M + i]));
    if (fabs(lr - h_lambda[p]) > 1e-4 * lr || verr > 1e-4) {
      fprintf(stderr, "problem %d: lambda %f vs %f, vector error %.3e\n", p, h_lambda[p], lr,
              verr);
      ++failures;
    }
    ++checked;
  }
  double lsum = 0.0, vsum = 0.0;
  for (int p = 0; p < NUM; ++p) {
    lsum += h_lambda[p];
    for (int i = 0; i < M; ++i) vsum += h_vec[(size_t)p * M + i] * (double)(i + 1);
    if (p % 64 == 0) printf("problem %3d: lambda %.5f\n", p, h_lambda[p]);
  }
  printf("sum of eigenvalues %.6f, eigenvector checksum %.6f, %d problems checked on CPU\n",
         lsum, vsum, checked);

  for (int s = 0; s < STREAMS; ++s) {
    CHECK(cudaEventDestroy(done[s]));
    CHECK(cudaStreamDestroy(stream[s]));
    CHECK(cudaFree(d_A[s]));
    CHECK(cudaFree(d_x[s]));
    CHECK(cudaFree(d_y[s]));
  }
  CHECK(cudaFree(d_vec));
  CHECK(cudaFree(d_lambda));
  CHECK(cudaFreeHost(h_A));
  CHECK(cudaFreeHost(h_vec));
  CHECK(cudaFreeHost(h_lambda));
  free(xref);
  free(lref);
  if (failures) {
    printf("FAILED: %d problems differ from the CPU reference\n", failures);
    return 1;
  }
  printf("small_matrices: OK\n");
  return 0;
}
