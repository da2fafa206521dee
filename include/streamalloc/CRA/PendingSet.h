//===- PendingSet.h - CRA's lattice: the GPU ops pending at a program point ===//
//
// The state CRA computes before every statement of a host function: which of
// the function's GPU ops may still be running on the GPU in the transformed
// program (in the order they were enqueued), and which of those the original
// program had already completed there (it blocked since: OriginalCompletion.h).
//
// Ops the program put on streams of its own are left as written; the output
// completes them where the original did, except where the tool changes a call
// that blocked in the original (it returned only once all earlier work on
// blocking streams was done). Until such a point they are held apart
// (OwnStream): no host access needs a wait for them. At such a point they join
// the pending ops as done in the original. Once the tool has moved a legacy-
// stream op off the legacy stream while they were pending, the legacy stream
// no longer orders them before later work (OwnOrdered): later ops that
// conflict with them wait.
//
// The join (paths meeting after an if, the back edge of a loop) is the union
// of every part: an op is pending after the join if it is pending on some
// path, and done in the original if it is done on some path where it is
// pending (a host access after the join may rely on it). The bottom element
// is the empty set; the lattice is finite (a function has finitely many ops),
// so the loop fixpoint terminates.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_PENDINGSET_H
#define STREAMALLOC_CRA_PENDINGSET_H

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace streamalloc {

/// Adds to \p Into the ops of \p From it does not hold yet, in \p From's order.
/// Returns whether it added any.
bool mergeOps(std::vector<unsigned> &Into, const std::vector<unsigned> &From);

/// The ops pending at a program point, in the order enqueued (the vector),
/// and which of them the original program had completed there (OrigDone).
/// OrigDone may name ops no longer pending; they mean nothing (an op enqueued
/// again while not pending starts out not done), and an entry kept too long
/// only makes the tool wait more.
struct PendingSet : std::vector<unsigned> {
  std::vector<unsigned> OrigDone;
  /// Ops on the program's own streams, pending, not among the ops above.
  std::vector<unsigned> OwnStream;
  /// Those of OwnStream the original ordered before all later work.
  std::vector<unsigned> OwnOrdered;

  PendingSet() = default;
  PendingSet(std::vector<unsigned> Ops) : std::vector<unsigned>(std::move(Ops)) {}
  void clear() {
    std::vector<unsigned>::clear();
    OrigDone.clear();
    OwnStream.clear();
    OwnOrdered.clear();
  }
  /// The original blocked where the output does not: the ops on the
  /// program's own streams are pending and done in the original from here.
  void ownStreamsBlocked();
  /// A legacy-stream op of the original runs elsewhere in the output.
  void legacyOrderLost() { mergeOps(OwnOrdered, OwnStream); }
  /// Removes \p Ops from every part: they are complete.
  void erase(std::vector<unsigned> Ops);
  /// Enqueues \p Op, an op on a stream of the program's own.
  void enqueueOwnStream(unsigned Op);
  /// Every op pending, on the tool's streams and on the program's own.
  std::vector<unsigned> everything() const;
  bool origDone(unsigned Op) const;
  /// The original has completed everything pending (it blocked here).
  void originalBlocks() { mergeOps(OrigDone, *this); }
  /// The pending ops the original had completed.
  std::vector<unsigned> done() const;
  /// The join with \p Other (see the file comment). Returns whether this set
  /// grew, in either part: the loop fixpoint stops when it does not.
  bool join(const PendingSet &Other);
  /// Equal in every part, in the same order: CRA's walk goes on the same
  /// from equal sets (BodyPoint.h), so a part added to the set is compared
  /// here too.
  bool operator==(const PendingSet &Other) const;
  /// `{op0, op2}`, and `, done in the original {op0}` when some are done.
  void print(llvm::raw_ostream &OS) const;
};

} // namespace streamalloc

#endif
