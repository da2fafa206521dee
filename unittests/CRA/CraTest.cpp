//===- CraTest.cpp - Decisions and wait placement ---------------------------===//
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

const char *Prelude = R"cu(
#include <cstdlib>
__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
void helper();
)cu";

struct CraRun {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Device;
  std::unique_ptr<FunctionAccesses> FA;
  CraResult R;

  std::string Body;

  /// \p LeftAsWritten: ops that stay as the original wrote them (blocked).
  explicit CraRun(const std::string &Body, std::vector<unsigned> LeftAsWritten = {}) : Body(Body) {
    AST = parseCuda(std::string(Prelude) + "void run(int n, int c) {\n" + Body + "\n}\n");
    const clang::FunctionDecl *F = findFunction(*AST, "run");
    FA = std::make_unique<FunctionAccesses>(*F, AST->getASTContext(), Device);
    std::vector<std::string> Blocked(FA->ops().size());
    for (unsigned Op : LeftAsWritten)
      Blocked.at(Op) = "left as written";
    R = runCra(*FA, Blocked);
  }
  /// The pending set (op ids) before the statement on the line of the
  /// snippet that holds \p Marker (e.g. `/*P1*/`).
  std::vector<unsigned> pendingAt(const std::string &Marker) const { return stateAt(Marker); }
  /// Those of them the original program had completed there.
  std::vector<unsigned> doneAt(const std::string &Marker) const { return stateAt(Marker).done(); }
  PendingSet stateAt(const std::string &Marker) const {
    size_t At = Body.find(Marker);
    EXPECT_NE(At, std::string::npos) << Marker;
    unsigned Line = std::count(Body.begin(), Body.begin() + At, '\n') + 1 + 5;
    for (const PointState &P : R.States)
      if (P.Line == Line)
        return P.Before;
    ADD_FAILURE() << "no state before a statement on the line of " << Marker;
    return {};
  }
  /// Waits of \p Cause, by line of the snippet.
  std::vector<unsigned> waitLines(WaitCause Cause) const {
    std::vector<unsigned> Lines;
    for (const Wait &W : R.Waits)
      if (W.Cause == Cause)
        Lines.push_back(W.Line - 5);
    return Lines;
  }
  /// Line of the snippet (1 = first line of the body) where each wait goes.
  std::vector<unsigned> waitLines() const {
    std::vector<unsigned> Lines;
    for (const Wait &W : R.Waits)
      Lines.push_back(W.Line - 5);
    return Lines;
  }
};

TEST(Cra, StraightLineWaitsRightBeforeTheFirstConflictingRead) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *z = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
fill<<<1, 16>>>(d, 1.0f);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
z[0] = 1.0f;
h[1] = z[0] + 1.0f;
free(h);)cu");
  ASSERT_EQ(T.R.Ops.size(), 3u);
  for (const OpDecision &D : T.R.Ops)
    EXPECT_TRUE(D.Async);
  EXPECT_EQ(T.waitLines(), std::vector<unsigned>{7});
  EXPECT_EQ(T.R.Waits[0].Cause, WaitCause::Conflict);
  EXPECT_EQ(T.R.Waits[0].ObjectName, "h");
  EXPECT_TRUE(T.R.Waits[0].HostWrites);
}

TEST(Cra, HostWriteToABufferBeingCopiedWaits) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
h[0] = 2.0f;)cu");
  EXPECT_EQ(T.waitLines(), std::vector<unsigned>{4});
  EXPECT_TRUE(T.R.Waits[0].HostWrites);
}

TEST(Cra, UnknownCallWaitsBeforeIt) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
helper();)cu");
  EXPECT_EQ(T.waitLines(), std::vector<unsigned>{4});
  EXPECT_NE(T.R.Waits[0].Detail.find("helper"), std::string::npos);
}

TEST(Cra, FunctionEndWaitsForWhatIsStillPending) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
fill<<<1, 16>>>(d, 1.0f);)cu");
  ASSERT_EQ(T.R.Waits.size(), 1u);
  EXPECT_EQ(T.R.Waits[0].Cause, WaitCause::FunctionEnd);
}

TEST(Cra, LoopOfLaunchesStaysPendingAcrossIterationsAndAfterTheLoop) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(d, 1.0f);
}
cudaFree(d);)cu");
  EXPECT_TRUE(T.R.Ops[0].Async);
  ASSERT_EQ(T.R.Waits.size(), 1u);
  EXPECT_EQ(T.R.Waits[0].Cause, WaitCause::Conflict);
  EXPECT_EQ(T.waitLines(), std::vector<unsigned>{6});
}

TEST(Cra, LoopBodyWaitsAtItsEndWhenTheHeaderReadsItsResult) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
h[0] = 0;
while (h[0] < n) {
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}
free(h);)cu");
  EXPECT_TRUE(T.R.Ops[0].Async);
  ASSERT_EQ(T.R.Waits.size(), 1u);
  EXPECT_EQ(T.R.Waits[0].Cause, WaitCause::BlockEnd);
}

TEST(Cra, LoopCarriedWriteAfterReadWaitsAtTheTopOfTheNextIteration) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
for (int i = 0; i < n; ++i) {
  h[0] = i;
  cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
  fill<<<1, 16>>>(d, 1.0f);
}
free(h);)cu");
  EXPECT_TRUE(T.R.Ops[0].Async);
  ASSERT_EQ(T.R.Waits.size(), 2u);
  EXPECT_EQ(T.waitLines(), (std::vector<unsigned>{4, 8}));
  EXPECT_TRUE(T.R.Waits[0].HostWrites);
}

TEST(Cra, OpsInAnIfBranchStayPendingAfterIt) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
if (c) {
  cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
}
n = n + 1;
h[0] = 1.0f;)cu");
  EXPECT_EQ(T.waitLines(), std::vector<unsigned>{7});
}

TEST(Cra, CopyWhoseStatusAnIfTestsRunsBeforeTheBranchesAndTheReturnInOneWaits) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
if (cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost) != cudaSuccess)
  return; /*P1*/
n = n + 1; /*P2*/
h[0] = 1.0f;)cu");
  EXPECT_TRUE(T.R.Ops[0].Async);
  EXPECT_EQ(T.pendingAt("/*P1*/"), std::vector<unsigned>{0}); // in the branch, before the return
  EXPECT_EQ(T.pendingAt("/*P2*/"), std::vector<unsigned>{0}); // after the `if`
  EXPECT_EQ(T.waitLines(), (std::vector<unsigned>{4, 6}));
}

TEST(Cra, OpInALoopConditionStaysSynchronous) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
while (cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost) != cudaSuccess)
  n = n + 1;)cu");
  EXPECT_FALSE(T.R.Ops[0].Async);
  EXPECT_TRUE(T.R.Waits.empty());
}

TEST(Cra, DeviceSynchronizeClearsThePendingSet) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
cudaDeviceSynchronize();
h[0] = 1.0f;)cu");
  EXPECT_TRUE(T.R.Waits.empty());
}

TEST(Cra, DeviceSynchronizeInADoWhileZeroBodyClearsThePendingSet) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
do { cudaError_t e = cudaDeviceSynchronize(); if (e) exit(1); } while (0);
h[0] = 1.0f;)cu");
  EXPECT_TRUE(T.R.Waits.empty());
}

TEST(Cra, DeviceSynchronizeAfterABreakInADoWhileZeroClearsNothing) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
do { if (c) break; cudaDeviceSynchronize(); } while (0);
h[0] = 1.0f;)cu");
  EXPECT_EQ(T.waitLines(), std::vector<unsigned>{5});
}

TEST(Cra, ReturnWithOpsPendingWaits) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
fill<<<1, 16>>>(d, 1.0f);
if (c) {
  return;
}
fill<<<1, 16>>>(d, 2.0f);)cu");
  ASSERT_GE(T.R.Waits.size(), 1u);
  EXPECT_EQ(T.R.Waits[0].Cause, WaitCause::LeavesFunction);
  EXPECT_EQ(T.waitLines()[0], 5u); // inside the branch, right before the return
}

TEST(Cra, ReadsInTheOpsOwnArgumentsDoNotKeepItSynchronous) {
  auto AST = parseCuda(std::string(Prelude) + R"cu(
struct Work { float *d; float *h; int n; };
void run(Work &w) {
  cudaMemcpy(w.d, w.h, w.n * 4, cudaMemcpyHostToDevice);
})cu");
  FunctionSummaries Device;
  FunctionAccesses FA(*findFunction(*AST, "run"), AST->getASTContext(), Device);
  CraResult R = runCra(FA, {""});
  EXPECT_TRUE(R.Ops[0].Async) << R.Ops[0].WhySync;
}

TEST(Cra, AReadLaterInTheSameStatementKeepsTheOpSynchronous) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
n = (cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost), (int)h[0]);)cu");
  EXPECT_FALSE(T.R.Ops[0].Async);
  EXPECT_EQ(T.R.Ops[0].WhySync, "its result is used in the same statement");
}

TEST(Cra, BlockedOpsStaySynchronousWithTheirReason) {
  auto AST = parseCuda(std::string(Prelude) + R"cu(
void run() { float *d; cudaMalloc(&d, 64); fill<<<1, 16>>>(d, 1.0f); })cu");
  FunctionSummaries Device;
  FunctionAccesses FA(*findFunction(*AST, "run"), AST->getASTContext(), Device);
  CraResult R = runCra(FA, {"spelled inside the body of macro `M`"});
  EXPECT_FALSE(R.Ops[0].Async);
  EXPECT_EQ(R.Ops[0].WhySync, "spelled inside the body of macro `M`");
  EXPECT_TRUE(R.Waits.empty());
}

using Ops = std::vector<unsigned>;

TEST(CraPending, IfElseWaitsOnlyInTheBranchThatReadsAndJoinsByUnion) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
if (c) {
  n = (int)h[0]; /*P1*/
  n = n + 1; /*P2*/
} else {
  n = 2; /*P3*/
}
n = n + 3; /*P4*/
h[1] = 0; /*P5*/
n = n + 4; /*P6*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{});
  EXPECT_EQ(T.pendingAt("/*P3*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P4*/"), Ops{0}); // pending on the else path
  EXPECT_EQ(T.pendingAt("/*P6*/"), Ops{});
  EXPECT_EQ(T.waitLines(WaitCause::Conflict), (std::vector<unsigned>{5, 11}));
}

TEST(CraPending, BothBranchesWaitingLeavesNothingPendingAfterTheIf) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
if (c)
  n = (int)h[0];
else
  n = (int)h[1];
n = (int)h[2]; /*P1*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{});
  EXPECT_EQ(T.waitLines(), (std::vector<unsigned>{5, 7}));
  EXPECT_EQ(T.R.Wrapped.size(), 2u);
}

TEST(CraPending, LoopBackEdgeCarriesTheBodysOps) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
for (int i = 0; i < n; ++i) {
  c = c + 1; /*P1*/
  fill<<<1, 16>>>(d, 1.0f);
}
c = 0; /*P2*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{0});
}

TEST(CraPending, SwitchCaseMergesTheEntrySetAndTheFallthrough) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
switch (c) {
case 0:
  fill<<<1, 16>>>(d, 2.0f);
  [[fallthrough]];
case 1:
  n = 1; /*P1*/
  break;
default:
  n = 2; /*P2*/
}
n = 3; /*P3*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), (Ops{0, 1}));
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P3*/"), Ops{0});
}

TEST(CraPending, BreakAndContinueWaitForTheOpsOfTheirIteration) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(d, 1.0f);
  if (i == c) {
    n = 0; /*P1*/
    break;
  }
  if (i == 2 * c)
    continue;
  n = n + 1; /*P2*/
}
c = 0; /*P3*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P3*/"), Ops{0});
  EXPECT_EQ(T.waitLines(WaitCause::LeavesBlock), (std::vector<unsigned>{7, 10}));
}

TEST(CraPending, EarlyReturnWaitsInsideItsBranchOnly) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
fill<<<1, 16>>>(d, 1.0f);
if (c) {
  n = 1; /*P1*/
  return;
}
n = 2; /*P2*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{0});
  EXPECT_EQ(T.waitLines(WaitCause::LeavesFunction), std::vector<unsigned>{6});
  EXPECT_EQ(T.waitLines(WaitCause::FunctionEnd), std::vector<unsigned>{9}); // the `}`
}

TEST(CraPending, GotoOutOfALoopWaitsBeforeTheGoto) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(d, 1.0f);
  if (i == c)
    goto out;
}
n = 1; /*P1*/
out:
n = 2; /*P2*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{0}); // from the loop's exit; the goto waited
  EXPECT_EQ(T.waitLines(WaitCause::LeavesFunction), std::vector<unsigned>{6});
  ASSERT_EQ(T.R.Wrapped.size(), 1u);
}

TEST(CraPending, DoWhileBodyStartsWithTheBackEdgeOps) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
do {
  n = n + 1; /*P1*/
  fill<<<1, 16>>>(d, 1.0f);
} while (n < c);
c = 0; /*P2*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{0});
}

TEST(CraPending, DeviceSynchronizeClearsTheSetOnlyWhereItRuns) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
fill<<<1, 16>>>(d, 1.0f);
if (c) {
  cudaDeviceSynchronize();
  n = 1; /*P1*/
}
n = 2; /*P2*/
cudaDeviceSynchronize();
n = 3; /*P3*/)cu");
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{0});
  EXPECT_EQ(T.pendingAt("/*P3*/"), Ops{});
  EXPECT_TRUE(T.R.Waits.empty());
}

TEST(CraPending, OpInASingleStatementBodyRunsAsynchronouslyInBraces) {
  CraRun T(R"cu(float *d;
cudaMalloc(&d, 64);
if (c)
  fill<<<1, 16>>>(d, 1.0f);
n = 1; /*P1*/
for (int i = 0; i < n; ++i)
  fill<<<1, 16>>>(d, 2.0f);)cu");
  EXPECT_TRUE(T.R.Ops[0].Async);
  EXPECT_TRUE(T.R.Ops[1].Async);
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
  EXPECT_EQ(T.R.Wrapped.size(), 2u);
}

TEST(Cra, OriginalCompletesLaunchesOnlyAtItsNextBlockingCall) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d, *e;
cudaMalloc(&d, 64);
cudaMalloc(&e, 64);
fill<<<1, 16>>>(d, 1.0f);
if (c) { /*P1*/
  cudaMemcpy(h, e, 64, cudaMemcpyDeviceToHost);
}
fill<<<1, 16>>>(e, 2.0f); /*P2*/
for (int i = 0; i < n; ++i) { /*P3*/
  fill<<<1, 16>>>(d, 3.0f);
}
h[0] = 1.0f; /*P4*/)cu");
  // The launch (op0) runs on in the original until a blocking call.
  EXPECT_EQ(T.pendingAt("/*P1*/"), (std::vector<unsigned>{0}));
  EXPECT_TRUE(T.doneAt("/*P1*/").empty());
  // After the if: done on the path through the blocking copy (op1, done
  // itself), so a read may rely on it; the second launch (op2) is not done.
  EXPECT_EQ(T.doneAt("/*P2*/"), (std::vector<unsigned>{0, 1}));
  // A launch in a loop without blocking calls does not complete anything.
  std::vector<unsigned> Done = T.doneAt("/*P4*/");
  EXPECT_FALSE(llvm::is_contained(Done, 2u));
  EXPECT_FALSE(llvm::is_contained(Done, 3u));
}

// Ops left as written run on the legacy default stream, which starts each of
// them only after the work queued earlier on the tool's (blocking) streams.

TEST(CraLegacy, CopyLeftOnTheLegacyStreamNeedsNoWaitForWhatItReadsOnTheDevice) {
  CraRun T(R"cu(float h[16], *d;
cudaMalloc(&d, 64);
fill<<<1, 16>>>(d, 1.0f);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
n = (int)h[0]; /*P1*/)cu",
           {1});
  EXPECT_TRUE(T.R.Ops[0].Async);
  EXPECT_TRUE(T.R.Waits.empty());
  // The copy to the host returned only once it, and so the launch, was done.
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{});
}

TEST(CraLegacy, CopyToTheDeviceLeftOnTheLegacyStreamStillWaitsForItsSource) {
  // A pageable source is staged when the call is made.
  CraRun T(R"cu(float *h = (float *)malloc(64), *d, *e;
cudaMalloc(&d, 64);
cudaMalloc(&e, 64);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
cudaMemcpy(e, h, 64, cudaMemcpyHostToDevice);)cu",
           {1});
  EXPECT_TRUE(T.R.Ops[0].Async);
  EXPECT_EQ(T.waitLines(WaitCause::Conflict), std::vector<unsigned>{5});
}

TEST(CraLegacy, CopyToTheHostLeftOnTheLegacyStreamWritesItsBufferAfterEarlierWork) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d, *e;
cudaMalloc(&d, 64);
cudaMalloc(&e, 64);
cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
cudaMemcpy(h, e, 64, cudaMemcpyDeviceToHost);)cu",
           {1});
  EXPECT_TRUE(T.R.Ops[0].Async);
  EXPECT_TRUE(T.R.Waits.empty());
}

TEST(CraLegacy, LaunchLeftOnTheLegacyStreamNeedsNoWaitAndCompletesNothing) {
  CraRun T(R"cu(float *h = (float *)malloc(64), *d;
cudaMalloc(&d, 64);
cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
fill<<<1, 16>>>(d, 2.0f);
n = 1; /*P1*/)cu",
           {1});
  EXPECT_TRUE(T.R.Waits.empty() || llvm::none_of(T.R.Waits, [](const Wait &W) {
                return W.Cause == WaitCause::Conflict;
              }));
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
}

TEST(CraLegacy, CopyToTheDeviceLeftAsWrittenCompletesNothing) {
  // From pageable memory it may return before the copy (and what was queued
  // before it) has run.
  CraRun T(R"cu(float *h = (float *)malloc(64), *d, *e;
cudaMalloc(&d, 64);
cudaMalloc(&e, 64);
fill<<<1, 16>>>(d, 1.0f);
cudaMemcpy(e, h, 64, cudaMemcpyHostToDevice);
n = 1; /*P1*/)cu",
           {1});
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
}

TEST(CraLegacy, CopyToTheHostThatMayNotRunCompletesNothing) {
  CraRun T(R"cu(float h[16], *d, *e;
cudaMalloc(&d, 64);
cudaMalloc(&e, 64);
fill<<<1, 16>>>(d, 1.0f);
n = c ? (int)cudaMemcpy(h, e, 64, cudaMemcpyDeviceToHost) : 0;
n = 1; /*P1*/)cu",
           {1});
  EXPECT_EQ(T.pendingAt("/*P1*/"), Ops{0});
}

TEST(CraLegacy, CopyToTheHostInAnIfConditionCompletesWhatWasPendingBeforeIt) {
  CraRun T(R"cu(float h[16], *d, *e;
cudaMalloc(&d, 64);
cudaMalloc(&e, 64);
fill<<<1, 16>>>(d, 1.0f);
if (cudaMemcpy(h, e, 64, cudaMemcpyDeviceToHost) != cudaSuccess)
  n = 1; /*P1*/
n = 2; /*P2*/)cu",
           {1});
  EXPECT_EQ(T.pendingAt("/*P2*/"), Ops{});
}

TEST(Cra, OwnStreamOpIsHeldApartUntilABlockingCallTheOutputChangesAndItsOwnSyncCompletesIt) {
  // op0: a launch on the program's stream s; op1: a blocking copy made
  // asynchronous; op2: the program's own download on s.
  CraRun T(R"cu(float *h, *g, *d, *e;
cudaMallocHost(&h, 64);
cudaMallocHost(&g, 64);
cudaMalloc(&d, 64);
cudaMalloc(&e, 64);
cudaStream_t s;
cudaStreamCreate(&s);
fill<<<1, 16, 0, s>>>(d, 1);
cudaMemcpy(e, g, 64, cudaMemcpyHostToDevice); /*P1*/
cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s); /*P2*/
cudaStreamSynchronize(s); /*P3*/
h[0] = 1; /*P4*/
)cu",
           {0, 2});
  EXPECT_EQ(T.stateAt("/*P1*/").OwnStream, (std::vector<unsigned>{0}));
  EXPECT_TRUE(T.doneAt("/*P1*/").empty());
  // The copy blocked in the original and waited for the launch there: from
  // here the launch counts as done in the original, like the copy itself.
  EXPECT_EQ(T.doneAt("/*P2*/"), (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(T.stateAt("/*P3*/").OwnStream, (std::vector<unsigned>{2}));
  // The program's own sync of s completes both; the tool's copy stays.
  EXPECT_EQ(T.pendingAt("/*P4*/"), (std::vector<unsigned>{1}));
  EXPECT_TRUE(T.stateAt("/*P4*/").OwnStream.empty());
  EXPECT_TRUE(T.waitLines(WaitCause::Conflict).empty());
}

} // namespace

namespace {

/// A helper's CRA where it may return with work pending (its callers wait).
struct ReturnsWithWork {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Device;
  std::unique_ptr<FunctionAccesses> FA;
  CraResult R;
  explicit ReturnsWithWork(const std::string &Body) {
    AST = parseCuda(std::string(Prelude) + "static float g_dev_copy[16];\n" +
                    "static void run(float *d, const float *h, int n) {\n" + Body + "\n}\n");
    const clang::FunctionDecl *F = findFunction(*AST, "run");
    FA = std::make_unique<FunctionAccesses>(*F, AST->getASTContext(), Device,
                                            llvm::ArrayRef<const clang::Expr *>(), true);
    R = runCra(*FA, std::vector<std::string>(FA->ops().size()));
  }
};

} // namespace

TEST(Cra, WorkOnWhatCallersNameStaysPendingAtTheReturnAndWorkOnLocalsIsWaitedFor) {
  ReturnsWithWork W(R"cu(float tmp[16];
cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
cudaMemcpy(tmp, d, sizeof tmp, cudaMemcpyDeviceToHost);
fill<<<1, 16>>>(d + 16, 1.0f);
cudaMemcpy(g_dev_copy, d, sizeof g_dev_copy, cudaMemcpyDeviceToHost);)cu");
  ASSERT_EQ(W.FA->ops().size(), 4u);
  // The copy into the stack array `tmp` must finish before it dies; the
  // others touch only what the parameters point to and a global.
  EXPECT_FALSE(W.FA->mayOutliveFunction(W.FA->ops()[1]));
  EXPECT_TRUE(W.FA->mayOutliveFunction(W.FA->ops()[0]));
  EXPECT_TRUE(W.FA->mayOutliveFunction(W.FA->ops()[3]));
  EXPECT_EQ(W.R.LeftPending, (std::vector<unsigned>{0, 2, 3}));
  auto End =
      llvm::find_if(W.R.Waits, [](const Wait &X) { return X.Cause == WaitCause::FunctionEnd; });
  ASSERT_NE(End, W.R.Waits.end());
  EXPECT_EQ(End->Covers, (std::vector<unsigned>{1}));
}

TEST(Cra, AFunctionThatMustWaitOnReturnLeavesNothingPending) {
  auto AST = parseCuda(std::string(Prelude) +
                       "static void run(float *d, const float *h, int n) {\n"
                       "  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n"
                       "  if (n > 4)\n    return;\n"
                       "  fill<<<1, 16>>>(d, 1.0f);\n}\n");
  FunctionSummaries Device;
  FunctionAccesses FA(*findFunction(*AST, "run"), AST->getASTContext(), Device);
  CraResult R = runCra(FA, std::vector<std::string>(FA.ops().size()));
  EXPECT_TRUE(R.LeftPending.empty());
  EXPECT_EQ(llvm::count_if(R.Waits,
                           [](const Wait &X) {
                             return X.Cause == WaitCause::FunctionEnd ||
                                    X.Cause == WaitCause::LeavesFunction;
                           }),
            2);
}
