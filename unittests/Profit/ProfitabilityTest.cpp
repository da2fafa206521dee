//===- ProfitabilityTest.cpp - Which safe changes can pay ------------------===//
#include "streamalloc/Profit/Profitability.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Schedule/StreamPlan.h"
#include "streamalloc/Transform/HostPinning.h"
#include "streamalloc/Transform/StreamOrderedAlloc.h"

#include "Support/ParseCuda.h"

#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

const char *Prelude = R"cu(#include <cstdlib>
__global__ void k(float *x) { x[threadIdx.x] += 1.0f; }
double work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += i * 0.5;
  return s;
}
)cu";

/// Per op, in source order: why it should stay synchronous ("" if it pays);
/// \p PageLocked: the parameters every caller passes page-locked memory.
std::vector<std::string> unpaid(const std::string &Code, std::vector<unsigned> PageLocked = {}) {
  auto AST = parseCuda(Prelude + Code);
  FunctionSummaries Device;
  FunctionAccesses FA(*findFunction(*AST, "run"), AST->getASTContext(), Device);
  std::vector<std::string> Blocked(FA.ops().size());
  CraResult First = runCra(FA, Blocked);
  StreamPlan Plan = planStreams(FA, First, {});
  CraResult Cra = runCra(FA, Blocked, {}, &Plan.StreamOf);
  Plan.bindWaits(Cra);
  return unprofitableOps(FA, Cra, Plan, planPinning(FA, Cra, PinMode::Auto, false), PageLocked);
}

TEST(Profitability, CopyOfPageableMemoryWithNothingBesideItStaysSynchronous) {
  auto Why = unpaid(R"cu(void run(float *d, const float *h) {
  cudaMemcpy(d, h, 1024, cudaMemcpyHostToDevice);
  k<<<1, 256>>>(d);
})cu");
  ASSERT_EQ(Why.size(), 2u);
  EXPECT_NE(Why[0].find("stays pageable"), std::string::npos) << Why[0];
  EXPECT_EQ(Why[1], ""); // a launch is asynchronous in the original too
}

TEST(Profitability, PageLockedDownloadWithHostWorkBeforeItsReadPays) {
  auto Why = unpaid(R"cu(double run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(h, d, 1 << 26, cudaMemcpyDeviceToHost);
  double s = work(3);
  s += h[0];
  free(h);
  return s;
})cu");
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_EQ(Why[0], "");
}

TEST(Profitability, DownloadToAPageLockedParameterWithHostWorkPays) {
  // Page-locked by every caller, the parameter's memory lets the host work
  // overlap the copy; not known to be, it counts as pageable.
  const char *Code = R"cu(double run(float *h, float *d) {
  cudaMemcpy(h, d, 1 << 26, cudaMemcpyDeviceToHost);
  double s = work(3);
  return s + h[0];
})cu";
  auto Why = unpaid(Code, {0});
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_EQ(Why[0], "");
  Why = unpaid(Code);
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_NE(Why[0].find("`*h"), std::string::npos) << Why[0];
}

TEST(Profitability, PageLockedDownloadReadAtOnceStaysSynchronous) {
  auto Why = unpaid(R"cu(double run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(h, d, 1 << 26, cudaMemcpyDeviceToHost);
  double s = h[0];
  free(h);
  return s;
})cu");
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_NE(Why[0].find("nothing could overlap it"), std::string::npos) << Why[0];
}

TEST(Profitability, DownloadInAnErrorCheckMacroReadAtOnceStaysSynchronous) {
  // The scan for host work goes on after the macro's `do { ... } while (0)`
  // and after the branch and the block around it.
  auto Why = unpaid(R"cu(double run(float *d, int n) {
  float *h = (float *)malloc(1 << 26);
  {
    if (n > 0)
      do { if (cudaMemcpy(h, d, 1 << 26, cudaMemcpyDeviceToHost) != 0) exit(1); } while (0);
  }
  double s = h[0];
  free(h);
  return s;
})cu");
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_NE(Why[0].find("nothing could overlap it"), std::string::npos) << Why[0];
}

TEST(Profitability, DownloadInAnErrorCheckMacroWithHostWorkAfterTheBlockPays) {
  auto Why = unpaid(R"cu(double run(float *d, int n) {
  float *h = (float *)malloc(1 << 26);
  {
    if (n > 0)
      do { if (cudaMemcpy(h, d, 1 << 26, cudaMemcpyDeviceToHost) != 0) exit(1); } while (0);
  }
  double s = work(n);
  s += h[0];
  free(h);
  return s;
})cu");
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_EQ(Why[0], "");
}

TEST(Profitability, HostWorkOnAnErrorPathDoesNotCount) {
  auto Why = unpaid(R"cu(double run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(h, d, 1 << 26, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    work(1);
    exit(1);
  }
  double s = h[0];
  free(h);
  return s;
})cu");
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_NE(Why[0].find("nothing could overlap it"), std::string::npos) << Why[0];
}

std::vector<std::string> groupVerdicts(const std::string &Code) {
  auto AST = parseCuda(Prelude + Code);
  const clang::FunctionDecl &F = *findFunction(*AST, "run");
  std::vector<std::string> Out;
  for (const AllocGroup &G : findStreamOrderedAllocs(F, AST->getASTContext()))
    Out.push_back(unprofitableAllocGroup(G, "run", AST->getASTContext()));
  return Out;
}

TEST(Profitability, AllocationOutsideLoopsDoesNotPayForThePool) {
  auto V = groupVerdicts(R"cu(void run() {
  float *d;
  cudaMalloc(&d, 1024);
  k<<<1, 256>>>(d);
  cudaFree(d);
})cu");
  ASSERT_EQ(V.size(), 1u);
  EXPECT_NE(V[0].find("outside any loop"), std::string::npos) << V[0];
}

TEST(Profitability, AllocationInALoopMayPay) {
  auto V = groupVerdicts(R"cu(void run() {
  for (int i = 0; i < 4; ++i) {
    float *d;
    cudaMalloc(&d, 1024);
    k<<<1, 256>>>(d);
    cudaFree(d);
  }
})cu");
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0], "");
}

TEST(Profitability, ErrorCheckLoopOfAMacroIsNotALoop) {
  auto V = groupVerdicts(R"cu(void run() {
  float *d;
  do { cudaMalloc(&d, 1024); } while (0);
  k<<<1, 256>>>(d);
  cudaFree(d);
})cu");
  ASSERT_EQ(V.size(), 1u);
  EXPECT_NE(V[0].find("outside any loop"), std::string::npos) << V[0];
}

} // namespace
