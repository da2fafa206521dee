// A vector whose elements may move after its copies (a push_back after the
// copy, here or in a helper it is passed to by reference; a move; a return),
// that the program's own cudaMemcpyAsync uses, with an iterator into it kept
// where the analysis does not follow it, or whose function has a goto
// that could jump past the registration, stays pageable; the report says why.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s --implicit-check-not=sa_registered_scope < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <utility>
#include <vector>

__global__ void twice(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2;
}

static void grow(std::vector<int> &v) { v.push_back(7); }

static std::vector<int>::iterator mark;

static std::vector<int> download(const int *d, int n) {
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  return out;
}

static int jumpy(int *d, int n) {
  std::vector<int> in(n, 8);
  if (n < 0)
    goto done;
  cudaMemcpy(d, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
done:
  return in[0];
}

int main() {
  const int n = 1 << 24;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  std::vector<int> later(n, 1);
  cudaMemcpy(d, later.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(d, n);
  later.push_back(2);
  std::vector<int> moved(n, 3);
  cudaMemcpy(d, &moved[0], n * sizeof(int), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(d, n);
  std::vector<int> taken = std::move(moved);
  std::vector<int> grown(n, 4);
  cudaMemcpy(grown.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  grow(grown);
  std::vector<int> own(n, 5);
  cudaMemcpyAsync(own.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, 0);
  cudaDeviceSynchronize();
  cudaMemcpy(d, own.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  std::vector<int> marked(n, 9);
  cudaMemcpy(d, marked.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  mark = marked.begin() + 1;
  std::vector<int> back = download(d, n);
  printf("%d %d %d %d %d %d\n", later[0], taken[0], grown[n], own[0], back[0], jumpy(d, n));
  // CHECK: printf("%d %d %d %d %d %d\n", later[0], taken[0], grown[n], own[0], back[0], jumpy(d, n));
  cudaFree(d);
  return 0;
}

// REPORT: {{.*}}:{{[0-9]+}}: host buffer `out`: pageable: `out` is returned from `download` (line {{[0-9]+}})
// REPORT: {{.*}}:{{[0-9]+}}: host buffer `in`: pageable: `jumpy` uses goto (line {{[0-9]+}}), which may jump past the registration
// REPORT: {{.*}}:{{[0-9]+}}: host buffer `later`: pageable: its GPU copy (line {{[0-9]+}}) does not come after the last statement that may reallocate `later` (line {{[0-9]+}})
// REPORT: {{.*}}:{{[0-9]+}}: host buffer `moved`: pageable: `moved` is moved (line {{[0-9]+}})
// REPORT: {{.*}}:{{[0-9]+}}: host buffer `grown`: pageable: its GPU copy (line {{[0-9]+}}) does not come after the last statement that may reallocate `grown` (line {{[0-9]+}})
// REPORT: {{.*}}:{{[0-9]+}}: host buffer `own`: pageable: the program's own cudaMemcpyAsync on line {{[0-9]+}} would become truly asynchronous (with pageable memory it returns only once the host side of the copy is done)
// REPORT: {{.*}}:{{[0-9]+}}: host buffer `marked`: pageable: an iterator into `marked` is kept in `mark`, which the pinning analysis does not follow (line {{[0-9]+}})
