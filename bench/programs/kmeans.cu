// kmeans: weighted k-means clustering (K = 32) of 4M points in 3D, held in
// std::vector<Point>. Each iteration uploads the centroids, assigns every point to its
// nearest centroid on the GPU, downloads the labels and recomputes the centroids on
// the host (double-precision sums over std::vector<ClusterStats>). At the end a sample
// of labels is re-derived on the CPU.
//
// Pattern: a program using std::vector and structs (host buffers are vectors, .data()
// is what gets copied).
// Overlap in principle: modest. Within an iteration the labels can come back in chunks,
// so the host accumulates chunk c while chunk c+1 is downloaded; pinning the label
// vector makes the download itself several times faster.
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
  std::vector<Point> points = make_points(NPOINTS);
  std::vector<Centroid> centroids(K);
  for (int c = 0; c < K; ++c) {
    const Point &p = points[(size_t)c * (NPOINTS / K)];
    centroids[c] = Centroid{p.x, p.y, p.z, 0.0f};
  }
  std::vector<int> labels(NPOINTS);

  Point *d_points;
  Centroid *d_centroids;
  int *d_labels;
  CHECK(cudaMalloc(&d_points, NPOINTS * sizeof(Point)));
  CHECK(cudaMalloc(&d_centroids, K * sizeof(Centroid)));
  CHECK(cudaMalloc(&d_labels, NPOINTS * sizeof(int)));
  CHECK(cudaMemcpy(d_points, points.data(), NPOINTS * sizeof(Point), cudaMemcpyHostToDevice));

  const int blocks = (NPOINTS + 255) / 256;
  std::vector<Centroid> used(K); // the centroids of the last assignment
  double inertia = 0.0;
  for (int it = 0; it < ITERS; ++it) {
    CHECK(cudaMemcpy(d_centroids, centroids.data(), K * sizeof(Centroid),
                     cudaMemcpyHostToDevice));
    assign<<<blocks, 256>>>(d_points, d_centroids, d_labels, NPOINTS, K);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(labels.data(), d_labels, NPOINTS * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<ClusterStats> stats(K, ClusterStats{0.0, 0.0, 0.0, 0.0, 0});
    inertia = 0.0;
    for (int i = 0; i < NPOINTS; ++i) {
      const Point &p = points[i];
      ClusterStats &s = stats[labels[i]];
      s.sx += (double)p.w * p.x;
      s.sy += (double)p.w * p.y;
      s.sz += (double)p.w * p.z;
      s.sw += p.w;
      s.count++;
      inertia += p.w * dist2(p, centroids[labels[i]]);
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

  CHECK(cudaFree(d_points));
  CHECK(cudaFree(d_centroids));
  CHECK(cudaFree(d_labels));
  if (bad) {
    printf("FAILED: %d sampled labels are not nearest centroids\n", bad);
    return 1;
  }
  printf("kmeans: OK\n");
  return 0;
}
