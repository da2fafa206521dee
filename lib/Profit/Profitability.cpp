//===- Profitability.cpp - Changes that cannot pay are not made ------------===//
#include "streamalloc/Profit/Profitability.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/CRA/LegacyStream.h"
#include "streamalloc/CRA/OriginalCompletion.h"
#include "streamalloc/Model/ApiModel.h"
#include "streamalloc/Schedule/StreamPlan.h"
#include "streamalloc/Transform/HostPinning.h"
#include "streamalloc/Transform/StreamOrderedAlloc.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>
#include <map>
#include <numeric>
#include <optional>

using namespace clang;

namespace streamalloc {

std::string unprofitableAllocGroup(const AllocGroup &G, const std::string &Function,
                                   ASTContext &Ctx, const CostModel &Costs) {
  auto InLoop = [&](const CallExpr *Call) { return !loopsAround(Call, Ctx).empty(); };
  if (llvm::any_of(G.Allocs, InLoop) || llvm::any_of(G.Frees, InLoop))
    return "";
  return "not worth it: its calls run once per call of `" + Function +
         "`, outside any loop, and a stream-ordered memory pool costs about " +
         formatSeconds(Costs.PoolFirstUseSec) +
         " on first use, more than the device-wide sync of a " +
         apiWith(ApiCap::StreamOrderableRelease).Name.str() + " it would save";
}

namespace {

/// What an op keeps busy on the GPU: two ops overlap usefully only on
/// different engines (two copies in one direction share a copy engine).
enum class Engine { None, Compute, HostToDevice, DeviceToHost, Other };

Engine engineOf(const GpuOp &Op, const FunctionAccesses &FA) {
  switch (Op.Kind) {
  case GpuOpKind::Launch:
    return Engine::Compute;
  case GpuOpKind::Set:
    return blocksInOriginal(Op, FA) ? Engine::Other : Engine::Compute;
  case GpuOpKind::Copy:
    switch (copyDirectionOf(Op)) {
    case CopyDirection::HostToDevice:
      return Engine::HostToDevice;
    case CopyDirection::DeviceToHost:
      return Engine::DeviceToHost;
    case CopyDirection::DeviceToDevice:
      return Engine::Compute;
    case CopyDirection::HostToHost:
    case CopyDirection::Unknown:
      return Engine::Other;
    }
    llvm_unreachable("not a copy direction");
  case GpuOpKind::Alloc:
  case GpuOpKind::Free:
    return Engine::None;
  case GpuOpKind::CallWork:
    return Engine::Other; // stream-ordered calls are bookkeeping, not work to overlap
  }
  llvm_unreachable("not an op kind");
}

bool isHostObject(ObjectKind K) {
  return K != ObjectKind::DeviceSymbol && K != ObjectKind::DeviceAllocation &&
         K != ObjectKind::ProgramOutput;
}

/// The host memory of \p Op that is pageable when the output runs (empty:
/// all of it is in \p PageLocked, pageLockedObjects()). Symbolic memory (a
/// parameter's pointee) counts as pageable unless every caller is known to
/// pass page-locked memory.
std::string pageableSide(const GpuOp &Op, const FunctionAccesses &FA,
                         const llvm::DenseSet<ObjectId> &PageLocked) {
  CopyDirection Direction = copyDirectionOf(Op);
  for (auto [Obj, Any] : Op.Effects.entries()) {
    // What the copy touches only as a possible alias of another entry is
    // that entry's memory, whose pinning decides (a device pointer that may
    // alias the host one is not the host side).
    uint8_t Mode = Op.Effects.directModeOf(Obj);
    if (Mode == NoAccess)
      continue;
    if (Direction == CopyDirection::HostToDevice && (Mode & WriteAccess))
      continue; // the device side
    if (Direction == CopyDirection::DeviceToHost && !(Mode & WriteAccess))
      continue;
    if (Obj == UnknownObject)
      return "memory the analysis cannot name";
    if (!isHostObject(FA.objects().get(Obj).Kind) || PageLocked.count(Obj))
      continue;
    return "`" + FA.describe(Obj) + "`";
  }
  return "";
}

/// Whether \p S does host work worth overlapping: a loop or a call other
/// than a CUDA runtime call, outside error paths (a branch that exits or
/// returns).
class HostWork {
public:
  explicit HostWork(ASTContext &Ctx) : Ctx(Ctx) {}

  bool in(const Stmt *S) const {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (isRepeatingLoop(S, Ctx))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(S))
      return in(If->getCond()) || (!isErrorPath(If->getThen()) && in(If->getThen())) ||
             (!isErrorPath(If->getElse()) && in(If->getElse()));
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S))
      return llvm::any_of(Launch->arguments(), [&](const Expr *Arg) { return in(Arg); });
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && isWork(Call))
      return true;
    for (const Stmt *Child : S->children())
      if (in(Child))
        return true;
    return false;
  }

private:
  ASTContext &Ctx;

  static bool isWork(const CallExpr *Call) {
    if (hasNamePrefix(ApiNameGroup::CudaRuntime, calleeName(Call)))
      return false;
    const ApiFunction *Api = modelledCallee(Call);
    return !Api || Api->Kind == ApiKind::Host || Api->isStd();
  }

  static bool isErrorPath(const Stmt *S) {
    if (!S)
      return false;
    if (isa<ReturnStmt>(S))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const ApiFunction *Api = modelledCallee(Call); Api && Api->Kind == ApiKind::ProgramExit)
        return true;
    for (const Stmt *Child : S->children())
      if (isErrorPath(Child))
        return true;
    return false;
  }
};

/// Whether host work runs between the statement that enqueues op \p Op and
/// a wait for it: the siblings after the statement up to the first wait for
/// the op placed before one of them (or at the block's end). When the
/// statement is (directly in) the body of a loop, both ways on from the
/// body's end count: the next pass (the loop's header, then the body up to a
/// wait for the op before one of its statements) and the loop's exit (the
/// siblings after the loop, as above). Waits on error paths (a branch that
/// exits) do not end the stretch; where the statement is elsewhere, or a way
/// on reaches no wait for the op, something may overlap: true.
class HostWorkBeforeWait {
public:
  HostWorkBeforeWait(unsigned Op, const FunctionAccesses &FA, const CraResult &Cra)
      : Op(Op), FA(FA), Cra(Cra), Ctx(FA.function().getASTContext()), Work(Ctx) {
    assert(Op < Cra.Ops.size() && "an op of the analysed function");
    for (const Wait &W : Cra.Waits) {
      if (!llvm::is_contained(W.Covers, Op))
        continue;
      if (W.Where.K == InsertionPoint::BeforeStmt)
        WaitsBefore.insert(W.Where.Anchor);
      else if (W.Where.K == InsertionPoint::BlockEnd || W.Where.K == InsertionPoint::BodyEnd)
        WaitsAtEnd.insert(W.Where.Anchor);
    }
  }

  bool operator()() const {
    const Stmt *S = Cra.Ops[Op].Statement;
    while (S) {
      const Stmt *Parent = parentOf(S);
      if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Parent)) {
        if (std::optional<bool> Found = scanAfter(Block, S))
          return *Found;
        if (WaitsAtEnd.count(Block))
          return false;
        const Stmt *Outer = parentOf(Block);
        if (isLoopWithBody(Outer, Block)) {
          llvm::SmallVector<const Stmt *, 8> Body(Block->body_begin(), Block->body_end());
          return nextPassOrExit(Outer, Body);
        }
        // The block ends and control goes on after the statement that holds
        // it (a nested block, a branch of an `if`, an error-check macro's
        // `do { ... } while (0)`).
        S = leftFor(Outer, Block);
        continue;
      }
      if (isLoopWithBody(Parent, S))
        return !WaitsAtEnd.count(S) && nextPassOrExit(Parent, llvm::ArrayRef<const Stmt *>(S));
      S = leftFor(Parent, S);
    }
    return true;
  }

private:
  unsigned Op;
  const FunctionAccesses &FA;
  const CraResult &Cra;
  ASTContext &Ctx;
  HostWork Work;
  llvm::SmallPtrSet<const Stmt *, 4> WaitsBefore, WaitsAtEnd;

  const Stmt *parentOf(const Stmt *S) const {
    auto Parents = Ctx.getParents(*S);
    return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
  }

  /// The statement whose successors in its block run next once \p Inner, a
  /// child of \p Outer, is done: \p Inner itself in a block; \p Outer when
  /// \p Inner is a branch of an `if` or the body of a `do ... while (0)`;
  /// else none (the scan gives up and counts the host work as there).
  const Stmt *leftFor(const Stmt *Outer, const Stmt *Inner) const {
    if (!Outer)
      return nullptr;
    if (isa<CompoundStmt>(Outer))
      return Inner;
    if (const auto *If = dyn_cast<IfStmt>(Outer); If && Inner != If->getCond())
      return Outer;
    if (const auto *Do = dyn_cast<DoStmt>(Outer);
        Do && Do->getBody() == Inner && !isRepeatingLoop(Do, Ctx))
      return Outer;
    return nullptr;
  }

  /// Whether \p Loop is a for, while or do loop that repeats \p Body.
  bool isLoopWithBody(const Stmt *Loop, const Stmt *Body) const {
    return Loop && isRepeatingLoop(Loop, Ctx) && loopBody(Loop) == Body;
  }

  /// Whether the host waits for the op before \p S does anything.
  bool waitsAt(const Stmt *S) const {
    // A copy to the host left as written: the host waits there too.
    return WaitsBefore.count(S) ||
           completesEarlierWork(FA.accessesOf(S, true), FA,
                                [&](unsigned Other) { return !Cra.Ops[Other].Async; });
  }

  /// The siblings after \p S in \p Block: whether host work (true) or a wait
  /// (false) comes first; none if neither does.
  std::optional<bool> scanAfter(const CompoundStmt *Block, const Stmt *S) const {
    bool After = false;
    for (const Stmt *Child : Block->body()) {
      if (!After) {
        After = Child == S;
        continue;
      }
      if (waitsAt(Child))
        return false;
      if (Work.in(Child))
        return true;
    }
    return std::nullopt;
  }

  /// From the end of \p Loop's body (\p Body, its statements): the next pass
  /// and the way out of the loop both reach a wait before any host work.
  bool nextPassOrExit(const Stmt *Loop, llvm::ArrayRef<const Stmt *> Body) const {
    if (llvm::any_of(loopHeader(Loop), [&](const Stmt *Part) { return Work.in(Part); }))
      return true;
    bool NextPassWaits = false;
    for (const Stmt *Child : Body) {
      if (waitsAt(Child)) {
        NextPassWaits = true;
        break;
      }
      if (Work.in(Child) || Child == Cra.Ops[Op].Statement)
        return true;
    }
    if (!NextPassWaits)
      return true;
    const auto *Outer = dyn_cast_or_null<CompoundStmt>(parentOf(Loop));
    if (!Outer)
      return true;
    if (std::optional<bool> Found = scanAfter(Outer, Loop))
      return *Found;
    return !WaitsAtEnd.count(Outer);
  }
};

/// The plan's dependency paths, to tell which async ops may run side by side.
class Dependencies {
public:
  Dependencies(unsigned N, const StreamPlan &Plan) : Succ(N), Pred(N), Part(N) {
    std::iota(Part.begin(), Part.end(), 0u);
    for (const Dependency &E : Plan.PathEdges) {
      assert(E.From < N && E.To < N && "an edge between ops of the function");
      Succ[E.From].push_back(E.To);
      Pred[E.To].push_back(E.From);
      Part[root(E.From)] = root(E.To);
    }
    for (unsigned X = 0; X < N; ++X)
      Part[X] = root(X);
  }
  /// The part of the graph (edges taken either way) that holds \p X: ops
  /// of different parts are never connected.
  unsigned partOf(unsigned X) const { return Part[X]; }
  /// Ops connected to \p X by a dependency path in either direction: what
  /// it reaches and what reaches it. (One walk must not stop the other: on a
  /// cycle through a loop's back edge an op is both.)
  llvm::BitVector connected(unsigned X) const {
    llvm::BitVector After(Succ.size()), Before(Succ.size());
    walk(X, Succ, After);
    walk(X, Pred, Before);
    return After |= Before;
  }

private:
  std::vector<std::vector<unsigned>> Succ, Pred;
  std::vector<unsigned> Part; ///< union-find while building, then each op's part
  unsigned root(unsigned X) {
    while (Part[X] != X)
      X = Part[X] = Part[Part[X]];
    return X;
  }
  static void walk(unsigned X, const std::vector<std::vector<unsigned>> &Next,
                   llvm::BitVector &Seen) {
    std::vector<unsigned> Work{X};
    while (!Work.empty()) {
      unsigned U = Work.back();
      Work.pop_back();
      for (unsigned V : Next[U])
        if (!Seen.test(V)) {
          Seen.set(V);
          Work.push_back(V);
        }
    }
  }
};

} // namespace

std::vector<std::string> unprofitableOps(const FunctionAccesses &FA, const CraResult &Cra,
                                         const StreamPlan &Plan,
                                         const std::vector<PinDecision> &Pins,
                                         llvm::ArrayRef<unsigned> PageLockedParams) {
  const std::vector<GpuOp> &Ops = FA.ops();
  assert(Cra.Ops.size() == Ops.size() && Plan.StreamOf.size() == Ops.size() &&
         "the analysis and the plan are for this function's ops");
  std::vector<std::string> Why(Ops.size());
  llvm::DenseSet<ObjectId> PageLocked = pageLockedObjects(FA, Pins, PageLockedParams);
  Dependencies Deps(Ops.size(), Plan);
  std::vector<Engine> EngineOf;
  for (const GpuOp &Op : Ops)
    EngineOf.push_back(engineOf(Op, FA));
  // Per stream and engine of a copy: the parts of the dependency graph
  // (up to two) that hold ops it could overlap with, but for dependencies.
  std::map<std::pair<std::optional<unsigned>, Engine>, llvm::SmallVector<unsigned, 2>> PartsFor;
  for (const GpuOp &X : Ops) {
    if (X.Kind == GpuOpKind::CallWork && Cra.Ops[X.Id].Async) {
      // The callee's work pays only where this caller overlaps it: host work
      // before the wait for it, with its host memory page-locked (a copy of
      // pageable memory returned only once its host side was done).
      if (std::string Pageable = pageableSide(X, FA, PageLocked); !Pageable.empty())
        Why[X.Id] = "not worth it: the work `" + X.Callee + "` would return with uses " + Pageable +
                    ", which stays pageable, so its copies would block the host anyway";
      else if (!HostWorkBeforeWait(X.Id, FA, Cra)())
        Why[X.Id] = "not worth it: no host work comes between the call of `" + X.Callee +
                    "` and the wait for the work it would return with";
      continue;
    }
    // Left pending on return: the callers' analyses weigh it (above).
    if (llvm::is_contained(Cra.LeftPending, X.Id))
      continue;
    if (!Cra.Ops[X.Id].Async || (X.Kind != GpuOpKind::Copy && X.Kind != GpuOpKind::Set) ||
        !blocksInOriginal(X, FA))
      continue;
    Engine Mine = EngineOf[X.Id];
    auto MayOverlap = [&](const GpuOp &Y) {
      Engine Theirs = EngineOf[Y.Id];
      return Y.Id != X.Id && Cra.Ops[Y.Id].Async && Plan.StreamOf[Y.Id] != Plan.StreamOf[X.Id] &&
             Theirs != Engine::None && Theirs != Mine;
    };
    auto [It, New] = PartsFor.try_emplace({Plan.StreamOf[X.Id], Mine});
    for (unsigned Y = 0; New && Y < Ops.size() && It->second.size() < 2; ++Y)
      if (MayOverlap(Ops[Y]) && !llvm::is_contained(It->second, Deps.partOf(Y)))
        It->second.push_back(Deps.partOf(Y));
    // One in another part is connected to X by no dependency; only when all
    // are in X's part are the dependency paths followed.
    bool GpuOverlap =
        llvm::any_of(It->second, [&](unsigned Part) { return Part != Deps.partOf(X.Id); });
    if (!GpuOverlap && !It->second.empty()) {
      llvm::BitVector Connected = Deps.connected(X.Id);
      GpuOverlap =
          llvm::any_of(Ops, [&](const GpuOp &Y) { return MayOverlap(Y) && !Connected.test(Y.Id); });
    }
    if (GpuOverlap)
      continue;
    std::string Pageable = pageableSide(X, FA, PageLocked);
    if (!Pageable.empty()) {
      Why[X.Id] = "not worth it: its host memory " + Pageable +
                  " stays pageable, so an asynchronous copy would block the host like " + X.Callee +
                  " does and cost more, and no independent GPU work on another "
                  "stream could overlap it";
      continue;
    }
    if (!HostWorkBeforeWait(X.Id, FA, Cra)())
      Why[X.Id] = "not worth it: nothing could overlap it (no host work before the host waits "
                  "for it, no independent GPU work on another stream)";
  }
  return Why;
}

std::string unprofitableFunction(const FunctionAccesses &FA, const CraResult &Cra,
                                 const StreamPlan &Plan, bool DropsSyncs) {
  assert(Cra.Ops.size() == FA.ops().size() && "the analysis is for this function's ops");
  if (DropsSyncs || Plan.NumStreams > 1)
    return "";
  bool AnyAsync = false;
  for (const GpuOp &Op : FA.ops()) {
    if (!Cra.Ops[Op.Id].Async)
      continue;
    if (blocksInOriginal(Op, FA))
      return ""; // something the original waited for now overlaps
    AnyAsync = true;
  }
  if (!AnyAsync)
    return "";
  return "not worth it: in `" + FA.name() +
         "` only kernels, fills and device-to-device copies could run asynchronously, as they "
         "already do in the original, all on one stream; its GPU calls are left as written";
}

} // namespace streamalloc
