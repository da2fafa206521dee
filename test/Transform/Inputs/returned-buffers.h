// Helpers of a shared header that return host buffers they allocate: other
// files may call them, so pinning leaves them as written.
#include <cstdlib>

inline float *make_random_float(size_t n) {
  float *arr = (float *)malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    arr[i] = (float)rand() / (float)RAND_MAX;
  return arr;
}

template <class T> T *allocate_aligned(size_t size, size_t alignment = 64) {
  T *ptr = nullptr;
  if (posix_memalign((void **)&ptr, alignment, size * sizeof(T)))
    return nullptr;
  return ptr;
}
