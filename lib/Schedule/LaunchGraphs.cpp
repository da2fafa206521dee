//===- LaunchGraphs.cpp ---------------------------------------------------===//
#include "streamalloc/Schedule/LaunchGraphs.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Model/ApiModel.h"
#include "streamalloc/Schedule/StreamPlan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cmath>

using namespace clang;

namespace streamalloc {

namespace {

const Stmt *bodyOf(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getBody();
  return nullptr;
}

/// Calls \p Visit for every loop in \p S, outer loops first; lambda bodies
/// are functions of their own.
template <typename Fn> void forEachLoop(const Stmt *S, Fn &&Visit) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (bodyOf(S))
    Visit(S);
  for (const Stmt *Child : S->children())
    forEachLoop(Child, Visit);
}

/// Calls an op statement may make besides its op: the error checks of an
/// error-check macro (the API table's error queries, output and exit calls)
/// and pure functions of their arguments. Anything else may have effects
/// that would happen twice when a failed capture makes the body run again.
/// (A pure row without arguments, like rand(), reads hidden state.)
bool isErrorCheckCall(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return false;
  if (F->getBuiltinID())
    return true;
  const ApiFunction *Api = lookupApi(F->getName());
  return Api && (Api->Kind == ApiKind::ProgramExit || (Api->WritesOutput && !Api->CudaRuntime) ||
                 (Api->Kind == ApiKind::Pure && (Api->CudaRuntime || !Api->Roles.empty())));
}

/// The first construct of \p S outside the op \p Op's own call that the
/// body could not safely run twice: a call other than an error check, or a
/// write to a variable declared outside \p S. Null if none.
const Stmt *effectRunTwice(const Stmt *S, const Stmt *Node, const Expr *Op,
                           const SourceManager &SM) {
  if (!Node)
    return nullptr;
  auto DeclaredInside = [&](const Expr *Target) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !V->isLocalVarDecl())
      return false;
    unsigned At = SM.getFileOffset(SM.getExpansionLoc(V->getLocation()));
    return SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc())) <= At &&
           At <= SM.getFileOffset(SM.getExpansionRange(S->getEndLoc()).getEnd());
  };
  if (const auto *B = dyn_cast<BinaryOperator>(Node); B && B->isAssignmentOp()) {
    if (!DeclaredInside(B->getLHS()))
      return Node;
  } else if (const auto *U = dyn_cast<UnaryOperator>(Node); U && U->isIncrementDecrementOp()) {
    if (!DeclaredInside(U->getSubExpr()))
      return Node;
  } else if (const auto *Call = dyn_cast<CallExpr>(Node)) {
    const auto *Kernel = dyn_cast<CUDAKernelCallExpr>(Op);
    bool OwnCall = Call == Op || (Kernel && Call == Kernel->getConfig());
    if (!OwnCall && !isErrorCheckCall(Call->getDirectCallee()))
      return Node;
  }
  for (const Stmt *Child : Node->children())
    if (const Stmt *Found = effectRunTwice(S, Child, Op, SM))
      return Found;
  return nullptr;
}

/// Why statement \p S of a loop body cannot be part of a capture ("" if it
/// enqueues exactly one op the device runs on its own, and nothing else).
std::string whyNotCapturable(const Stmt *S, const StmtAccesses &A, const FunctionAccesses &FA,
                             unsigned Line) {
  std::string At = "line " + std::to_string(Line) + " of its body ";
  if (A.Ops.empty())
    return At + "is host work, which a capture does not record";
  if (A.Ops.size() > 1 || A.OpsAlwaysEnqueued.size() != 1)
    return At + "is not a single GPU op (a nested loop or branch)";
  const GpuOp &Op = FA.ops()[A.Ops.front()];
  if (Op.Kind == GpuOpKind::Copy && copyDirectionOf(Op) != CopyDirection::DeviceToDevice)
    return At + "copies to or from host memory (" + Op.Callee + ")";
  if (Op.Kind != GpuOpKind::Launch && Op.Kind != GpuOpKind::Set && Op.Kind != GpuOpKind::Copy)
    return At + "is " + Op.Callee + ", which is not a launch, fill or device-to-device copy";
  if (Op.HasUserStream)
    return At + "puts " + Op.Callee + " on a stream of the program's own";
  if (A.MayBlock || A.SyncsDevice || A.ResetsDevice || A.ReadsTimer || A.EnqueuesOnOwnStreams ||
      A.CalleesPerformGpuOps)
    return At + "also makes calls that may wait for the GPU or enqueue other work";
  const SourceManager &SM = FA.function().getASTContext().getSourceManager();
  if (const Stmt *Effect = effectRunTwice(S, S, Op.Call, SM))
    return At + "has an effect besides its op (line " +
           std::to_string(SM.getExpansionLineNumber(Effect->getBeginLoc())) +
           "), which would happen again if a failed capture ran the body directly";
  return "";
}

/// The file offsets of \p S's outermost expansion.
std::pair<unsigned, unsigned> offsetsOf(const Stmt *S, const SourceManager &SM) {
  return {SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc())),
          SM.getFileOffset(SM.getExpansionRange(S->getEndLoc()).getEnd())};
}

bool inside(unsigned Offset, std::pair<unsigned, unsigned> Range) {
  return Range.first <= Offset && Offset <= Range.second;
}

/// The offset where code for wait \p W goes.
unsigned offsetOf(const InsertionPoint &Where, const SourceManager &SM) {
  if (Where.K == InsertionPoint::InInactiveCode)
    return Where.Offset;
  if (Where.K == InsertionPoint::BlockEnd)
    return offsetsOf(Where.Anchor, SM).second;
  return offsetsOf(Where.Anchor, SM).first;
}

class ThreadFinder : public RecursiveASTVisitor<ThreadFinder> {
public:
  explicit ThreadFinder(const SourceManager &SM) : SM(SM) {}
  std::string Found;
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *F = Call->getDirectCallee())
      if (F->getIdentifier() && inProgram(Call->getBeginLoc()) &&
          (F->getName() == "pthread_create" || (F->isInStdNamespace() && F->getName() == "async")))
        note(F->getQualifiedNameAsString(), Call->getBeginLoc());
    // An algorithm given an execution policy (std::execution::par) may run
    // the function it is given on several threads at once.
    if (const FunctionDecl *F = Call->getDirectCallee(); F && inProgram(Call->getBeginLoc()))
      for (const Expr *Arg : Call->arguments())
        if (isParallelExecutionPolicy(Arg->getType()))
          note(F->getQualifiedNameAsString() + " with an execution policy", Call->getBeginLoc());
    return Found.empty();
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (const CXXRecordDecl *R = E->getConstructor()->getParent())
      if (R->isInStdNamespace() && R->getIdentifier() &&
          (R->getName() == "thread" || R->getName() == "jthread") && inProgram(E->getBeginLoc()))
        note("std::" + R->getName().str(), E->getBeginLoc());
    return Found.empty();
  }
  // An OpenMP region runs its threads only until it ends, so it can put work
  // on a captured stream only if it runs GPU work itself or calls code of the
  // program's (which may hold a loop that becomes a graph).
  bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
    if (inProgram(D->getBeginLoc()) && mayEnqueueGpuWork(D))
      note("an OpenMP region that calls the program's own code or CUDA", D->getBeginLoc());
    return Found.empty();
  }

private:
  const SourceManager &SM;
  bool mayEnqueueGpuWork(const Stmt *S) const {
    if (!S || isa<CUDAKernelCallExpr>(S))
      return S != nullptr;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F || (F->getIdentifier() && F->getName().starts_with("cuda")) ||
          inProgram(F->getLocation()))
        return true;
    }
    // An OpenMP region's body is a captured statement, not one of its children.
    if (const auto *Captured = dyn_cast<CapturedStmt>(S))
      return mayEnqueueGpuWork(Captured->getCapturedStmt());
    if (const auto *D = dyn_cast<OMPExecutableDirective>(S); D && D->hasAssociatedStmt())
      if (mayEnqueueGpuWork(D->getAssociatedStmt()))
        return true;
    for (const Stmt *Child : S->children())
      if (mayEnqueueGpuWork(Child))
        return true;
    return false;
  }
  bool inProgram(SourceLocation L) const {
    return L.isValid() && !SM.isInSystemHeader(SM.getExpansionLoc(L));
  }
  void note(const std::string &What, SourceLocation L) {
    Found = "the program starts host threads (" + What + " on line " +
            std::to_string(SM.getExpansionLineNumber(L)) + ")";
  }
};

} // namespace

std::vector<LaunchLoop> findLaunchLoops(const FunctionAccesses &FA, const std::string &WhyNone) {
  std::vector<LaunchLoop> Loops;
  const FunctionDecl &F = FA.function();
  const SourceManager &SM = F.getASTContext().getSourceManager();
  forEachLoop(F.getBody(), [&](const Stmt *Loop) {
    if (Loop->getBeginLoc().isMacroID())
      return; // a macro's own loop (do { ... } while (0))
    const Stmt *Body = bodyOf(Loop);
    std::vector<const Stmt *> Stmts;
    if (const auto *C = dyn_cast<CompoundStmt>(Body))
      llvm::append_range(Stmts, C->body());
    else
      Stmts.push_back(Body);
    LaunchLoop L;
    L.Loop = Loop;
    L.Line = SM.getExpansionLineNumber(Loop->getBeginLoc());
    unsigned OpsInBody = 0;
    for (const Stmt *S : Stmts) {
      if (isa<NullStmt>(S))
        continue;
      StmtAccesses A = FA.accessesOf(S, /*MayNotRun=*/true);
      OpsInBody += A.Ops.size();
      std::string Why = whyNotCapturable(S, A, FA, SM.getExpansionLineNumber(S->getBeginLoc()));
      if (L.WhyNot.empty() && !Why.empty())
        L.WhyNot = Why;
      if (Why.empty()) {
        L.Ops.push_back(A.Ops.front());
        L.First = L.First ? L.First : S;
        L.Last = S;
      }
    }
    // Loops with one op and something else are not launch loops at all.
    if (OpsInBody == 0 || (OpsInBody == 1 && !L.WhyNot.empty()))
      return;
    if (L.WhyNot.empty())
      L.WhyNot = WhyNone;
    Loops.push_back(std::move(L));
  });
  return Loops;
}

std::vector<const Stmt *> oneStreamLoops(const std::vector<LaunchLoop> &Loops) {
  std::vector<const Stmt *> Out;
  for (const LaunchLoop &L : Loops)
    if (L.WhyNot.empty())
      Out.push_back(L.Loop);
  return Out;
}

double graphSavingPerIteration(unsigned Ops, const CostModel &Costs) {
  double Direct = Ops * Costs.LaunchSec;
  double Graph = Costs.CaptureFixedSec + Ops * Costs.CapturePerOpSec + Costs.GraphUpdateFixedSec +
                 Ops * Costs.GraphUpdatePerOpSec + Costs.GraphLaunchSec;
  return Direct - Graph;
}

double graphSetUpCost(unsigned Ops, const CostModel &Costs) {
  return Costs.GraphFirstUseSec + Costs.InstantiateFixedSec + Ops * Costs.InstantiatePerOpSec;
}

void decideLaunchLoops(std::vector<LaunchLoop> &Loops, const FunctionAccesses &FA,
                       const CraResult &Cra, const StreamPlan &Plan, const CostModel &Costs) {
  assert(Cra.Ops.size() == FA.ops().size() && Plan.StreamOf.size() == FA.ops().size() &&
         "the final analysis and plan are for this function's ops");
  const SourceManager &SM = FA.function().getASTContext().getSourceManager();
  for (LaunchLoop &L : Loops) {
    if (!L.WhyNot.empty())
      continue;
    auto Decide = [&]() -> std::string {
      unsigned N = L.Ops.size();
      double Saving = graphSavingPerIteration(N, Costs);
      if (Saving < 0.5 * N * Costs.LaunchSec)
        return "not worth it: " + std::to_string(N) + " op" + (N == 1 ? "" : "s") +
               " per iteration; a graph would save " + formatSeconds(std::max(Saving, 0.0)) +
               " of the " + formatSeconds(N * Costs.LaunchSec) + " the launches cost the host";
      for (unsigned Op : L.Ops) {
        const OpDecision &D = Cra.Ops[Op];
        if (!D.Async)
          return "its op on line " + std::to_string(FA.ops()[Op].Line) +
                 " stays synchronous: " + D.WhySync;
        if (Plan.StreamOf[Op] != Plan.StreamOf[L.Ops.front()])
          return "its ops are on several streams";
      }
      std::pair<unsigned, unsigned> Body = offsetsOf(bodyOf(L.Loop), SM);
      for (const Wait &W : Cra.Waits)
        if (inside(offsetOf(W.Where, SM), Body))
          return "the host waits inside its body, on line " + std::to_string(W.Line);
      for (const EventWait &W : Plan.EventWaits)
        if (inside(offsetsOf(W.At, SM).first, Body))
          return "a stream waits for an event inside its body";
      L.Stream = *Plan.StreamOf[L.Ops.front()];
      L.DirectIterations = unsigned(std::ceil(graphSetUpCost(N, Costs) / Saving));
      return "";
    };
    L.WhyNot = Decide();
  }
}

void recordAfterGraphLoops(StreamPlan &Plan, const std::vector<LaunchLoop> &Loops) {
  for (EventRecord &R : Plan.Records)
    for (const LaunchLoop &L : Loops)
      if (L.WhyNot.empty() && llvm::is_contained(L.Ops, R.Op))
        R.Statement = L.Loop;
}

std::string whyNoLaunchGraphs(const std::string &HostThreads) {
  if (HostThreads.empty())
    return "";
  return HostThreads +
         ", and a capture would record the GPU work another thread puts on its stream";
}

std::string startsHostThreads(ASTContext &Ctx) {
  // Only the program's own declarations: what the finder looks for counts
  // only outside system headers, where the C++ and CUDA headers' many
  // declarations are.
  const SourceManager &SM = Ctx.getSourceManager();
  ThreadFinder Finder(SM);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())) && !Finder.TraverseDecl(D))
      break;
  return Finder.Found;
}

} // namespace streamalloc
