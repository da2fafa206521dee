// tiny_kernels: eight independent gravitational N-body systems of 1024 bodies each,
// integrated for 4000 steps with a kick kernel (all-pairs accelerations) and a drift
// kernel per system and step: 64000 launches of kernels that occupy only 8 blocks
// each. Every 500 steps the kinetic energy of each system is reduced on the GPU and
// read back. At the end the CPU computes each system's total energy and momentum in
// double precision and checks that the integrator conserved them.
//
// Pattern: a program dominated by many tiny kernels.
// Overlap in principle: the eight systems are independent, so their kernels can run
// concurrently on separate streams (each uses 8 of the 132 SMs); the energy readback
// need not stop the host from queuing the next steps.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

static const int SYSTEMS = 8;
static const int BODIES = 1024;
static const int STEPS = 4000;
static const int REPORT_EVERY = 500;
static const float DT = 0.002f;
static const float EPS2 = 0.01f;
#define TILE 128

__global__ void accel_kick(const float4 *pos, float4 *vel, int n, float dt, float eps2) {
  __shared__ float4 tile[TILE];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 pi = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int t0 = 0; t0 < n; t0 += TILE) {
    tile[threadIdx.x] = pos[t0 + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < TILE; ++j) {
      float dx = tile[j].x - pi.x, dy = tile[j].y - pi.y, dz = tile[j].z - pi.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
      float s = tile[j].w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  float4 v = vel[i];
  v.x += ax * dt;
  v.y += ay * dt;
  v.z += az * dt;
  vel[i] = v;
}

__global__ void drift(float4 *pos, const float4 *vel, int n, float dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 p = pos[i];
    float4 v = vel[i];
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
    pos[i] = p;
  }
}

// One block of n threads: ke = sum 0.5 m |v|^2 (deterministic tree).
__global__ void kinetic(const float4 *pos, const float4 *vel, float *ke) {
  __shared__ float sh[BODIES];
  const int t = threadIdx.x;
  float4 v = vel[t];
  sh[t] = 0.5f * pos[t].w * (v.x * v.x + v.y * v.y + v.z * v.z);
  __syncthreads();
  for (int w = BODIES / 2; w > 0; w /= 2) {
    if (t < w) sh[t] += sh[t + w];
    __syncthreads();
  }
  if (t == 0) *ke = sh[0];
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static float urand(uint32_t key) { return (float)(hash32(key) >> 8) * (1.0f / 16777216.0f); }

static void init_system(float4 *pos, float4 *vel, int n, int sys) {
  double px = 0, py = 0, pz = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t k = (uint32_t)(sys * 1000003 + i * 7);
    pos[i] = make_float4(2.0f * urand(k) - 1.0f, 2.0f * urand(k + 1) - 1.0f,
                         2.0f * urand(k + 2) - 1.0f, 1.0f / n);
    // roughly virialised: uniform components in [-0.7, 0.7] give 2 KE ~ |PE|
    vel[i] = make_float4(1.4f * urand(k + 3) - 0.7f, 1.4f * urand(k + 4) - 0.7f,
                         1.4f * urand(k + 5) - 0.7f, 0.0f);
    px += vel[i].x;
    py += vel[i].y;
    pz += vel[i].z;
  }
  for (int i = 0; i < n; ++i) { // zero total momentum (equal masses)
    vel[i].x -= (float)(px / n);
    vel[i].y -= (float)(py / n);
    vel[i].z -= (float)(pz / n);
  }
}

static double total_energy(const float4 *pos, const float4 *vel, int n, double *momentum) {
  double ke = 0.0, pe = 0.0, mx = 0.0, my = 0.0, mz = 0.0;
  for (int i = 0; i < n; ++i) {
    double m = pos[i].w;
    ke += 0.5 * m * ((double)vel[i].x * vel[i].x + (double)vel[i].y * vel[i].y +
                     (double)vel[i].z * vel[i].z);
    mx += m * vel[i].x;
    my += m * vel[i].y;
    mz += m * vel[i].z;
    for (int j = i + 1; j < n; ++j) {
      double dx = (double)pos[j].x - pos[i].x, dy = (double)pos[j].y - pos[i].y,
             dz = (double)pos[j].z - pos[i].z;
      pe -= m * pos[j].w / sqrt(dx * dx + dy * dy + dz * dz + EPS2);
    }
  }
  *momentum = sqrt(mx * mx + my * my + mz * mz);
  return ke + pe;
}

int main() {
  float4 *h_pos[SYSTEMS], *h_vel[SYSTEMS], *d_pos[SYSTEMS], *d_vel[SYSTEMS];
  double e0[SYSTEMS];
  float *d_ke;
  float h_ke[SYSTEMS];
  cudaMalloc(&d_ke, SYSTEMS * sizeof(float));
  for (int s = 0; s < SYSTEMS; ++s) {
    h_pos[s] = (float4 *)malloc(BODIES * sizeof(float4));
    h_vel[s] = (float4 *)malloc(BODIES * sizeof(float4));
    init_system(h_pos[s], h_vel[s], BODIES, s);
    double p;
    e0[s] = total_energy(h_pos[s], h_vel[s], BODIES, &p);
    cudaMalloc(&d_pos[s], BODIES * sizeof(float4));
    cudaMalloc(&d_vel[s], BODIES * sizeof(float4));
    cudaMemcpy(d_pos[s], h_pos[s], BODIES * sizeof(float4), cudaMemcpyHostToDevice);
    cudaMemcpy(d_vel[s], h_vel[s], BODIES * sizeof(float4), cudaMemcpyHostToDevice);
  }

  for (int step = 1; step <= STEPS; ++step) {
    for (int s = 0; s < SYSTEMS; ++s) {
      accel_kick<<<BODIES / TILE, TILE>>>(d_pos[s], d_vel[s], BODIES, DT, EPS2);
      drift<<<BODIES / TILE, TILE>>>(d_pos[s], d_vel[s], BODIES, DT);
    }
    if (step % REPORT_EVERY == 0) {
      for (int s = 0; s < SYSTEMS; ++s) kinetic<<<1, BODIES>>>(d_pos[s], d_vel[s], d_ke + s);
      cudaMemcpy(h_ke, d_ke, SYSTEMS * sizeof(float), cudaMemcpyDeviceToHost);
      printf("step %4d: kinetic energy", step);
      for (int s = 0; s < SYSTEMS; ++s) printf(" %.6e", h_ke[s]);
      printf("\n");
    }
  }

  int failures = 0;
  for (int s = 0; s < SYSTEMS; ++s) {
    cudaMemcpy(h_pos[s], d_pos[s], BODIES * sizeof(float4), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_vel[s], d_vel[s], BODIES * sizeof(float4), cudaMemcpyDeviceToHost);
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  for (int s = 0; s < SYSTEMS; ++s) {
    double mom;
    double e1 = total_energy(h_pos[s], h_vel[s], BODIES, &mom);
    double drift_rel = fabs(e1 - e0[s]) / fabs(e0[s]);
    printf("system %d: energy %.6f -> %.6f, momentum %.2e\n", s, e0[s], e1, mom);
    if (drift_rel > 0.05 || mom > 1e-4) ++failures;
    cudaFree(d_pos[s]);
    cudaFree(d_vel[s]);
    free(h_pos[s]);
    free(h_vel[s]);
  }
  cudaFree(d_ke);
  if (failures) {
    printf("FAILED: %d systems did not conserve energy/momentum\n", failures);
    return 1;
  }
  printf("tiny_kernels: OK\n");
  return 0;
}
