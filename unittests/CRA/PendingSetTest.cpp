//===- PendingSetTest.cpp - CRA's lattice -----------------------------------===//
#include "streamalloc/CRA/PendingSet.h"

#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

using namespace streamalloc;

namespace {

using Ops = std::vector<unsigned>;

PendingSet state(Ops Pending, Ops Done = {}) {
  PendingSet S(std::move(Pending));
  S.OrigDone = std::move(Done);
  return S;
}

std::string printed(const PendingSet &S) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  S.print(OS);
  return Text;
}

TEST(PendingSet, JoinIsTheUnionOfPendingAndOfDoneOps) {
  PendingSet A = state({0, 2}, {0});
  A.join(state({1, 2}, {2}));
  EXPECT_EQ(static_cast<const Ops &>(A), (Ops{0, 2, 1}));
  EXPECT_EQ(A.done(), (Ops{0, 2}));
}

Ops sorted(Ops V) {
  llvm::sort(V);
  return V;
}

TEST(PendingSet, JoinIsIdempotentAndTheEmptySetIsItsIdentity) {
  PendingSet A = state({3, 1}, {1});
  PendingSet B = A;
  EXPECT_FALSE(B.join(A));
  EXPECT_FALSE(B.join(PendingSet()));
  EXPECT_EQ(static_cast<const Ops &>(B), (Ops{3, 1}));
  EXPECT_EQ(B.OrigDone, (Ops{1}));
}

TEST(PendingSet, JoinIsCommutativeAsAState) {
  PendingSet A = state({0}, {0}), B = state({1, 0});
  PendingSet AB = A, BA = B;
  EXPECT_TRUE(AB.join(B));
  EXPECT_TRUE(BA.join(A));
  EXPECT_EQ(sorted(AB), sorted(BA));
  EXPECT_EQ(sorted(AB.done()), sorted(BA.done()));
}

TEST(PendingSet, JoinGrowsWhenOnlyTheDoneOpsGrow) {
  PendingSet A = state({0, 1});
  EXPECT_TRUE(A.join(state({1}, {1})));
  EXPECT_EQ(A.done(), (Ops{1}));
  EXPECT_FALSE(A.join(state({1}, {1})));
}

TEST(PendingSet, DoneOpsAreThePendingOnesTheOriginalCompletedInEnqueueOrder) {
  PendingSet S = state({4, 2, 7}, {7, 4, 9});
  EXPECT_TRUE(S.origDone(9)); // a stale entry, not pending
  EXPECT_EQ(S.done(), (Ops{4, 7}));
}

TEST(PendingSet, WhenTheOriginalBlocksEveryPendingOpIsDoneThere) {
  PendingSet S = state({5, 6});
  S.originalBlocks();
  EXPECT_EQ(S.done(), (Ops{5, 6}));
}

TEST(PendingSet, EqualSetsAgreeInEveryPartAndOrder) {
  EXPECT_TRUE(state({1, 3}, {3}) == state({1, 3}, {3}));
  EXPECT_FALSE(state({1, 3}, {3}) == state({1, 3})); // what the original had done
  EXPECT_FALSE(state({1, 3}) == state({3, 1}));      // the enqueue order
  EXPECT_FALSE(state({1}, {9}) == state({1}));       // a stale entry may matter after a join
}

TEST(PendingSet, PrintsPendingOpsAndThoseTheOriginalHadDone) {
  EXPECT_EQ(printed(state({})), "{}");
  EXPECT_EQ(printed(state({0, 2})), "{op0, op2}");
  EXPECT_EQ(printed(state({0, 2}, {2})), "{op0, op2}, done in the original {op2}");
}

} // namespace

TEST(PendingSet, OpsOnTheProgramsOwnStreamsJoinThePendingOpsWhereTheOriginalBlocked) {
  PendingSet S = state({0});
  S.enqueueOwnStream(1);
  S.enqueueOwnStream(2);
  EXPECT_EQ(S.everything(), (Ops{0, 1, 2}));
  EXPECT_TRUE(S.done().empty()); // held apart: no host access waits for them
  S.ownStreamsBlocked();
  EXPECT_EQ(static_cast<const Ops &>(S), (Ops{0, 1, 2}));
  EXPECT_EQ(S.done(), (Ops{1, 2}));
  EXPECT_TRUE(S.OwnStream.empty());
}

TEST(PendingSet, MovedLegacyOpOrdersTheOwnStreamOpsPendingThenButNotLaterOnes) {
  PendingSet S;
  S.enqueueOwnStream(1);
  S.legacyOrderLost();
  S.enqueueOwnStream(2);
  EXPECT_EQ(S.OwnOrdered, (Ops{1}));
  S.enqueueOwnStream(1); // a new run of op 1: nothing ordered after it yet
  EXPECT_TRUE(S.OwnOrdered.empty());
}

TEST(PendingSet, JoinKeepsAnOpAmongTheToolsWhereOnePathMovedItThere) {
  PendingSet A, B;
  A.enqueueOwnStream(1);
  A.legacyOrderLost();
  B.enqueueOwnStream(1);
  B.ownStreamsBlocked();
  EXPECT_TRUE(A.join(B));
  EXPECT_EQ(static_cast<const Ops &>(A), (Ops{1}));
  EXPECT_EQ(A.done(), (Ops{1}));
  EXPECT_TRUE(A.OwnStream.empty() && A.OwnOrdered.empty());
  EXPECT_FALSE(A.join(B)); // and the join is stable, so a loop fixpoint ends
  PendingSet C = B;
  PendingSet D;
  D.enqueueOwnStream(1);
  EXPECT_FALSE(C.join(D));
  EXPECT_TRUE(C.OwnStream.empty());
}

TEST(PendingSet, PrintsTheOpsOnTheProgramsOwnStreams) {
  PendingSet S = state({0}, {0});
  S.enqueueOwnStream(3);
  S.legacyOrderLost();
  EXPECT_EQ(printed(S), "{op0}, done in the original {op0}, on the program's own streams {op3}, "
                        "ordered before later work in the original {op3}");
}
