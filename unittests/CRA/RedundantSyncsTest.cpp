//===- RedundantSyncsTest.cpp - Which device syncs of the program protect nothing ===//
#include "streamalloc/CRA/RedundantSyncs.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

const char *Prelude = R"cu(
#include <cstdio>
#include <cstdlib>
__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
// In a try block (a handler may be entered from any point in it), these ops
// stay on the legacy default stream.
#define FILL_ONES(p) try { fill<<<1, 16>>>(p, 1.0f); } catch (...) {}
#define COPY(dst, src, n, kind) try { cudaMemcpy(dst, src, n, kind); } catch (...) {}
)cu";

/// Parses the prelude, \p Extra and `int main(int argc, char **argv) { Body }`,
/// and decides the syncs of \p Function.
struct SyncRun {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Device;
  std::unique_ptr<FunctionAccesses> FA;
  std::vector<std::string> Blocked;
  CraResult Cra;
  std::vector<ExplicitSync> Syncs;
  std::vector<SyncDecision> Decisions;

  explicit SyncRun(const std::string &Body, const std::string &Extra = "",
                   llvm::StringRef Function = "main") {
    AST = parseCuda(std::string(Prelude) + Extra + "int main(int argc, char **argv) {\n" + Body +
                    "\nreturn 0;\n}\n");
    const clang::FunctionDecl *F = findFunction(*AST, Function);
    FA = std::make_unique<FunctionAccesses>(*F, AST->getASTContext(), Device);
    Blocked.assign(FA->ops().size(), "");
    Cra = runCra(*FA, Blocked);
    Syncs = findExplicitSyncs(*FA, Device, Cra);
    Decisions = decideRedundantSyncs(
        Syncs, *FA, [&](llvm::ArrayRef<const clang::Expr *> Ignored, const BodyWalk &Walk) {
          return runCra(*FA, Blocked, {}, nullptr, Ignored, true, Walk);
        });
  }
};

TEST(RedundantSyncs, SyncWithNothingPendingIsRedundantAndDropped) {
  SyncRun T(R"cu(float *d;
cudaMalloc(&d, 64);
cudaDeviceSynchronize();
fill<<<1, 16>>>(d, 1.0f);)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_TRUE(T.Syncs[0].Removable);
  EXPECT_TRUE(T.Decisions[0].Redundant);
  EXPECT_TRUE(T.Decisions[0].Drop);
  EXPECT_EQ(T.Decisions[0].PendingOps, 0u);
  EXPECT_EQ(T.Decisions[0].Reason, "no GPU op is pending here");
}

TEST(RedundantSyncs, SyncBeforeAReadOfCopiedDataIsNeeded) {
  SyncRun T(R"cu(float h[16], *d;
cudaMalloc(&d, sizeof h);
fill<<<1, 16>>>(d, 1.0f);
cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
cudaDeviceSynchronize();
printf("%f\n", h[0]);)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Decisions[0].Redundant);
  EXPECT_FALSE(T.Decisions[0].Drop);
  EXPECT_EQ(T.Decisions[0].PendingOps, 2u);
  EXPECT_NE(T.Decisions[0].Reason.find("h is read below"), std::string::npos);
}

TEST(RedundantSyncs, PendingOpsWithNoConflictingReadMakeItRedundant) {
  SyncRun T(R"cu(float h[16], *d;
cudaMalloc(&d, sizeof h);
fill<<<1, 16>>>(d, 1.0f);
cudaDeviceSynchronize();
cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
printf("%f\n", h[0]);)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_TRUE(T.Decisions[0].Redundant);
  EXPECT_EQ(T.Decisions[0].PendingOps, 1u);
}

TEST(RedundantSyncs, OfTwoSyncsThatCoverEachOtherOnlyTheFirstIsDropped) {
  SyncRun T(R"cu(float h[16], *d;
cudaMalloc(&d, sizeof h);
cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
cudaDeviceSynchronize();
cudaDeviceSynchronize();
printf("%f\n", h[0]);)cu");
  ASSERT_EQ(T.Syncs.size(), 2u);
  EXPECT_TRUE(T.Decisions[0].Drop);
  EXPECT_FALSE(T.Decisions[1].Redundant);
  // With the first treated as gone, the second is what protects the read.
  std::vector<const clang::Expr *> Dropped = droppedSyncCalls(T.Syncs, T.Decisions);
  EXPECT_EQ(Dropped, T.Syncs[0].Calls);
  CraResult Out = runCra(*T.FA, T.Blocked, {}, nullptr, Dropped);
  EXPECT_TRUE(Out.Waits.empty());
  ASSERT_EQ(Out.Syncs.size(), 1u);
  EXPECT_EQ(Out.Syncs[0].Calls, T.Syncs[1].Calls);
}

TEST(RedundantSyncs, IgnoredSyncCompletesNothing) {
  SyncRun T(R"cu(float h[16], *d;
cudaMalloc(&d, sizeof h);
cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
cudaDeviceSynchronize();
printf("%f\n", h[0]);)cu");
  ASSERT_EQ(T.Cra.Syncs.size(), 1u);
  EXPECT_EQ(T.Cra.Syncs[0].Pending, std::vector<unsigned>{0});
  EXPECT_TRUE(T.Cra.Waits.empty());
  CraResult Without = runCra(*T.FA, T.Blocked, {}, nullptr, T.Syncs[0].Calls);
  EXPECT_TRUE(Without.Syncs.empty());
  ASSERT_EQ(Without.Waits.size(), 1u);
  EXPECT_EQ(Without.Waits[0].Cause, WaitCause::Conflict);
}

TEST(RedundantSyncs, SyncWhoseResultIsUsedIsReportedButKept) {
  SyncRun T(R"cu(float *d;
cudaMalloc(&d, 64);
cudaError_t e = cudaDeviceSynchronize();
fill<<<1, 16>>>(d, 1.0f);
printf("%d\n", (int)e);)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Syncs[0].Removable);
  EXPECT_EQ(T.Syncs[0].WhyKept, "its result is stored in `e`");
  EXPECT_TRUE(T.Decisions[0].Redundant);
  EXPECT_FALSE(T.Decisions[0].Drop);
  EXPECT_NE(T.Decisions[0].Reason.find("kept: its result is stored in `e`"), std::string::npos);
}

TEST(RedundantSyncs, CheckMacroStatementIsRemovedWhole) {
  SyncRun T(
      R"cu(float *d;
cudaMalloc(&d, 64);
CHECK(cudaDeviceSynchronize());
fill<<<1, 16>>>(d, 1.0f);)cu",
      R"cu(#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_TRUE(T.Syncs[0].Removable) << T.Syncs[0].WhyKept;
  llvm::StringRef Text =
      T.AST->getSourceManager().getBufferData(T.AST->getSourceManager().getMainFileID());
  EXPECT_EQ(Text.slice(T.Syncs[0].Begin, T.Syncs[0].End), "CHECK(cudaDeviceSynchronize());");
  EXPECT_TRUE(T.Decisions[0].Drop);
}

TEST(RedundantSyncs, MacroThatDoesMoreThanCheckIsKept) {
  SyncRun T(
      R"cu(float *d;
cudaMalloc(&d, 64);
TIMED(cudaDeviceSynchronize());
fill<<<1, 16>>>(d, 1.0f);)cu",
      R"cu(#define TIMED(call) do { printf("start\n"); (void)(call); printf("end\n"); } while (0)
)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Syncs[0].Removable);
  EXPECT_EQ(T.Syncs[0].WhyKept, "the macro around it does more than check its result");
}

TEST(RedundantSyncs, LaunchLeftOnTheLegacyStreamMakesTheSyncNeeded) {
  SyncRun T(R"cu(float *m;
cudaMallocManaged(&m, 64);
if (argc > 1) FILL_ONES(m);
cudaDeviceSynchronize();
printf("%f\n", m[0]);)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Cra.Ops[0].Async);
  EXPECT_FALSE(T.Decisions[0].Redundant);
  EXPECT_NE(T.Decisions[0].Reason.find("kernel `fill`"), std::string::npos);
}

TEST(RedundantSyncs, KeptTopLevelSyncCompletesUntrackedWorkForLaterSyncs) {
  SyncRun T(R"cu(float *m, *d;
cudaMallocManaged(&m, 64);
cudaMalloc(&d, 64);
if (argc > 1) FILL_ONES(m);
cudaDeviceSynchronize();
fill<<<1, 16>>>(d, 2.0f);
cudaDeviceSynchronize();
printf("%f\n", m[0]);)cu");
  ASSERT_EQ(T.Syncs.size(), 2u);
  EXPECT_FALSE(T.Decisions[0].Redundant);
  EXPECT_TRUE(T.Decisions[1].Redundant);
}

TEST(RedundantSyncs, SyncOutsideMainMayCompleteItsCallersWork) {
  SyncRun T("", R"cu(void helper(float *d) {
  fill<<<1, 16>>>(d, 1.0f);
  cudaDeviceSynchronize();
}
)cu",
            "helper");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Decisions[0].Redundant);
  EXPECT_NE(T.Decisions[0].Reason.find("callers"), std::string::npos);
}

TEST(RedundantSyncs, BackwardGotoLetsLaterUntrackedWorkReachAnEarlierSync) {
  SyncRun T(R"cu(float *m;
cudaMallocManaged(&m, 64);
again:
cudaDeviceSynchronize();
printf("%f\n", m[0]);
if (argc > 1) FILL_ONES(m);
if (argc > 2) goto again;)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Decisions[0].Redundant);
}

TEST(RedundantSyncs, ForwardGotoAddsNoPathBackToASync) {
  SyncRun T(R"cu(float *m;
cudaMallocManaged(&m, 64);
cudaDeviceSynchronize();
printf("%f\n", m[0]);
if (argc > 1) FILL_ONES(m);
if (argc > 2) goto out;
printf("more\n");
out:
printf("%f\n", m[1]);)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_TRUE(T.Decisions[0].Redundant);
}

TEST(RedundantSyncs, SynchronousCopyToTheHostIsCompleteOnReturn) {
  SyncRun T(R"cu(float h[16], *d;
cudaMalloc(&d, sizeof h);
if (argc > 1) COPY(h, d, sizeof h, cudaMemcpyDeviceToHost);
cudaDeviceSynchronize();
if (argc > 2) COPY(d, h, sizeof h, cudaMemcpyDeviceToDevice);
cudaDeviceSynchronize();
printf("%f\n", h[0]);)cu");
  ASSERT_EQ(T.Syncs.size(), 2u);
  EXPECT_FALSE(T.Cra.Ops[0].Async);
  EXPECT_TRUE(T.Decisions[0].Redundant);
  EXPECT_FALSE(T.Decisions[1].Redundant);
  EXPECT_NE(T.Decisions[1].Reason.find("cudaMemcpy on line"), std::string::npos);
}

TEST(RedundantSyncs, MacroThatWorksOnSuccessIsKept) {
  SyncRun T(R"cu(float *d;
cudaMalloc(&d, 64);
COUNT_OK(cudaDeviceSynchronize());
fill<<<1, 16>>>(d, 1.0f);
printf("%d\n", g_ok);)cu",
            R"cu(int g_ok;
#define COUNT_OK(call) do { if ((call) == cudaSuccess) { ++g_ok; } else { exit(1); } } while (0)
)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Syncs[0].Removable);
  EXPECT_TRUE(T.Decisions[0].Redundant);
  EXPECT_FALSE(T.Decisions[0].Drop);
}

TEST(RedundantSyncs, MacroThatTestsForSuccessAndFailsOtherwiseIsRemovable) {
  SyncRun T(
      R"cu(float *d;
cudaMalloc(&d, 64);
MUST(cudaDeviceSynchronize());
fill<<<1, 16>>>(d, 1.0f);)cu",
      R"cu(#define MUST(call) do { cudaError_t e_ = (call); if (!(e_ == cudaSuccess)) { fprintf(stderr, "%s\n", cudaGetErrorString(e_)); abort(); } } while (0)
)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_TRUE(T.Syncs[0].Removable) << T.Syncs[0].WhyKept;
  EXPECT_TRUE(T.Decisions[0].Drop);
}

TEST(RedundantSyncs, GpuWorkInALambdaMayReachAnySync) {
  SyncRun T(R"cu(float *m;
cudaMallocManaged(&m, 64);
auto launch = [&] { fill<<<1, 16>>>(m, 1.0f); };
cudaDeviceSynchronize();
launch();
cudaDeviceSynchronize();
printf("%f\n", m[0]);)cu");
  ASSERT_EQ(T.Syncs.size(), 2u);
  EXPECT_FALSE(T.Decisions[0].Redundant);
  EXPECT_FALSE(T.Decisions[1].Redundant);
}

TEST(RedundantSyncs, FunctionPassedToAThreadMayEnqueueWorkAtAnyTime) {
  SyncRun T(R"cu(float *m;
cudaMallocManaged(&m, 64);
std::thread t(worker, m);
t.join();
cudaDeviceSynchronize();
printf("%f\n", m[0]);)cu",
            R"cu(#include <thread>
void worker(float *m) { fill<<<1, 16>>>(m, 1.0f); }
)cu");
  ASSERT_EQ(T.Syncs.size(), 1u);
  EXPECT_FALSE(T.Decisions[0].Redundant);
  EXPECT_NE(T.Decisions[0].Reason.find("`worker`, passed as a function"), std::string::npos)
      << T.Decisions[0].Reason;
}

} // namespace
