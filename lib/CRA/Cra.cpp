//===- Cra.cpp - Can-Run-Asynchronously over blocks of statements ----------===//
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/LegacyStream.h"
#include "streamalloc/CRA/OriginalCompletion.h"
#include "streamalloc/CRA/OwnStreams.h"
#include "streamalloc/CRA/PendingSet.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>
#include <iterator>
#include <set>

using namespace clang;

namespace streamalloc {

namespace {

/// Ways control can leave a statement other than by falling through.
struct Exits {
  bool LeavesFunction = false; ///< return, goto, throw
  bool OnlyReturns = true;     ///< no goto or throw among them
  bool LeavesBlock = false;    ///< break/continue aimed outside the statement
};

void findExits(const Stmt *S, unsigned LoopDepth, unsigned BreakDepth, Exits &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S)) {
    Out.LeavesFunction = true;
    Out.OnlyReturns &= isa<ReturnStmt>(S);
  }
  if (isa<BreakStmt>(S) && BreakDepth == 0)
    Out.LeavesBlock = true;
  if (isa<ContinueStmt>(S) && LoopDepth == 0)
    Out.LeavesBlock = true;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    findExits(Child, LoopDepth + Loop, BreakDepth + (Loop || Switch), Out);
}

/// Statements whose inner ops stay synchronous: handlers of a try block may
/// be entered from any point inside it, and the body of an OpenMP directive
/// runs on several host threads that meet at an implicit barrier.
bool isOpaqueRegion(const Stmt *S) {
  return isa<CXXTryStmt, SEHTryStmt, CoroutineBodyStmt, CapturedStmt, OMPExecutableDirective>(S);
}

bool isControlFlow(const Stmt *S) {
  return isa<CompoundStmt, IfStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S) ||
         isOpaqueRegion(S);
}

/// Label, case and attribute wrappers are transparent: the wait goes after
/// the label, before the statement it labels.
const Stmt *unwrapLabels(const Stmt *S) {
  while (true) {
    if (const auto *L = dyn_cast<LabelStmt>(S))
      S = L->getSubStmt();
    else if (const auto *C = dyn_cast<SwitchCase>(S))
      S = C->getSubStmt();
    else if (const auto *A = dyn_cast<AttributedStmt>(S))
      S = A->getSubStmt();
    else
      return S;
  }
}

/// The token after which a `{` goes when \p Body (a single statement) of
/// \p Owner is wrapped in braces.
SourceLocation bodyOpenToken(const Stmt *Owner, const Stmt *Body) {
  if (const auto *If = dyn_cast<IfStmt>(Owner))
    return Body == If->getThen() ? If->getRParenLoc() : If->getElseLoc();
  if (const auto *For = dyn_cast<ForStmt>(Owner))
    return For->getRParenLoc();
  if (const auto *While = dyn_cast<WhileStmt>(Owner))
    return While->getRParenLoc();
  if (const auto *Do = dyn_cast<DoStmt>(Owner))
    return Do->getDoLoc();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Owner))
    return Range->getRParenLoc();
  return {};
}

void eraseAll(std::vector<unsigned> &From, const std::vector<unsigned> &Ops) {
  llvm::erase_if(From, [&](unsigned Op) { return llvm::is_contained(Ops, Op); });
}

/// The statements of a region: a block's, or the single-statement body itself.
llvm::SmallVector<const Stmt *, 16> childrenOf(const Stmt *Region) {
  llvm::SmallVector<const Stmt *, 16> Children;
  if (const auto *Block = dyn_cast<CompoundStmt>(Region))
    Children.append(Block->body_begin(), Block->body_end());
  else
    Children.push_back(Region);
  return Children;
}

/// How a control-flow statement is analysed.
struct Shape {
  /// Evaluated before (or between) its regions; a wait they need goes before
  /// the whole statement.
  llvm::SmallVector<const Stmt *, 4> Header;
  /// Single-statement bodies that cannot be wrapped in braces: analysed like
  /// the header, their ops stay synchronous.
  llvm::SmallVector<const Stmt *, 2> Fallback;
  /// Blocks and wrappable bodies analysed statement by statement.
  llvm::SmallVector<const Stmt *, 4> Regions;
  bool Whole = false;  ///< everything inside counts before the statement
  bool Opaque = false; ///< and no region inside is analysed
  /// An unconditional device sync in these header parts runs before the regions.
  llvm::SmallVector<const Stmt *, 2> RunsFirst;
};

class CraWalker {
public:
  CraWalker(const FunctionAccesses &FA, const std::vector<std::string> &Blocked,
            const std::vector<unsigned> &InactiveCode,
            const std::vector<std::optional<unsigned>> *StreamOf,
            llvm::ArrayRef<const Expr *> IgnoredSyncs, bool TimerWaits, const BodyWalk &Walk)
      : FA(FA), Blocked(Blocked), InactiveCode(InactiveCode), StreamOf(StreamOf),
        IgnoredSyncs(IgnoredSyncs), TimerWaits(TimerWaits), Walk(Walk),
        Ctx(FA.function().getASTContext()), SM(Ctx.getSourceManager()),
        File(SM.getFileID(SM.getExpansionLoc(FA.function().getLocation()))) {
    assert(Blocked.size() == FA.ops().size() && "a rewritability verdict per op");
    assert((!StreamOf || StreamOf->size() == FA.ops().size()) && "a planned stream per op");
    R.Ops.resize(FA.ops().size());
    TickOf.resize(FA.ops().size());
    for (unsigned I = 0; I < FA.ops().size(); ++I)
      assert(FA.ops()[I].Id == I && "an op's id is its index in ops()");
    if (Walk.From) { // a resumed run decides only the ops it enqueues
      Clock = Walk.From->Clock;
      std::vector<unsigned> Pending = Walk.From->State.everything();
      assert(Walk.From->Ticks.size() == Pending.size() && "a time per pending op");
      for (unsigned I = 0; I < Pending.size(); ++I)
        TickOf[Pending[I]] = Walk.From->Ticks[I];
      return;
    }
    for (const GpuOp &Op : FA.ops())
      R.Ops[Op.Id].WhySync =
          Blocked[Op.Id].empty()
              ? "not a statement of its own in a block (in a condition, a loop header, a jump, "
                "a try block, an OpenMP region or a switch with nested case labels); this "
                "version keeps such ops synchronous"
              : Blocked[Op.Id];
  }

  CraResult run() {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FA.function().getBody());
    if (!Body)
      return std::move(R);
    IsMain = FA.function().isMain();
    TopBody = Body;
    PendingSet Pending =
        processRegion(Body, Walk.From ? Walk.From->State : PendingSet(), /*MayNotRun=*/false);
    if (Stopped)
      return std::move(R);
    // (A resumed run sees only the ops enqueued after its start.)
    if (!Walk.From)
      for (const GpuOp &Op : FA.ops())
        if (Op.HasUserStream && !Enqueued.count(Op.Id))
          R.UnmodelledOwnStreamOps.push_back(Op.Id);
    if (!FA.returnsWithWorkPending() && !Pending.empty())
      addWait({InsertionPoint::BlockEnd, Body}, Pending, WaitCause::FunctionEnd,
              lineOf(Body->getRBracLoc()));
    else if (FA.returnsWithWorkPending())
      leaveWorkPending(Pending, {InsertionPoint::BlockEnd, Body}, WaitCause::FunctionEnd,
                       lineOf(Body->getRBracLoc()));
    if (IsMain && (Body->body_empty() || !isa<ReturnStmt>(Body->body_back())))
      R.Releases.push_back({InsertionPoint::BlockEnd, Body});
    finishWrapping();
    return std::move(R);
  }

private:
  const FunctionAccesses &FA;
  const std::vector<std::string> &Blocked;
  const std::vector<unsigned> &InactiveCode;
  const std::vector<std::optional<unsigned>> *StreamOf;
  llvm::ArrayRef<const Expr *> IgnoredSyncs;
  bool TimerWaits;
  const BodyWalk &Walk;
  const ASTContext &Ctx;
  const SourceManager &SM;
  FileID File; ///< the file that holds the function (the offsets of InactiveCode)
  CraResult R;
  bool IsMain = false;
  /// While processControl() handles an if whose condition's op ran as a
  /// statement of its own: that condition.
  const Expr *OpCondition = nullptr;
  /// Ops on the program's own streams the analysis saw enqueued.
  std::set<unsigned> Enqueued;
  /// The name of the program's stream \p Op runs on, if fixed (OwnStreams.h).
  const std::string &keyOf(unsigned Op) const { return FA.ops()[Op].StreamKey; }

  /// After the program's own cudaStreamSynchronize() calls of \p A: the ops
  /// on the streams they name are complete.
  void syncOwnStreams(const StmtAccesses &A, PendingSet &State) const {
    std::vector<unsigned> Own = State.OwnStream;
    for (unsigned Op : State)
      if (FA.ops()[Op].HasUserStream)
        Own.push_back(Op);
    if (Own.empty())
      return; // nothing of the program's own to complete
    for (const Expr *Call : A.StreamSyncCalls) {
      const auto *C = cast<CallExpr>(Call);
      if (C->getNumArgs() == 0)
        continue;
      std::string Key = ownStreamKey(C->getArg(0), FA.function(), FA.function().getASTContext());
      if (Key.empty())
        continue;
      std::vector<unsigned> Done;
      llvm::copy_if(Own, std::back_inserter(Done), [&](unsigned Op) { return keyOf(Op) == Key; });
      State.erase(Done);
    }
  }

  const Stmt *TopBody = nullptr; ///< the function body
  bool Stopped = false;          ///< Walk.Observe ended the run

  /// At the point before statement \p Index of the function body (its size:
  /// after the last): whether the run goes on.
  bool atBodyPoint(unsigned Index, const PendingSet &State) {
    if (!Walk.Observe || (Walk.From && Index == Walk.From->Index))
      return true;
    BodyPoint P{Index, State, Clock, {}, unsigned(R.Waits.size()), unsigned(R.Syncs.size())};
    for (unsigned Op : State.everything()) // every op the set holds (BodyPoint::Ticks)
      P.Ticks.push_back(TickOf[Op]);
    Stopped = !Walk.Observe(P);
    return !Stopped;
  }

  /// Whether \p S completes all device work: one of its unconditional
  /// device-sync calls is not ignored. Records the sync point.
  bool syncsDevice(const Stmt *S, const StmtAccesses &A, const std::vector<unsigned> &Pending) {
    std::vector<const Expr *> Calls;
    for (const Expr *Call : A.SyncCalls)
      if (!llvm::is_contained(IgnoredSyncs, Call))
        Calls.push_back(Call);
    if (!A.SyncsDevice || Calls.empty())
      return false;
    R.Syncs.push_back({S, std::move(Calls), lineOf(S->getBeginLoc()), Pending});
    return true;
  }
  /// Loops around the statement being analysed, innermost last.
  std::vector<const Stmt *> LoopStack;
  /// Control-flow statements around (and including) the one being analysed.
  std::vector<const Stmt *> ControlStack;

  /// Logical time: each op is stamped when it is enqueued, so a region can
  /// tell the ops it enqueued from those pending on entry.
  unsigned Clock = 0;
  std::vector<unsigned> TickOf;
  /// A pass through a loop body: ops inside the loop stamped before Start
  /// are pending from an earlier iteration.
  struct Pass {
    const Stmt *Loop;
    unsigned Start;
  };
  std::vector<Pass> Passes;
  /// When the innermost construct a break (continue) leaves was entered.
  std::vector<unsigned> BreakStart, ContinueStart;
  /// Depth of enclosing blocks (inside the function) that run destructors
  /// when left: a break or continue through them must wait for everything.
  unsigned DestructorBlocks = 0;
  /// Single-statement bodies analysed as regions, with their owners, in the
  /// order met.
  std::vector<std::pair<const Stmt *, const Stmt *>> Bodies;

  unsigned offsetOf(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }
  unsigned lineOf(SourceLocation L) const { return SM.getSpellingLineNumber(SM.getFileLoc(L)); }

  /// The first `#if` with inactive code in [Begin, End), if any.
  std::optional<unsigned> inactiveCodeIn(unsigned Begin, unsigned End) const {
    for (unsigned Offset : InactiveCode)
      if (Offset >= Begin && Offset < End)
        return Offset;
    return std::nullopt;
  }

  /// The pending ops a wait for \p Conflicting must cover, and the streams
  /// on which ops stay pending past it (\p Partial). Without a stream plan:
  /// everything. With one, per stream of a conflicting op: when other ops
  /// were enqueued on the stream after the conflicting ones, only the
  /// conflicting ops are covered (the wait is for their events) and the
  /// rest stay pending; otherwise the whole stream is synchronised and
  /// everything pending on it is covered. ("After" is the analysis' logical
  /// time, which a loop or a join can blur; it only chooses between two
  /// sound waits.)
  std::vector<unsigned> coveredBy(const std::vector<unsigned> &Pending,
                                  const std::vector<unsigned> &Conflicting,
                                  std::vector<unsigned> &Partial) const {
    Partial.clear();
    if (!StreamOf || Conflicting.empty())
      return Pending;
    llvm::SmallVector<unsigned, 4> Streams;
    for (unsigned Op : Conflicting) {
      if (!(*StreamOf)[Op])
        return Pending;
      Streams.push_back(*(*StreamOf)[Op]);
    }
    for (unsigned S : Streams) {
      unsigned LastConflict = 0;
      for (unsigned Op : Conflicting)
        if ((*StreamOf)[Op] == S)
          LastConflict = std::max(LastConflict, TickOf[Op]);
      bool LaterWork = llvm::any_of(Pending, [&](unsigned Op) {
        return (*StreamOf)[Op] == S && !llvm::is_contained(Conflicting, Op) &&
               TickOf[Op] > LastConflict;
      });
      if (LaterWork && !llvm::is_contained(Partial, S))
        Partial.push_back(S);
    }
    llvm::sort(Partial);
    std::vector<unsigned> Covered;
    for (unsigned Op : Pending) {
      std::optional<unsigned> S = (*StreamOf)[Op];
      if (llvm::is_contained(Conflicting, Op) ||
          (S && llvm::is_contained(Streams, *S) && !llvm::is_contained(Partial, *S)))
        Covered.push_back(Op);
    }
    return Covered;
  }

  bool inside(unsigned Op, const Stmt *S) const {
    unsigned At = offsetOf(FA.ops()[Op].Call->getBeginLoc());
    return offsetOf(S->getBeginLoc()) <= At && At <= offsetOf(S->getEndLoc());
  }

  /// The covered ops enqueued earlier on the path through the code being
  /// analysed (their statements precede the wait in the text); the others
  /// are pending from an earlier iteration of a loop around the wait.
  std::vector<unsigned> enqueuedHere(const std::vector<unsigned> &Covered) const {
    std::vector<unsigned> Here;
    for (unsigned Op : Covered)
      if (!llvm::any_of(Passes,
                        [&](const Pass &P) { return TickOf[Op] <= P.Start && inside(Op, P.Loop); }))
        Here.push_back(Op);
    return Here;
  }

  void addWait(InsertionPoint Where, const std::vector<unsigned> &Covers, WaitCause Cause,
               unsigned Line, Wait W = {}, std::optional<std::vector<unsigned>> EnqueuedHere = {}) {
    W.Where = Where;
    W.Covers = Covers;
    W.EnqueuedHere = EnqueuedHere ? *EnqueuedHere : Covers;
    W.Cause = Cause;
    W.Line = Line;
    W.InnermostLoop = LoopStack.empty() ? nullptr : LoopStack.back();
    assert((Where.K == InsertionPoint::InInactiveCode || Where.Anchor) && "a wait has a place");
    assert(llvm::all_of(Covers, [&](unsigned Op) { return Op < R.Ops.size(); }) &&
           "a wait covers ops of the function");
    for (unsigned Op : Covers)
      if (!R.Ops[Op].WaitIndex)
        R.Ops[Op].WaitIndex = R.Waits.size();
    R.Waits.push_back(std::move(W));
  }

  /// Whether \p S comes from a macro expansion in which it sits in a branch
  /// or loop of the expansion itself (`if (!(p)) { ...; return 1; }`): a
  /// return there is an error path that most executions do not take.
  bool inConditionalOfMacro(const Stmt *S) const {
    if (!S->getBeginLoc().isMacroID())
      return false;
    unsigned At = offsetOf(S->getBeginLoc());
    return llvm::any_of(ControlStack, [&](const Stmt *O) {
      return O->getBeginLoc().isMacroID() && offsetOf(O->getBeginLoc()) == At &&
             (isa<IfStmt, SwitchStmt>(O) || isLoop(O));
    });
  }

  /// A return (or the body's end, \p Where) of a function that returns
  /// with work pending (its callers wait for that work): waits only for the
  /// pending ops that may not outlive the function, and the ops on their
  /// streams; the others stay pending past the return (CraResult::LeftPending).
  void leaveWorkPending(std::vector<unsigned> &Pending, InsertionPoint Where, WaitCause Cause,
                        unsigned Line) {
    std::vector<unsigned> Needed;
    for (unsigned Op : Pending)
      if (!FA.mayOutliveFunction(FA.ops()[Op]) ||
          FA.ops()[Op].Effects.conflictWith(FA.destroyedOnReturn()))
        Needed.push_back(Op);
    Wait W;
    // (Without a plan yet, exactly those: the plan comes from this run.)
    std::vector<unsigned> Covered =
        !StreamOf || Needed.empty() ? Needed : coveredBy(Pending, Needed, W.PartialStreams);
    std::vector<unsigned> Left;
    for (unsigned Op : Pending)
      if (!llvm::is_contained(Covered, Op)) {
        Left.push_back(Op);
        if (!llvm::is_contained(R.LeftPending, Op))
          R.LeftPending.insert(llvm::upper_bound(R.LeftPending, Op), Op);
      }
    if (!Left.empty())
      R.LeftAt.push_back({Where, std::move(Left)});
    if (Covered.empty())
      return;
    addWait(Where, Covered, Cause, Line, std::move(W), enqueuedHere(Covered));
    eraseAll(Pending, Covered);
  }

  /// The wait for a jump out of a macro's error branch at (or inside) \p S
  /// runs on that path only. A return (\p Returns) from `main` there ends
  /// the program like an `exit()` in an error branch: only the program's
  /// output must be complete (a kernel's printf), unless destructors of
  /// locals run on the way; any other function's callers, and the code at a
  /// `goto`'s label, go on running and need every op complete.
  void waitOnErrorReturn(const std::vector<unsigned> &State, const Stmt *S, bool Returns) {
    std::vector<unsigned> Needed = State;
    if (IsMain && Returns && !DestructorBlocks) {
      AccessSet Output;
      Output.add(OutputObject, WriteAccess);
      Needed.clear();
      conflict(State, Output, "", &Needed);
    }
    if (Needed.empty())
      return;
    Wait W;
    W.Where = {InsertionPoint::OnReturnFrom, S};
    W.Covers = Needed;
    W.EnqueuedHere = enqueuedHere(Needed);
    W.Cause = WaitCause::LeavesFunction;
    W.Line = lineOf(S->getBeginLoc());
    R.Waits.push_back(std::move(W));
  }

  /// A wait on the first line of the inactive group at \p Begin for every
  /// op pending there. It runs only in builds that compile the group, so it
  /// covers nothing in this one: no op's covering wait, nothing cleared.
  void addInactiveCodeWait(unsigned Begin, const std::vector<unsigned> &Pending) {
    Wait W;
    W.Where = {InsertionPoint::InInactiveCode, nullptr, Begin};
    W.Covers = W.EnqueuedHere = Pending;
    W.Cause = WaitCause::InactiveCode;
    W.Line = SM.getLineNumber(File, Begin);
    R.Waits.push_back(std::move(W));
  }

  /// A wait before \p S for what \p State holds (only the conflicting ops'
  /// streams, given \p Conflicting and a stream plan).
  void waitBefore(PendingSet &State, const Stmt *S, WaitCause Cause, Wait W = {},
                  const std::vector<unsigned> &Conflicting = {}) {
    std::vector<unsigned> Covered = coveredBy(State, Conflicting, W.PartialStreams);
    // Work on the program's own streams is waited for with the device.
    bool Device = llvm::any_of(Covered, [&](unsigned Op) { return FA.ops()[Op].HasUserStream; }) ||
                  llvm::any_of(Conflicting, [&](unsigned Op) {
                    return llvm::is_contained(State.OwnStream, Op);
                  });
    if (Device) {
      Covered = State.everything();
      W.PartialStreams.clear();
    }
    addWait({InsertionPoint::BeforeStmt, S}, Covered, Cause, lineOf(S->getBeginLoc()), std::move(W),
            enqueuedHere(Covered));
    if (Device)
      State.clear();
    else
      eraseAll(State, Covered);
  }

  /// After a wait for every op of \p State but those held apart: it is one
  /// device sync (and completes those too) when it covers work on the
  /// program's own streams.
  void clearWaitedFor(PendingSet &State) const {
    if (llvm::any_of(State, [&](unsigned Op) { return FA.ops()[Op].HasUserStream; }))
      State.clear();
    else { // those held apart stay
      State.std::vector<unsigned>::clear();
      State.OrigDone.clear();
    }
  }

  /// Drops the ops on the tool's streams from \p State: a call left on the
  /// legacy stream ran after all of them. Work on the program's own streams
  /// may be on a non-blocking stream, which that call does not wait for.
  void clearToolStreams(PendingSet &State) const {
    std::vector<unsigned> Tool, Stale;
    llvm::copy_if(State, std::back_inserter(Tool),
                  [&](unsigned Op) { return !FA.ops()[Op].HasUserStream; });
    eraseAll(State, Tool);
    // Like clear(): what the original had completed is kept only for the ops
    // still pending (an entry for another would count at the next join).
    llvm::copy_if(State.OrigDone, std::back_inserter(Stale),
                  [&](unsigned Op) { return !llvm::is_contained(State, Op); });
    eraseAll(State.OrigDone, Stale);
  }

  /// Whether statement \p A, which blocks in the original, may not block the
  /// same way in the output: an op made asynchronous there blocked, a device
  /// sync of it is dropped, a callee's GPU ops may have been made
  /// asynchronous, or it runs code the analysis cannot see. (A sync of the
  /// program's own, a call left as written and a host call do the same in both.)
  bool blockingChanges(const StmtAccesses &A, llvm::ArrayRef<unsigned> Async, bool Inside) const {
    return Inside || A.CalleesMayBlockDifferently || A.CallsUnseen ||
           llvm::any_of(Async, [&](unsigned Op) { return blocksInOriginal(FA.ops()[Op], FA); }) ||
           llvm::any_of(A.SyncCalls,
                        [&](const Expr *Call) { return llvm::is_contained(IgnoredSyncs, Call); });
  }

  /// The order the legacy stream gave ops on the program's own streams in
  /// the original and the output does not: an op made asynchronous
  /// (\p Async) that conflicts with one of them pending, and an op of the
  /// program's own in \p A that conflicts with an op pending on the tool's
  /// streams, or with one of them that a moved legacy-stream op ordered
  /// before it. Returns the wait the statement needs, with every such op in
  /// \p Conflicting.
  std::optional<Wait> ownStreamOrder(const StmtAccesses &A, llvm::ArrayRef<unsigned> Async,
                                     const PendingSet &State,
                                     std::vector<unsigned> &Conflicting) const {
    Conflicting.clear();
    std::optional<Wait> First;
    auto Check = [&](const std::vector<unsigned> &Pending, unsigned Later) {
      const AccessSet &Effects = FA.ops()[Later].Effects;
      if (std::optional<Wait> W = conflict(Pending, Effects, "", &Conflicting); W && !First) {
        W->OrderedOp = Later;
        First = std::move(W);
      }
    };
    std::vector<unsigned> Own, Tool;
    for (unsigned Op : State)
      (FA.ops()[Op].HasUserStream ? Own : Tool).push_back(Op);
    mergeOps(Own, State.OwnStream);
    for (unsigned Op : Async)
      Check(Own, Op);
    for (unsigned Op : A.Ops)
      if (FA.ops()[Op].HasUserStream) {
        Check(Tool, Op);
        // Ops on one stream of the program's own stay in order by themselves;
        // those on others were ordered before this one by a legacy-stream op
        // the output moved, or by a blocking call it changed.
        std::vector<unsigned> OtherStreams;
        auto Other = [&](unsigned Before) {
          return keyOf(Before).empty() || keyOf(Before) != keyOf(Op);
        };
        llvm::copy_if(State.OwnOrdered, std::back_inserter(OtherStreams), Other);
        for (unsigned Before : State)
          if (FA.ops()[Before].HasUserStream && Other(Before))
            OtherStreams.push_back(Before);
        Check(OtherStreams, Op);
      }
    llvm::sort(Conflicting);
    Conflicting.erase(llvm::unique(Conflicting), Conflicting.end());
    return First;
  }

  /// At a clock read (--timers=keep), the ops the original had completed
  /// there are waited for, so a printed duration measures the same work.
  void waitForTimer(PendingSet &State, const Stmt *S) {
    std::vector<unsigned> Done = State.done();
    if (TimerWaits && !Done.empty()) {
      Wait W;
      W.ConflictOp = Done.front();
      waitBefore(State, S, WaitCause::Timer, std::move(W), Done);
    }
    recordClockRead(S, std::move(Done), State);
  }

  /// Before loop \p Loop, whose every pass reads a clock at \p Clock: the
  /// ops the original had completed before the loop are waited for once
  /// there, not by the clock read's wait on every pass (where only the first
  /// would find them pending).
  void waitBeforeLoopForTimer(PendingSet &State, const Stmt *Loop, const Stmt *Clock) {
    std::vector<unsigned> Done = State.done();
    if (!TimerWaits || Done.empty())
      return;
    Wait W;
    W.ConflictOp = Done.front();
    W.ClockInLoopLine = lineOf(Clock->getBeginLoc());
    waitBefore(State, Loop, WaitCause::Timer, std::move(W), Done);
  }

  void recordClockRead(const Stmt *S, std::vector<unsigned> Done, const PendingSet &State) {
    auto It = llvm::find_if(R.ClockReads, [&](const ClockRead &C) { return C.Statement == S; });
    if (It == R.ClockReads.end()) {
      R.ClockReads.push_back({S, lineOf(S->getBeginLoc()), std::move(Done), State});
      return;
    }
    mergeOps(It->DoneInOriginal, Done);
    mergeOps(It->PendingAtRead, State);
  }

  InsertionPoint endOf(const Stmt *Region) const {
    return {isa<CompoundStmt>(Region) ? InsertionPoint::BlockEnd : InsertionPoint::BodyEnd, Region};
  }
  unsigned endLine(const Stmt *Region) const {
    if (const auto *Block = dyn_cast<CompoundStmt>(Region))
      return lineOf(Block->getRBracLoc());
    return lineOf(Region->getEndLoc());
  }

  /// Host accesses of \p S plus the effects of the ops in it that will stay
  /// synchronous (\p AsyncCandidates are the ones that may not).
  AccessSet effectiveAccesses(const StmtAccesses &A,
                              llvm::ArrayRef<unsigned> AsyncCandidates) const {
    AccessSet All = A.HostSide ? *A.HostSide : A.Host;
    for (unsigned Op : A.Ops)
      if (!llvm::is_contained(AsyncCandidates, Op))
        All.addAll(hostTouchedWhenLeft(FA.ops()[Op]));
    return All;
  }

  /// Whether \p A always enqueues an op left as written (not in \p Async)
  /// that completes all earlier work (LegacyStream.h).
  bool completesEarlier(const StmtAccesses &A, llvm::ArrayRef<unsigned> Async) const {
    return A.CallCompletesEarlierWork ||
           completesEarlierWork(A, FA, [&](unsigned Op) { return !llvm::is_contained(Async, Op); });
  }

  /// The first pending op that conflicts with \p Accesses, as a filled Wait;
  /// \p All, if given, receives every pending op that conflicts.
  std::optional<Wait> conflict(const std::vector<unsigned> &Pending, const AccessSet &Accesses,
                               const std::string &UnknownWhy,
                               std::vector<unsigned> *All = nullptr) const {
    std::optional<Wait> First;
    for (unsigned Op : Pending) {
      const GpuOp &G = FA.ops()[Op];
      std::optional<ObjectId> Obj = G.Effects.conflictWith(Accesses);
      if (!Obj)
        continue;
      // Name what the statement touches: the object itself, or Unknown when
      // the statement reaches it only through memory the analysis cannot name.
      ObjectId Shared = Accesses.modeOf(*Obj) ? *Obj : UnknownObject;
      Wait W;
      W.ConflictOp = Op;
      W.ObjectName = FA.describe(Shared);
      W.HostWrites = Accesses.modeOf(Shared) & WriteAccess;
      if (Shared == UnknownObject)
        W.Detail = Accesses.touchesUnknown() ? UnknownWhy : G.UnknownWhy;
      if (All)
        All->push_back(Op);
      if (!First)
        First = std::move(W);
      if (!All)
        break;
    }
    return First;
  }

  /// The one op whose call makes \p A block in the original, when nothing
  /// else in the statement may block.
  const GpuOp *soleBlockingOp(const StmtAccesses &A) const {
    if (A.MayBlock || A.MaySync || A.SyncsDevice)
      return nullptr;
    const GpuOp *Found = nullptr;
    for (unsigned Op : A.Ops)
      if (blocksInOriginal(FA.ops()[Op], FA)) {
        if (Found)
          return nullptr;
        Found = &FA.ops()[Op];
      }
    return Found;
  }

  /// The first pending op of \p State that conflicts with what statement \p S
  /// (accesses \p A, ops \p Async made asynchronous) touches, with every such
  /// op in \p Conflicting. When \p DoneBefore is given, \p S blocks in the
  /// original: the arguments of the op that blocks were read before it did,
  /// when the original had completed only \p DoneBefore; everything else in
  /// the statement is checked against what it had completed after.
  std::optional<Wait> statementConflict(const Stmt *S, const StmtAccesses &A,
                                        llvm::ArrayRef<unsigned> Async, bool MayNotRun,
                                        const std::vector<unsigned> *DoneBefore,
                                        const PendingSet &State,
                                        std::vector<unsigned> &Conflicting) const {
    std::vector<unsigned> DoneAfter = State.done();
    const GpuOp *Blocking = DoneBefore ? soleBlockingOp(A) : nullptr;
    if (!Blocking)
      return conflict(DoneAfter, effectiveAccesses(A, Async), A.UnknownWhy, &Conflicting);
    // A wait before the statement for a clock read may have ended some.
    std::vector<unsigned> StillPending;
    llvm::copy_if(DoneAfter, std::back_inserter(StillPending),
                  [&](unsigned Op) { return llvm::is_contained(*DoneBefore, Op); });
    StmtAccesses Arguments = FA.accessesOf(Blocking->Call, MayNotRun);
    StmtAccesses Rest = FA.accessesOf(S, MayNotRun, Blocking->Call);
    Rest.Ops = A.Ops; // the op's own effects happen when it runs
    std::vector<unsigned> Found;
    std::optional<Wait> W = conflict(StillPending, Arguments.Host, Arguments.UnknownWhy, &Found);
    std::optional<Wait> After =
        conflict(DoneAfter, effectiveAccesses(Rest, Async), Rest.UnknownWhy, &Found);
    llvm::copy_if(DoneAfter, std::back_inserter(Conflicting),
                  [&](unsigned Op) { return llvm::is_contained(Found, Op); });
    return W ? W : After;
  }

  /// Whether \p Body, a single-statement body of \p Owner, is analysed as a
  /// block of its own (the rewriter can wrap it in braces).
  bool wrappable(const Stmt *Owner, const Stmt *Body) const {
    if (!Body || isa<CompoundStmt, NullStmt>(Body) || unwrapLabels(Body) != Body)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Owner); If && Body == If->getElse() && isa<IfStmt>(Body))
      return false; // `else if`: the nested if is part of the chain
    return bodyOpenOffset(Owner, Body, Ctx) && bodyEndOffset(Body, Ctx);
  }

  /// Adds \p Body of \p Owner to \p Sh as a region or, when it cannot be
  /// wrapped, as a fallback part.
  void addBody(Shape &Sh, const Stmt *Owner, const Stmt *Body) const {
    if (!Body)
      return;
    if (isa<CompoundStmt>(Body) || wrappable(Owner, Body))
      Sh.Regions.push_back(Body);
    else
      Sh.Fallback.push_back(Body);
  }

  static void addHeader(Shape &Sh, const Stmt *Part) {
    if (Part)
      Sh.Header.push_back(Part);
  }

  /// Whether every case label of \p Switch sits directly in its body block.
  static bool casesAtTopLevel(const SwitchStmt *Switch) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch->getBody());
    if (!Body)
      return false;
    unsigned Top = 0, All = 0;
    for (const SwitchCase *C = Switch->getSwitchCaseList(); C; C = C->getNextSwitchCase())
      ++All;
    for (const Stmt *Child : Body->body())
      for (const Stmt *S = Child; isa<SwitchCase, LabelStmt, AttributedStmt>(S);) {
        if (const auto *C = dyn_cast<SwitchCase>(S)) {
          ++Top;
          S = C->getSubStmt();
        } else if (const auto *L = dyn_cast<LabelStmt>(S))
          S = L->getSubStmt();
        else
          S = cast<AttributedStmt>(S)->getSubStmt();
      }
    return Top == All;
  }

  Shape shapeOf(const Stmt *S) const {
    Shape Sh;
    if (isOpaqueRegion(S)) {
      Sh.Whole = Sh.Opaque = true;
    } else if (isa<CompoundStmt>(S)) {
      Sh.Regions.push_back(S);
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      Sh.RunsFirst = {If->getInit(), If->getConditionVariableDeclStmt(), If->getCond()};
      for (const IfStmt *I = If; I;) {
        addHeader(Sh, I->getInit());
        addHeader(Sh, I->getConditionVariableDeclStmt());
        addHeader(Sh, I->getCond());
        addBody(Sh, I, I->getThen());
        const auto *Nested = dyn_cast_or_null<IfStmt>(I->getElse());
        if (!Nested)
          addBody(Sh, I, I->getElse());
        I = Nested;
      }
    } else if (const auto *For = dyn_cast<ForStmt>(S)) {
      Sh.RunsFirst = {For->getInit()};
      addHeader(Sh, For->getInit());
      addHeader(Sh, For->getConditionVariableDeclStmt());
      addHeader(Sh, For->getCond());
      addHeader(Sh, For->getInc());
      addBody(Sh, S, For->getBody());
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      addHeader(Sh, While->getConditionVariableDeclStmt());
      addHeader(Sh, While->getCond());
      addBody(Sh, S, While->getBody());
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      addHeader(Sh, Do->getCond());
      addBody(Sh, S, Do->getBody());
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      if (!casesAtTopLevel(Switch)) {
        Sh.Whole = Sh.Opaque = true;
      } else {
        Sh.RunsFirst = {Switch->getInit(), Switch->getConditionVariableDeclStmt(),
                        Switch->getCond()};
        addHeader(Sh, Switch->getInit());
        addHeader(Sh, Switch->getConditionVariableDeclStmt());
        addHeader(Sh, Switch->getCond());
        Sh.Regions.push_back(Switch->getBody());
      }
    } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
      // The element reads of a range-for are not modelled per iteration:
      // the whole statement is checked before it (as in the first version).
      Sh.Whole = true;
      addBody(Sh, S, Range->getBody());
      Sh.Fallback.clear();
    }
    return Sh;
  }

  /// Ops in \p S that sit in statements of their own inside regions nested
  /// in it and may therefore be made asynchronous there.
  void nestedCandidates(const Stmt *S, llvm::SmallVectorImpl<unsigned> &Out) const {
    Shape Sh = shapeOf(S);
    if (Sh.Opaque)
      return;
    for (const Stmt *Region : Sh.Regions)
      for (const Stmt *Child : childrenOf(Region)) {
        const Stmt *Inner = unwrapLabels(Child);
        if (isControlFlow(Inner)) {
          nestedCandidates(Inner, Out);
          continue;
        }
        if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(Inner))
          continue;
        for (unsigned Op : FA.accessesOf(Inner, true).Ops)
          if (Blocked[Op].empty())
            Out.push_back(Op);
      }
  }

  /// An if/else, a plain block, or `do { } while (0)` (the shape of most
  /// error-checking macros): each nested block runs at most once.
  bool runsAtMostOnce(const Stmt *S) const {
    return isa<IfStmt, CompoundStmt>(S) || (isa<DoStmt>(S) && !isLoop(S));
  }

  bool isLoop(const Stmt *S) const { return isRepeatingLoop(S, FA.function().getASTContext()); }

  /// Ops of \p State enqueued since \p Start.
  std::vector<unsigned> since(const std::vector<unsigned> &State, unsigned Start) const {
    std::vector<unsigned> Ops;
    llvm::copy_if(State, std::back_inserter(Ops), [&](unsigned Op) { return TickOf[Op] > Start; });
    return Ops;
  }

  /// Whether a break (or continue) leaving to \p Starts' innermost target
  /// must wait: ops were enqueued since the target was entered (the loop's
  /// exit or next iteration only accounts for what reaches the end of the
  /// body), or destructors run on the way.
  bool leavingNeedsWait(const std::vector<unsigned> &State,
                        const std::vector<unsigned> &Starts) const {
    if (State.empty())
      return false;
    if (DestructorBlocks || Starts.empty())
      return true;
    return !since(State, Starts.back()).empty();
  }

  /// Analyses a loop body with the ops its previous iterations may leave
  /// pending (a fixpoint over the back edge). Returns the ops that may still
  /// be pending when the loop ends, besides \p Outer. When they would
  /// conflict with the loop header, use a variable declared in the body (it
  /// dies every iteration), or the loop is a range-for (its element reads
  /// are not modelled per iteration), the body waits at its end instead and
  /// nothing is returned. What the original completed in the body (also of
  /// \p Outer) is returned either way.
  PendingSet processLoopBody(const Stmt *Loop, const Stmt *Body, const PendingSet &Outer) {
    const CraResult Saved = R;
    LoopStack.push_back(Loop);
    llvm::scope_exit PopLoop([&] { LoopStack.pop_back(); });
    auto RunPass = [&](const PendingSet &Head) {
      unsigned Start = Clock;
      Passes.push_back({Loop, Start});
      BreakStart.push_back(Start);
      ContinueStart.push_back(Start);
      PendingSet Out = processRegion(Body, Head, /*MayNotRun=*/true);
      Passes.pop_back();
      BreakStart.pop_back();
      ContinueStart.pop_back();
      return Out;
    };
    PendingSet Head = Outer, Out;
    while (true) {
      Out = RunPass(Head);
      if (!Head.join(Out))
        break;
      R = Saved; // analyse again from the larger loop-head state
    }
    PendingSet Left = Out;
    eraseAll(Left, Outer);
    bool CarryOver = !isa<CXXForRangeStmt>(Loop) && !usesBlockLocals(Left, Body, Loop);
    for (const Stmt *Part : loopHeader(Loop)) {
      if (!Part || !CarryOver)
        continue;
      // The header runs before the original's next sync after the ops still
      // running there (§3a), unless it blocks itself.
      StmtAccesses A = FA.accessesOf(Part, true);
      CarryOver = !conflict(statementBlocksInOriginal(A, FA) ? Left : Left.done(),
                            effectiveAccesses(A, {}), A.UnknownWhy);
    }
    if (CarryOver || Left.empty())
      return Left;
    R = Saved;
    Left = RunPass(Outer);
    eraseAll(Left, Outer);
    if (!Left.empty())
      addWait(endOf(Body), Left, WaitCause::BlockEnd, endLine(Body));
    PendingSet Done;
    Done.OrigDone = std::move(Left.OrigDone);
    Done.OwnStream = std::move(Left.OwnStream);
    Done.OwnOrdered = std::move(Left.OwnOrdered);
    if (llvm::any_of(Left, [&](unsigned Op) { return FA.ops()[Op].HasUserStream; }))
      Done.OwnStream.clear(); // the body's wait at its end is a device sync
    return Done;
  }

  /// Whether any of \p Ops may use a variable declared in \p Region (an op
  /// whose effects are Unknown may, if the region declares one whose address
  /// is taken).
  bool usesBlockLocals(const std::vector<unsigned> &Ops, const Stmt *Region,
                       const Stmt *Owner) const {
    if (Ops.empty())
      return false;
    llvm::SmallPtrSet<const VarDecl *, 8> Locals;
    auto AddDecls = [&](const Stmt *S) {
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            Locals.insert(V);
    };
    for (const Stmt *Child : childrenOf(Region))
      AddDecls(unwrapLabels(Child));
    // Variables of the owning statement's init-statement or condition die
    // with it too (`if (float r[4]; c)`, `for (float b[2]; ...)`).
    if (const auto *If = dyn_cast<IfStmt>(Owner)) {
      AddDecls(If->getInit());
      Locals.insert(If->getConditionVariable());
    } else if (const auto *For = dyn_cast<ForStmt>(Owner)) {
      AddDecls(For->getInit());
      Locals.insert(For->getConditionVariable());
    } else if (const auto *While = dyn_cast<WhileStmt>(Owner)) {
      Locals.insert(While->getConditionVariable());
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(Owner)) {
      AddDecls(Switch->getInit());
      Locals.insert(Switch->getConditionVariable());
    }
    Locals.erase(nullptr);
    bool AnyReachable = llvm::any_of(Locals, [&](const VarDecl *V) { return FA.isReachable(V); });
    for (unsigned Op : Ops)
      for (auto [Obj, Mode] : FA.ops()[Op].Effects.entries())
        if ((Obj == UnknownObject && AnyReachable) ||
            (Obj != UnknownObject && Locals.count(FA.objects().get(Obj).Var)))
          return true;
    return false;
  }

  /// After \p Region (of the statements \p Owners, innermost first) ends
  /// with \p Out pending: the ops it enqueued wait at its end when \p Force
  /// or when they use a variable that dies with it.
  PendingSet finishRegion(const Stmt *Region, llvm::ArrayRef<const Stmt *> Owners, PendingSet Out,
                          unsigned Start, bool Force) {
    std::vector<unsigned> Local = since(Out, Start);
    if (Local.empty())
      return Out;
    if (Force ||
        llvm::any_of(Owners, [&](const Stmt *O) { return usesBlockLocals(Local, Region, O); })) {
      addWait(endOf(Region), Local, WaitCause::BlockEnd, endLine(Region));
      eraseAll(Out, Local);
    }
    return Out;
  }

  void trace(const Stmt *S, const PendingSet &Pending) {
    assert(S && "a state is recorded before a statement");
    assert(llvm::all_of(Pending, [&](unsigned Op) { return Op < R.Ops.size(); }) &&
           "a pending set holds ops of the function");
    R.States.push_back({S, lineOf(S->getBeginLoc()), Pending});
  }

  /// Whether leaving \p Children runs destructors of objects they declare
  /// (calls the analysis does not follow).
  static bool destroysLocals(llvm::ArrayRef<const Stmt *> Children) {
    for (const Stmt *Child : Children)
      if (const auto *DS = dyn_cast<DeclStmt>(unwrapLabels(Child)))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D);
              V && V->hasLocalStorage() && V->getType().isDestructedType())
            return true;
    return false;
  }

  /// Records \p Body of \p Owner as analysed in a block of its own.
  void noteBody(const Stmt *Owner, const Stmt *Body) {
    if (!isa<CompoundStmt>(Body) && !llvm::is_contained(Bodies, std::make_pair(Owner, Body)))
      Bodies.push_back({Owner, Body});
  }

  /// The bodies that hold an async op or an insertion point are wrapped in
  /// braces; a stream-pool release in a body that is not (before a `return`
  /// or a device reset in it) is dropped: the control-flow statement around
  /// it has one before it where needed, as before.
  void finishWrapping() {
    // Code goes before a statement at the start of its outermost macro
    // expansion: a statement starting where a body starts (the body itself,
    // or a statement inside the macro expansion the body is) puts code at
    // the top level of that body.
    llvm::DenseMap<unsigned, const Stmt *> BodyAt;
    for (auto [Owner, Body] : Bodies)
      BodyAt.try_emplace(offsetOf(Body->getBeginLoc()), Body);
    auto BodyOf = [&](const Stmt *S) -> const Stmt * {
      if (!S)
        return nullptr;
      auto It = BodyAt.find(offsetOf(S->getBeginLoc()));
      return It == BodyAt.end() ? nullptr : It->second;
    };
    llvm::SmallPtrSet<const Stmt *, 8> Need;
    auto NeedFor = [&](const InsertionPoint &Where) {
      if (Where.K == InsertionPoint::BodyEnd) {
        Need.insert(Where.Anchor);
      } else if (Where.K == InsertionPoint::BlockEnd) {
        auto It = BodyAt.find(offsetOf(cast<CompoundStmt>(Where.Anchor)->getRBracLoc()));
        if (It != BodyAt.end())
          Need.insert(It->second);
      } else if (const Stmt *Body = BodyOf(Where.Anchor)) {
        Need.insert(Body);
      }
    };
    for (const Wait &W : R.Waits)
      NeedFor(W.Where);
    for (const CraResult::ReturnPoint &P : R.LeftAt)
      NeedFor(P.Where);
    for (const OpDecision &D : R.Ops)
      if (const Stmt *Body = D.Async ? BodyOf(D.Statement) : nullptr)
        Need.insert(Body);
    for (auto [Owner, Body] : Bodies)
      if (Need.count(Body))
        R.Wrapped.push_back({Owner, Body});
    llvm::erase_if(R.Releases, [&](const InsertionPoint &P) {
      const Stmt *Body = P.K == InsertionPoint::BeforeStmt ? BodyOf(P.Anchor) : nullptr;
      return Body && !Need.count(Body);
    });
  }

  /// Analyses the statements of \p Region (a block, or a wrapped
  /// single-statement body) from the pending set \p State. Returns the set
  /// at its end (empty when no path falls off its end). \p CaseEntry: for a
  /// switch body, the set on entry, merged in at each case label.
  PendingSet processRegion(const Stmt *Region, PendingSet State, bool MayNotRun,
                           const PendingSet *CaseEntry = nullptr) {
    llvm::SmallVector<const Stmt *, 16> Children = childrenOf(Region);
    bool Destroys = destroysLocals(Children);
    DestructorBlocks += Destroys;
    llvm::scope_exit Restore([&] { DestructorBlocks -= Destroys; });
    const auto *Block = dyn_cast<CompoundStmt>(Region);

    unsigned Previous = Block ? offsetOf(Block->getLBracLoc()) : offsetOf(Region->getBeginLoc());
    bool Top = Region == TopBody;
    unsigned First = Top && Walk.From ? Walk.From->Index : 0;
    if (First > 0)
      Previous = offsetOf(Children[First - 1]->getEndLoc());
    // Code in an inactive #if group between statements may, when compiled
    // in, touch anything: it waits for everything pending on its own first
    // line, so only builds that compile it pay. The state after it is the
    // same: where it is compiled in nothing is left pending, where it is
    // not nothing ran.
    auto InactiveBefore = [&](unsigned Next) {
      for (unsigned Begin : InactiveCode)
        if (!State.empty() && Begin > Previous && Begin < Next)
          addInactiveCodeWait(Begin, State);
    };

    for (unsigned Index = First; Index < Children.size(); ++Index) {
      const Stmt *Child = Children[Index];
      if (Top && !atBodyPoint(Index, State))
        return State;
      // A case label is also reached from the switch head.
      if (CaseEntry && isa<SwitchCase>(Child))
        State.join(*CaseEntry);
      const Stmt *S = unwrapLabels(Child);
      InactiveBefore(offsetOf(Child->getBeginLoc()));
      Previous = offsetOf(Child->getEndLoc());
      trace(S, State);
      StmtAccesses A = FA.accessesOf(S, MayNotRun);
      std::optional<unsigned> Inside = inactiveCodeIn(offsetOf(S->getBeginLoc()), Previous);

      if (isControlFlow(S)) {
        const Expr *Cond = nullptr;
        if (std::optional<StmtAccesses> CA = Inside ? std::nullopt : opCondition(S, A, MayNotRun)) {
          // The op in the condition runs first, as if a statement of its own.
          Cond = cast<IfStmt>(S)->getCond();
          processSimple(S, Cond, std::move(*CA), Inside, State, MayNotRun);
        }
        const Expr *Outer = std::exchange(OpCondition, Cond);
        processControl(S, A, Inside, State, MayNotRun);
        OpCondition = Outer;
        continue;
      }
      processSimple(S, S, std::move(A), Inside, State, MayNotRun);
    }
    if (Top && !atBodyPoint(Children.size(), State))
      return State;
    InactiveBefore(Block ? offsetOf(Block->getRBracLoc()) : Previous);
    // The destructors of the block's objects run at its `}` and may touch
    // anything: everything pending is waited for before them.
    // (At the end of a body that returns with work pending, only what the
    // destructors touch: leaveWorkPending.)
    if (Destroys && !State.empty() && Top && FA.returnsWithWorkPending()) {
      leaveWorkPending(State, endOf(Region), WaitCause::FunctionEnd, endLine(Region));
    } else if (Destroys && !State.empty()) {
      addWait(endOf(Region), State, WaitCause::BlockEnd, endLine(Region));
      clearWaitedFor(State);
    }
    return State;
  }

  /// The branches of the if/else-if chain \p If (its conditions were checked
  /// before the chain) from \p In; returns the union over its paths.
  PendingSet processIf(const IfStmt *If, const PendingSet &In,
                       llvm::SmallVector<const Stmt *, 4> Owners) {
    Owners.insert(Owners.begin(), If);
    auto Branch = [&](const Stmt *Body) -> PendingSet {
      if (!Body)
        return In;
      if (const auto *Nested = dyn_cast<IfStmt>(Body); Nested && Body == If->getElse())
        return processIf(Nested, In, Owners);
      if (!isa<CompoundStmt>(Body) && !wrappable(If, Body))
        return In; // analysed with the condition; its ops stay synchronous
      noteBody(If, Body);
      unsigned Start = Clock;
      PendingSet Out = processRegion(Body, In, /*MayNotRun=*/true);
      return finishRegion(Body, Owners, std::move(Out), Start, /*Force=*/false);
    };
    PendingSet Out = Branch(If->getThen());
    Out.join(Branch(If->getElse()));
    return Out;
  }

  /// What the statements that run on every pass through \p Region may touch
  /// (its statements outside nested branches, and the conditions and headers
  /// of nested statements), with the ops that may run asynchronously left out;
  /// \p Clock receives the first of them that reads a clock.
  void everyPass(const Stmt *Region, AccessSet &Out, std::string &Why, const Stmt *&Clock,
                 bool LoopBody = true) const {
    auto Add = [&](const Stmt *S, const StmtAccesses &A, llvm::ArrayRef<unsigned> Async) {
      Out.addAll(effectiveAccesses(A, Async));
      if (Why.empty())
        Why = A.UnknownWhy;
      if (A.ReadsTimer && !Clock)
        Clock = S;
    };
    for (const Stmt *Child : childrenOf(Region)) {
      const Stmt *S = unwrapLabels(Child);
      if (!isControlFlow(S)) {
        StmtAccesses A = FA.accessesOf(S, true);
        llvm::SmallVector<unsigned, 4> Async;
        for (unsigned Op : A.Ops)
          if (Blocked[Op].empty())
            Async.push_back(Op);
        Add(S, A, Async);
        // A device sync every pass of the loop body runs completes what was
        // pending before the loop; what follows it cannot conflict with that.
        if (LoopBody && A.SyncsDevice && llvm::any_of(A.SyncCalls, [&](const Expr *Call) {
              return !llvm::is_contained(IgnoredSyncs, Call);
            }))
          return;
        continue;
      }
      Shape Sh = shapeOf(S);
      if (Sh.Whole) {
        llvm::SmallVector<unsigned, 8> Candidates;
        nestedCandidates(S, Candidates);
        Add(S, FA.accessesOf(S, true), Candidates);
        continue;
      }
      for (const Stmt *Part : Sh.Header)
        if (Part)
          Add(Part, FA.accessesOf(Part, true), {});
      for (const Stmt *Part : Sh.Fallback)
        Add(Part, FA.accessesOf(Part, true), {});
      if (!isa<IfStmt, SwitchStmt>(S))
        for (const Stmt *Nested : Sh.Regions)
          everyPass(Nested, Out, Why, Clock, false);
    }
  }

  /// The accesses of the condition of if statement \p S (whose own are \p Whole)
  /// when the only GPU op in the whole statement is a copy or fill there
  /// whose status the condition tests (`if (cudaMemcpy(...) != cudaSuccess)`,
  /// or negated): it runs before the branches, as if a statement of its own
  /// before the `if`. Otherwise none, and a copy or fill in the condition
  /// gets the reason.
  std::optional<StmtAccesses> opCondition(const Stmt *S, const StmtAccesses &Whole,
                                          bool MayNotRun) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->isConsteval()) // `if consteval` has no condition
      return std::nullopt;
    const Expr *Cond = If->getCond();
    StmtAccesses InCondition = FA.accessesOf(Cond, MayNotRun);
    if (InCondition.Ops.size() != 1)
      return std::nullopt;
    const GpuOp &G = FA.ops()[InCondition.Ops.front()];
    if (!Blocked[G.Id].empty() || G.HasUserStream ||
        (G.Kind != GpuOpKind::Copy && G.Kind != GpuOpKind::Set))
      return std::nullopt;
    auto Refuse = [&](const char *Why) -> std::optional<StmtAccesses> {
      R.Ops[G.Id].WhySync =
          std::string("in the condition of an `if` ") + Why + "; this version keeps it synchronous";
      return std::nullopt;
    };
    if (If->getInit() || If->getConditionVariable() || If->isConstexpr())
      return Refuse("with an initialiser or a declaration");
    if (Whole.Ops != InCondition.Ops)
      return Refuse("that holds other GPU work (it would be ordered after the whole `if`)");
    const Expr *E = Cond->IgnoreParenImpCasts();
    if (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot) {
      E = Not->getSubExpr()->IgnoreParenImpCasts();
    } else if (const auto *Cmp = dyn_cast<BinaryOperator>(E); Cmp && Cmp->isEqualityOp()) {
      const Expr *Lhs = Cmp->getLHS()->IgnoreParenImpCasts();
      const Expr *Rhs = Cmp->getRHS()->IgnoreParenImpCasts();
      E = Rhs->isEvaluatable(Ctx) ? Lhs : Lhs->isEvaluatable(Ctx) ? Rhs : nullptr;
    }
    if (E != G.Call->IgnoreParenImpCasts())
      return Refuse("that does more than compare its status with a constant");
    return InCondition;
  }

  /// A statement that is not control flow, or (\p Content) the condition of
  /// an if statement \p S whose op runs before its branches.
  void processSimple(const Stmt *S, const Stmt *Content, StmtAccesses A,
                     std::optional<unsigned> Inside, PendingSet &State, bool MayNotRun) {
    if (Inside) {
      A.Host.add(UnknownObject, ReadWriteAccess);
      if (A.UnknownWhy.empty())
        A.UnknownWhy = "code in an inactive #if branch on line " +
                       std::to_string(SM.getLineNumber(File, *Inside));
    }

    bool Jump = isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt>(S);
    llvm::SmallVector<unsigned, 4> Async;
    if (!Jump)
      for (unsigned Op : A.Ops) {
        if (!Blocked[Op].empty())
          continue;
        const GpuOp &G = FA.ops()[Op];
        if (resultUsedIn(G, Content, MayNotRun)) {
          R.Ops[Op].WhySync = "its result is used in the same statement";
          continue;
        }
        if (A.SyncsDevice) {
          R.Ops[Op].WhySync = "the same statement synchronises the device";
          continue;
        }
        Async.push_back(Op);
      }

    // A statement that blocks in the original completes all earlier work
    // there, before (conservatively) any of its own accesses but the
    // arguments of the op that blocks.
    std::vector<unsigned> DoneBefore = State.done();
    bool Blocks = statementBlocksInOriginal(A, FA) || Inside; // inactive code may sync
    if (Blocks)
      State.originalBlocks();
    if (Blocks && blockingChanges(A, Async, Inside.has_value()))
      State.ownStreamsBlocked();
    if (A.ReadsTimer)
      waitForTimer(State, S);
    std::vector<unsigned> Conflicting;
    if (std::optional<Wait> W =
            statementConflict(Content, A, Async, MayNotRun,
                              Blocks && !Inside ? &DoneBefore : nullptr, State, Conflicting))
      waitBefore(State, S, WaitCause::Conflict, std::move(*W), Conflicting);
    if (std::optional<Wait> W = ownStreamOrder(A, Async, State, Conflicting))
      waitBefore(State, S, WaitCause::Conflict, std::move(*W), Conflicting);
    // A conflict wait covers only the conflicting ops' streams: a jump out of
    // the function or block still waits for the rest.
    bool ErrorReturn = isa<ReturnStmt>(S) && inConditionalOfMacro(S);
    if (isa<ReturnStmt, GotoStmt>(S) && inConditionalOfMacro(S))
      waitOnErrorReturn(State, S, ErrorReturn);
    else if (isa<ReturnStmt>(S) && FA.returnsWithWorkPending())
      leaveWorkPending(State, {InsertionPoint::BeforeStmt, S}, WaitCause::LeavesFunction,
                       lineOf(S->getBeginLoc()));
    else if ((isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S)) && !State.empty())
      waitBefore(State, S, WaitCause::LeavesFunction);
    else if ((isa<BreakStmt>(S) && leavingNeedsWait(State, BreakStart)) ||
             (isa<ContinueStmt>(S) && leavingNeedsWait(State, ContinueStart)))
      waitBefore(State, S, WaitCause::LeavesBlock);

    // Never on a macro's error path: the release would run before every
    // execution of the macro, and the program may go on. Returning from
    // main without it is fine (the driver frees everything at exit).
    if (A.ResetsDevice || (IsMain && isa<ReturnStmt>(S) && !ErrorReturn))
      R.Releases.push_back({InsertionPoint::BeforeStmt, S});
    syncOwnStreams(A, State);
    if (syncsDevice(S, A, State))
      State.clear();
    else if (completesEarlier(A, Async))
      clearToolStreams(State);
    if (!Async.empty())
      State.legacyOrderLost();
    for (unsigned Op : A.Ops)
      if (FA.ops()[Op].HasUserStream && !Jump) {
        TickOf[Op] = ++Clock;
        State.enqueueOwnStream(Op);
        Enqueued.insert(Op);
      }
    for (unsigned Op : Async) {
      R.Ops[Op].Async = true;
      R.Ops[Op].WhySync.clear();
      R.Ops[Op].Statement = S;
      R.Ops[Op].Loops.assign(LoopStack.rbegin(), LoopStack.rend());
      TickOf[Op] = ++Clock;
      assert(Op < R.Ops.size() && "a pending op is an op of the function");
      if (!llvm::is_contained(State, Op)) {
        State.push_back(Op);
        eraseAll(State.OrigDone, {Op}); // a new run of it
      }
      // A blocking call of the original returned only once its op was done.
      if (blocksInOriginal(FA.ops()[Op], FA) && !State.origDone(Op))
        State.OrigDone.push_back(Op);
    }
    if (Jump)
      State.clear(); // what follows is reached only through a label
  }

  /// Whether \p S, which holds the op \p G, also uses what G writes. Reads
  /// in the op's own arguments happen before it is enqueued; what else the
  /// statement does may happen after.
  bool resultUsedIn(const GpuOp &G, const Stmt *S, bool MayNotRun) const {
    return G.Effects.conflictWith(FA.accessesOf(S, MayNotRun, G.Call).Host).has_value();
  }

  /// The reason each op of \p Ops in \p Part, a header part of the loop
  /// \p S, stays synchronous: its result read by the header itself (the loop
  /// cannot go on before it is done), or where the wait for it would go.
  void explainOpsInLoopHeader(const Stmt *S, const Stmt *Part, llvm::ArrayRef<unsigned> Ops,
                              bool MayNotRun) {
    const char *Where = "in the header of a loop";
    if (const auto *For = dyn_cast<ForStmt>(S))
      Where = Part == For->getInit()  ? "in the init-statement of a `for` loop"
              : Part == For->getInc() ? "in the increment of a `for` loop"
                                      : "in the condition of a `for` loop";
    else if (isa<WhileStmt>(S))
      Where = "in the condition of a `while` loop";
    else if (isa<DoStmt>(S))
      Where = "in the condition of a `do` loop";
    for (unsigned Op : Ops) {
      const GpuOp &G = FA.ops()[Op];
      if (!Blocked[Op].empty() || G.HasUserStream)
        continue;
      if (resultUsedIn(G, Part, MayNotRun))
        R.Ops[Op].WhySync = std::string(Where) +
                            ", which reads its result: the loop cannot go on before it is done";
      else
        R.Ops[Op].WhySync = std::string(Where) +
                            "; the wait for it would go inside the loop's header, which this "
                            "version does not rewrite, so it stays synchronous";
    }
  }

  void processControl(const Stmt *S, const StmtAccesses &A, std::optional<unsigned> Inside,
                      PendingSet &State, bool MayNotRun) {
    ControlStack.push_back(S);
    llvm::scope_exit PopControl([&] { ControlStack.pop_back(); });
    bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
    bool BreakTarget = Loop || isa<SwitchStmt>(S);
    Shape Sh = shapeOf(S);
    AccessSet Pre;
    std::string PreWhy;
    Exits E;
    // What is checked before the statement blocks, or reads a clock, in the
    // original; for a loop: whether anything in it blocks (§3a).
    bool PreBlocks = Inside.has_value(), PreTimer = false;
    const Stmt *EveryPassClock = nullptr; // a clock read on every pass of the loop
    bool LoopBlocks = isLoop(S) && statementBlocksInOriginal(A, FA);
    if (Sh.Whole) {
      llvm::SmallVector<unsigned, 8> Candidates;
      nestedCandidates(S, Candidates);
      Pre = effectiveAccesses(A, Candidates);
      PreWhy = A.UnknownWhy;
      PreBlocks |= statementBlocksInOriginal(A, FA);
      PreTimer = A.ReadsTimer;
      findExits(S, Loop, BreakTarget, E);
      if (Inside) {
        Pre.add(UnknownObject, ReadWriteAccess);
        if (PreWhy.empty())
          PreWhy = "code in an inactive #if branch on line " +
                   std::to_string(SM.getLineNumber(File, *Inside));
      }
    } else {
      // Adds \p Part's accesses to what is checked before S; returns its ops.
      auto AddPart = [&](const Stmt *Part, bool PartMayNotRun) {
        StmtAccesses PA = FA.accessesOf(Part, PartMayNotRun);
        Pre.addAll(effectiveAccesses(PA, {}));
        PreBlocks |= statementBlocksInOriginal(PA, FA);
        PreTimer |= PA.ReadsTimer;
        if (PreWhy.empty())
          PreWhy = PA.UnknownWhy;
        findExits(Part, Loop, BreakTarget, E);
        return std::move(PA.Ops);
      };
      for (const Stmt *Part : Sh.Header)
        if (Part != OpCondition) { // processed as a statement of its own
          auto Ops = AddPart(Part, MayNotRun);
          if (Loop)
            explainOpsInLoopHeader(S, Part, Ops, MayNotRun);
        }
      for (const Stmt *Body : Sh.Fallback) {
        for (unsigned Op : AddPart(Body, true))
          if (Blocked[Op].empty())
            R.Ops[Op].WhySync = "in a single-statement body that braces cannot be put around "
                                "(it starts or ends inside a macro expansion)";
      }
      // A wait for ops pending before a loop that every iteration would
      // execute goes before the loop, once, rather than into its body.
      if (isLoop(S) && !Sh.Regions.empty())
        everyPass(Sh.Regions.front(), Pre, PreWhy, EveryPassClock);
      bool InRegion = Inside && llvm::any_of(Sh.Regions, [&](const Stmt *Region) {
                        return offsetOf(Region->getBeginLoc()) <= *Inside &&
                               *Inside <= offsetOf(Region->getEndLoc());
                      });
      // A case label in an inactive group of a switch body would be reached
      // from the switch head, past the wait on the group's first line: the
      // head waits too.
      if (Inside && (!InRegion || isa<SwitchStmt>(S))) {
        Pre.add(UnknownObject, ReadWriteAccess);
        if (PreWhy.empty())
          PreWhy = "code in an inactive #if branch on line " +
                   std::to_string(SM.getLineNumber(File, *Inside));
      }
    }
    if (PreBlocks)
      State.originalBlocks();
    if (PreTimer)
      waitForTimer(State, S);
    // Statements of a loop without a blocking call all run before the
    // original's next sync; a loop that may block is checked as a whole.
    std::vector<unsigned> Conflicting;
    if (std::optional<Wait> W =
            conflict(LoopBlocks ? State : State.done(), Pre, PreWhy, &Conflicting))
      waitBefore(State, S, WaitCause::Conflict, std::move(*W), Conflicting);
    if (EveryPassClock)
      waitBeforeLoopForTimer(State, S, EveryPassClock);
    // A conflict wait covers only the conflicting ops' streams: leaving the
    // function or block still waits for the rest.
    // A jump in a macro's branch that cannot be braced (`if (e) return;`)
    // waits on that path only; the ops stay pending on the path that goes on.
    if (E.LeavesFunction && !State.empty() && inConditionalOfMacro(S))
      waitOnErrorReturn(State, S, E.OnlyReturns);
    else if (E.LeavesFunction && !State.empty())
      waitBefore(State, S, WaitCause::LeavesFunction);
    else if (E.LeavesBlock &&
             leavingNeedsWait(State, BreakStart.size() && ContinueStart.size() &&
                                             ContinueStart.back() < BreakStart.back()
                                         ? ContinueStart
                                         : BreakStart))
      waitBefore(State, S, WaitCause::LeavesBlock);
    // The stream pool must be released before a cudaDeviceReset anywhere
    // in S destroys its streams (also one in a condition).
    if (A.ResetsDevice)
      R.Releases.push_back({InsertionPoint::BeforeStmt, S});
    if (Sh.Opaque)
      return;
    // A device sync in a condition (or for-init) that runs before the regions.
    for (const Stmt *Part : Sh.RunsFirst) {
      if (!Part || Part == OpCondition)
        continue;
      StmtAccesses PA = FA.accessesOf(Part, MayNotRun);
      if (syncsDevice(Part, PA, State))
        State.clear();
      else if (completesEarlier(PA, {}))
        clearToolStreams(State);
    }

    if (const auto *If = dyn_cast<IfStmt>(S)) {
      State = processIf(If, State, {});
      return;
    }
    if (isa<CompoundStmt>(S)) {
      unsigned Start = Clock;
      PendingSet Out = processRegion(S, State, MayNotRun);
      State = finishRegion(S, {S}, std::move(Out), Start, /*Force=*/false);
      return;
    }
    if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      const Stmt *Body = Switch->getBody();
      unsigned Start = Clock;
      BreakStart.push_back(Start);
      PendingSet Entry = State;
      PendingSet Out = processRegion(Body, State, /*MayNotRun=*/true, &Entry);
      BreakStart.pop_back();
      // A switch body waits at its end for the ops it enqueued.
      Out = finishRegion(Body, {S}, std::move(Out), Start, /*Force=*/true);
      State.join(Out);
      return;
    }
    if (Sh.Regions.empty())
      return; // a body that cannot be wrapped: analysed with the header
    const Stmt *Body = Sh.Regions.front();
    noteBody(S, Body);
    if (isLoop(S)) {
      State.join(processLoopBody(S, Body, State));
      return;
    }
    // `do { } while (0)`: the body runs once; a break or continue leaves it.
    unsigned Start = Clock;
    BreakStart.push_back(Start);
    ContinueStart.push_back(Start);
    PendingSet Out = processRegion(Body, State, MayNotRun);
    BreakStart.pop_back();
    ContinueStart.pop_back();
    Out = finishRegion(Body, {S}, std::move(Out), Start, /*Force=*/false);
    if (containsJump(S))
      State.join(Out);
    else
      State = std::move(Out);
    // `CHECK(cudaDeviceSynchronize())`: the body of a do-while(0) without
    // jumps runs exactly once, so a device sync at its top level runs.
    if (A.SyncsDevice && !containsJump(S) && syncsDevice(S, A, State))
      State.clear();
  }
};

} // namespace

CraResult runCra(const FunctionAccesses &FA, const std::vector<std::string> &Blocked,
                 const std::vector<unsigned> &InactiveCode,
                 const std::vector<std::optional<unsigned>> *StreamOf,
                 llvm::ArrayRef<const Expr *> IgnoredSyncs, bool TimerWaits, const BodyWalk &Walk) {
  CraResult R =
      CraWalker(FA, Blocked, InactiveCode, StreamOf, IgnoredSyncs, TimerWaits, Walk).run();
  assert(R.Ops.size() == FA.ops().size() && "a decision per op");
  if (Walk.From)
    return R; // ops enqueued before it are not decided
  assert(llvm::all_of(R.Ops,
                      [&](const OpDecision &D) {
                        return (!D.Async || D.Statement) &&
                               (!D.WaitIndex || *D.WaitIndex < R.Waits.size());
                      }) &&
         "an asynchronous op has its statement; an op's wait is one of the waits");
  // (Only at the end: a loop analysed again from a larger head state starts
  // from the result before the loop, whose ops are not asynchronous yet.)
  assert(llvm::all_of(R.Waits,
                      [&](const Wait &W) {
                        return llvm::all_of(W.Covers, [&](unsigned Op) {
                          return R.Ops[Op].Async || FA.ops()[Op].HasUserStream;
                        });
                      }) &&
         "a wait covers asynchronous ops and ops on the program's own streams");
  return R;
}

namespace {
std::string opDescription(const GpuOp &Op) {
  if (Op.Kind == GpuOpKind::CallWork)
    return "the GPU work `" + Op.Callee + "` (line " + std::to_string(Op.Line) + ") returns with";
  if (Op.Kind == GpuOpKind::Launch && !isa<CUDAKernelCallExpr>(Op.Call))
    return "the work `" + Op.Callee + "` (line " + std::to_string(Op.Line) +
           ") leaves on a stream of the program's own";
  if (Op.Kind == GpuOpKind::Launch)
    return "kernel `" + Op.Callee + "` on line " + std::to_string(Op.Line);
  return Op.Callee + " on line " + std::to_string(Op.Line);
}

} // namespace

std::optional<unsigned> bodyOpenOffset(const Stmt *Owner, const Stmt *Body, const ASTContext &Ctx) {
  assert(Owner && Body && "a single-statement body and its owner");
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Token = bodyOpenToken(Owner, Body);
  if (Token.isInvalid() || !Token.isFileID())
    return std::nullopt;
  return SM.getFileOffset(Lexer::getLocForEndOfToken(Token, 0, SM, Ctx.getLangOpts()));
}

std::optional<unsigned> bodyEndOffset(const Stmt *Body, const ASTContext &Ctx) {
  assert(Body && "a single-statement body");
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Body->getSourceRange()), SM, Ctx.getLangOpts());
  if (Range.isInvalid() || SM.getFileID(Range.getBegin()) != SM.getFileID(Range.getEnd()))
    return std::nullopt;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Range.getBegin()));
  unsigned End = SM.getFileOffset(Range.getEnd());
  if (End == 0 || End > Buffer.size())
    return std::nullopt;
  size_t Next = Buffer.find_first_not_of(" \t", End);
  if (Next != llvm::StringRef::npos && Buffer[Next] == ';')
    End = Next + 1;
  else if (Buffer[End - 1] != ';' && Buffer[End - 1] != '}')
    return std::nullopt;
  // The `}` goes right here: what follows must not be glued to it.
  if (End < Buffer.size() && !llvm::StringRef(" \t\r\n/").contains(Buffer[End]))
    return std::nullopt;
  return End;
}

std::string describeWait(const Wait &W, const FunctionAccesses &FA) {
  switch (W.Cause) {
  case WaitCause::Conflict: {
    assert(W.ConflictOp < FA.ops().size() && "a conflict wait names an op of the function");
    const GpuOp &Op = FA.ops()[W.ConflictOp];
    if (W.ObjectName == FA.describe(UnknownObject)) {
      std::string Why = W.Detail.empty() ? "memory the analysis cannot name" : W.Detail;
      return "the next statement may touch what " + opDescription(Op) + " uses (" + Why + ")";
    }
    bool OpWrites = false;
    for (auto [Obj, Mode] : Op.Effects.entries())
      if (FA.describe(Obj) == W.ObjectName && (Mode & WriteAccess))
        OpWrites = true;
    if (W.OrderedOp) {
      const GpuOp &Later = FA.ops()[*W.OrderedOp];
      std::string Name = !isa<CUDAKernelCallExpr>(Later.Call) && !Later.Api
                             ? "`" + Later.Callee + "`"
                         : Later.Kind == GpuOpKind::Launch ? "kernel `" + Later.Callee + "`"
                                                           : Later.Callee;
      return Name + " below uses " + W.ObjectName + " after " + opDescription(Op) +
             ", on another stream; the legacy default stream ordered them in the original";
    }
    return W.ObjectName + (W.HostWrites ? " is written below (" : " is read below (") +
           (OpWrites ? "written by " : "read by ") + opDescription(Op) + ")";
  }
  case WaitCause::LeavesBlock:
    return "finish GPU work before leaving the loop or switch";
  case WaitCause::LeavesFunction:
    return "finish GPU work before leaving the function";
  case WaitCause::BlockEnd:
    return "finish GPU work started in this block";
  case WaitCause::FunctionEnd:
    return "finish GPU work before " + FA.name() + " returns";
  case WaitCause::InactiveCode:
    return "this branch is not compiled in the analysed build and may use the GPU's results";
  case WaitCause::Timer:
    if (W.ClockInLoopLine)
      return "the original had finished these ops when it read the clock on line " +
             std::to_string(W.ClockInLoopLine) +
             ", on every pass of the loop below: waited for once, before the loop";
    return "the original had finished these ops when it read the clock on line " +
           std::to_string(W.Line);
  }
  llvm_unreachable("not a wait cause");
}

bool waitsOnlyForWorkBeforeItsLoop(const Wait &W, const CraResult &R) {
  return W.InnermostLoop && !W.Covers.empty() && llvm::none_of(W.Covers, [&](unsigned Op) {
           assert(Op < R.Ops.size() && "a wait covers ops of its result");
           return llvm::is_contained(R.Ops[Op].Loops, W.InnermostLoop);
         });
}

llvm::StringRef waitCauseName(WaitCause Cause) {
  // In the enum's order.
  static constexpr llvm::StringLiteral Names[] = {"conflict",  "leaves-block", "leaves-function",
                                                  "block-end", "function-end", "inactive-code",
                                                  "timer"};
  static_assert(std::size(Names) == static_cast<size_t>(WaitCause::Timer) + 1,
                "a name per wait cause");
  return Names[static_cast<size_t>(Cause)];
}

void CraResult::print(llvm::raw_ostream &OS, const FunctionAccesses &FA) const {
  OS << "function " << FA.name() << "\n";
  for (const PointState &P : States) {
    OS << "  line " << P.Line << ": pending ";
    P.Before.print(OS);
    OS << "\n";
  }
  assert(Ops.size() == FA.ops().size() && "the result of this function's analysis");
  for (const GpuOp &Op : FA.ops()) {
    const OpDecision &D = Ops[Op.Id];
    assert((!D.WaitIndex || *D.WaitIndex < Waits.size()) && "an op's wait is one of the waits");
    OS << "  op" << Op.Id << " line " << Op.Line << " " << Op.Callee << ": "
       << (D.Async ? "async" : "sync");
    if (!D.Async)
      OS << " (" << D.WhySync << ")";
    if (D.WaitIndex)
      OS << ", waited for on line " << Waits[*D.WaitIndex].Line;
    OS << "\n";
  }
  for (const Wait &W : Waits) {
    OS << "  wait line " << W.Line << " " << waitCauseName(W.Cause) << " covers {";
    for (unsigned I = 0; I < W.Covers.size(); ++I)
      OS << (I ? ", op" : "op") << W.Covers[I];
    OS << "}";
    if (W.Cause == WaitCause::Conflict)
      OS << " on " << W.ObjectName << " with op" << W.ConflictOp;
    OS << "\n";
  }
}

} // namespace streamalloc
