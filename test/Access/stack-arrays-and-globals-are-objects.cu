// A stack array, a global array and a __constant__ symbol are objects (the
// storage of their variables); a copy names the one it touches.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
float table[64];
__constant__ float coeffs[16];

int main() {
  float local[64];
  float *d;
  cudaMalloc(&d, sizeof local);
  cudaMemcpy(local, d, sizeof local, cudaMemcpyDeviceToHost);
  cudaMemcpy(table, d, sizeof table, cudaMemcpyDeviceToHost);
  cudaMemcpyToSymbol(coeffs, table, sizeof coeffs);
  // CHECK-LABEL: summary of main (host, line 9)
  // CHECK-NEXT: device reads: table
  // CHECK-NEXT: device writes: table, coeffs
  // CHECK: op0 line 13:3 cudaMemcpy reads: d; writes: local
  // CHECK-NEXT: op1 line 14:3 cudaMemcpy reads: d; writes: table
  // CHECK-NEXT: op2 line 15:3 cudaMemcpyToSymbol reads: table; writes: coeffs
  return 0;
}
