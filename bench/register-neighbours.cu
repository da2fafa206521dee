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
static void show(const char *when) {
  cudaError_t e = cudaGetLastError();
  printf("%s: last error %s\n", when, cudaGetErrorString(e));
}
int main() {
  cudaFree(0);
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
    cudaHostUnregister(a);
    free(a);
    free(b);
  }
  return 0;
}
