#pragma once
#include <cmath>

// Host reference of y = a * x + y, repeated `repeat` times.
inline bool check_saxpy(const float *x, const float *y0, const float *y, float a, int n,
                        int repeat) {
  for (int i = 0; i < n; i++) {
    float expect = y0[i];
    for (int r = 0; r < repeat; r++)
      expect = a * x[i] + expect;
    if (std::fabs(expect - y[i]) > 1e-3f * std::fabs(expect) + 1e-3f)
      return false;
  }
  return true;
}
