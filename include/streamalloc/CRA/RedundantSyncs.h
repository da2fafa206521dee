//===- RedundantSyncs.h - The program's own device syncs that protect nothing -===//
//
// A `cudaDeviceSynchronize()` (or `cudaThreadSynchronize()`) of the program
// is redundant when the analysis, run again with it treated as not there,
// needs no wait for a conflict that it did not need already: no host access
// before the next sync conflicts with the ops pending at it, and the tool's
// own waits (at the end of a block or the function, before a jump) cover
// them. Two syncs may each be redundant only thanks to the other, so they are
// decided one at a time in program order, with the syncs already found
// redundant (and removable) treated as gone.
//
// Each trial run is resumed before the statement of the function body that
// holds the sync and stops where it meets the run with the sync again
// (BodyPoint.h), so deciding every sync costs about one run of the analysis
// plus the statements each sync affects, not a whole run per sync.
//
// Soundness: the analysis tracks only the ops it makes asynchronous. Work it
// leaves on the legacy default stream (ops kept synchronous, which are still
// asynchronous to the host when they are launches or fills, the program's
// own *Async calls, calls that may enqueue work: helpers with GPU ops,
// functions without a body or model) may be running at a sync; such a sync is
// not redundant, unless a sync that stays, at the top level of the function
// body, completes that work first. Outside `main`, work the callers left
// running counts as such work at the function's start.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_REDUNDANTSYNCS_H
#define STREAMALLOC_CRA_REDUNDANTSYNCS_H

#include "streamalloc/CRA/Cra.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class Expr;
class Stmt;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
class FunctionSummaries;

/// GPU work the analysis does not track that may be running at a sync.
struct UntrackedWork {
  unsigned Offset = 0; ///< where it is enqueued (file offset; 0: before the function)
  /// It may run after the sync's previous execution only (a loop around the
  /// sync, or a goto): an earlier top-level sync does not complete it.
  bool Repeats = false;
  std::string Why; ///< e.g. "kernel `k` on line 12 stays on the legacy default stream"
  /// A synchronous copy from host to device left as written: the host waits
  /// for it, except for the end of its DMA from the staging buffer.
  bool HostToDeviceCopy = false;
};

/// One statement of the program that synchronises the device.
struct ExplicitSync {
  const clang::Stmt *Statement = nullptr; ///< the statement in a block that holds it
  /// The statement of the function body that holds it (null when the body
  /// is not a block).
  const clang::Stmt *BodyStatement = nullptr;
  /// Its device-sync calls (a macro may evaluate its argument twice).
  std::vector<const clang::Expr *> Calls;
  unsigned Line = 0;
  unsigned Offset = 0; ///< file offset of its statement
  std::string Callee;  ///< cudaDeviceSynchronize or cudaThreadSynchronize
  /// A statement of the function body itself (runs on every path that gets
  /// past it).
  bool TopLevel = false;
  /// The whole statement can be removed: the call is the statement, or the
  /// only argument of a macro that forms the statement (CHECK(...)).
  bool Removable = false;
  std::string WhyKept;         ///< when not Removable, e.g. "its result is stored in `err`"
  unsigned Begin = 0, End = 0; ///< when Removable: file offsets of the statement and its `;`
  std::vector<UntrackedWork> Untracked; ///< what may be running at it
  /// File offsets of the innermost loop around it, if any.
  std::optional<std::pair<unsigned, unsigned>> InnermostLoop;
};

/// The GPU work \p FA's function may leave running that the analysis does
/// not track (ops left on the legacy default stream that do not complete
/// earlier work, callees that enqueue work, functions passed as values), in
/// program order; for a function other than `main`, also the work its
/// callers may have left running (offset 0). \p Cra: as for
/// findExplicitSyncs.
std::vector<UntrackedWork> untrackedGpuWork(const FunctionAccesses &FA, FunctionSummaries &Device,
                                            const CraResult &Cra);

/// The explicit device syncs of \p FA's function, in program order.
/// \p Cra (any run: only its decisions are used) tells which ops stay
/// synchronous, i.e. on the legacy default stream, untracked.
std::vector<ExplicitSync> findExplicitSyncs(const FunctionAccesses &FA, FunctionSummaries &Device,
                                            const CraResult &Cra);

struct SyncDecision {
  bool Redundant = false;
  bool Drop = false; ///< redundant and removable: removed unless --keep-syncs
  /// Redundant, but a clock is read before the next sync as often as it
  /// runs: it stays so that printed times measure the same work.
  bool KeptForTimer = false;
  unsigned PendingOps = 0; ///< ops pending at it (after the earlier drops)
  /// Why it is (or is not) redundant, e.g. "no GPU op is pending here".
  std::string Reason;
  std::string
      Short; ///< when redundant: the reason in a few words (for the comment left in its place)
};

/// Runs the analysis with the given device-sync calls ignored, followed or
/// resumed as \p Walk says (runCra's parameter of that name).
using CraRunner = llvm::function_ref<CraResult(llvm::ArrayRef<const clang::Expr *> Ignored,
                                               const BodyWalk &Walk)>;

/// Decides, for each of \p Syncs (in program order), whether it is
/// redundant, greedily: a sync found redundant and removable is ignored when
/// the later ones are decided.
std::vector<SyncDecision> decideRedundantSyncs(const std::vector<ExplicitSync> &Syncs,
                                               const FunctionAccesses &FA, CraRunner Run);

/// The calls of the syncs \p Decisions drop (for runCra's IgnoredSyncs).
std::vector<const clang::Expr *> droppedSyncCalls(const std::vector<ExplicitSync> &Syncs,
                                                  const std::vector<SyncDecision> &Decisions);

} // namespace streamalloc

#endif
