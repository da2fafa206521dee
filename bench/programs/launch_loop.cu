// launch_loop: a Gray-Scott reaction-diffusion system on a ring of 8192 cells, integrated for
// 40000 steps by operator splitting. Each step is five small kernels (two diffusion half-steps
// per species and the reaction), whose arguments are the same at every step: 200000 launches
// of 32-block kernels, each a few microseconds of GPU work. Every 10000 steps the host reads
// the two species back and prints their totals; at the end it checks that the concentrations
// stayed in [0, 1] and prints a checksum.
//
// Pattern: a loop bound by launch overhead. No stream assignment helps: the kernels depend on
// each other, and each launch costs the host about as much as the kernel takes on the GPU.
// Overlap in principle: none between kernels; replaying each step's fixed launch sequence as
// one CUDA graph cuts the host cost per step from five launches to one graph launch.
#include <cmath>
#include <cstdio>
#include <cstdlib>

static const int CELLS = 8192;
static const int STEPS = 40000;
static const int REPORT_EVERY = 10000;
static const float DU = 0.16f, DV = 0.08f; // diffusion numbers per half-step (stable below 0.5)
static const float FEED = 0.035f, KILL = 0.060f, DT = 1.0f;

// out = in + d * laplacian(in), periodic.
__global__ void diffuse(const float *in, float *out, int n, float d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float l = in[(i + n - 1) % n], c = in[i], r = in[(i + 1) % n];
    out[i] = c + d * (l - 2.0f * c + r);
  }
}

// One explicit Gray-Scott reaction step, in place.
__global__ void react(float *u, float *v, int n, float feed, float kill, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = u[i], b = v[i];
    float uvv = a * b * b;
    u[i] = fminf(fmaxf(a + dt * (feed * (1.0f - a) - uvv), 0.0f), 1.0f);
    v[i] = fminf(fmaxf(b + dt * (uvv - (feed + kill) * b), 0.0f), 1.0f);
  }
}

static double total(const float *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

int main() {
  const size_t bytes = CELLS * sizeof(float);
  float *h_u = (float *)malloc(bytes), *h_v = (float *)malloc(bytes);
  for (int i = 0; i < CELLS; ++i) { // u = 1 everywhere, v seeded in a few patches
    h_u[i] = 1.0f;
    h_v[i] = (i % 1024 < 24) ? 0.5f + 0.01f * (i % 7) : 0.0f;
  }
  float *d_u, *d_v, *d_tu, *d_tv;
  cudaMalloc(&d_u, bytes);
  cudaMalloc(&d_v, bytes);
  cudaMalloc(&d_tu, bytes);
  cudaMalloc(&d_tv, bytes);
  cudaMemcpy(d_u, h_u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, h_v, bytes, cudaMemcpyHostToDevice);

  const int threads = 256, blocks = (CELLS + threads - 1) / threads;
  for (int round = 0; round < STEPS / REPORT_EVERY; ++round) {
    for (int step = 0; step < REPORT_EVERY; ++step) {
      diffuse<<<blocks, threads>>>(d_u, d_tu, CELLS, DU);
      diffuse<<<blocks, threads>>>(d_v, d_tv, CELLS, DV);
      diffuse<<<blocks, threads>>>(d_tu, d_u, CELLS, DU);
      diffuse<<<blocks, threads>>>(d_tv, d_v, CELLS, DV);
      react<<<blocks, threads>>>(d_u, d_v, CELLS, FEED, KILL, DT);
    }
    cudaMemcpy(h_u, d_u, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_v, d_v, bytes, cudaMemcpyDeviceToHost);
    printf("step %6d: total u %.6f, total v %.6f\n", (round + 1) * REPORT_EVERY, total(h_u, CELLS),
           total(h_v, CELLS));
  }

  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  int bad = 0;
  unsigned long long checksum = 0;
  for (int i = 0; i < CELLS; ++i) {
    if (!(h_u[i] >= 0.0f && h_u[i] <= 1.0f && h_v[i] >= 0.0f && h_v[i] <= 1.0f))
      ++bad;
    checksum = checksum * 31 + (unsigned long long)lrintf(h_u[i] * 1e6f) +
               7 * (unsigned long long)lrintf(h_v[i] * 1e6f);
  }
  printf("checksum %016llx\n", checksum);
  cudaFree(d_u);
  cudaFree(d_v);
  cudaFree(d_tu);
  cudaFree(d_tv);
  free(h_u);
  free(h_v);
  if (bad) {
    printf("FAILED: %d cells left [0, 1]\n", bad);
    return 1;
  }
  printf("launch_loop: OK\n");
  return 0;
}
