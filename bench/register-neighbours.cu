// What CUDA does with two host buffers that share a page when one of them is
// registered (cudaHostRegister), the situation of the tool's sa_register on
// small malloc'd buffers. It prints, for two small buffers on one page:
// whether the second registration fails, which of the two CUDA reports as
// page-locked, and what the tool's release helpers leave as the last error;
// then, for registered buffers of several sizes, whether an unregistered
// neighbour right after one is reported page-locked (if so, the program's own
// cudaMemcpyAsync of that neighbour would become truly asynchronous).
//
//   nvcc -O2 -arch=sm_90 bench/register-neighbours.cu -o regprobe && ./regprobe
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
// The release helper as the tool emitted it before session 17 (it now
// clears the error of a refused unregister).
static inline bool sa_is_page_locked(void *p) {
  cudaPointerAttributes a;
  return p && cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeHost;
}
static inline void sa_registered_free(void *p) {
  if (sa_is_page_locked(p))
    cudaHostUnregister(p);
  free(p);
}
__global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
// Milliseconds the host spends in a cudaMemcpyAsync to `dst` queued behind a
// ~50 ms kernel: close to 0 means CUDA took `dst` for page-locked memory and
// the call returned before the copy ran; ~50 means it waited (pageable).
static double asyncDownloadCallMs(char *dst, const char *dev, size_t bytes) {
  spin<<<1, 1>>>(100000000LL);
  auto t0 = std::chrono::steady_clock::now();
  cudaMemcpyAsync(dst, dev, bytes, cudaMemcpyDeviceToHost, 0);
  auto t1 = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}
static void show(const char *when) {
  cudaError_t e = cudaGetLastError();
  printf("%s: last error %s\n", when, cudaGetErrorString(e));
}
int main() {
  cudaFree(0);
  {
    char *plain = (char *)malloc(64), *dev = nullptr;
    cudaMalloc(&dev, 64);
    asyncDownloadCallMs(plain, dev, 64);
    printf("control: async download into a pageable buffer, nothing registered: %.2f ms\n",
           asyncDownloadCallMs(plain, dev, 64));
    cudaFree(dev);
    free(plain);
  }
  for (int order = 0; order < 2; ++order) {
    char *a = (char *)malloc(64), *b = (char *)malloc(64);
    printf("same page: %d\n", (int)(((uintptr_t)a >> 12) == ((uintptr_t)b >> 12)));
    cudaError_t ra = cudaHostRegister(a, 64, cudaHostRegisterDefault);
    cudaError_t rb = cudaHostRegister(b, 64, cudaHostRegisterDefault);
    printf("register a: %s, b: %s\n", cudaGetErrorString(ra), cudaGetErrorString(rb));
    (void)cudaGetLastError();
    printf("a locked %d, b locked %d\n", sa_is_page_locked(a), sa_is_page_locked(b));
    show("after register");
    if (order == 0) {
      sa_registered_free(b);
      show("after free b");
      sa_registered_free(a);
      show("after free a");
    } else {
      sa_registered_free(a);
      show("after free a");
      sa_registered_free(b);
      show("after free b");
    }
  }
  // A neighbour on the registered buffer's page: does CUDA see it as
  // page-locked (then the program's own cudaMemcpyAsync of it would be
  // truly asynchronous)?
  for (size_t size : {64, 1000, 5000, 100000}) {
    char *a = (char *)malloc(size), *b = (char *)malloc(64);
    cudaError_t ra = cudaHostRegister(a, size, cudaHostRegisterDefault);
    cudaPointerAttributes at;
    cudaError_t rq = cudaPointerGetAttributes(&at, b);
    printf(
        "size %zu: register a %s; neighbour b %+ld bytes away, same page %d: query %s, type %d\n",
        size, cudaGetErrorString(ra), (long)(b - a),
        (int)((((uintptr_t)a + size - 1) >> 12) == ((uintptr_t)b >> 12)), cudaGetErrorString(rq),
        (int)at.type);
    (void)cudaGetLastError();
    char *dev = nullptr;
    cudaMalloc(&dev, 64);
    asyncDownloadCallMs(b, dev, 64); // warm-up
    printf("  async download into neighbour b: call took %.2f ms; into registered a: %.2f ms\n",
           asyncDownloadCallMs(b, dev, 64), asyncDownloadCallMs(a, dev, 64));
    cudaFree(dev);
    cudaHostUnregister(a);
    free(a);
    free(b);
  }
  // The same question with the neighbour certainly on the registered range's
  // page: register the first 64 bytes of a page-aligned region and ask about
  // bytes 128.. of that page and about the next page.
  {
    char *region = (char *)aligned_alloc(4096, 3 * 4096), *dev = nullptr;
    cudaMalloc(&dev, 64);
    cudaError_t ra = cudaHostRegister(region, 64, cudaHostRegisterDefault);
    for (size_t offset : {size_t(128), size_t(4096 + 128)}) {
      cudaPointerAttributes at;
      cudaError_t rq = cudaPointerGetAttributes(&at, region + offset);
      (void)cudaGetLastError();
      asyncDownloadCallMs(region + offset, dev, 64);
      printf("registered [0, 64) of a page (%s); byte %zu: query %s, type %d; async download "
             "into it: call took %.2f ms\n",
             cudaGetErrorString(ra), offset, cudaGetErrorString(rq), (int)at.type,
             asyncDownloadCallMs(region + offset, dev, 64));
    }
    cudaHostUnregister(region);
    cudaFree(dev);
    free(region);
  }
  return 0;
}
