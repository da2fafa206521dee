// tiles2d: local contrast normalisation (9 x 9 window) of an 8192 x 8192 float image
// that lives in host memory, processed in 2048 x 2048 tiles. Each tile and its 4-pixel
// halo is cut out of the host image with cudaMemcpy2D, normalised on the GPU, and the
// result is written back into the host output image with cudaMemcpy2D. The host then
// checksums the whole output and checks sampled pixels against a CPU implementation.
//
// Pattern: independent tiles of one large pitched image (2D copies).
// Overlap in principle: uploading tile t+1, normalising tile t and downloading tile
// t-1 can overlap; with the image in pinned memory the 2D copies also run at full
// speed, and the host can produce the image band by band while earlier bands are
// already on the GPU.
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

static const int W = 8192, H = 8192;
static const int TILE = 2048;
#define R 4

// in: the tile region [x0, x0 + rw) x [y0, y0 + rh) of the image, row pitch rw floats.
// out: TILE x TILE outputs for global pixels [gx, gx + TILE) x [gy, gy + TILE).
__global__ void local_contrast(const float *in, int rw, int x0, int y0, float *out, int gx,
                               int gy, int w, int h) {
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  int ty = blockIdx.y * blockDim.y + threadIdx.y;
  if (tx >= TILE || ty >= TILE) return;
  int x = gx + tx, y = gy + ty;
  float s = 0.0f, s2 = 0.0f;
  for (int dy = -R; dy <= R; ++dy) {
    int yy = min(max(y + dy, 0), h - 1) - y0;
    for (int dx = -R; dx <= R; ++dx) {
      int xx = min(max(x + dx, 0), w - 1) - x0;
      float v = in[yy * rw + xx];
      s += v;
      s2 += v * v;
    }
  }
  const float inv_n = 1.0f / ((2 * R + 1) * (2 * R + 1));
  float mean = s * inv_n;
  float var = fmaxf(s2 * inv_n - mean * mean, 0.0f);
  float c = in[(y - y0) * rw + (x - x0)];
  out[ty * TILE + tx] = (c - mean) / sqrtf(var + 0.01f);
}

static inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

static void make_rows(float *img, int w, int y_begin, int y_end) {
  const double PI = 3.14159265358979323846;
  float wave[256];
  for (int i = 0; i < 256; ++i) wave[i] = (float)sin(2.0 * PI * i / 256.0);
  for (int y = y_begin; y < y_end; ++y)
    for (int x = 0; x < w; ++x) {
      float noise = (float)(hash32((uint32_t)y * (uint32_t)w + (uint32_t)x) >> 8) *
                    (1.0f / 16777216.0f);
      img[(size_t)y * w + x] =
          0.5f + 0.15f * wave[(x / 3) & 255] + 0.15f * wave[(y / 5 + x / 7) & 255] +
          0.2f * noise;
    }
}

static float cpu_pixel(const float *img, int w, int h, int x, int y) {
  float s = 0.0f, s2 = 0.0f;
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) {
      int yy = y + dy < 0 ? 0 : (y + dy > h - 1 ? h - 1 : y + dy);
      int xx = x + dx < 0 ? 0 : (x + dx > w - 1 ? w - 1 : x + dx);
      float v = img[(size_t)yy * w + xx];
      s += v;
      s2 += v * v;
    }
  const float inv_n = 1.0f / ((2 * R + 1) * (2 * R + 1));
  float mean = s * inv_n;
  float var = fmaxf(s2 * inv_n - mean * mean, 0.0f);
  return (img[(size_t)y * w + x] - mean) / sqrtf(var + 0.01f);
}

int main() {
  const size_t pixels = (size_t)W * H;
  float *h_img = (float *)malloc(pixels * sizeof(float));
  float *h_out = (float *)malloc(pixels * sizeof(float));
  make_rows(h_img, W, 0, H);

  const int region = TILE + 2 * R;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, (size_t)region * region * sizeof(float)));
  CHECK(cudaMalloc(&d_out, (size_t)TILE * TILE * sizeof(float)));
  dim3 block(32, 8), grid(TILE / 32, TILE / 8);
  for (int ty = 0; ty < H / TILE; ++ty)
    for (int tx = 0; tx < W / TILE; ++tx) {
      const int gx = tx * TILE, gy = ty * TILE;
      const int x0 = gx - R < 0 ? 0 : gx - R, y0 = gy - R < 0 ? 0 : gy - R;
      const int x1 = gx + TILE + R > W ? W : gx + TILE + R;
      const int y1 = gy + TILE + R > H ? H : gy + TILE + R;
      const int rw = x1 - x0, rh = y1 - y0;
      CHECK(cudaMemcpy2D(d_in, rw * sizeof(float), h_img + (size_t)y0 * W + x0,
                         W * sizeof(float), rw * sizeof(float), rh, cudaMemcpyHostToDevice));
      local_contrast<<<grid, block>>>(d_in, rw, x0, y0, d_out, gx, gy, W, H);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy2D(h_out + (size_t)gy * W + gx, W * sizeof(float), d_out,
                         TILE * sizeof(float), TILE * sizeof(float), TILE,
                         cudaMemcpyDeviceToHost));
    }

  long long qsum = 0;
  long positive = 0;
  for (size_t i = 0; i < pixels; ++i) {
    qsum += (long long)lrintf(h_out[i] * 1024.0f);
    if (h_out[i] > 0.0f) ++positive;
  }
  int bad = 0;
  for (int k = 0; k < 256; ++k) {
    uint32_t hk = hash32((uint32_t)k + 99u);
    int x = (int)(hk % W), y = (int)((hk >> 8) % H);
    if (k < 4) { // include the corners
      x = (k & 1) ? W - 1 : 0;
      y = (k & 2) ? H - 1 : 0;
    }
    float ref = cpu_pixel(h_img, W, H, x, y);
    if (fabsf(ref - h_out[(size_t)y * W + x]) > 1e-3f * (1.0f + fabsf(ref))) ++bad;
  }
  printf("quantised sum %lld, positive pixels %ld, out[0] %.5f out[mid] %.5f\n", qsum,
         positive, h_out[0], h_out[pixels / 2 + W / 2]);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_img);
  free(h_out);
  if (bad) {
    printf("FAILED: %d sampled pixels differ from the CPU reference\n", bad);
    return 1;
  }
  printf("tiles2d: OK\n");
  return 0;
}
