//===- FunctionSummaryTest.cpp - Kernel and device-function summaries ---------===//
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Access/MemoryObjects.h"

#include "Support/ParseCuda.h"

#include "clang/AST/Decl.h"
#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

TEST(FunctionSummary, ReadOnlyAndWrittenParametersAreTold) {
  auto AST = parseCuda(R"cu(
__global__ void k(const float *in, float *out, float *both, int n) {
  int i = threadIdx.x;
  out[i] = in[i];
  both[i] += 1.0f;
})cu");
  FunctionSummaries S;
  const FunctionSummary &K = S.get(findFunction(*AST, "k"));
  EXPECT_EQ(K.ParamModes[0], ReadAccess);
  EXPECT_EQ(K.ParamModes[1], WriteAccess);
  EXPECT_EQ(K.ParamModes[2], ReadWriteAccess);
  EXPECT_EQ(K.ParamModes[3], NoAccess);
  EXPECT_EQ(K.UnknownMode, NoAccess);
}

TEST(FunctionSummary, DeviceFunctionCalleesArePropagated) {
  auto AST = parseCuda(R"cu(
__device__ void store(float *p, float v) { *p = v; }
__global__ void k(float *a, const float *b) { store(a + threadIdx.x, b[0]); })cu");
  FunctionSummaries S;
  const FunctionSummary &K = S.get(findFunction(*AST, "k"));
  EXPECT_EQ(K.ParamModes[0], WriteAccess);
  EXPECT_EQ(K.ParamModes[1], ReadAccess);
}

TEST(FunctionSummary, GlobalsAndSharedMemory) {
  auto AST = parseCuda(R"cu(
__device__ int counter;
__global__ void k(int *out) {
  __shared__ int tile[32];
  tile[threadIdx.x] = counter;
  out[threadIdx.x] = tile[0];
})cu");
  FunctionSummaries S;
  const FunctionSummary &K = S.get(findFunction(*AST, "k"));
  ASSERT_EQ(K.Globals.size(), 1u);
  EXPECT_EQ(K.Globals.begin()->second, ReadAccess);
  EXPECT_EQ(K.ParamModes[0], WriteAccess);
  EXPECT_EQ(K.UnknownMode, NoAccess); // shared memory is private to the block
}

TEST(FunctionSummary, AtomicsReadAndWrite) {
  auto AST = parseCuda(R"cu(
__global__ void k(int *sum, const int *v) { atomicAdd(sum, v[threadIdx.x]); })cu");
  FunctionSummaries S;
  const FunctionSummary &K = S.get(findFunction(*AST, "k"));
  EXPECT_EQ(K.ParamModes[0], ReadWriteAccess);
  EXPECT_EQ(K.ParamModes[1], ReadAccess);
}

TEST(FunctionSummary, PointersLoadedFromMemoryAreUnknown) {
  auto AST = parseCuda(R"cu(
__global__ void k(float **table) { table[0][threadIdx.x] = 1.0f; })cu");
  FunctionSummaries S;
  const FunctionSummary &K = S.get(findFunction(*AST, "k"));
  EXPECT_EQ(K.UnknownMode, WriteAccess);
  EXPECT_EQ(K.ParamModes[0], ReadAccess);
}

TEST(FunctionSummary, RecursionFallsBackToUnknown) {
  auto AST = parseCuda(R"cu(
__device__ void walk(int *p, int n) { if (n) { p[n] = 0; walk(p, n - 1); } }
__global__ void k(int *p) { walk(p, 4); })cu");
  FunctionSummaries S;
  const FunctionSummary &K = S.get(findFunction(*AST, "k"));
  EXPECT_EQ(K.ParamModes[0], WriteAccess);
  EXPECT_EQ(K.UnknownMode, ReadWriteAccess);
}

TEST(FunctionSummary, TrivialStructAssignmentIsAPlainStore) {
  auto AST = parseCuda(R"cu(
__global__ void k(const float4 *in, float4 *out) {
  float4 v = in[threadIdx.x];
  v.x += 1.0f;
  out[threadIdx.x] = v;
})cu");
  FunctionSummaries S;
  const FunctionSummary &K = S.get(findFunction(*AST, "k"));
  EXPECT_EQ(K.ParamModes[0], ReadAccess);
  EXPECT_EQ(K.ParamModes[1], WriteAccess);
  EXPECT_EQ(K.UnknownMode, NoAccess);
}

TEST(FunctionSummary, HostHelperThroughTheApiModel) {
  auto AST = parseCuda(R"cu(
#include <cstring>
void copy_back(float *dst, const float *dev, float *scratch, int n) {
  cudaMemcpy(scratch, dev, n * 4, cudaMemcpyDeviceToHost);
  memcpy(dst, scratch, n * 4);
})cu");
  FunctionSummaries S;
  const FunctionSummary &H = S.get(findFunction(*AST, "copy_back"));
  EXPECT_EQ(H.ParamModes[0], WriteAccess);
  EXPECT_EQ(H.ParamModes[1], ReadAccess);
  EXPECT_EQ(H.ParamModes[2], ReadWriteAccess);
  EXPECT_TRUE(H.PerformsGpuOps);
  EXPECT_EQ(H.UnknownMode, NoAccess);
}

TEST(FunctionSummary, HostHelperCallingUnknownCodeIsUnknown) {
  auto AST = parseCuda(R"cu(
void external(float *);
void helper(float *p) { external(p); })cu");
  FunctionSummaries S;
  const FunctionSummary &H = S.get(findFunction(*AST, "helper"));
  EXPECT_EQ(H.UnknownMode, ReadWriteAccess);
  EXPECT_NE(H.UnknownWhy.find("external"), std::string::npos);
}

} // namespace
