//===- Cra.cpp - Can-Run-Asynchronously over blocks of statements ----------===//
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Access/FunctionAccesses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace streamalloc {

namespace {

/// Ways control can leave a statement other than by falling through.
struct Exits {
  bool LeavesFunction = false; ///< return, goto, throw
  bool LeavesBlock = false;    ///< break/continue aimed outside the statement
};

void findExits(const Stmt *S, unsigned LoopDepth, unsigned BreakDepth, Exits &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S))
    Out.LeavesFunction = true;
  if (isa<BreakStmt>(S) && BreakDepth == 0)
    Out.LeavesBlock = true;
  if (isa<ContinueStmt>(S) && LoopDepth == 0)
    Out.LeavesBlock = true;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    findExits(Child, LoopDepth + Loop, BreakDepth + (Loop || Switch), Out);
}

bool containsJumps(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, BreakStmt, ContinueStmt, CXXThrowExpr>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (containsJumps(Child))
      return true;
  return false;
}

/// The blocks nested directly in a control-flow statement that are analysed
/// as regions of their own.
void regionsOf(const Stmt *S, llvm::SmallVectorImpl<const CompoundStmt *> &Out) {
  auto Body = [&](const Stmt *B) {
    if (const auto *C = dyn_cast_or_null<CompoundStmt>(B))
      Out.push_back(C);
    else if (isa_and_nonnull<IfStmt>(B))
      regionsOf(B, Out);
  };
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    Out.push_back(C);
  else if (const auto *If = dyn_cast<IfStmt>(S)) {
    Body(If->getThen());
    Body(If->getElse());
  } else if (const auto *For = dyn_cast<ForStmt>(S))
    Body(For->getBody());
  else if (const auto *While = dyn_cast<WhileStmt>(S))
    Body(While->getBody());
  else if (const auto *Do = dyn_cast<DoStmt>(S))
    Body(Do->getBody());
  else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    Body(Range->getBody());
  else if (const auto *Switch = dyn_cast<SwitchStmt>(S))
    Body(Switch->getBody());
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

class CraWalker {
public:
  CraWalker(const FunctionAccesses &FA, const std::vector<std::string> &Blocked,
            const std::vector<unsigned> &InactiveCode,
            const std::vector<std::optional<unsigned>> *StreamOf,
            llvm::ArrayRef<const Expr *> IgnoredSyncs)
      : FA(FA), Blocked(Blocked), InactiveCode(InactiveCode), StreamOf(StreamOf),
        IgnoredSyncs(IgnoredSyncs), SM(FA.function().getASTContext().getSourceManager()) {
    R.Ops.resize(FA.ops().size());
    for (const GpuOp &Op : FA.ops())
      R.Ops[Op.Id].WhySync =
          Blocked[Op.Id].empty()
              ? "not a statement of its own in a block (in a condition, a single-statement "
                "body, a try block or a jump); this version keeps such ops synchronous"
              : Blocked[Op.Id];
  }

  CraResult run() {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FA.function().getBody());
    if (!Body)
      return std::move(R);
    IsMain = FA.function().isMain();
    std::vector<unsigned> Pending = processRegion(Body, {}, /*MayNotRun=*/false);
    if (!Pending.empty())
      addWait({InsertionPoint::BlockEnd, Body}, Pending, WaitCause::FunctionEnd,
              lineOf(Body->getRBracLoc()));
    if (IsMain && (Body->body_empty() || !isa<ReturnStmt>(Body->body_back())))
      R.Releases.push_back({InsertionPoint::BlockEnd, Body});
    return std::move(R);
  }

private:
  const FunctionAccesses &FA;
  const std::vector<std::string> &Blocked;
  const std::vector<unsigned> &InactiveCode;
  const std::vector<std::optional<unsigned>> *StreamOf;
  llvm::ArrayRef<const Expr *> IgnoredSyncs;
  const SourceManager &SM;

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

  /// The pending ops a wait for \p Conflicting must cover, and the streams
  /// on which ops stay pending past it (\p Partial). Without a stream plan:
  /// everything. With one, per stream of a conflicting op: when other ops
  /// are queued on the stream after the conflicting ones, only the
  /// conflicting ops are covered (the wait is for their events) and the
  /// rest stay pending; otherwise the whole stream is synchronised and
  /// everything pending on it is covered. ("After" is the pending list's
  /// order, which a loop or a join can blur; it only decides which of two
  /// sound waits is used.)
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
      if (llvm::is_contained(Partial, S))
        continue;
      bool AfterLastConflict = false;
      for (unsigned Op : llvm::reverse(Pending)) {
        if ((*StreamOf)[Op] != S)
          continue;
        if (llvm::is_contained(Conflicting, Op))
          break;
        AfterLastConflict = true;
      }
      if (AfterLastConflict)
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

  unsigned offsetOf(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }

  /// The first `#if` with inactive code in [Begin, End), if any.
  std::optional<unsigned> inactiveCodeIn(unsigned Begin, unsigned End) const {
    for (unsigned Offset : InactiveCode)
      if (Offset >= Begin && Offset < End)
        return Offset;
    return std::nullopt;
  }
  CraResult R;
  bool IsMain = false;

  unsigned lineOf(SourceLocation L) const { return SM.getSpellingLineNumber(SM.getFileLoc(L)); }

  /// \p EnqueuedHere: the covered ops enqueued earlier in this pass through
  /// the block (the rest come from enclosing code or earlier iterations).
  void addWait(InsertionPoint Where, const std::vector<unsigned> &Covers, WaitCause Cause,
               unsigned Line, Wait W = {}, std::optional<std::vector<unsigned>> EnqueuedHere = {}) {
    W.Where = Where;
    W.Covers = Covers;
    W.EnqueuedHere = EnqueuedHere ? *EnqueuedHere : Covers;
    W.Cause = Cause;
    W.Line = Line;
    for (unsigned Op : Covers)
      if (!R.Ops[Op].WaitIndex)
        R.Ops[Op].WaitIndex = R.Waits.size();
    R.Waits.push_back(std::move(W));
  }

  /// Host accesses of \p S plus the effects of the ops in it that will stay
  /// synchronous (\p AsyncCandidates are the ones that may not).
  AccessSet effectiveAccesses(const StmtAccesses &A,
                              const llvm::SmallVectorImpl<unsigned> &AsyncCandidates) const {
    AccessSet All = A.Host;
    for (unsigned Op : A.Ops)
      if (!llvm::is_contained(AsyncCandidates, Op))
        All.addAll(FA.ops()[Op].Effects);
    return All;
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

  /// Ops in \p S that sit in statements of their own inside blocks nested in
  /// it and may therefore be made asynchronous there.
  void nestedCandidates(const Stmt *S, llvm::SmallVectorImpl<unsigned> &Out) const {
    llvm::SmallVector<const CompoundStmt *, 4> Regions;
    regionsOf(S, Regions);
    for (const CompoundStmt *Region : Regions)
      for (const Stmt *Child : Region->body()) {
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
    if (isa<IfStmt, CompoundStmt>(S))
      return true;
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      Expr::EvalResult Value;
      return Do->getCond()->EvaluateAsInt(Value, FA.function().getASTContext()) &&
             Value.Val.getInt().isZero();
    }
    return false;
  }

  bool isLoop(const Stmt *S) const {
    return isa<ForStmt, WhileStmt, CXXForRangeStmt>(S) || (isa<DoStmt>(S) && !runsAtMostOnce(S));
  }

  /// The parts of a loop evaluated between iterations.
  static llvm::SmallVector<const Stmt *, 2> loopHeader(const Stmt *S) {
    if (const auto *For = dyn_cast<ForStmt>(S))
      return {For->getCond(), For->getInc()};
    if (const auto *While = dyn_cast<WhileStmt>(S))
      return {While->getCond()};
    if (const auto *Do = dyn_cast<DoStmt>(S))
      return {Do->getCond()};
    return {};
  }

  /// Analyses a loop body with the ops its previous iterations may leave
  /// pending (a fixpoint over the back edge). Returns the ops that may still
  /// be pending when the loop ends. When they would conflict with the loop
  /// header, use a variable declared in the body (it dies every iteration),
  /// or the loop is a range-for (its element reads are not modelled per
  /// iteration), the body waits at its end instead and nothing is returned.
  std::vector<unsigned> processLoopBody(const Stmt *Loop, const CompoundStmt *Body,
                                        const std::vector<unsigned> &Outer) {
    const CraResult Saved = R;
    LoopStack.push_back(Loop);
    llvm::scope_exit PopLoop([&] { LoopStack.pop_back(); });
    std::vector<unsigned> Head = Outer, Left;
    while (true) {
      Left = processRegion(Body, Head, /*MayNotRun=*/true);
      bool Grew = false;
      for (unsigned Op : Left)
        if (!llvm::is_contained(Head, Op))
          Head.push_back(Op), Grew = true;
      if (!Grew)
        break;
      R = Saved; // analyse again from the larger loop-head state
    }
    bool CarryOver = !isa<CXXForRangeStmt>(Loop) && !usesBlockLocals(Left, Body, Loop);
    const llvm::SmallVector<unsigned, 1> NoAsyncOps;
    for (const Stmt *Part : loopHeader(Loop)) {
      if (!Part || !CarryOver)
        continue;
      StmtAccesses A = FA.accessesOf(Part, true);
      CarryOver = !conflict(Left, effectiveAccesses(A, NoAsyncOps), A.UnknownWhy);
    }
    if (CarryOver || Left.empty())
      return Left;
    R = Saved;
    Left = processRegion(Body, Outer, /*MayNotRun=*/true);
    if (!Left.empty())
      addWait({InsertionPoint::BlockEnd, Body}, Left, WaitCause::BlockEnd,
              lineOf(Body->getRBracLoc()));
    return {};
  }

  /// Whether any of \p Ops may use a variable declared in \p Block (an op
  /// whose effects are Unknown may, if the block declares one whose address
  /// is taken).
  bool usesBlockLocals(const std::vector<unsigned> &Ops, const CompoundStmt *Block,
                       const Stmt *Owner) const {
    llvm::SmallPtrSet<const VarDecl *, 8> Locals;
    auto AddDecls = [&](const Stmt *S) {
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            Locals.insert(V);
    };
    for (const Stmt *Child : Block->body())
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

  void trace(const Stmt *S, const std::vector<unsigned> &Pending) {
    std::string Line = "line " + std::to_string(lineOf(S->getBeginLoc())) + ": pending {";
    for (unsigned I = 0; I < Pending.size(); ++I)
      Line += (I ? ", op" : "op") + std::to_string(Pending[I]);
    R.Trace.push_back(Line + "}");
  }

  /// Processes the statements of one block. \p Inherited are ops pending from
  /// enclosing blocks; none of them conflicts with anything in this block.
  /// Returns the ops of this block still pending at its end.
  /// Whether leaving \p Block runs destructors of objects it declares (calls
  /// the analysis does not follow).
  static bool destroysLocals(const CompoundStmt *Block) {
    for (const Stmt *Child : Block->body())
      if (const auto *DS = dyn_cast<DeclStmt>(unwrapLabels(Child)))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D);
              V && V->hasLocalStorage() && V->getType().isDestructedType())
            return true;
    return false;
  }

  /// Depth of enclosing blocks (inside the function) that run destructors
  /// when left: a break or continue through them must wait for everything.
  unsigned DestructorBlocks = 0;

  std::vector<unsigned> processRegion(const CompoundStmt *Block, std::vector<unsigned> Inherited,
                                      bool MayNotRun) {
    bool Destroys = destroysLocals(Block);
    DestructorBlocks += Destroys;
    std::vector<unsigned> Left = processBlock(Block, std::move(Inherited), MayNotRun, Destroys);
    DestructorBlocks -= Destroys;
    return Left;
  }

  std::vector<unsigned> processBlock(const CompoundStmt *Block, std::vector<unsigned> Inherited,
                                     bool MayNotRun, bool Destroys) {
    std::vector<unsigned> Local;
    auto All = [&] {
      std::vector<unsigned> V = Inherited;
      V.insert(V.end(), Local.begin(), Local.end());
      return V;
    };
    auto WaitBefore = [&](const Stmt *S, WaitCause Cause, Wait W = {},
                          const std::vector<unsigned> &Conflicting = {}) {
      std::vector<unsigned> Covered = coveredBy(All(), Conflicting, W.PartialStreams);
      auto IsCovered = [&](unsigned Op) { return llvm::is_contained(Covered, Op); };
      std::vector<unsigned> Here;
      llvm::copy_if(Local, std::back_inserter(Here), IsCovered);
      addWait({InsertionPoint::BeforeStmt, S}, Covered, Cause, lineOf(S->getBeginLoc()),
              std::move(W), Here);
      llvm::erase_if(Local, IsCovered);
      llvm::erase_if(Inherited, IsCovered);
    };

    unsigned Previous = offsetOf(Block->getLBracLoc());
    // Code in an inactive #if branch between statements may, when compiled
    // in, touch anything: wait before its directive.
    auto InactiveBefore = [&](unsigned Next) {
      std::optional<unsigned> Directive = inactiveCodeIn(Previous, Next);
      if (Directive && !All().empty()) {
        addWait({InsertionPoint::BeforeDirective, nullptr, *Directive}, All(),
                WaitCause::InactiveCode, SM.getLineNumber(SM.getMainFileID(), *Directive));
        Local.clear();
        Inherited.clear();
      }
    };

    for (const Stmt *Child : Block->body()) {
      const Stmt *S = unwrapLabels(Child);
      InactiveBefore(offsetOf(Child->getBeginLoc()));
      Previous = offsetOf(Child->getEndLoc());
      trace(S, All());
      StmtAccesses A = FA.accessesOf(S, MayNotRun);
      if (std::optional<unsigned> Inside = inactiveCodeIn(offsetOf(S->getBeginLoc()), Previous)) {
        A.Host.add(UnknownObject, ReadWriteAccess);
        if (A.UnknownWhy.empty())
          A.UnknownWhy = "code in an inactive #if branch on line " +
                         std::to_string(SM.getLineNumber(SM.getMainFileID(), *Inside));
      }

      if (isControlFlow(S)) {
        llvm::SmallVector<unsigned, 8> Candidates;
        if (!isOpaqueRegion(S))
          nestedCandidates(S, Candidates);
        Exits E;
        bool IsLoop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
        findExits(S, IsLoop, IsLoop || isa<SwitchStmt>(S), E);
        AccessSet Accesses = effectiveAccesses(A, Candidates);
        std::vector<unsigned> Conflicting;
        if (std::optional<Wait> W = conflict(All(), Accesses, A.UnknownWhy, &Conflicting))
          WaitBefore(S, WaitCause::Conflict, std::move(*W), Conflicting);
        // A conflict wait covers only the conflicting ops' streams: leaving the
        // function or block still waits for the rest.
        if (E.LeavesFunction && !All().empty())
          WaitBefore(S, WaitCause::LeavesFunction);
        else if (E.LeavesBlock && !Local.empty())
          WaitBefore(S, WaitCause::LeavesBlock);
        // The stream pool must be released before a cudaDeviceReset anywhere
        // in S destroys its streams (also one in a condition).
        if (A.ResetsDevice)
          R.Releases.push_back({InsertionPoint::BeforeStmt, S});
        // A device sync inside a branch or loop may not run: it clears nothing.
        llvm::SmallVector<const CompoundStmt *, 4> Regions;
        if (!isOpaqueRegion(S))
          regionsOf(S, Regions);
        std::vector<unsigned> Outer = All();
        std::vector<unsigned> FlowOut;
        for (const CompoundStmt *Region : Regions) {
          bool Loop = isLoop(S);
          std::vector<unsigned> Left =
              Loop ? processLoopBody(S, Region, Outer)
                   : processRegion(Region, Outer, MayNotRun || !isa<CompoundStmt, DoStmt>(S));
          // Ops of a block that runs at most once per execution of S, or of a
          // loop body whose next iterations and header they do not conflict
          // with, may stay pending after it (the union over its paths), unless
          // they use a variable that dies with the block. A switch body waits.
          if (!Left.empty() && ((!Loop && !runsAtMostOnce(S)) || usesBlockLocals(Left, Region, S)))
            addWait({InsertionPoint::BlockEnd, Region}, Left, WaitCause::BlockEnd,
                    lineOf(Region->getRBracLoc()));
          else
            for (unsigned Op : Left)
              if (!llvm::is_contained(FlowOut, Op))
                FlowOut.push_back(Op);
        }
        // `CHECK(cudaDeviceSynchronize())`: the body of a do-while(0) without
        // jumps runs exactly once, so a device sync at its top level runs.
        if (A.SyncsDevice && isa<DoStmt>(S) && runsAtMostOnce(S) && !containsJumps(S) &&
            syncsDevice(S, A, All())) {
          Local.clear();
          Inherited.clear();
        }
        llvm::append_range(Local, FlowOut);
        continue;
      }

      bool Jump = isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt>(S);
      llvm::SmallVector<unsigned, 4> Async;
      if (!Jump)
        for (unsigned Op : A.Ops) {
          if (!Blocked[Op].empty())
            continue;
          // Reads in the op's own arguments happen before it is enqueued; what
          // else the statement does may happen after.
          const GpuOp &G = FA.ops()[Op];
          if (G.Effects.conflictWith(FA.accessesOf(S, MayNotRun, G.Call).Host)) {
            R.Ops[Op].WhySync = "its result is used in the same statement";
            continue;
          }
          if (A.SyncsDevice) {
            R.Ops[Op].WhySync = "the same statement synchronises the device";
            continue;
          }
          Async.push_back(Op);
        }

      AccessSet Accesses = effectiveAccesses(A, Async);
      std::vector<unsigned> Conflicting;
      if (std::optional<Wait> W = conflict(All(), Accesses, A.UnknownWhy, &Conflicting))
        WaitBefore(S, WaitCause::Conflict, std::move(*W), Conflicting);
      // A conflict wait covers only the conflicting ops' streams: a jump out of
      // the function or block still waits for the rest.
      if ((isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S)) && !All().empty())
        WaitBefore(S, WaitCause::LeavesFunction);
      else if (isa<BreakStmt, ContinueStmt>(S) && !(DestructorBlocks ? All() : Local).empty())
        WaitBefore(S, WaitCause::LeavesBlock);

      if (A.ResetsDevice || (IsMain && isa<ReturnStmt>(S)))
        R.Releases.push_back({InsertionPoint::BeforeStmt, S});
      if (syncsDevice(S, A, All())) {
        Local.clear();
        Inherited.clear();
      }
      for (unsigned Op : Async) {
        R.Ops[Op].Async = true;
        R.Ops[Op].WhySync.clear();
        R.Ops[Op].Statement = S;
        R.Ops[Op].Loops.assign(LoopStack.rbegin(), LoopStack.rend());
        Local.push_back(Op);
      }
      if (Jump) {
        Local.clear(); // what follows is reached only through a label
        Inherited.clear();
      }
    }
    InactiveBefore(offsetOf(Block->getRBracLoc()));
    // The destructors of the block's objects run at its `}` and may touch
    // anything: everything pending is waited for before them.
    if (Destroys && !All().empty()) {
      addWait({InsertionPoint::BlockEnd, Block}, All(), WaitCause::BlockEnd,
              lineOf(Block->getRBracLoc()));
      Local.clear();
    }
    return Local;
  }
};

} // namespace

CraResult runCra(const FunctionAccesses &FA, const std::vector<std::string> &Blocked,
                 const std::vector<unsigned> &InactiveCode,
                 const std::vector<std::optional<unsigned>> *StreamOf,
                 llvm::ArrayRef<const Expr *> IgnoredSyncs) {
  return CraWalker(FA, Blocked, InactiveCode, StreamOf, IgnoredSyncs).run();
}

namespace {
std::string opDescription(const GpuOp &Op) {
  if (Op.Kind == GpuOpKind::Launch)
    return "kernel `" + Op.Callee + "` on line " + std::to_string(Op.Line);
  return Op.Callee + " on line " + std::to_string(Op.Line);
}

} // namespace

std::string describeWait(const Wait &W, const FunctionAccesses &FA) {
  switch (W.Cause) {
  case WaitCause::Conflict: {
    const GpuOp &Op = FA.ops()[W.ConflictOp];
    if (W.ObjectName == FA.describe(UnknownObject)) {
      std::string Why = W.Detail.empty() ? "memory the analysis cannot name" : W.Detail;
      return "the next statement may touch what " + opDescription(Op) + " uses (" + Why + ")";
    }
    bool OpWrites = false;
    for (auto [Obj, Mode] : Op.Effects.entries())
      if (FA.describe(Obj) == W.ObjectName && (Mode & WriteAccess))
        OpWrites = true;
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
    return "code in the inactive branch below may use the GPU's results when compiled in";
  }
  return "";
}

llvm::StringRef waitCauseName(WaitCause Cause) {
  switch (Cause) {
  case WaitCause::Conflict:
    return "conflict";
  case WaitCause::LeavesBlock:
    return "leaves-block";
  case WaitCause::LeavesFunction:
    return "leaves-function";
  case WaitCause::BlockEnd:
    return "block-end";
  case WaitCause::FunctionEnd:
    return "function-end";
  case WaitCause::InactiveCode:
    return "inactive-code";
  }
  return "?";
}

void CraResult::print(llvm::raw_ostream &OS, const FunctionAccesses &FA) const {
  OS << "function " << FA.name() << "\n";
  for (const std::string &Line : Trace)
    OS << "  " << Line << "\n";
  for (const GpuOp &Op : FA.ops()) {
    const OpDecision &D = Ops[Op.Id];
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
