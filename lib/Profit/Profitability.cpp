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
    return Engine::Other;
  case GpuOpKind::Alloc:
  case GpuOpKind::Free:
    return Engine::None; // stream-ordered calls are bookkeeping, not work to overlap
  }
  return Engine::None;
}

bool isHostObject(ObjectKind K) {
  return K != ObjectKind::DeviceSymbol && K != ObjectKind::DeviceAllocation &&
         K != ObjectKind::ProgramOutput;
}

/// The host memory of \p Op that is pageable when the output runs (empty:
/// all of it is page-locked or managed). Symbolic memory (a parameter's
/// pointee) counts as pageable: the tool cannot tell what the caller passes.
std::string pageableSide(const GpuOp &Op, const FunctionAccesses &FA,
                         const llvm::DenseSet<ObjectId> &Pinned) {
  CopyDirection Direction = copyDirectionOf(Op);
  for (auto [Obj, Mode] : Op.Effects.entries()) {
    if (Direction == CopyDirection::HostToDevice && (Mode & WriteAccess))
      continue; // the device side
    if (Direction == CopyDirection::DeviceToHost && !(Mode & WriteAccess))
      continue;
    if (Obj == UnknownObject)
      return "memory the analysis cannot name";
    ObjectKind K = FA.objects().get(Obj).Kind;
    if (!isHostObject(K) || K == ObjectKind::PinnedAllocation ||
        K == ObjectKind::ManagedAllocation || Pinned.count(Obj))
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
/// a wait for it, in the op's block: the siblings after the statement up to
/// the first wait for the op placed before one of them (or at the block's
/// end). Waits on error paths (a branch that exits) do not end the stretch;
/// where the op's statement is not directly in a block, or no wait for it
/// is in its block, something may overlap: true.
bool hostWorkBeforeWait(unsigned Op, const FunctionAccesses &FA, const CraResult &Cra) {
  const OpDecision &D = Cra.Ops[Op];
  if (!D.Statement)
    return true;
  ASTContext &Ctx = FA.function().getASTContext();
  auto Parents = Ctx.getParents(*D.Statement);
  const auto *Block = Parents.size() == 1 ? Parents[0].get<CompoundStmt>() : nullptr;
  if (!Block)
    return true;
  llvm::SmallPtrSet<const Stmt *, 4> WaitsBefore;
  bool WaitAtEnd = false;
  for (const Wait &W : Cra.Waits) {
    if (!llvm::is_contained(W.Covers, Op))
      continue;
    if (W.Where.K == InsertionPoint::BeforeStmt)
      WaitsBefore.insert(W.Where.Anchor);
    else if (W.Where.K == InsertionPoint::BlockEnd && W.Where.Anchor == Block)
      WaitAtEnd = true;
  }
  HostWork Work(Ctx);
  bool After = false;
  for (const Stmt *S : Block->body()) {
    if (!After) {
      After = S == D.Statement;
      continue;
    }
    // A copy to the host left as written: the host waits there too.
    if (WaitsBefore.count(S) ||
        completesEarlierWork(FA.accessesOf(S, true), FA,
                             [&](unsigned Other) { return !Cra.Ops[Other].Async; }))
      return false;
    if (Work.in(S))
      return true;
  }
  return !WaitAtEnd;
}

/// The plan's dependency edges, to tell which async ops may run side by side.
class Dependencies {
public:
  Dependencies(unsigned N, const StreamPlan &Plan) : Succ(N), Pred(N) {
    for (const Dependency &E : Plan.Edges) {
      Succ[E.From].push_back(E.To);
      Pred[E.To].push_back(E.From);
    }
  }
  /// Ops connected to \p X by a dependency path in either direction.
  llvm::BitVector connected(unsigned X) const {
    llvm::BitVector Seen(Succ.size());
    walk(X, Succ, Seen);
    walk(X, Pred, Seen);
    return Seen;
  }

private:
  std::vector<std::vector<unsigned>> Succ, Pred;
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
                                         const std::vector<PinDecision> &Pins) {
  const std::vector<GpuOp> &Ops = FA.ops();
  std::vector<std::string> Why(Ops.size());
  llvm::DenseSet<ObjectId> Pinned;
  for (const PinDecision &D : Pins)
    if (D.Action != PinAction::Pageable)
      Pinned.insert(D.Object);
  Dependencies Deps(Ops.size(), Plan);
  std::vector<Engine> EngineOf;
  for (const GpuOp &Op : Ops)
    EngineOf.push_back(engineOf(Op, FA));
  for (const GpuOp &X : Ops) {
    if (!Cra.Ops[X.Id].Async || (X.Kind != GpuOpKind::Copy && X.Kind != GpuOpKind::Set) ||
        !blocksInOriginal(X, FA))
      continue;
    Engine Mine = EngineOf[X.Id];
    llvm::BitVector Connected = Deps.connected(X.Id);
    bool GpuOverlap = llvm::any_of(Ops, [&](const GpuOp &Y) {
      Engine Theirs = EngineOf[Y.Id];
      return Y.Id != X.Id && Cra.Ops[Y.Id].Async && Plan.StreamOf[Y.Id] != Plan.StreamOf[X.Id] &&
             Theirs != Engine::None && Theirs != Mine && !Connected.test(Y.Id);
    });
    if (GpuOverlap)
      continue;
    std::string Pageable = pageableSide(X, FA, Pinned);
    if (!Pageable.empty()) {
      Why[X.Id] = "not worth it: its host memory " + Pageable +
                  " stays pageable, so an asynchronous copy would block the host like " + X.Callee +
                  " does and cost more, and no independent GPU work on another "
                  "stream could overlap it";
      continue;
    }
    if (!hostWorkBeforeWait(X.Id, FA, Cra))
      Why[X.Id] = "not worth it: nothing could overlap it (no host work before the host waits "
                  "for it, no independent GPU work on another stream)";
  }
  return Why;
}

std::string unprofitableFunction(const FunctionAccesses &FA, const CraResult &Cra,
                                 const StreamPlan &Plan, bool DropsSyncs) {
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
