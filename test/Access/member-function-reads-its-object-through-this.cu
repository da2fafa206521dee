// A member function's summary names its object as `*this` and the memory its
// fields point to as `*this->field`; a call on an object maps them to that
// object, so a method that fills the host buffer waits for the copy into it.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu --dump=summaries > %t.dump
// RUN: %FileCheck %s --check-prefix=DUMP < %t.dump
// RUN: %streamalloc --profitability=off --stream-ordered-alloc=off %t.cu -o %t.out.cu
// RUN: %FileCheck %s < %t.out.cu --implicit-check-not=Synchronize
// RUN: %nvcc %t.out.cu
#include <cstdlib>

struct Grid {
  float *cells;
  int n;
  void clear() {
    for (int i = 0; i < n; ++i)
      cells[i] = 0.0f;
  }
};

int main() {
  Grid g{(float *)malloc(64 * sizeof(float)), 64}, other{(float *)malloc(64), 16};
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaMemcpy(d, g.cells, 64 * sizeof(float), cudaMemcpyHostToDevice);
  other.clear();
  g.clear();
  // CHECK: cudaMemcpyAsync(d, g.cells, 64 * sizeof(float), cudaMemcpyHostToDevice, sa_stream({{[0-9]+}}));
  // CHECK: other.clear();
  // CHECK: cudaStreamSynchronize(sa_stream({{[0-9]+}}));  // streamalloc: g.cells is written below (read by cudaMemcpy on line 26)
  // CHECK-NEXT: g.clear();
  // DUMP-LABEL: summary of Grid::clear (host, line 16)
  // DUMP-NEXT: host reads: *this
  // DUMP-NEXT: host writes: *this->cells
  cudaFree(d);
  return 0;
}
