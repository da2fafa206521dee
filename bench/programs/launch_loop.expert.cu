// launch_loop.expert: the same integration, written by hand for the launch-bound loop. One step's
// five launches are captured once into a CUDA graph on a non-blocking stream and the graph is
// replayed for every step (one graph launch instead of five kernel launches); the snapshot
// buffers are pinned and read back with asynchronous copies. Kernels and the order of their
// work are the original's, so every output is the same bit for bit.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "CUDA error: %s at line %d\n", cudaGetErrorString(err_), __LINE__);          \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

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
  float *h_u, *h_v;
  CHECK(cudaMallocHost(&h_u, bytes));
  CHECK(cudaMallocHost(&h_v, bytes));
  for (int i = 0; i < CELLS; ++i) { // u = 1 everywhere, v seeded in a few patches
    h_u[i] = 1.0f;
    h_v[i] = (i % 1024 < 24) ? 0.5f + 0.01f * (i % 7) : 0.0f;
  }
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *d_u, *d_v, *d_tu, *d_tv;
  CHECK(cudaMalloc(&d_u, bytes));
  CHECK(cudaMalloc(&d_v, bytes));
  CHECK(cudaMalloc(&d_tu, bytes));
  CHECK(cudaMalloc(&d_tv, bytes));
  CHECK(cudaMemcpyAsync(d_u, h_u, bytes, cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(d_v, h_v, bytes, cudaMemcpyHostToDevice, s));

  const int threads = 256, blocks = (CELLS + threads - 1) / threads;
  cudaGraph_t graph;
  cudaGraphExec_t step_graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  diffuse<<<blocks, threads, 0, s>>>(d_u, d_tu, CELLS, DU);
  diffuse<<<blocks, threads, 0, s>>>(d_v, d_tv, CELLS, DV);
  diffuse<<<blocks, threads, 0, s>>>(d_tu, d_u, CELLS, DU);
  diffuse<<<blocks, threads, 0, s>>>(d_tv, d_v, CELLS, DV);
  react<<<blocks, threads, 0, s>>>(d_u, d_v, CELLS, FEED, KILL, DT);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&step_graph, graph, 0));
  CHECK(cudaGraphDestroy(graph));

  for (int round = 0; round < STEPS / REPORT_EVERY; ++round) {
    for (int step = 0; step < REPORT_EVERY; ++step)
      CHECK(cudaGraphLaunch(step_graph, s));
    CHECK(cudaMemcpyAsync(h_u, d_u, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaMemcpyAsync(h_v, d_v, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    printf("step %6d: total u %.6f, total v %.6f\n", (round + 1) * REPORT_EVERY, total(h_u, CELLS),
           total(h_v, CELLS));
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
  CHECK(cudaGraphExecDestroy(step_graph));
  CHECK(cudaFree(d_u));
  CHECK(cudaFree(d_v));
  CHECK(cudaFree(d_tu));
  CHECK(cudaFree(d_tv));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(h_u));
  CHECK(cudaFreeHost(h_v));
  if (bad) {
    printf("FAILED: %d cells left [0, 1]\n", bad);
    return 1;
  }
  printf("launch_loop: OK\n");
  return 0;
}
