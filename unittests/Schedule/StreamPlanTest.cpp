//===- StreamPlanTest.cpp - Stream assignment, events, waits per stream ----===//
#include "streamalloc/Schedule/StreamPlan.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Transform/StreamOrderedAlloc.h"

#include "Support/ParseCuda.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/BitVector.h"

#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

const char *Prelude = R"cu(
__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
__global__ void add(const float *a, const float *b, float *c) { c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x]; }
)cu";

struct Planned {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Device;
  std::unique_ptr<FunctionAccesses> FA;
  CraResult Cra;
  StreamPlan Plan;

  /// \p StreamOrdered: the cudaMalloc/cudaFree calls of the buffers whose
  /// whole life is in view become ops of their own (GpuOpKind::Alloc/Free).
  Planned(const std::string &Body, unsigned MaxStreams = 4, bool StreamOrdered = false) {
    AST = parseCuda(std::string(Prelude) + "void run(int n) {\n" + Body + "\n}\n");
    const clang::FunctionDecl *F = findFunction(*AST, "run");
    std::vector<const clang::Expr *> Calls;
    if (StreamOrdered)
      for (const AllocGroup &G : findStreamOrderedAllocs(*F, AST->getASTContext()))
        if (G.WhySync.empty()) {
          Calls.insert(Calls.end(), G.Allocs.begin(), G.Allocs.end());
          Calls.insert(Calls.end(), G.Frees.begin(), G.Frees.end());
        }
    FA = std::make_unique<FunctionAccesses>(*F, AST->getASTContext(), Device, Calls);
    std::vector<std::string> Blocked(FA->ops().size());
    Cra = runCra(*FA, Blocked);
    ScheduleOptions Options;
    Options.MaxStreams = MaxStreams;
    Options.ListEdges = true;
    Plan = planStreams(*FA, Cra, Options);
    if (Plan.NumStreams > 0) {
      Cra = runCra(*FA, Blocked, {}, &Plan.StreamOf);
      Plan.bindWaits(Cra);
    }
  }
  unsigned stream(unsigned Op) const { return *Plan.StreamOf[Op]; }
};

const char *TwoChains = R"cu(float ha[16], hb[16], *da, *db;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMemcpy(da, ha, 64, cudaMemcpyHostToDevice);
cudaMemcpy(db, hb, 64, cudaMemcpyHostToDevice);
fill<<<1, 16>>>(da, 1.0f);
fill<<<1, 16>>>(db, 2.0f);
cudaMemcpy(ha, da, 64, cudaMemcpyDeviceToHost);
ha[0] += 1.0f;
cudaMemcpy(hb, db, 64, cudaMemcpyDeviceToHost);
hb[0] += 1.0f;)cu";

TEST(StreamPlan, IndependentChainsGetStreamsOfTheirOwnWithoutEvents) {
  Planned P(TwoChains);
  ASSERT_EQ(P.FA->ops().size(), 6u);
  EXPECT_EQ(P.Plan.NumStreams, 2u);
  EXPECT_EQ(P.stream(0), P.stream(2));
  EXPECT_EQ(P.stream(2), P.stream(4));
  EXPECT_EQ(P.stream(1), P.stream(3));
  EXPECT_NE(P.stream(0), P.stream(1));
  EXPECT_EQ(P.Plan.NumEvents, 0u);
}

TEST(StreamPlan, WaitForOneChainLeavesTheOtherPending) {
  Planned P(TwoChains);
  // `ha[0] += 1` waits for chain a's stream only; `hb[0] += 1` then waits
  // for chain b's.
  ASSERT_EQ(P.Cra.Waits.size(), 2u);
  EXPECT_EQ(P.Plan.WaitStreams[0], std::vector<unsigned>{P.stream(0)});
  EXPECT_EQ(P.Plan.WaitStreams[1], std::vector<unsigned>{P.stream(1)});
  EXPECT_EQ(P.Cra.Waits[0].Covers, (std::vector<unsigned>{0, 2, 4}));
}

TEST(StreamPlan, HostWaitUsesAnEventWhenLaterWorkIsQueuedOnTheStream) {
  Planned P(R"cu(float hm[16], ho[16], *d;
cudaMalloc(&d, 64);
fill<<<1, 16>>>(d, 1.0f);
cudaMemcpy(hm, d, 64, cudaMemcpyDeviceToHost);
fill<<<1, 16>>>(d, 2.0f);
cudaMemcpy(ho, d, 64, cudaMemcpyDeviceToHost);
hm[0] += 1.0f;
ho[0] += 1.0f;)cu");
  ASSERT_EQ(P.FA->ops().size(), 4u);
  EXPECT_EQ(P.Plan.NumStreams, 1u);
  ASSERT_EQ(P.Cra.Waits.size(), 2u);
  // `hm[0] += 1` needs the first copy only: the host waits for an event
  // recorded after it, and the second fill and copy stay pending.
  EXPECT_EQ(P.Cra.Waits[0].Covers, std::vector<unsigned>{1});
  EXPECT_EQ(P.Cra.Waits[0].PartialStreams, std::vector<unsigned>{0});
  EXPECT_TRUE(P.Plan.WaitStreams[0].empty());
  ASSERT_EQ(P.Plan.WaitEvents[0].size(), 1u);
  const EventRecord &R = P.Plan.Records[P.Plan.WaitEvents[0][0]];
  EXPECT_EQ(R.Op, 1u);
  EXPECT_EQ(R.Stream, 0u);
  EXPECT_GE(R.Event, P.Plan.NumEdgeEvents);
  // `ho[0] += 1` needs the last op on the stream: the whole stream is
  // synchronised and everything still pending on it is covered.
  EXPECT_EQ(P.Plan.WaitStreams[1], std::vector<unsigned>{0});
  EXPECT_TRUE(P.Plan.WaitEvents[1].empty());
  EXPECT_EQ(P.Cra.Waits[1].Covers, (std::vector<unsigned>{0, 2, 3}));
}

TEST(StreamPlan, HostWaitEventsAreRecomputedWhenWaitsAreBoundAgain) {
  Planned P(R"cu(float hm[16], ho[16], *d;
cudaMalloc(&d, 64);
cudaMemcpy(hm, d, 64, cudaMemcpyDeviceToHost);
fill<<<1, 16>>>(d, 2.0f);
hm[0] += 1.0f;)cu");
  unsigned Events = P.Plan.NumEvents;
  P.Plan.bindWaits(P.Cra);
  P.Plan.bindWaits(P.Cra);
  EXPECT_EQ(P.Plan.NumEvents, Events);
  EXPECT_EQ(P.Plan.Records.size(), Events);
}

TEST(StreamPlan, BoundOfOneKeepsEverythingInProgramOrder) {
  Planned P(TwoChains, 1);
  EXPECT_EQ(P.Plan.NumStreams, 1u);
  for (unsigned Op = 0; Op < 6; ++Op)
    EXPECT_EQ(P.stream(Op), 0u);
  EXPECT_EQ(P.Plan.NumEvents, 0u);
  // One stream: the wait for chain a also waits for chain b's pending ops.
  ASSERT_EQ(P.Cra.Waits.size(), 2u);
  EXPECT_EQ(P.Cra.Waits[0].Covers, (std::vector<unsigned>{0, 1, 2, 3, 4}));
}

TEST(StreamPlan, BoundHitPutsACopyBehindACopyInTheSameDirection) {
  // Two streams: the upload of a (and its second upload) on one, the
  // kernel on b on the other. The independent upload of c goes behind the
  // uploads (the host-to-device engine serialises them anyway), not behind
  // the kernel on the stream idle the longest.
  Planned P(R"cu(float ha[16], hc[16], *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
cudaMemcpy(da, ha, 64, cudaMemcpyHostToDevice);
fill<<<1, 16>>>(db, 1.0f);
cudaMemcpy(da, ha, 64, cudaMemcpyHostToDevice);
cudaMemcpy(dc, hc, 64, cudaMemcpyHostToDevice);)cu",
            2);
  ASSERT_EQ(P.FA->ops().size(), 4u);
  EXPECT_EQ(P.Plan.NumStreams, 2u);
  EXPECT_NE(P.stream(0), P.stream(1));
  EXPECT_EQ(P.stream(2), P.stream(0));
  EXPECT_EQ(P.stream(3), P.stream(0));
}

TEST(StreamPlan, JoinRecordsAnEventAfterTheOtherProducer) {
  Planned P(R"cu(float ha[16], hb[16], hc[16], *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
cudaMemcpy(da, ha, 64, cudaMemcpyHostToDevice);
cudaMemcpy(db, hb, 64, cudaMemcpyHostToDevice);
add<<<1, 16>>>(da, db, dc);
cudaMemcpy(hc, dc, 64, cudaMemcpyDeviceToHost);
hc[0] += 1.0f;)cu");
  EXPECT_EQ(P.stream(2), P.stream(1)); // continues the later upload's stream
  ASSERT_EQ(P.Plan.NumEvents, 1u);
  EXPECT_EQ(P.Plan.Records[0].Op, 0u);
  EXPECT_EQ(P.Plan.Records[0].Stream, P.stream(0));
  ASSERT_EQ(P.Plan.EventWaits.size(), 1u);
  EXPECT_EQ(P.Plan.EventWaits[0].Op, 2u);
  EXPECT_EQ(P.Plan.EventWaits[0].Waiter, P.stream(2));
}

TEST(StreamPlan, DependencyOverTheBackEdgeIsCarriedByTheLoop) {
  Planned P(R"cu(float *dx, *dy, h[16];
cudaMalloc(&dx, 64);
cudaMalloc(&dy, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(dx, 1.0f);
  fill<<<1, 16>>>(dy, 2.0f);
  add<<<1, 16>>>(dx, dy, dy);
}
cudaMemcpy(h, dy, 64, cudaMemcpyDeviceToHost);
h[0] += 1.0f;)cu");
  bool Carried = false;
  for (const Dependency &E : P.Plan.Edges)
    Carried |= E.From == 2 && E.To == 0 && E.LoopCarried;
  EXPECT_TRUE(Carried);
  EXPECT_NE(P.stream(0), P.stream(2));
  bool WaitsBeforeFirst = false;
  for (const EventWait &W : P.Plan.EventWaits)
    WaitsBeforeFirst |= W.Op == 0;
  EXPECT_TRUE(WaitsBeforeFirst);
}

bool hasEdge(const StreamPlan &Plan, unsigned From, unsigned To, bool Carried = false) {
  return llvm::any_of(Plan.Edges, [&](const Dependency &E) {
    return E.From == From && E.To == To && E.LoopCarried == Carried;
  });
}

TEST(StreamPlan, AllocationAndReleaseAreOpsOrderedAroundTheBuffersUsers) {
  Planned P(R"cu(float h[16], *d;
cudaMalloc(&d, 64);
cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
fill<<<1, 16>>>(d, 1.0f);
cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost);
cudaFree(d);
h[0] += 1.0f;)cu",
            4, true);
  ASSERT_EQ(P.FA->ops().size(), 5u);
  EXPECT_EQ(P.FA->ops()[0].Kind, GpuOpKind::Alloc);
  EXPECT_EQ(P.FA->ops()[4].Kind, GpuOpKind::Free);
  // The allocation comes before every use, the release after every use.
  for (unsigned Use = 1; Use <= 3; ++Use) {
    EXPECT_TRUE(hasEdge(P.Plan, 0, Use)) << Use;
    EXPECT_TRUE(hasEdge(P.Plan, Use, 4)) << Use;
  }
  EXPECT_TRUE(hasEdge(P.Plan, 0, 4));
  // One chain: one stream, no edge event, and the release does not make the
  // host wait before it. `h[0] += 1` waits for the copies' events (the
  // release is queued after them); the release is waited for at the end.
  for (unsigned Op = 0; Op < 5; ++Op)
    EXPECT_EQ(P.stream(Op), P.stream(0)) << Op;
  EXPECT_EQ(P.Plan.NumEdgeEvents, 0u);
  ASSERT_EQ(P.Cra.Waits.size(), 2u);
  EXPECT_EQ(P.Cra.Waits[0].Cause, WaitCause::Conflict);
  EXPECT_EQ(P.Cra.Waits[0].Line, P.FA->ops()[4].Line + 1);
  EXPECT_FALSE(llvm::is_contained(P.Cra.Waits[0].Covers, 4u));
  EXPECT_TRUE(P.Plan.WaitStreams[0].empty());
  EXPECT_FALSE(P.Plan.WaitEvents[0].empty());
  EXPECT_EQ(P.Cra.Waits[1].Cause, WaitCause::FunctionEnd);
  EXPECT_TRUE(llvm::is_contained(P.Cra.Waits[1].Covers, 4u));
}

TEST(StreamPlan, ReleaseIsOrderedAfterAUserOnAnotherStream) {
  Planned P(R"cu(float ha[16], hb[16], *da, *db;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMemcpy(da, ha, 64, cudaMemcpyHostToDevice);
cudaMemcpy(db, hb, 64, cudaMemcpyHostToDevice);
add<<<1, 16>>>(da, db, db);
cudaFree(da);
cudaMemcpy(hb, db, 64, cudaMemcpyDeviceToHost);
hb[0] += 1.0f;
cudaFree(db);)cu",
            4, true);
  ASSERT_EQ(P.FA->ops().size(), 8u);
  const unsigned FreeA = 5;
  ASSERT_EQ(P.FA->ops()[FreeA].Kind, GpuOpKind::Free);
  EXPECT_TRUE(hasEdge(P.Plan, 2, FreeA)); // the upload of da
  EXPECT_TRUE(hasEdge(P.Plan, 4, FreeA)); // the kernel reading da
  EXPECT_EQ(P.stream(FreeA), P.stream(4));
  EXPECT_NE(P.stream(FreeA), P.stream(2));
  // The upload of da is on the other stream: the kernel's wait for its
  // event already orders the release (queued behind the kernel), so the
  // release needs no wait of its own.
  bool KernelWaits = false;
  for (const EventWait &W : P.Plan.EventWaits) {
    EXPECT_NE(W.Op, FreeA);
    if (W.Op == 4)
      for (unsigned E : W.Events)
        KernelWaits |= P.Plan.Records[E].Op == 2;
  }
  EXPECT_TRUE(KernelWaits);
  // The release ends da's chain: the copy back of db stays on the kernel's
  // stream (no event for it).
  EXPECT_EQ(P.stream(6), P.stream(4));
}

TEST(StreamPlan, ReleaseInALoopOrdersTheNextIterationsAllocation) {
  Planned P(R"cu(float *tmp;
for (int i = 0; i < n; ++i) {
  cudaMalloc(&tmp, 64);
  fill<<<1, 16>>>(tmp, 1.0f);
  cudaFree(tmp);
})cu",
            4, true);
  ASSERT_EQ(P.FA->ops().size(), 3u);
  EXPECT_TRUE(hasEdge(P.Plan, 2, 0, /*Carried=*/true));
  EXPECT_TRUE(hasEdge(P.Plan, 1, 0, /*Carried=*/true));
  EXPECT_EQ(P.stream(0), P.stream(2));
  EXPECT_EQ(P.Plan.NumEvents, 0u);
}

TEST(StreamPlan, WithoutStreamOrderingAllocationsAreNoOps) {
  Planned P(R"cu(float *d;
cudaMalloc(&d, 64);
fill<<<1, 16>>>(d, 1.0f);
cudaFree(d);)cu");
  ASSERT_EQ(P.FA->ops().size(), 1u);
  EXPECT_EQ(P.FA->ops()[0].Kind, GpuOpKind::Launch);
  // The release is a host access that waits for the kernel.
  ASSERT_FALSE(P.Cra.Waits.empty());
  EXPECT_EQ(P.Cra.Waits[0].Cause, WaitCause::Conflict);
}

TEST(StreamPlan, AllocationJoinsItsFirstUsersStream) {
  Planned P(R"cu(float ha[16], hb[16], *da, *db;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMemcpy(da, ha, 64, cudaMemcpyHostToDevice);
cudaMemcpy(db, hb, 64, cudaMemcpyHostToDevice);
add<<<1, 16>>>(da, db, db);
cudaMemcpy(hb, db, 64, cudaMemcpyDeviceToHost);
hb[0] += 1.0f;
cudaFree(da);
cudaFree(db);)cu",
            4, true);
  ASSERT_EQ(P.FA->ops().size(), 8u);
  ASSERT_EQ(P.FA->ops()[0].Kind, GpuOpKind::Alloc);
  EXPECT_EQ(P.stream(0), P.stream(2));
  EXPECT_EQ(P.stream(1), P.stream(3));
  EXPECT_NE(P.stream(2), P.stream(3));
  EXPECT_EQ(P.Plan.NumStreams, 2u);
  // The kernel waits for the upload of da, which also covers da's
  // allocation queued before it; no event follows an allocation.
  bool KernelWaits = false;
  for (const EventWait &W : P.Plan.EventWaits)
    if (W.Op == 4)
      for (unsigned E : W.Events)
        KernelWaits |= P.Plan.Records[E].Op == 2;
  EXPECT_TRUE(KernelWaits);
  for (const EventRecord &R : P.Plan.Records)
    EXPECT_NE(P.FA->ops()[R.Op].Kind, GpuOpKind::Alloc);
}

// Two chains: da on one stream, db on another; ops 2 and 3 read da on db's
// stream.
const char *TwoReaders = R"cu(float *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
fill<<<1, 16>>>(da, 1.0f);
fill<<<1, 16>>>(db, 2.0f);
add<<<1, 16>>>(da, db, db);
add<<<1, 16>>>(da, db, dc);)cu";

TEST(StreamPlan, SecondConsumerOnAStreamDoesNotWaitAgain) {
  Planned P(TwoReaders);
  ASSERT_EQ(P.FA->ops().size(), 4u);
  EXPECT_EQ(P.stream(2), P.stream(1));
  EXPECT_EQ(P.stream(3), P.stream(1));
  EXPECT_TRUE(hasEdge(P.Plan, 0, 3));
  ASSERT_EQ(P.Plan.EventWaits.size(), 1u);
  EXPECT_EQ(P.Plan.EventWaits[0].Op, 2u);
  EXPECT_EQ(P.Plan.CoveredWaits, 1u);
}

TEST(StreamPlan, WaitForALaterOpCoversEarlierOpsOfItsStream) {
  Planned P(R"cu(float *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
fill<<<1, 16>>>(da, 1.0f);
add<<<1, 16>>>(da, da, dc);
fill<<<1, 16>>>(db, 2.0f);
add<<<1, 16>>>(dc, db, db);
add<<<1, 16>>>(da, db, db);)cu");
  ASSERT_EQ(P.FA->ops().size(), 5u);
  EXPECT_EQ(P.stream(1), P.stream(0));
  EXPECT_EQ(P.stream(3), P.stream(2));
  EXPECT_EQ(P.stream(4), P.stream(2));
  EXPECT_TRUE(hasEdge(P.Plan, 0, 4));
  // Op 3 waits for op 1, recorded after op 0 on the same stream: op 4 needs
  // no wait for op 0.
  ASSERT_EQ(P.Plan.EventWaits.size(), 1u);
  EXPECT_EQ(P.Plan.EventWaits[0].Op, 3u);
  EXPECT_EQ(P.Plan.NumEdgeEvents, 1u);
  EXPECT_EQ(P.Plan.Records[0].Op, 1u);
}

TEST(StreamPlan, WaitForAProducerBeforeALoopGoesBeforeTheLoop) {
  Planned P(R"cu(float *da, *db;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
fill<<<1, 16>>>(da, 1.0f);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(db, 2.0f);
  add<<<1, 16>>>(da, db, db);
})cu");
  ASSERT_EQ(P.FA->ops().size(), 3u);
  EXPECT_NE(P.stream(2), P.stream(0));
  ASSERT_EQ(P.Plan.EventWaits.size(), 1u);
  EXPECT_EQ(P.Plan.EventWaits[0].Op, 2u);
  EXPECT_TRUE(llvm::isa<clang::ForStmt>(P.Plan.EventWaits[0].At));
}

TEST(StreamPlan, ProducerInTheLoopIsWaitedForInEachIterationOnce) {
  Planned P(R"cu(float *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(da, 1.0f);
  fill<<<1, 16>>>(db, 2.0f);
  add<<<1, 16>>>(da, db, db);
  add<<<1, 16>>>(da, db, dc);
})cu");
  ASSERT_EQ(P.FA->ops().size(), 4u);
  // Op 2 waits for this iteration's op 0, op 3 relies on that wait (op 0
  // waits for the previous iteration's readers of da: not counted here).
  unsigned WaitsForOp0 = 0;
  for (const EventWait &W : P.Plan.EventWaits) {
    EXPECT_EQ(W.At, W.Statement);
    for (unsigned E : W.Events)
      WaitsForOp0 += P.Plan.Records[E].Op == 0;
  }
  EXPECT_EQ(WaitsForOp0, 1u);
}

TEST(StreamPlan, WaitInABranchDoesNotCoverTheCodeAfterIt) {
  Planned P(R"cu(float *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
fill<<<1, 16>>>(da, 1.0f);
fill<<<1, 16>>>(db, 2.0f);
if (n > 1) {
  add<<<1, 16>>>(da, db, db);
}
add<<<1, 16>>>(da, db, dc);)cu");
  ASSERT_EQ(P.FA->ops().size(), 4u);
  EXPECT_EQ(P.stream(3), P.stream(2));
  EXPECT_EQ(P.Plan.EventWaits.size(), 2u);
  EXPECT_EQ(P.Plan.CoveredWaits, 0u);
}

TEST(StreamPlan, DeviceSyncAfterTheProducerMakesItsWaitUnnecessary) {
  Planned P(R"cu(float *da, *db;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
fill<<<1, 16>>>(da, 1.0f);
fill<<<1, 16>>>(db, 2.0f);
cudaDeviceSynchronize();
add<<<1, 16>>>(da, db, db);)cu");
  ASSERT_EQ(P.FA->ops().size(), 3u);
  EXPECT_NE(P.stream(2), P.stream(0));
  EXPECT_TRUE(P.Plan.EventWaits.empty());
  EXPECT_EQ(P.Plan.CoveredWaits, 1u);
}

} // namespace

/// Which ops each op reaches through \p Edges (itself excluded unless on a cycle).
std::vector<llvm::BitVector> reachability(unsigned N, const std::vector<Dependency> &Edges) {
  std::vector<std::vector<unsigned>> Succ(N);
  for (const Dependency &E : Edges)
    Succ[E.From].push_back(E.To);
  std::vector<llvm::BitVector> Reach(N, llvm::BitVector(N));
  for (unsigned X = 0; X < N; ++X) {
    std::vector<unsigned> Work{X};
    while (!Work.empty()) {
      unsigned U = Work.back();
      Work.pop_back();
      for (unsigned V : Succ[U])
        if (!Reach[X].test(V)) {
          Reach[X].set(V);
          Work.push_back(V);
        }
    }
  }
  return Reach;
}

TEST(StreamPlan, PathEdgesJoinExactlyTheOpsThatEveryEdgeJoins) {
  // Readers between writers, loops (nested; readers before the first and
  // after the last writer), and an op whose pointer may point anywhere.
  const char *Bodies[] = {
      R"cu(float h[16], *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
cudaMemcpy(da, h, 64, cudaMemcpyHostToDevice);
add<<<1, 16>>>(da, da, db);
add<<<1, 16>>>(da, db, dc);
fill<<<1, 16>>>(da, 2.0f);
add<<<1, 16>>>(db, dc, dc);
cudaMemcpy(h, dc, 64, cudaMemcpyDeviceToHost);
h[0] += 1.0f;)cu",
      R"cu(float h[16], *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
for (int i = 0; i < n; ++i) {
  add<<<1, 16>>>(da, db, dc);
  add<<<1, 16>>>(db, dc, dc);
  for (int j = 0; j < n; ++j) {
    fill<<<1, 16>>>(db, 1.0f);
    add<<<1, 16>>>(da, db, da);
  }
  add<<<1, 16>>>(da, dc, db);
  cudaMemcpy(h, da, 64, cudaMemcpyDeviceToHost);
}
h[0] += 1.0f;)cu",
      R"cu(float h[16], *da, *db, *dc;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
cudaMalloc(&dc, 64);
for (int i = 0; i < n; ++i) {
  fill<<<1, 16>>>(da, 1.0f);
  add<<<1, 16>>>(db, db, dc);
  add<<<1, 16>>>(da, da, db);
}
cudaMemcpy(h, dc, 64, cudaMemcpyDeviceToHost);
h[0] += 1.0f;)cu",
      R"cu(extern float *anywhere();
float h[16], *da, *db;
cudaMalloc(&da, 64);
cudaMalloc(&db, 64);
float *dq = anywhere();
cudaMemcpy(da, h, 64, cudaMemcpyHostToDevice);
for (int i = 0; i < n; ++i) {
  add<<<1, 16>>>(da, da, db);
  fill<<<1, 16>>>(dq, 1.0f);
  add<<<1, 16>>>(db, db, da);
}
cudaMemcpy(h, db, 64, cudaMemcpyDeviceToHost);
h[0] += 1.0f;)cu"};
  for (const char *Body : Bodies) {
    Planned P(Body);
    unsigned N = P.FA->ops().size();
    ASSERT_GT(N, 3u) << Body;
    for (const Dependency &E : P.Plan.PathEdges)
      EXPECT_TRUE(hasEdge(P.Plan, E.From, E.To, E.LoopCarried))
          << "op" << E.From << " -> op" << E.To << " is no edge of\n"
          << Body;
    std::vector<llvm::BitVector> All = reachability(N, P.Plan.Edges),
                                 Paths = reachability(N, P.Plan.PathEdges);
    for (unsigned X = 0; X < N; ++X)
      EXPECT_EQ(All[X], Paths[X]) << "what op" << X << " reaches in\n" << Body;
    EXPECT_GT(P.Plan.Edges.size(), 2u) << Body;
  }
}

TEST(StreamPlan, WorkACalleeReturnsWithGoesOnItsStreamAndOtherWorkOnFreeOnes) {
  auto AST = parseCuda(std::string(Prelude) + "static void upload(float *d, const float *h) {\n"
                                              "  cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);\n}\n"
                                              "void run(const float *h) {\n"
                                              "  float *da, *db;\n"
                                              "  cudaMalloc(&da, 64);\n"
                                              "  cudaMalloc(&db, 64);\n"
                                              "  upload(da, h);\n"
                                              "  fill<<<1, 16>>>(db, 1.0f);\n"
                                              "  fill<<<1, 16>>>(da, 2.0f);\n}\n");
  FunctionSummaries Device;
  Device.setPendingWorkStream(findFunction(*AST, "upload"), 2);
  FunctionAccesses FA(*findFunction(*AST, "run"), AST->getASTContext(), Device);
  ASSERT_EQ(FA.ops().size(), 3u);
  EXPECT_EQ(FA.ops()[0].Kind, GpuOpKind::CallWork);
  EXPECT_EQ(FA.ops()[0].FixedStream, std::optional<unsigned>(2));
  std::vector<std::string> Blocked(FA.ops().size());
  CraResult Cra = runCra(FA, Blocked);
  ScheduleOptions Options;
  StreamPlan Plan = planStreams(FA, Cra, Options);
  EXPECT_EQ(Plan.StreamOf[0], std::optional<unsigned>(2));
  EXPECT_EQ(Plan.StreamOf[1], std::optional<unsigned>(0)); // independent: a free stream
  EXPECT_EQ(Plan.StreamOf[2], std::optional<unsigned>(2)); // after the upload, on its stream
  EXPECT_EQ(Plan.NumStreams, 3u);
}
