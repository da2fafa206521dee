//===- PageLockedParams.cpp - Helpers whose callers pass page-locked memory ===//
#include "streamalloc/Driver/PageLockedParams.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Model/ApiModel.h"
#include "streamalloc/Transform/HostPinning.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <tuple>

using namespace clang;

namespace streamalloc {

namespace {

/// Where \p F's body (lambdas left out) passes its own pointer parameters,
/// possibly offset: to a GPU copy (Copied), or on to a function of the unit
/// (PassedOn: callee, argument index, parameter index).
struct ParamUses {
  std::vector<unsigned> Copied;
  std::vector<std::tuple<const FunctionDecl *, unsigned, unsigned>> PassedOn;
};

ParamUses pointerParamUses(const FunctionDecl &F) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl &F;
    ParamUses Uses;
    explicit Finder(const FunctionDecl &F) : F(F) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    std::optional<unsigned> paramOf(const Expr *Arg) const {
      const Expr *E = Arg->IgnoreParenCasts();
      if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp())
        E = BO->getLHS()->IgnoreParenCasts();
      const auto *Ref = dyn_cast<DeclRefExpr>(E);
      const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
      if (!P || !P->getType()->isPointerType() || P->getDeclContext() != &F)
        return std::nullopt;
      return P->getFunctionScopeIndex();
    }
    bool VisitCallExpr(CallExpr *Call) {
      const ApiFunction *Api = modelledCallee(Call);
      const FunctionDecl *Callee = Call->getDirectCallee();
      bool Copies = Api && Api->Kind == ApiKind::GpuCopy;
      if (!Copies && (Api || !Callee || isa<CXXOperatorCallExpr>(Call)))
        return true;
      for (unsigned I = 0; I < Call->getNumArgs(); ++I)
        if (std::optional<unsigned> Param = paramOf(Call->getArg(I))) {
          if (!Copies)
            Uses.PassedOn.emplace_back(Callee->getCanonicalDecl(), I, *Param);
          else if (!llvm::is_contained(Uses.Copied, *Param))
            Uses.Copied.push_back(*Param);
        }
      return true;
    }
  } Find(F);
  Find.TraverseStmt(F.getBody());
  return Find.Uses;
}

} // namespace

PageLockedParams::PageLockedParams(ASTContext &Ctx, llvm::ArrayRef<const FunctionDecl *> Analysed,
                                   bool WholeProgram)
    : Ctx(Ctx) {
  llvm::DenseSet<const FunctionDecl *> InView;
  for (const FunctionDecl *F : Analysed)
    InView.insert(F->getCanonicalDecl());
  // The helpers whose every call is in view, with their parameters' uses.
  llvm::DenseMap<const FunctionDecl *, ParamUses> Eligible;
  for (const FunctionDecl *F : Analysed) {
    if (F->isMain() || isa<CXXMethodDecl>(F) || F->isOverloadedOperator() ||
        F->isTemplateInstantiation() || F->getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
        (F->isExternallyVisible() && !WholeProgram) || escapingUseOf(*F, Ctx).isValid())
      continue;
    const std::vector<const CallExpr *> &Calls = directCallsOf(*F, Ctx);
    if (Calls.empty() || llvm::any_of(Calls, [&](const CallExpr *Call) {
          const FunctionDecl *In = enclosingFunction(Call, Ctx);
          return !In || !InView.count(In->getCanonicalDecl());
        }))
      continue;
    Eligible[F->getCanonicalDecl()] = pointerParamUses(*F);
  }
  // A parameter counts where a copy of the helper takes it, or where it is
  // passed on to such a parameter of another candidate (to a fixpoint).
  for (auto &[F, Uses] : Eligible)
    if (!Uses.Copied.empty())
      Candidates[F] = Uses.Copied;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &[F, Uses] : Eligible)
      for (auto [Callee, Arg, Param] : Uses.PassedOn)
        if (auto It = Candidates.find(Callee); It != Candidates.end() &&
                                               llvm::is_contained(It->second, Arg) &&
                                               !llvm::is_contained(Candidates[F], Param)) {
          Candidates[F].push_back(Param);
          Changed = true;
        }
  }
  for (auto &[F, Params] : Candidates)
    llvm::sort(Params);
}

std::vector<const CallExpr *> PageLockedParams::candidateCallsIn(const FunctionDecl &F) const {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const CallExpr *> Found;
    const ParamsOf &Candidates;
    explicit Finder(const ParamsOf &C) : Candidates(C) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee && Candidates.count(Callee->getCanonicalDecl()))
        Found.push_back(Call);
      return true;
    }
  } Find(Candidates);
  Find.TraverseStmt(F.getBody());
  return std::move(Find.Found);
}

bool PageLockedParams::callsCandidate(const FunctionDecl &F) const {
  return !candidateCallsIn(F).empty();
}

void PageLockedParams::recordCalls(const FunctionAccesses &FA,
                                   const std::vector<PinDecision> &Pins) {
  llvm::DenseSet<ObjectId> PageLocked = pageLockedObjects(FA, Pins);
  const FunctionDecl &Caller = FA.function();
  auto PassedBy = [&](const Expr *Arg) {
    Passed P{Caller.getCanonicalDecl(), true, {}};
    std::optional<std::vector<ObjectId>> Objects = FA.pointeesOf(Arg);
    if (!Objects) {
      P.PageLocked = false;
      return P;
    }
    for (ObjectId Obj : *Objects) {
      if (PageLocked.count(Obj))
        continue;
      if (std::optional<unsigned> Param = FA.pointedToByParam(Obj))
        P.IfCallerParams.push_back(*Param);
      else
        P.PageLocked = false;
    }
    return P;
  };
  for (const CallExpr *Call : candidateCallsIn(Caller)) {
    std::vector<Passed> &Args = Calls[Call];
    Args.clear();
    for (unsigned Param : Candidates.find(Call->getDirectCallee()->getCanonicalDecl())->second)
      Args.push_back(Param < Call->getNumArgs() ? PassedBy(Call->getArg(Param))
                                                : Passed{Caller.getCanonicalDecl(), false, {}});
  }
}

ParamsOf PageLockedParams::decide() const {
  ParamsOf Locked;
  for (auto &[F, Params] : Candidates)
    if (llvm::all_of(directCallsOf(*F, Ctx),
                     [&](const CallExpr *Call) { return Calls.count(Call) != 0; }))
      Locked[F] = Params;
  // The largest set each of whose parameters every call passes page-locked
  // memory, given the set: a parameter passed on from a caller's parameter
  // stays only while that one does.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &[F, Params] : Locked) {
      const std::vector<unsigned> &All = Candidates.find(F)->second;
      llvm::erase_if(Params, [&](unsigned Param) {
        size_t Slot = llvm::find(All, Param) - All.begin();
        bool Keep = llvm::all_of(directCallsOf(*F, Ctx), [&](const CallExpr *Call) {
          const Passed &P = Calls.find(Call)->second[Slot];
          auto CallerLocked = Locked.find(P.Caller);
          return P.PageLocked && llvm::all_of(P.IfCallerParams, [&](unsigned K) {
                   return CallerLocked != Locked.end() &&
                          llvm::is_contained(CallerLocked->second, K);
                 });
        });
        Changed |= !Keep;
        return !Keep;
      });
    }
  }
  for (auto It = Locked.begin(); It != Locked.end();)
    if (It->second.empty())
      Locked.erase(It++);
    else
      ++It;
  return Locked;
}

} // namespace streamalloc
