//===- DeviceSummary.cpp - Read/write summaries of device code -------------===//
//
// Inside device code a pointer is traced back to its roots: a parameter, a
// global device variable, memory private to the thread/block (local and
// __shared__ variables), or Unknown. Local pointer variables take the union
// of the roots of everything assigned to them (flow-insensitive).
//
//===----------------------------------------------------------------------===//
#include "streamalloc/Access/DeviceSummary.h"
#include "streamalloc/Access/MemoryObjects.h"

#include "AstUtil.h"
#include "streamalloc/Model/ApiModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace streamalloc {

namespace {

/// Where a device pointer may point.
struct Roots {
  llvm::SmallVector<unsigned, 2> Params;
  llvm::SmallVector<const VarDecl *, 2> Globals;
  bool Unknown = false;
  std::string Why;

  bool merge(const Roots &O) {
    bool Changed = false;
    for (unsigned P : O.Params)
      if (!llvm::is_contained(Params, P))
        Params.push_back(P), Changed = true;
    for (const VarDecl *G : O.Globals)
      if (!llvm::is_contained(Globals, G))
        Globals.push_back(G), Changed = true;
    if (O.Unknown && !Unknown) {
      Unknown = true;
      Why = O.Why;
      Changed = true;
    }
    return Changed;
  }
  static Roots unknown(std::string Why) {
    Roots R;
    R.Unknown = true;
    R.Why = std::move(Why);
    return R;
  }
};

class DeviceAnalysis {
public:
  DeviceAnalysis(const FunctionDecl &F, DeviceSummary &Out,
                 llvm::function_ref<const DeviceSummary &(const FunctionDecl *)> Callee)
      : F(F), Out(Out), SummaryOf(Callee) {
    Out.ParamModes.assign(F.getNumParams(), NoAccess);
  }

  void run() {
    collectPointerSources(F.getBody());
    solve();
    visit(F.getBody(), ReadAccess);
  }

private:
  const FunctionDecl &F;
  DeviceSummary &Out;
  llvm::function_ref<const DeviceSummary &(const FunctionDecl *)> SummaryOf;
  llvm::MapVector<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Sources;
  llvm::DenseMap<const VarDecl *, Roots> VarRoots;

  int paramIndex(const VarDecl *V) const {
    for (unsigned I = 0; I < F.getNumParams(); ++I)
      if (F.getParamDecl(I) == V)
        return I;
    return -1;
  }

  void collectPointerSources(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getType()->isPointerType() && V->getInit())
            Sources[V].push_back(V->getInit());
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->getOpcode() == BO_Assign)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
            if (V->getType()->isPointerType())
              Sources[V].push_back(BO->getRHS());
    for (const Stmt *Child : S->children())
      collectPointerSources(Child);
  }

  void solve() {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[V, Exprs] : Sources)
        for (const Expr *E : Exprs)
          Changed |= VarRoots[V].merge(rootsOf(E));
    }
  }

  /// Roots of a pointer-valued expression.
  Roots rootsOf(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return {};
      if (V->getType()->isArrayType())
        return rootsOfStorage(V);
      int PI = paramIndex(V);
      if (PI >= 0 && V->getType()->isPointerType()) {
        Roots R;
        R.Params.push_back(PI);
        return R;
      }
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V))
        return VarRoots.lookup(V);
      return Roots::unknown("pointer `" + V->getNameAsString() + "` is loaded from memory");
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf)
        return rootsOfLValue(UO->getSubExpr());
      if (UO->isIncrementDecrementOp())
        return rootsOf(UO->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp())
        return rootsOf(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
      if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
        return rootsOf(BO->getRHS());
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Roots R = rootsOf(CO->getTrueExpr());
      R.merge(rootsOf(CO->getFalseExpr()));
      return R;
    }
    if (isa<CXXNullPtrLiteralExpr, IntegerLiteral, GNUNullExpr, StringLiteral>(E))
      return {};
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      if (E->getType()->isArrayType())
        return rootsOf(AS->getBase());
    return Roots::unknown("a pointer the analysis cannot follow");
  }

  Roots rootsOfStorage(const VarDecl *V) {
    if (V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>())
      return {}; // private to the thread or block
    if (isa<ParmVarDecl>(V))
      return {};
    Roots R;
    R.Globals.push_back(V);
    return R;
  }

  /// Roots of the memory an lvalue designates.
  Roots rootsOfLValue(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return {};
      if (V->getType()->isReferenceType()) {
        int PI = paramIndex(V);
        if (PI >= 0) {
          Roots R;
          R.Params.push_back(PI);
          return R;
        }
        return Roots::unknown("reference `" + V->getNameAsString() + "`");
      }
      return rootsOfStorage(V);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_Deref)
        return rootsOf(UO->getSubExpr());
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return rootsOf(AS->getBase());
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->isArrow() ? rootsOf(ME->getBase()) : rootsOfLValue(ME->getBase());
    return Roots::unknown("an lvalue the analysis cannot follow");
  }

  void record(const Roots &R, uint8_t Mode) {
    for (unsigned P : R.Params)
      Out.ParamModes[P] |= Mode;
    for (const VarDecl *G : R.Globals)
      Out.Globals[G] |= Mode;
    if (R.Unknown) {
      if (!Out.UnknownMode)
        Out.UnknownWhy = R.Why;
      Out.UnknownMode |= Mode;
    }
  }

  /// Visits an expression evaluated for its value (Mode = how the memory the
  /// expression designates is accessed when it is an lvalue).
  void visit(const Stmt *S, uint8_t Mode) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S); E && E->isGLValue())
      if (isa<DeclRefExpr, ArraySubscriptExpr, MemberExpr>(E->IgnoreParens()) ||
          (isa<UnaryOperator>(E->IgnoreParens()) &&
           cast<UnaryOperator>(E->IgnoreParens())->getOpcode() == UO_Deref)) {
        accessLValue(E->IgnoreParens(), Mode);
        return;
      }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S)) {
      if (ICE->getCastKind() == CK_ArrayToPointerDecay) {
        visitAddress(ICE->getSubExpr());
        return;
      }
      visit(ICE->getSubExpr(), ReadAccess);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->getOpcode() == UO_AddrOf) {
        visitAddress(UO->getSubExpr());
        return;
      }
      if (UO->isIncrementDecrementOp()) {
        visit(UO->getSubExpr(), ReadWriteAccess);
        return;
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp()) {
        visit(BO->getLHS(), BO->getOpcode() == BO_Assign ? WriteAccess : ReadWriteAccess);
        visit(BO->getRHS(), ReadAccess);
        return;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      visitCall(Call);
      return;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(S))
      return; // sizeof/alignof: unevaluated
    if (isa<GCCAsmStmt, MSAsmStmt>(S)) {
      record(Roots::unknown("inline assembly"), ReadWriteAccess);
      return;
    }
    for (const Stmt *Child : S->children())
      visit(Child, ReadAccess);
  }

  /// An lvalue whose address is taken: only subexpressions are evaluated.
  void visitAddress(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      visitPointerValue(AS->getBase());
      visit(AS->getIdx(), ReadAccess);
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      ME->isArrow() ? visitPointerValue(ME->getBase()) : visitAddress(ME->getBase());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref) {
      visit(UO->getSubExpr(), ReadAccess);
    } else if (!isa<DeclRefExpr>(E)) {
      visit(E, ReadAccess);
    }
  }

  void visitPointerValue(const Expr *Base) {
    if (Base->IgnoreParenImpCasts()->getType()->isArrayType())
      visitAddress(Base->IgnoreParenImpCasts());
    else
      visit(Base, ReadAccess);
  }

  void accessLValue(const Expr *E, uint8_t Mode) {
    visitAddress(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return;
      if (V->getType()->isReferenceType())
        record(rootsOfLValue(E), Mode);
      else if (!V->hasLocalStorage())
        record(rootsOfStorage(V), Mode);
      return;
    }
    record(rootsOfLValue(E), Mode);
  }

  void visitCall(const CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      visit(Arg, ReadAccess);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee) {
      record(Roots::unknown("a call through a function pointer"), ReadWriteAccess);
      return;
    }
    const FunctionDecl *Def = nullptr;
    if (Callee->hasBody(Def) && Def->getBody()) {
      const DeviceSummary &S = SummaryOf(Def);
      for (unsigned I = 0; I < Call->getNumArgs() && I < S.ParamModes.size(); ++I)
        if (S.ParamModes[I])
          record(argRoots(Call->getArg(I), Def->getParamDecl(I)), S.ParamModes[I]);
      for (auto [G, Mode] : S.Globals)
        Out.Globals[G] |= Mode;
      if (S.UnknownMode)
        record(Roots::unknown(S.UnknownWhy), S.UnknownMode);
      Out.WritesOutput |= S.WritesOutput;
      return;
    }
    if (const ApiFunction *Api = modelledCallee(Call); Api && Api->WritesOutput) {
      Out.WritesOutput = true; // device printf: its text is flushed at the next sync
      return;
    }
    // Builtins, atomics, intrinsics: whatever they are given a pointer to may
    // be read and written.
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      const ParmVarDecl *Param = I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
      if (Arg->getType()->isPointerType() || (Param && Param->getType()->isReferenceType()))
        record(argRoots(Arg, Param), ReadWriteAccess);
    }
  }

  Roots argRoots(const Expr *Arg, const ParmVarDecl *Param) {
    if (Param && Param->getType()->isReferenceType())
      return rootsOfLValue(Arg);
    if (Arg->getType()->isPointerType() || Arg->getType()->isArrayType())
      return rootsOf(Arg);
    return {};
  }
};

} // namespace

struct DeviceSummaries::Impl {
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<DeviceSummary>> Cache;
  llvm::DenseSet<const FunctionDecl *> InProgress;
  DeviceSummary Recursive;
};

DeviceSummaries::DeviceSummaries() : P(std::make_unique<Impl>()) {
  P->Recursive.UnknownMode = ReadWriteAccess;
  P->Recursive.UnknownWhy = "a recursive device function";
}
DeviceSummaries::~DeviceSummaries() = default;

const DeviceSummary &DeviceSummaries::get(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  if (auto It = P->Cache.find(F); It != P->Cache.end())
    return *It->second;
  if (P->InProgress.count(F))
    return P->Recursive;
  auto Summary = std::make_unique<DeviceSummary>();
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def->getBody()) {
    Summary->ParamModes.assign(F->getNumParams(), ReadWriteAccess);
    Summary->UnknownMode = ReadWriteAccess;
    Summary->UnknownWhy = "`" + F->getNameAsString() + "` has no body in this file";
  } else {
    P->InProgress.insert(F);
    DeviceAnalysis(*Def, *Summary, [this](const FunctionDecl *C) -> const DeviceSummary & {
      return get(C);
    }).run();
    P->InProgress.erase(F);
  }
  return *(P->Cache[F] = std::move(Summary));
}

} // namespace streamalloc
