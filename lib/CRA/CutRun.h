//===- CutRun.h - A CRA run in stretches between the function body's statements ===//
//
// The redundant-sync decision compares the analysis with and without one
// sync. Without it, the walk differs from the point before the body's
// statement that holds the sync up to the first point where the two walks
// meet again (BodyPoint.h); before and after, it records the same waits and
// syncs. So a run is kept cut at those points, a trial run is resumed at the
// sync's statement and stops where it meets the run it is compared with, and
// a trial that is kept replaces only its stretch. The trials of a function
// then cost the statements they change instead of a whole run each.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_LIB_CRA_CUTRUN_H
#define STREAMALLOC_LIB_CRA_CUTRUN_H

#include "streamalloc/CRA/RedundantSyncs.h"

#include <vector>

namespace streamalloc {

/// What a run recorded between points [Start, End) of the function body's
/// walk: the stretch from point I to point I + 1 is entry I - Start (the
/// last one runs to the end of the run). A body that is not a block is one
/// stretch.
struct CutRun {
  unsigned Start = 0, End = 0;
  std::vector<BodyPoint> Points; ///< where each stretch begins
  std::vector<std::vector<Wait>> Waits;
  std::vector<std::vector<SyncPoint>> Syncs;

  /// The waits of the stretches [From, To) of this run, in the run's order.
  template <typename Fn> void forEachWait(unsigned From, unsigned To, Fn F) const {
    for (unsigned I = std::max(From, Start); I < std::min(To, End); ++I)
      for (const Wait &W : Waits[I - Start])
        F(W);
  }
};

/// The whole run with the syncs \p Ignored.
CutRun runWhole(CraRunner Run, llvm::ArrayRef<const clang::Expr *> Ignored);

/// The run with the syncs \p Ignored, resumed at point \p From of \p Base (a
/// whole run that ignores the same syncs but those of the statement there),
/// up to the first point where it meets \p Base again.
CutRun runFrom(CraRunner Run, llvm::ArrayRef<const clang::Expr *> Ignored, const CutRun &Base,
               unsigned From);

/// \p Base with \p Stretch (a run of the same function) in its place.
void splice(CutRun &Base, CutRun Stretch);

} // namespace streamalloc

#endif
