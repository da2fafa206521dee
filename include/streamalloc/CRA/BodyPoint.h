//===- BodyPoint.h - CRA's walk between two statements of the function body ===//
//
// CRA walks the statements of the function body in order. Between two of
// them, at the top level, no loop, branch or jump target is open, so what
// the walk does from there on depends only on the pending set, the logical
// clock and the enqueue times of the pending ops. A BodyPoint holds those:
// a run can be followed from point to point and resumed at any of them. Two
// runs that reach equal points do the same from there on (the syncs they
// ignore being the same from there on).
//
// The redundant-sync decision uses this to analyse only the statements
// that ignoring one sync changes: from the sync to the first point where the
// run meets the one with the sync again (RedundantSyncs.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_BODYPOINT_H
#define STREAMALLOC_CRA_BODYPOINT_H

#include "streamalloc/CRA/PendingSet.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace streamalloc {

/// CRA's walk before a statement of the function body (or after the last).
struct BodyPoint {
  unsigned Index = 0; ///< the statement's index in the body; its size: after the last
  PendingSet State;
  unsigned Clock = 0; ///< logical time (each enqueue ticks it)
  /// The enqueue time of each op State holds (State.everything()), in its order (the walk reads
  /// no other op's).
  std::vector<unsigned> Ticks;
  /// What the run had recorded before this point (sizes of CraResult's
  /// Waits and Syncs).
  unsigned Waits = 0, Syncs = 0;

  /// The walk goes on the same from both points (the counts may differ).
  bool sameWalk(const BodyPoint &Other) const {
    return Index == Other.Index && Clock == Other.Clock && Ticks == Other.Ticks &&
           State == Other.State;
  }
};

/// How runCra follows and resumes its walk over the function body.
struct BodyWalk {
  /// Called at each point but the one resumed from; returning false ends the
  /// run there (nothing after it is recorded, not even the function's end).
  llvm::function_ref<bool(const BodyPoint &)> Observe;
  /// Resume here (a point an earlier run of the same function observed): the
  /// result then holds only what is recorded from it on, and its op
  /// decisions only for the ops enqueued from it on.
  const BodyPoint *From = nullptr;
};

} // namespace streamalloc

#endif
