// A device buffer whose pointer goes where the analysis cannot follow it
// keeps its synchronous cudaMalloc and cudaFree (both sides, always
// together), and the report says why; buffers held only by local pointers
// next to them are still made stream-ordered (also one whose pointer starts
// out null: the rewritten release, like cudaFree, does nothing for null).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc --profitability=off %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>

__global__ void fill(float *p) { p[threadIdx.x] = threadIdx.x; }

float *g_keep;
void consume(float *p); // defined elsewhere

struct Holder {
  float *p;
};

float *make(int n) {
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  // CHECK: cudaMalloc(&p, n * sizeof(float));
  return p;
}

void release(float *p) { cudaFree(p); }

int main() {
  float *global_one, *unknown_one, *in_struct, *local_one, *freed_by_helper, *null_one = nullptr;
  float *captured;
  cudaMalloc(&captured, 128);
  // CHECK: cudaMalloc(&captured, 128);
  auto release_captured = [&] { cudaFree(captured); };
  cudaMalloc(&global_one, 128);
  cudaMalloc(&unknown_one, 128);
  cudaMalloc(&in_struct, 128);
  cudaMalloc(&local_one, 128);
  cudaMalloc(&freed_by_helper, 128);
  cudaMalloc(&null_one, 128);
  // CHECK: cudaMalloc(&global_one, 128);
  // CHECK-NEXT: cudaMalloc(&unknown_one, 128);
  // CHECK-NEXT: cudaMalloc(&in_struct, 128);
  // CHECK-NEXT: cudaMallocAsync(&local_one, 128, sa_stream({{[0-9]+}}));
  // CHECK-NEXT: cudaMalloc(&freed_by_helper, 128);
  // CHECK-NEXT: cudaMallocAsync(&null_one, 128, sa_stream({{[0-9]+}}));
  g_keep = global_one;
  consume(unknown_one);
  Holder h{in_struct};
  float *made = make(32);
  fill<<<1, 32>>>(global_one);
  fill<<<1, 32>>>(local_one);
  fill<<<1, 32>>>(h.p);
  fill<<<1, 32>>>(made);
  fill<<<1, 32>>>(null_one);
  cudaFree(global_one);
  cudaFree(unknown_one);
  cudaFree(in_struct);
  cudaFree(local_one);
  cudaFree(made);
  release(freed_by_helper);
  cudaFree(null_one);
  release_captured();
  // CHECK: cudaFree(global_one);
  // CHECK: cudaFree(unknown_one);
  // CHECK: cudaFree(in_struct);
  // CHECK-NEXT: sa_free_async(local_one, sa_stream({{[0-9]+}}));
  // CHECK: cudaFree(made);
  // CHECK: sa_free_async(null_one, sa_stream({{[0-9]+}}));
  printf("done\n");
  return 0;
}

// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: its pointer is stored in `g_keep`, which is not a local pointer of `main`
// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: a pointer into it is passed to `consume`, whose body the analysis cannot follow (line [[#]])
// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: `in_struct` is used in a way the analysis does not follow (line [[#]])
// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: it is released in `release` (line [[#]])
// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: a pointer into it is returned from `make` (line [[#]])
// REPORT-DAG: {{.*}}:[[#]]:3: cudaFree: left synchronous: not stream-ordered: it releases memory that is not allocated by a cudaMalloc of `main` held only by its local pointers
// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: async on stream {{.*}}
// REPORT-DAG: {{.*}}:[[#]]:3: cudaMalloc: left synchronous: not stream-ordered: `captured` is captured by a lambda (line [[#]])
// REPORT-DAG: {{.*}}:[[#]]:26: cudaFree: left synchronous: not stream-ordered: it releases memory that is not allocated by a cudaMalloc of `release` held only by its local pointers
