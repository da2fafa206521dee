// kmeans (expert asynchronous version): weighted k-means clustering (K = 32) of 4M
// points in 3D, held in std::vector<Point>. Each iteration uploads the centroids,
// assigns every point to its nearest centroid on the GPU, downloads the labels and
// recomputes the centroids on the host (double-precision sums over
// std::vector<ClusterStats>). At the end a sample of labels is re-derived on the CPU.
//
// Hand-written asynchronous version: the label vector's storage is page-locked with
// cudaHostRegister (and unregistered before the vector dies), the centroids go through a
// small pinned staging buffer, and each iteration assigns and downloads the labels in
// eight chunks with an event per chunk, so the host accumulates chunk c (in the same
// order as the original, hence the same sums) while later chunks are still in flight.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),    \
              __FILE__, __LINE__);                                             \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

struct Point {
  float x, y, z, w; // position and weight
};
struct Centroid {
  float x, y, z, pad;
};
struct ClusterStats {
  double sx, sy, sz, sw;
  long count;
};

static const int NPOINTS = 1 << 22;
static const int K = 32;
static const int ITERS = 20;

__global__ void assign(const Point *pts, const Centroid *cent, int *labels, int n, int k) {
  __shared__ Centroid sc[K];
  if (threadIdx.x < k) sc[threadIdx.x] = cent[threadIdx.x];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Point p = pts[i];
  int best = 0;
  float bestd = 3.4e38f;
  for (int c = 0; c < k; ++c) {
    float dx = p.x - sc[c].x, dy = p.y - sc[c].y, dz = p.z - sc[c].z;
    float d = dx * dx + dy * dy + dz * dz;
    if (d < bestd) {
      bestd = d;
      best = c;
    }
  }
  labels[i] = best;
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
static inline float u01(uint32_t k) { return (float)(hash32(k) >> 8) * (1.0f / 16777216.0f); }

static std::vector<Point> make_points(int n) {
  std::vector<Point> pts(n);
  for (int i = 0; i < n; ++i) {
    uint32_t blob = hash32((uint32_t)i) % 40u; // 40 blobs, 32 clusters
    float cx = 10.0f * u01(blob * 3u + 1000u), cy = 10.0f * u01(blob * 3u + 1001u),
          cz = 10.0f * u01(blob * 3u + 1002u);
    uint32_t k = (uint32_t)i * 4u + 77u;
    pts[i].x = cx + 1.5f * (u01(k) - 0.5f);
    pts[i].y = cy + 1.5f * (u01(k + 1) - 0.5f);
    pts[i].z = cz + 1.5f * (u01(k + 2) - 0.5f);
    pts[i].w = 0.5f + u01(k + 3);
  }
  return pts;
}

static inline double dist2(const Point &p, const Centroid &c) {
  double dx = (double)p.x - c.x, dy = (double)p.y - c.y, dz = (double)p.z - c.z;
  return dx * dx + dy * dy + dz * dz;
}

int main() {
  const int CHUNKS = 8;
  const int chunk = NPOINTS / CHUNKS;
  std::vector<Point> points = make_points(NPOINTS);
  std::vector<Centroid> centroids(K);
  for (int c = 0; c < K; ++c) {
    const Point &p = points[(size_t)c * (NPOINTS / K)];
    centroids[c] = Centroid{p.x, p.y, p.z, 0.0f};
  }
  std::vector<int> labels(NPOINTS);
  CHECK(cudaHostRegister(labels.data(), NPOINTS * sizeof(int), cudaHostRegisterDefault));
  Centroid *h_cent;
  CHECK(cudaMallocHost(&h_cent, K * sizeof(Centroid)));

  Point *d_points;
  Centroid *d_centroids;
  int *d_labels;
  CHECK(cudaMalloc(&d_points, NPOINTS * sizeof(Point)));
  CHECK(cudaMalloc(&d_centroids, K * sizeof(Centroid)));
  CHECK(cudaMalloc(&d_labels, NPOINTS * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t arrived[CHUNKS];
  for (int c = 0; c < CHUNKS; ++c)
    CHECK(cudaEventCreateWithFlags(&arrived[c], cudaEventDisableTiming));
  // One-time upload from pageable memory (pinning 64 MiB for a single copy does not pay).
  CHECK(cudaMemcpyAsync(d_points, points.data(), NPOINTS * sizeof(Point),
                        cudaMemcpyHostToDevice, s));

  const int chunk_blocks = (chunk + 255) / 256;
  std::vector<Centroid> used(K); // the centroids of the last assignment
  double inertia = 0.0;
  for (int it = 0; it < ITERS; ++it) {
    // The previous upload of h_cent finished before the previous labels arrived.
    for (int c = 0; c < K; ++c) h_cent[c] = centroids[c];
    CHECK(cudaMemcpyAsync(d_centroids, h_cent, K * sizeof(Centroid), cudaMemcpyHostToDevice, s));
    for (int c = 0; c < CHUNKS; ++c) {
      const size_t off = (size_t)c * chunk;
      assign<<<chunk_blocks, 256, 0, s>>>(d_points + off, d_centroids, d_labels + off, chunk, K);
      CHECK(cudaMemcpyAsync(labels.data() + off, d_labels + off, chunk * sizeof(int),
                            cudaMemcpyDeviceToHost, s));
      CHECK(cudaEventRecord(arrived[c], s));
    }
    CHECK(cudaGetLastError());

    std::vector<ClusterStats> stats(K, ClusterStats{0.0, 0.0, 0.0, 0.0, 0});
    inertia = 0.0;
    for (int c = 0; c < CHUNKS; ++c) {
      CHECK(cudaEventSynchronize(arrived[c]));
      const int end = (c + 1) * chunk;
      for (int i = c * chunk; i < end; ++i) {
        const Point &p = points[i];
        ClusterStats &st = stats[labels[i]];
        st.sx += (double)p.w * p.x;
        st.sy += (double)p.w * p.y;
        st.sz += (double)p.w * p.z;
        st.sw += p.w;
        st.count++;
        inertia += p.w * dist2(p, centroids[labels[i]]);
      }
    }
    used = centroids;
    double shift = 0.0;
    for (int c = 0; c < K; ++c) {
      if (stats[c].count == 0) continue; // empty cluster keeps its centroid
      Centroid nc{(float)(stats[c].sx / stats[c].sw), (float)(stats[c].sy / stats[c].sw),
                  (float)(stats[c].sz / stats[c].sw), 0.0f};
      shift = fmax(shift, sqrt(dist2(Point{nc.x, nc.y, nc.z, 0.0f}, centroids[c])));
      centroids[c] = nc;
    }
    if (it % 5 == 4 || it == ITERS - 1)
      printf("iter %2d: inertia %.6e max shift %.6e\n", it, inertia, shift);
  }

  // CPU check: a sample of labels must point at a nearest centroid of that assignment.
  int bad = 0;
  for (int i = 0; i < NPOINTS; i += 1021) {
    double best = 1e300;
    for (int c = 0; c < K; ++c) best = fmin(best, dist2(points[i], used[c]));
    if (dist2(points[i], used[labels[i]]) > best * (1.0 + 1e-5) + 1e-9) ++bad;
  }
  double csum = 0.0;
  for (int c = 0; c < K; ++c) csum += centroids[c].x + 2.0 * centroids[c].y + 3.0 * centroids[c].z;
  printf("final inertia %.6e, centroid checksum %.6f\n", inertia, csum);

  CHECK(cudaStreamSynchronize(s)); // nothing is pending; keep the invariant explicit
  for (int c = 0; c < CHUNKS; ++c) CHECK(cudaEventDestroy(arrived[c]));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_points));
  CHECK(cudaFree(d_centroids));
  CHECK(cudaFree(d_labels));
  CHECK(cudaFreeHost(h_cent));
  CHECK(cudaHostUnregister(labels.data()));
  if (bad) {
    printf("FAILED: %d sampled labels are not nearest centroids\n", bad);
    return 1;
  }
  printf("kmeans: OK\n");
  return 0;
}
