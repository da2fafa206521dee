//===- LaunchGraphsTest.cpp - Loops replayed as CUDA graphs -----------------===//
#include "streamalloc/Schedule/LaunchGraphs.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Schedule/StreamPlan.h"

#include "Support/ParseCuda.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

const char *Prelude = R"cu(
__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
__global__ void add(const float *a, const float *b, float *c) { c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x]; }
)cu";

/// The analysis and plan of `run`, with the loops that may become graphs
/// kept on one stream, as the driver plans them.
struct Decided {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Device;
  std::unique_ptr<FunctionAccesses> FA;
  CraResult Cra;
  StreamPlan Plan;
  std::vector<LaunchLoop> Loops;

  explicit Decided(const std::string &Body) {
    AST = parseCuda(std::string(Prelude) + "void run(int n) {\n" + Body + "\n}\n");
    const clang::FunctionDecl *F = findFunction(*AST, "run");
    FA = std::make_unique<FunctionAccesses>(*F, AST->getASTContext(), Device);
    Loops = findLaunchLoops(*FA, "");
    std::vector<std::string> Blocked(FA->ops().size());
    Cra = runCra(*FA, Blocked);
    ScheduleOptions Options;
    Options.OneStreamLoops = oneStreamLoops(Loops);
    Plan = planStreams(*FA, Cra, Options);
    if (Plan.NumStreams > 0) {
      Cra = runCra(*FA, Blocked, {}, &Plan.StreamOf);
      Plan.bindWaits(Cra);
    }
    decideLaunchLoops(Loops, *FA, Cra, Plan);
  }
};

const char *TwoIndependentLaunches = R"cu(float *da, *db;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(da, i);
  fill<<<1, 16>>>(db, 2.0f * i);
}
float h[16];
cudaMemcpy(h, da, 64, cudaMemcpyDeviceToHost);)cu";

TEST(LaunchGraphs, IndependentLaunchesOfALoopShareTheStreamItIsCapturedOn) {
  Decided D(TwoIndependentLaunches);
  ASSERT_EQ(D.Loops.size(), 1u);
  const LaunchLoop &L = D.Loops.front();
  EXPECT_EQ(L.WhyNot, "");
  ASSERT_EQ(L.Ops.size(), 2u);
  // Without the loop they would go on two streams; a capture records one.
  EXPECT_EQ(D.Plan.StreamOf[L.Ops[0]], D.Plan.StreamOf[L.Ops[1]]);
  EXPECT_EQ(D.Plan.StreamOf[L.Ops[0]], std::optional<unsigned>(L.Stream));
  EXPECT_EQ(L.DirectIterations,
            unsigned(std::ceil(graphSetUpCost(2) / graphSavingPerIteration(2))));
}

TEST(LaunchGraphs, ABodyWithHostWorkOrACopyToTheHostIsNoCandidate) {
  Decided Host(R"cu(float *da, *db, s = 0;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(da, i);
  s += i;
  fill<<<1, 16>>>(db, s);
})cu");
  ASSERT_EQ(Host.Loops.size(), 1u);
  EXPECT_NE(Host.Loops[0].WhyNot.find("is host work"), std::string::npos) << Host.Loops[0].WhyNot;
  Decided Copy(R"cu(float *da, h[16];
cudaMalloc(&da, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(da, i);
  cudaMemcpy(h, da, 64, cudaMemcpyDeviceToHost);
})cu");
  ASSERT_EQ(Copy.Loops.size(), 1u);
  EXPECT_NE(Copy.Loops[0].WhyNot.find("copies to or from host memory"), std::string::npos)
      << Copy.Loops[0].WhyNot;
}

TEST(LaunchGraphs, OneLaunchPerIterationSavesTooLittle) {
  Decided D(R"cu(float *da;
cudaMalloc(&da, 64);
for (int i = 0; i < n; ++i)
  fill<<<1, 16>>>(da, i);)cu");
  ASSERT_EQ(D.Loops.size(), 1u);
  EXPECT_NE(D.Loops[0].WhyNot.find("not worth it: 1 op per iteration"), std::string::npos)
      << D.Loops[0].WhyNot;
  EXPECT_GT(graphSavingPerIteration(5), graphSavingPerIteration(2));
}

TEST(LaunchGraphs, ARecordForWorkAfterTheLoopMovesAfterTheLoop) {
  Decided D(TwoIndependentLaunches);
  ASSERT_EQ(D.Loops.size(), 1u);
  StreamPlan Plan = D.Plan;
  Plan.Records.push_back({0, D.Loops[0].Ops[1], D.Cra.Ops[D.Loops[0].Ops[1]].Statement, 0});
  recordAfterGraphLoops(Plan, D.Loops);
  EXPECT_EQ(Plan.Records.back().Statement, D.Loops[0].Loop);
}

} // namespace
