//===- FunctionSummary.cpp - Read/write summaries of functions --------------===//
//
// Inside a function a pointer is traced back to its roots: a parameter, a
// global (or static) variable, memory private to the call (local variables,
// __shared__ memory, allocations the function makes itself), or Unknown.
// Local pointer variables take the union of the roots of everything assigned
// to them (flow-insensitive). Calls to host API functions use the API model;
// calls to functions without a body and without a model touch Unknown in host
// code, and what their pointer arguments point to in device code (builtins,
// atomics).
//
//===----------------------------------------------------------------------===//
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Access/MemoryObjects.h"

#include "AstUtil.h"
#include "streamalloc/Model/ApiModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
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

class SummaryAnalysis {
public:
  SummaryAnalysis(const FunctionDecl &F, FunctionSummary &Out,
                  llvm::function_ref<const FunctionSummary &(const FunctionDecl *)> Callee)
      : F(F), Out(Out), SummaryOf(Callee) {
    Out.ParamModes.assign(F.getNumParams(), NoAccess);
  }

  void run() {
    collectPointerSources(F.getBody());
    solve();
    visit(F.getBody(), ReadAccess);
  }

  bool isHost() const {
    return !F.hasAttr<CUDAGlobalAttr>() &&
           !(F.hasAttr<CUDADeviceAttr>() && !F.hasAttr<CUDAHostAttr>());
  }

private:
  const FunctionDecl &F;
  FunctionSummary &Out;
  llvm::function_ref<const FunctionSummary &(const FunctionDecl *)> SummaryOf;
  llvm::MapVector<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Sources;
  llvm::DenseMap<const VarDecl *, Roots> VarRoots;
  unsigned Conditional = 0; ///< inside code that may not run (a branch, a loop body)

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
    if (isa<CXXNullPtrLiteralExpr, IntegerLiteral, GNUNullExpr, StringLiteral, CXXNewExpr>(E))
      return {};
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const ApiFunction *Api = modelledCallee(Call);
          Api && (Api->ReturnsAllocation || Api->Kind == ApiKind::Pure))
        return {}; // a fresh allocation, private to this call (until it escapes)
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      if (E->getType()->isArrayType())
        return rootsOf(AS->getBase());
    return Roots::unknown("a pointer the analysis cannot follow");
  }

  Roots rootsOfStorage(const VarDecl *V) {
    if (V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>())
      return {}; // private to the thread or block
    const SourceManager &SM = V->getASTContext().getSourceManager();
    if (isHost() && SM.isInSystemHeader(SM.getExpansionLoc(V->getLocation())))
      return {}; // stdout, stderr: libc's state, not program data
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
    if (isa<MaterializeTemporaryExpr, CompoundLiteralExpr>(E))
      return {}; // a temporary: private to the thread
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return rootsOfLValue(Cast->getSubExpr());
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
    if (isa<LambdaExpr>(S))
      return; // its body runs when called
    if (isHost() && isa<CXXThrowExpr>(S)) {
      record(Roots::unknown("a throw expression"), ReadWriteAccess);
      return;
    }
    if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
      visit(Delete->getArgument(), ReadAccess);
      record(rootsOf(Delete->getArgument()), WriteAccess);
      return;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S); Construct && isHost()) {
      const CXXRecordDecl *RD = Construct->getType()->getAsCXXRecordDecl();
      const ApiFunction *Api = RD && RD->getIdentifier() ? lookupApi(RD->getName()) : nullptr;
      if (!Construct->getConstructor()->isTrivial() && !(Api && Api->Kind == ApiKind::Pure))
        record(Roots::unknown("constructor of `" + Construct->getType().getAsString() + "`"),
               ReadWriteAccess);
    }
    if (isa<CXXBindTemporaryExpr>(S) && isHost())
      record(Roots::unknown("destructor of a temporary"), ReadWriteAccess);
    if (isa<GCCAsmStmt, MSAsmStmt>(S)) {
      record(Roots::unknown("inline assembly"), ReadWriteAccess);
      return;
    }
    for (const Stmt *Child : S->children()) {
      bool Skippable = mayBeSkipped(S, Child);
      Conditional += Skippable;
      visit(Child, ReadAccess);
      Conditional -= Skippable;
    }
  }

  /// An lvalue whose address is taken: only subexpressions are evaluated.
  void visitAddress(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      visitPointerValue(AS->getBase());
      visit(AS->getIdx(), ReadAccess);
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      ME->isArrow() ? visitPointerValue(ME->getBase()) : visitAddress(ME->getBase());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref) {
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
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
      Out.PerformsGpuOps = true;
      if (const CallExpr *Config = Launch->getConfig())
        for (const Expr *Arg : Config->arguments())
          visit(Arg, ReadAccess);
    }
    if (isTrivialAssignment(Call)) {
      visit(Call->getArg(1), ReadAccess);
      visit(Call->getArg(0), WriteAccess);
      return;
    }
    for (const Expr *Arg : Call->arguments())
      visit(Arg, ReadAccess);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      visit(Member->getImplicitObjectArgument(), ReadAccess);
      record(Roots::unknown("call to member function `" + calleeName(Call) + "`"), ReadWriteAccess);
      return;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (const ApiFunction *Api = modelledCallee(Call); Api && isHost()) {
      visitApiCall(Call, *Api);
      return;
    }
    if (!Callee) {
      record(Roots::unknown("a call through a function pointer"), ReadWriteAccess);
      return;
    }
    const FunctionDecl *Def = nullptr;
    if (Callee->hasBody(Def) && Def->getBody()) {
      const FunctionSummary &S = SummaryOf(Def);
      for (unsigned I = 0; I < Call->getNumArgs() && I < S.ParamModes.size(); ++I)
        if (S.ParamModes[I])
          record(argRoots(Call->getArg(I), Def->getParamDecl(I)), S.ParamModes[I]);
      for (auto [G, Mode] : S.Globals)
        Out.Globals[G] |= Mode;
      if (S.UnknownMode)
        record(Roots::unknown(S.UnknownWhy), S.UnknownMode);
      Out.WritesOutput |= S.WritesOutput;
      Out.PerformsGpuOps |= S.PerformsGpuOps;
      Out.ResetsDevice |= S.ResetsDevice;
      return;
    }
    if (const ApiFunction *Api = modelledCallee(Call); Api && Api->WritesOutput) {
      Out.WritesOutput = true; // device printf: its text is flushed at the next sync
      return;
    }
    if (isHost()) {
      record(Roots::unknown("call to `" + calleeName(Call) + "`, which has no model"),
             ReadWriteAccess);
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

  /// A host call to a function of the API table: its roles say what it
  /// reads and writes through each argument.
  void visitApiCall(const CallExpr *Call, const ApiFunction &Api) {
    Out.PerformsGpuOps |= Api.isGpuOp();
    Out.WritesOutput |= Api.WritesOutput;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      bool Pointer = Arg->getType()->isPointerType() || Arg->getType()->isArrayType();
      switch (Api.roleOf(I)) {
      case ArgRole::Read:
        if (Pointer)
          record(rootsOf(Arg), ReadAccess);
        break;
      case ArgRole::Write:
      case ArgRole::OutAlloc:
        if (Pointer)
          record(rootsOf(Arg), WriteAccess);
        break;
      case ArgRole::ReadWrite:
      case ArgRole::Free:
        if (Pointer)
          record(rootsOf(Arg), ReadWriteAccess);
        break;
      case ArgRole::SymbolRead:
      case ArgRole::SymbolWrite: {
        const Expr *Sym = Arg->IgnoreParenCasts();
        record(Sym->isGLValue() ? rootsOfLValue(Sym) : rootsOf(Arg),
               Api.roleOf(I) == ArgRole::SymbolRead ? ReadAccess : WriteAccess);
        break;
      }
      case ArgRole::Unknown:
        record(Roots::unknown("argument " + std::to_string(I + 1) + " of `" + Api.Name.str() + "`"),
               ReadWriteAccess);
        break;
      default:
        break;
      }
    }
    switch (Api.Kind) {
    case ApiKind::ProgramExit:
      if (Conditional == 0)
        record(Roots::unknown("`" + Api.Name.str() + "` ends the program"), ReadWriteAccess);
      else
        Out.WritesOutput = true; // an error path: it flushes the output
      break;
    case ApiKind::DeviceReset:
      Out.ResetsDevice = true;
      record(Roots::unknown("`" + Api.Name.str() + "`"), ReadWriteAccess);
      break;
    case ApiKind::UserStreams:
    case ApiKind::DeviceSelect:
      record(Roots::unknown("`" + Api.Name.str() + "`"), ReadWriteAccess);
      break;
    default:
      break;
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

struct FunctionSummaries::Impl {
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionSummary>> Cache;
  llvm::DenseSet<const FunctionDecl *> InProgress;
  FunctionSummary Recursive;
};

FunctionSummaries::FunctionSummaries() : P(std::make_unique<Impl>()) {
  P->Recursive.UnknownMode = ReadWriteAccess;
  P->Recursive.UnknownWhy = "a recursive device function";
}
FunctionSummaries::~FunctionSummaries() = default;

const FunctionSummary &FunctionSummaries::get(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  if (auto It = P->Cache.find(F); It != P->Cache.end())
    return *It->second;
  if (P->InProgress.count(F))
    return P->Recursive;
  auto Summary = std::make_unique<FunctionSummary>();
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def->getBody()) {
    Summary->ParamModes.assign(F->getNumParams(), ReadWriteAccess);
    Summary->UnknownMode = ReadWriteAccess;
    Summary->UnknownWhy = "`" + F->getNameAsString() + "` has no body in this file";
  } else {
    P->InProgress.insert(F);
    SummaryAnalysis(*Def, *Summary, [this](const FunctionDecl *C) -> const FunctionSummary & {
      return get(C);
    }).run();
    P->InProgress.erase(F);
  }
  return *(P->Cache[F] = std::move(Summary));
}

} // namespace streamalloc
