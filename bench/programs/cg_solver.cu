// cg_solver: conjugate gradient for the 2D Poisson equation (5-point Laplacian,
// matrix-free, double precision) on a 2048 x 2048 grid. Each iteration reads the
// scalars p.Ap and r.r back to the host, which computes alpha and beta and decides
// whether to stop. The final solution is checked on the CPU by recomputing the true
// residual b - A x.
//
// Pattern: iterative solver whose loop condition reads a scalar back.
// Overlap in principle: little. The scalars could stay on the device (one readback
// per iteration instead of two), and the p update / next matrix-vector product can run
// while the host looks at the residual.
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

static const int GRID = 2048;   // unknowns per side
static const int MAXIT = 3000;
static const double TOL = 1e-6; // relative residual
static const int DOT_BLOCKS = 1024;
static const int DOT_THREADS = 256;

// y = A x for the 5-point Laplacian with zero Dirichlet boundary.
__global__ void laplace_apply(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    size_t k = (size_t)j * n + i;
    double s = 4.0 * x[k];
    if (i > 0) s -= x[k - 1];
    if (i < n - 1) s -= x[k + 1];
    if (j > 0) s -= x[k - n];
    if (j < n - 1) s -= x[k + n];
    y[k] = s;
  }
}

// Deterministic dot product, stage 1: one partial sum per block (fixed grid, fixed tree).
__global__ void dot_partial(const double *a, const double *b, double *partial, size_t n) {
  __shared__ double sh[DOT_THREADS];
  double s = 0.0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    s += a[i] * b[i];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

// Stage 2: one block of DOT_BLOCKS threads reduces the partial sums.
__global__ void dot_final(const double *partial, double *result) {
  __shared__ double sh[DOT_BLOCKS];
  sh[threadIdx.x] = partial[threadIdx.x];
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = sh[0];
}

__global__ void update_xr(double *x, double *r, const double *p, const double *ap,
                          double alpha, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += alpha * p[i];
    r[i] -= alpha * ap[i];
  }
}

__global__ void update_p(double *p, const double *r, double beta, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = r[i] + beta * p[i];
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static double gpu_dot(const double *a, const double *b, double *d_partial, double *d_result,
                      size_t n) {
  dot_partial<<<DOT_BLOCKS, DOT_THREADS>>>(a, b, d_partial, n);
  dot_final<<<1, DOT_BLOCKS>>>(d_partial, d_result);
  double h;
  CHECK(cudaMemcpy(&h, d_result, sizeof(double), cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  const int n = GRID;
  const size_t cells = (size_t)n * n;
  const size_t bytes = cells * sizeof(double);
  const double h2 = 1.0 / ((double)(n + 1) * (n + 1));

  double *h_b = (double *)malloc(bytes);
  double *h_x = (double *)malloc(bytes);
  for (size_t k = 0; k < cells; ++k)
    h_b[k] = h2 * (1.0 + 0.5 * (double)(hash32((uint32_t)k) >> 8) / 16777216.0);

  double *d_x, *d_r, *d_p, *d_ap, *d_partial, *d_scalar;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_r, bytes));
  CHECK(cudaMalloc(&d_p, bytes));
  CHECK(cudaMalloc(&d_ap, bytes));
  CHECK(cudaMalloc(&d_partial, DOT_BLOCKS * sizeof(double)));
  CHECK(cudaMalloc(&d_scalar, sizeof(double)));

  CHECK(cudaMemset(d_x, 0, bytes));
  CHECK(cudaMemcpy(d_r, h_b, bytes, cudaMemcpyHostToDevice)); // r0 = b - A*0 = b
  CHECK(cudaMemcpy(d_p, h_b, bytes, cudaMemcpyHostToDevice));

  dim3 sblock(32, 8), sgrid(n / 32, n / 8);
  const int vblocks = (int)((cells + 255) / 256);
  double rr = gpu_dot(d_r, d_r, d_partial, d_scalar, cells);
  const double bnorm = sqrt(rr);
  int it = 0;
  bool converged = false;
  while (it < MAXIT) {
    laplace_apply<<<sgrid, sblock>>>(d_p, d_ap, n);
    double pap = gpu_dot(d_p, d_ap, d_partial, d_scalar, cells);
    double alpha = rr / pap;
    update_xr<<<vblocks, 256>>>(d_x, d_r, d_p, d_ap, alpha, cells);
    double rr_new = gpu_dot(d_r, d_r, d_partial, d_scalar, cells);
    ++it;
    if (it % 500 == 0) printf("iter %4d: relative residual %.6e\n", it, sqrt(rr_new) / bnorm);
    if (sqrt(rr_new) <= TOL * bnorm) {
      rr = rr_new;
      converged = true;
      break;
    }
    double beta = rr_new / rr;
    update_p<<<vblocks, 256>>>(d_p, d_r, beta, cells);
    rr = rr_new;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));

  // CPU reference: the true residual b - A x in double precision.
  double res2 = 0.0, xsum = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      size_t k = (size_t)j * n + i;
      double ax = 4.0 * h_x[k];
      if (i > 0) ax -= h_x[k - 1];
      if (i < n - 1) ax -= h_x[k + 1];
      if (j > 0) ax -= h_x[k - n];
      if (j < n - 1) ax -= h_x[k + n];
      double d = h_b[k] - ax;
      res2 += d * d;
      xsum += h_x[k];
    }
  const double rel_recursive = sqrt(rr) / bnorm;
  const double rel_true = sqrt(res2) / bnorm;
  printf("%s after %d iterations: relative residual %.6e, solution sum %.10e\n",
         converged ? "converged" : "stopped", it, rel_recursive, xsum);

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_r));
  CHECK(cudaFree(d_p));
  CHECK(cudaFree(d_ap));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_scalar));
  free(h_b);
  free(h_x);
  if (!(rel_true < 1e-2) || fabs(rel_true - rel_recursive) > 1e-6 + 0.05 * rel_recursive) {
    printf("FAILED: true residual %.3e does not match recursive residual %.3e\n", rel_true,
           rel_recursive);
    return 1;
  }
  printf("cg_solver: OK (true residual agrees)\n");
  return 0;
}
