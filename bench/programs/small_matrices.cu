// small_matrices: dominant eigenpairs of 512 independent 256 x 256 matrices by power
// iteration (60 iterations each). Each problem is uploaded, iterated with one-block
// kernels (a warp-per-row matrix-vector product and a normalisation), and its eigenvalue
// and eigenvector are copied back. Every 32nd problem is re-solved on the CPU in double
// precision as a reference.
//
// Pattern: several independent tasks (many small matrices), each too small to fill
// the GPU.
// Overlap in principle: the problems are independent; with separate buffers per stream
// many one-block kernels run side by side and uploads overlap compute.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

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
  const size_t mat = (size_t)M * M;
  float *h_A = (float *)malloc(NUM * mat * sizeof(float));
  float *h_vec = (float *)malloc((size_t)NUM * M * sizeof(float));
  float *h_lambda = (float *)malloc(NUM * sizeof(float));
  for (int p = 0; p < NUM; ++p) make_matrix(h_A + p * mat, M, p);

  float *d_A, *d_x, *d_y, *d_lambda;
  cudaMalloc(&d_A, mat * sizeof(float));
  cudaMalloc(&d_x, M * sizeof(float));
  cudaMalloc(&d_y, M * sizeof(float));
  cudaMalloc(&d_lambda, sizeof(float));

  for (int p = 0; p < NUM; ++p) {
    cudaMemcpy(d_A, h_A + p * mat, mat * sizeof(float), cudaMemcpyHostToDevice);
    init_vector<<<1, THREADS>>>(d_x, M);
    for (int it = 0; it < ITERS; ++it) {
      matvec<<<1, THREADS>>>(d_A, d_x, d_y, M);
      normalize<<<1, THREADS>>>(d_y, d_x, d_lambda, M);
    }
    cudaMemcpy(&h_lambda[p], d_lambda, sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_vec + (size_t)p * M, d_x, M * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 2;
  }

  int checked = 0, failures = 0;
  double *xref = (double *)malloc(M * sizeof(double));
  for (int p = 0; p < NUM; p += 32) {
    double lref = cpu_power(h_A + p * mat, M, ITERS, xref);
    double verr = 0.0;
    for (int i = 0; i < M; ++i) verr = fmax(verr, fabs(xref[i] - h_vec[(size_t)p * M + i]));
    if (fabs(lref - h_lambda[p]) > 1e-4 * lref || verr > 1e-4) {
      fprintf(stderr, "problem %d: lambda %f vs %f, vector error %.3e\n", p, h_lambda[p], lref,
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

  cudaFree(d_A);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_lambda);
  free(h_A);
  free(h_vec);
  free(h_lambda);
  free(xref);
  if (failures) {
    printf("FAILED: %d problems differ from the CPU reference\n", failures);
    return 1;
  }
  printf("small_matrices: OK\n");
  return 0;
}
