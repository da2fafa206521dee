// signal.h - what main.cu and smoothing.cu share.
#pragma once

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "CUDA error at %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

// Elements per signal and threads per block.
const int kSignalLength = 1 << 22;
const int kBlock = 256;

// Deterministic value in [0, 1) for index i of signal `seed`.
inline float signal_value(unsigned seed, unsigned i) {
  unsigned x = i * 2654435761u + seed * 40503u;
  x ^= x >> 15;
  x *= 0x2c1b3c6dU;
  x ^= x >> 12;
  return (float)(x >> 8) * (1.0f / 16777216.0f);
}

// Smooths signal `seed` (n floats) on the GPU with a 3-point stencil, checks
// it against the host, and returns its sum (smoothing.cu).
double smoothed_checksum(unsigned seed, int n, float *max_error);
