//===- Cra.h - Can-Run-Asynchronously analysis ------------------------------===//
//
// Decides, for each GPU op of a host function, whether it may run
// asynchronously, and where the host must wait for pending ops: before the
// first statement that conflicts with them, before control leaves the block
// that started them, and at the end of that block.
//
// Flow-sensitive over the structured statements of the function: a wait goes
// right before the statement (inside a branch, loop body or switch case) that
// conflicts with a pending op; after an if the pending set is the union over
// its paths; loops iterate to a fixpoint over the back edge. Conditions, loop
// headers and jumps are never split: a wait they need goes before the whole
// statement. Single-statement bodies of if/else/for/while/do are analysed as
// blocks of their own and wrapped in braces by the rewriter when an op in them
// runs asynchronously or a wait goes inside them.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_CRA_H
#define STREAMALLOC_CRA_CRA_H

#include "streamalloc/Access/MemoryObjects.h"
#include "streamalloc/CRA/BodyPoint.h"
#include "streamalloc/CRA/PendingSet.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;

/// A place in the source where code can be inserted.
struct InsertionPoint {
  /// BodyEnd: after the single-statement body \p Anchor, inside the braces
  /// the rewriter wraps around it (see CraResult::Wrapped). InInactiveCode:
  /// on the first line of a group of an #if chain that this build skips.
  /// OnReturnFrom: on the paths that return from the function out of the
  /// macro expansion \p Anchor comes from (an error-check macro), and only
  /// there: the rewriter guards the statement (or, where it cannot, waits
  /// before it).
  enum Kind { BeforeStmt, BlockEnd, InInactiveCode, BodyEnd, OnReturnFrom } K;
  /// The statement (a BeforeStmt anchored at a wrapped body goes after its
  /// `{`), the CompoundStmt whose `}` it is, or the wrapped body.
  const clang::Stmt *Anchor;
  unsigned Offset = 0; ///< InInactiveCode: file offset of the group's first line
};

enum class WaitCause {
  Conflict,       ///< a host access (or synchronous op) touches what a pending op uses
  LeavesBlock,    ///< control leaves the block (break/continue) with ops pending
  LeavesFunction, ///< return/goto/throw/exit with ops pending
  BlockEnd,       ///< the block that started the ops ends
  FunctionEnd,    ///< the function body ends
  InactiveCode,   ///< an #if branch not compiled in this configuration may touch anything
  Timer,          ///< a clock read: the original had completed the ops it covers there
};

struct Wait {
  InsertionPoint Where;
  std::vector<unsigned> Covers; ///< ops pending at that point that it waits for
  /// Streams (of the plan) on which ops stay pending past this wait: later
  /// work is queued there, so the wait is for the covered ops' events rather
  /// than for the whole stream.
  std::vector<unsigned> PartialStreams;
  /// The covered ops enqueued earlier in the same pass through the wait's
  /// block: the wait must follow them in the text. The others come from
  /// enclosing code or from earlier iterations of the loop around it.
  std::vector<unsigned> EnqueuedHere;
  WaitCause Cause;
  unsigned Line;                              ///< line of the statement (or `}`) that needs it
  const clang::Stmt *InnermostLoop = nullptr; ///< the loop around it, if any
  // For WaitCause::Conflict:
  unsigned ConflictOp = 0; ///< the first pending op that conflicts
  std::string ObjectName;  ///< the object they share
  bool HostWrites = false; ///< the statement writes (rather than only reads) it
  std::string Detail;      ///< why the object is Unknown, if it is
  /// The op of the statement that must start after ConflictOp, when the two
  /// were ordered by the legacy default stream in the original and one runs
  /// on a stream of the program's own (OwnStreams.h).
  std::optional<unsigned> OrderedOp;
  // For WaitCause::Timer before a loop: the line of the clock read on every
  // pass of the loop (0 for a wait before the clock read itself).
  unsigned ClockInLoopLine = 0;
};

struct OpDecision {
  bool Async = false;
  std::string WhySync;               ///< when not async
  std::optional<unsigned> WaitIndex; ///< the first wait that covers it
  /// For async ops: the statement (in its block) that enqueues the op, and
  /// the loops around it inside the function, innermost first.
  const clang::Stmt *Statement = nullptr;
  std::vector<const clang::Stmt *> Loops;
};

/// A statement where the program's own device sync (cudaDeviceSynchronize)
/// completes every pending op.
struct SyncPoint {
  const clang::Stmt *Statement;
  std::vector<const clang::Expr *> Calls; ///< its device-sync calls
  unsigned Line;
  std::vector<unsigned> Pending; ///< ops pending when it runs (after any wait before it)
};

/// A statement that reads a clock (itself or in a callee): a point where the
/// program observes how much work has finished (--timers).
struct ClockRead {
  const clang::Stmt *Statement;
  unsigned Line;
  /// Ops pending in the output before the statement that the original had
  /// completed there; --timers=keep waits for them first.
  std::vector<unsigned> DoneInOriginal;
  /// Ops still pending in the output when the clock is read.
  std::vector<unsigned> PendingAtRead;
};

/// CRA's state before one statement.
struct PointState {
  const clang::Stmt *Statement;
  unsigned Line;
  PendingSet Before;
};

struct CraResult {
  std::vector<OpDecision> Ops; ///< indexed by GpuOp::Id
  std::vector<Wait> Waits;
  std::vector<SyncPoint> Syncs;
  /// One entry per clock-reading statement (joined over the passes through
  /// a loop body).
  std::vector<ClockRead> ClockReads;
  /// Where the stream pool is released (end of main, before cudaDeviceReset).
  std::vector<InsertionPoint> Releases;
  /// The state before each statement visited, in the order of the final
  /// analysis (--dump=pending prints them).
  std::vector<PointState> States;
  /// Ops on streams of the program's own that sit where the analysis does
  /// not follow them (a condition, a loop header, a try block, ...): their
  /// order with the rest is not modelled, and nothing may be rewritten.
  std::vector<unsigned> UnmodelledOwnStreamOps;
  /// With FunctionAccesses::returnsWithWorkPending: the ops pending at a
  /// return (or the body's end) that the function does not wait for there
  /// (FunctionAccesses::mayOutliveFunction); its callers do. Sorted.
  std::vector<unsigned> LeftPending;
  /// Each return (or the body's end) where some of them are pending: the
  /// rewriter joins their streams there into the one its callers wait for.
  struct ReturnPoint {
    InsertionPoint Where;
    std::vector<unsigned> Pending;
  };
  std::vector<ReturnPoint> LeftAt;
  /// Single-statement bodies (owner statement, body) that hold an async op or
  /// an insertion point: the rewriter puts them in braces.
  std::vector<std::pair<const clang::Stmt *, const clang::Stmt *>> Wrapped;

  void print(llvm::raw_ostream &OS, const FunctionAccesses &FA) const;
};

/// \p Blocked gives, per op id, why it cannot be rewritten (empty if it can).
/// \p InactiveCode: file offsets of the first lines of groups of `#if` chains
/// that this build skips and that hold code (not only directives); in another
/// configuration that code may touch anything, so a group between statements
/// waits for everything pending on its first line (compiled only with it),
/// and a statement with such a group inside (outside its nested blocks)
/// counts as touching anything.
/// \p StreamOf (per op id, from the stream plan): when given, a wait for a
/// conflict covers only the conflicting ops (and, on a stream where nothing
/// else is pending, the whole stream); the other ops stay pending. Without
/// it every wait covers all pending ops.
/// \p IgnoredSyncs: device-sync calls of the program treated as if they were
/// not there (they complete nothing in the output; the original still
/// completed everything there); a statement still syncs through its other
/// device-sync calls.
///
/// Whatever the analysis can or cannot prove, a conflict with an op that the
/// original had not completed at the statement (a launch, a device-to-device
/// copy, a device fill, with no blocking call of the original since) is not a
/// wait: in a race-free input the statement ran concurrently with the op
/// there too (DESIGN.md §3a; OriginalCompletion.h).
/// \p TimerWaits (--timers=keep): before a clock read, the ops the original
/// had completed there are waited for (WaitCause::Timer).
/// \p Walk: follows the run between the statements of the function body,
/// may end it early or resume it (BodyPoint.h).
CraResult runCra(const FunctionAccesses &FA, const std::vector<std::string> &Blocked,
                 const std::vector<unsigned> &InactiveCode = {},
                 const std::vector<std::optional<unsigned>> *StreamOf = nullptr,
                 llvm::ArrayRef<const clang::Expr *> IgnoredSyncs = {}, bool TimerWaits = true,
                 const BodyWalk &Walk = {});

llvm::StringRef waitCauseName(WaitCause Cause);

/// Whether \p W sits in a loop body and every op it covers was enqueued
/// before that loop: it runs on every iteration, but only the first that
/// reaches it finds them pending (the others return at once).
bool waitsOnlyForWorkBeforeItsLoop(const Wait &W, const CraResult &R);

/// For a single-statement body \p Body of \p Owner (if/else/for/while/do):
/// the file offset right after the token that precedes it (`)`, `else`,
/// `do`), where a `{` goes, if that token is spelled in the main file.
std::optional<unsigned> bodyOpenOffset(const clang::Stmt *Owner, const clang::Stmt *Body,
                                       const clang::ASTContext &Ctx);
/// The file offset right after \p Body and its `;`, where a `}` goes, if the
/// body is spelled in the main file (or is one whole macro expansion there)
/// and is followed by a blank, a line end or a comment.
std::optional<unsigned> bodyEndOffset(const clang::Stmt *Body, const clang::ASTContext &Ctx);

/// Why the wait is there, in one short line (used in the inserted comment
/// and in the report), e.g. "h_c is read below (written by cudaMemcpy on line 42)".
std::string describeWait(const Wait &W, const FunctionAccesses &FA);

} // namespace streamalloc

#endif
