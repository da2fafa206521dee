//===- BodyPointTest.cpp - Following and resuming CRA's walk over the body ===//
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/CRA/RedundantSyncs.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

#include <tuple>

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

/// Loops, branches, a clock read and syncs between the body's statements.
const char *Program = R"cu(
#include <cstdio>
#include <cstdlib>
#include <ctime>
__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
int main() {
  float *h = (float *)malloc(64), *g = (float *)malloc(64), *d, *e;
  cudaMalloc(&d, 64);
  cudaMalloc(&e, 64);
  cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
  cudaMemcpy(e, g, 64, cudaMemcpyHostToDevice);
  for (int i = 0; i < 4; ++i) {
    fill<<<1, 16>>>(d, 1.0f);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  }
  cudaDeviceSynchronize();
  if (h[0] > 0)
    fill<<<1, 16>>>(e, 2.0f);
  cudaMemcpy(g, e, 64, cudaMemcpyDeviceToHost);
  clock_t t = clock();
  cudaDeviceSynchronize();
  printf("%f %f %ld\n", h[1], g[1], (long)t);
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
  return 0;
}
)cu";

struct Walks {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Device;
  std::unique_ptr<FunctionAccesses> FA;
  std::vector<std::string> Blocked;

  Walks() {
    AST = parseCuda(Program);
    FA = std::make_unique<FunctionAccesses>(*findFunction(*AST, "main"), AST->getASTContext(),
                                            Device);
    Blocked.assign(FA->ops().size(), "");
  }

  /// A whole run with \p Ignored, and the points it passed.
  CraResult whole(llvm::ArrayRef<const clang::Expr *> Ignored, std::vector<BodyPoint> &Points) {
    auto Observe = [&](const BodyPoint &P) {
      Points.push_back(P);
      return true;
    };
    BodyWalk Walk;
    Walk.Observe = Observe;
    return runCra(*FA, Blocked, {}, nullptr, Ignored, true, Walk);
  }
};

auto key(const Wait &W) {
  return std::make_tuple(W.Where.K, W.Where.Anchor, W.Where.Offset, W.Cause, W.Line, W.Covers);
}

TEST(BodyPoint, RunResumedAtAnyPointRecordsWhatTheWholeRunRecordsFromThere) {
  Walks T;
  std::vector<BodyPoint> Points;
  CraResult Whole = T.whole({}, Points);
  ASSERT_GT(Points.size(), 10u); // one per statement of the body, and one after the last
  ASSERT_FALSE(Whole.Waits.empty());
  for (const BodyPoint &From : Points) {
    std::vector<BodyPoint> Seen;
    auto Observe = [&](const BodyPoint &P) {
      Seen.push_back(P);
      return true;
    };
    BodyWalk Walk;
    Walk.Observe = Observe;
    Walk.From = &From;
    CraResult Resumed = runCra(*T.FA, T.Blocked, {}, nullptr, {}, true, Walk);
    ASSERT_EQ(Seen.size(), Points.size() - From.Index - 1) << "from point " << From.Index;
    for (const BodyPoint &P : Seen)
      EXPECT_TRUE(P.sameWalk(Points[P.Index])) << "point " << P.Index;
    ASSERT_EQ(Resumed.Waits.size(), Whole.Waits.size() - From.Waits) << "from " << From.Index;
    for (unsigned I = 0; I < Resumed.Waits.size(); ++I)
      EXPECT_EQ(key(Resumed.Waits[I]), key(Whole.Waits[From.Waits + I]));
    ASSERT_EQ(Resumed.Syncs.size(), Whole.Syncs.size() - From.Syncs);
    for (unsigned I = 0; I < Resumed.Syncs.size(); ++I)
      EXPECT_EQ(Resumed.Syncs[I].Pending, Whole.Syncs[From.Syncs + I].Pending);
  }
}

TEST(BodyPoint, RunWithoutASyncMeetsTheRunWithItAfterTheNextSync) {
  Walks T;
  std::vector<BodyPoint> Points;
  CraResult With = T.whole({}, Points);
  ASSERT_EQ(With.Syncs.size(), 2u);
  std::vector<const clang::Expr *> Ignored = With.Syncs[0].Calls;
  std::vector<BodyPoint> WithoutPoints;
  CraResult Without = T.whole(Ignored, WithoutPoints);
  ASSERT_EQ(WithoutPoints.size(), Points.size());
  // The first point that differs is the one after the sync; the walks meet
  // again after the second sync, which completes everything in both.
  unsigned Sync = 0, Met = 0;
  while (WithoutPoints[Sync + 1].sameWalk(Points[Sync + 1]))
    ++Sync;
  for (Met = Sync + 1; !WithoutPoints[Met].sameWalk(Points[Met]); ++Met)
    ;
  EXPECT_LT(Met + 1, Points.size());
  for (unsigned I = Met; I < Points.size(); ++I)
    EXPECT_TRUE(WithoutPoints[I].sameWalk(Points[I])) << "point " << I;
  // Resumed at the sync, the run without it stops where they meet and has
  // recorded what the whole run without it records in between.
  std::vector<unsigned> Seen;
  auto Observe = [&](const BodyPoint &P) {
    Seen.push_back(P.Index);
    return !P.sameWalk(Points[P.Index]);
  };
  BodyWalk Walk;
  Walk.Observe = Observe;
  Walk.From = &Points[Sync];
  CraResult Stretch = runCra(*T.FA, T.Blocked, {}, nullptr, Ignored, true, Walk);
  ASSERT_FALSE(Seen.empty());
  EXPECT_EQ(Seen.back(), Met);
  unsigned First = WithoutPoints[Sync].Waits, Last = WithoutPoints[Met].Waits;
  ASSERT_EQ(Stretch.Waits.size(), Last - First);
  for (unsigned I = 0; I < Stretch.Waits.size(); ++I)
    EXPECT_EQ(key(Stretch.Waits[I]), key(Without.Waits[First + I]));
  EXPECT_TRUE(llvm::any_of(Stretch.Waits, [](const Wait &W) {
    return W.Cause == WaitCause::Conflict;
  })) << "without the sync, the read of h waits";
}

} // namespace
