//===- PointsTo.cpp -------------------------------------------------------===//
#include "PointsTo.h"

#include "AstUtil.h"
#include "streamalloc/Model/ApiModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace streamalloc {

bool Pointees::merge(const Pointees &Other) {
  bool Changed = false;
  for (ObjectId O : Other.Objects)
    if (!llvm::is_contained(Objects, O))
      Objects.push_back(O), Changed = true;
  if (Other.Unknown && !Unknown) {
    Unknown = true;
    Why = Other.Why;
    Changed = true;
  }
  if (Other.Temporary && !Temporary)
    Temporary = Changed = true;
  return Changed;
}

Pointees Pointees::unknown(std::string Why) {
  Pointees P;
  P.Unknown = true;
  P.Why = std::move(Why);
  return P;
}

void Pointees::addTo(AccessSet &Set, uint8_t Mode, std::string &UnknownWhy) const {
  for (ObjectId O : Objects)
    Set.add(O, Mode);
  if (Unknown && Mode) {
    if (!Set.touchesUnknown() && UnknownWhy.empty())
      UnknownWhy = Why;
    Set.add(UnknownObject, Mode);
  }
}

namespace {
/// `v`, `v.f`, `v.f.g` -> the DeclRefExpr of `v`.
const DeclRefExpr *plainRoot(const Expr *E) {
  E = E->IgnoreParens();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return nullptr;
    E = ME->getBase()->IgnoreParens();
  }
  return dyn_cast<DeclRefExpr>(E);
}

const VarDecl *varOf(const DeclRefExpr *DRE) {
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// A global of the system headers (stdout, stderr): libc's state, which GPU
/// ops can reach only if the program takes its address.
bool isSystemGlobal(const VarDecl *V) {
  const SourceManager &SM = V->getASTContext().getSourceManager();
  return V->hasGlobalStorage() && SM.isInSystemHeader(SM.getExpansionLoc(V->getLocation()));
}

bool isPlainLocal(const VarDecl *V) {
  return V->hasLocalStorage() && !V->getType()->isArrayType() && !V->getType()->isReferenceType();
}
} // namespace

PointsTo::PointsTo(const FunctionDecl &F, ASTContext &Ctx, ObjectTable &Objects)
    : Ctx(Ctx), Objects(Objects) {
  classifyUses(F.getBody());
  collectSources(F.getBody());
  collectPointerArrays(F.getBody());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[V, Exprs] : Sources)
      for (const Expr *E : Exprs) {
        const Expr *Stripped = E->IgnoreParenCasts();
        Pointees P;
        if (const auto *Call = dyn_cast<CallExpr>(Stripped)) {
          const ApiFunction *Api = modelledCallee(Call);
          if (Api && Api->ReturnsAllocation)
            P.Objects.push_back(siteFor(Stripped, V, ObjectKind::HostAllocation));
          else
            P = pointees(E);
        } else if (isa<CXXNewExpr>(Stripped)) {
          P.Objects.push_back(siteFor(Stripped, V, ObjectKind::HostAllocation));
        } else {
          P = pointees(E);
        }
        Changed |= VarPointees[V].merge(P);
      }
  }
}

void PointsTo::classifyUses(const Stmt *Body) {
  llvm::DenseSet<const DeclRefExpr *> Plain;
  llvm::SmallVector<const DeclRefExpr *, 64> All;
  llvm::DenseSet<const VarDecl *> Escaping;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<UnaryExprOrTypeTraitExpr>(S))
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      All.push_back(DRE);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
        ICE && ICE->getCastKind() == CK_LValueToRValue)
      if (const DeclRefExpr *R = plainRoot(ICE->getSubExpr()))
        Plain.insert(R);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      if (const DeclRefExpr *R = plainRoot(BO->getLHS()))
        Plain.insert(R);
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
      if (const DeclRefExpr *R = plainRoot(UO->getSubExpr()))
        Plain.insert(R);
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const ApiFunction *Api = modelledCallee(Call))
        for (unsigned I = 0; I < Call->getNumArgs(); ++I)
          if (Api->roleOf(I) == ArgRole::OutAlloc)
            if (const auto *UO = dyn_cast<UnaryOperator>(Call->getArg(I)->IgnoreParenCasts());
                UO && UO->getOpcode() == UO_AddrOf)
              if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens())) {
                Plain.insert(DRE);
                if (const VarDecl *V = varOf(DRE))
                  OutAllocs[V] = Call;
              }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &C : Lambda->captures())
        if (C.capturesVariable())
          if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
            Escaping.insert(V);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Body);
  for (const DeclRefExpr *DRE : All)
    if (const VarDecl *V = varOf(DRE); V && !Plain.count(DRE))
      Escaping.insert(V);
  for (const DeclRefExpr *DRE : All)
    if (const VarDecl *V = varOf(DRE);
        V && (isPlainLocal(V) || isSystemGlobal(V)) && !Escaping.count(V))
      PlainOnly.insert(V);
}

void PointsTo::collectPointerArrays(const Stmt *Body) {
  llvm::DenseSet<const VarDecl *> Escaped;
  llvm::MapVector<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Stores;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const CallExpr *, 2>> Allocs;
  auto Candidate = [](const VarDecl *V) {
    const auto *AT = V ? dyn_cast<ConstantArrayType>(V->getType().getTypePtr()) : nullptr;
    return AT && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
           AT->getElementType()->isPointerType();
  };
  // Each use of a candidate must be `a[i]` read, `a[i] = e`, or `&a[i]` as
  // the out-parameter of a modelled allocation.
  std::function<void(const Stmt *, const Stmt *, const Stmt *)> Walk = [&](const Stmt *S,
                                                                           const Stmt *Parent,
                                                                           const Stmt *Grand) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!Candidate(V))
        return;
      const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(Parent);
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(Grand);
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay || !AS ||
          AS->getBase() != Decay) {
        Escaped.insert(V);
      }
      return;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); Candidate(V)) {
          const auto *Use = Parent;
          bool Ok = false;
          if (const auto *ICE = dyn_cast_or_null<ImplicitCastExpr>(Use))
            Ok = ICE->getCastKind() == CK_LValueToRValue;
          else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Use);
                   BO && BO->getOpcode() == BO_Assign && BO->getLHS() == AS) {
            Stores[V].push_back(BO->getRHS());
            Ok = true;
          } else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Use);
                     UO && UO->getOpcode() == UO_AddrOf) {
            Ok = false; // decided by the call below
          }
          if (!Ok && !isa_and_nonnull<UnaryOperator>(Use))
            Escaped.insert(V);
        }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const ApiFunction *Api = modelledCallee(Call); Api && Api->Kind == ApiKind::Allocate)
        for (unsigned I = 0; I < Call->getNumArgs(); ++I)
          if (Api->roleOf(I) == ArgRole::OutAlloc)
            if (const auto *UO = dyn_cast<UnaryOperator>(Call->getArg(I)->IgnoreParenCasts());
                UO && UO->getOpcode() == UO_AddrOf)
              if (const auto *AS = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
                if (const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreImpCasts()))
                  if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); Candidate(V))
                    Allocs[V].push_back(Call);
    // Any other `&a[i]` lets the element be written from elsewhere.
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
        if (const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreImpCasts()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); Candidate(V)) {
            bool AllocArg = false;
            for (const auto &[Arr, Calls] : Allocs)
              for (const CallExpr *C : Calls)
                for (const Expr *Arg : C->arguments())
                  AllocArg |= Arg->IgnoreParenCasts() == UO;
            const auto *Call = dyn_cast_or_null<CallExpr>(Grand);
            if (!AllocArg && Call)
              if (const ApiFunction *Api = modelledCallee(Call);
                  Api && Api->Kind == ApiKind::Allocate)
                AllocArg = true; // the call is visited after its arguments
            if (!AllocArg)
              Escaped.insert(V);
          }
    for (const Stmt *Child : S->children())
      Walk(Child, S, Parent);
  };
  Walk(Body, nullptr, nullptr);
  for (auto &[V, Calls] : Allocs)
    if (!Escaped.count(V))
      PointerArrays[V] = Calls;
  for (auto &[V, Exprs] : Stores)
    if (!Escaped.count(V)) {
      PointerArrays[V];
      llvm::append_range(Sources[V], Exprs);
    }
}

void PointsTo::collectSources(const Stmt *S) {
  if (!S)
    return;
  auto IsCandidate = [&](const VarDecl *V) {
    return V && V->getType()->isPointerType() && V->hasLocalStorage() && !isa<ParmVarDecl>(V);
  };
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); IsCandidate(V))
        if (V->getInit())
          Sources[V].push_back(V->getInit());
        else
          Sources[V]; // declared without a value: points nowhere until assigned
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
      if (const VarDecl *V = varOf(DRE); IsCandidate(V))
        Sources[V].push_back(BO->getRHS());
  for (const Stmt *Child : S->children())
    collectSources(Child);
}

ObjectId PointsTo::siteFor(const Expr *Allocation, const VarDecl *Named, ObjectKind Kind) {
  auto It = Sites.find(Allocation);
  if (It != Sites.end())
    return It->second;
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Line = SM.getSpellingLineNumber(SM.getFileLoc(Allocation->getBeginLoc()));
  std::string Name = Named ? Named->getNameAsString() : "allocation@" + std::to_string(Line);
  return Sites[Allocation] = Objects.add(Kind, Name, Line, nullptr, Allocation);
}

bool PointsTo::isTracked(const VarDecl *V) const { return !PlainOnly.count(V); }

bool PointsTo::isImmutable(const VarDecl *V) const {
  if (V->getType()->isReferenceType() || V->hasAttr<CUDADeviceAttr>() ||
      V->hasAttr<CUDAConstantAttr>() || V->hasAttr<HIPManagedAttr>())
    return false;
  QualType Element = Ctx.getBaseElementType(V->getType());
  if (!Element.isConstQualified())
    return false;
  const CXXRecordDecl *RD = Element->getAsCXXRecordDecl();
  return !RD || (RD->hasDefinition() && !RD->hasMutableFields());
}

ObjectId PointsTo::storageOf(const VarDecl *V) {
  auto It = Storage.find(V);
  if (It != Storage.end())
    return It->second;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Symbol = V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>() ||
                V->hasAttr<HIPManagedAttr>();
  unsigned Line = SM.getSpellingLineNumber(SM.getFileLoc(V->getLocation()));
  return Storage[V] = Objects.add(Symbol ? ObjectKind::DeviceSymbol : ObjectKind::Variable,
                                  V->getNameAsString(), Line, V);
}

Pointees PointsTo::pointeesOfVar(const VarDecl *V) {
  std::string Name = "`" + V->getNameAsString() + "`";
  if (isa<ParmVarDecl>(V))
    return Pointees::unknown(Name + " is a parameter (callers are not analysed yet)");
  if (!V->hasLocalStorage())
    return Pointees::unknown(Name + " is a global or static variable");
  if (V->getType()->isReferenceType())
    return Pointees::unknown(Name + " is a reference");
  Pointees Result;
  if (auto It = OutAllocs.find(V); It != OutAllocs.end()) {
    const ApiFunction *Api = modelledCallee(It->second);
    ObjectKind Kind = Api->Allocates == MemorySpace::Device       ? ObjectKind::DeviceAllocation
                      : Api->Allocates == MemorySpace::HostPinned ? ObjectKind::PinnedAllocation
                                                                  : ObjectKind::HostAllocation;
    Result.Objects.push_back(siteFor(It->second, V, Kind));
  }
  if (isTracked(V))
    Result.merge(Pointees::unknown("the address of " + Name + " is taken"));
  else if (auto It = VarPointees.find(V); It != VarPointees.end())
    Result.merge(It->second);
  return Result;
}

Pointees PointsTo::pointees(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getCastKind() == CK_IntegralToPointer && !isNullConstant(Cast->getSubExpr(), Ctx))
      return Pointees::unknown("an integer converted to a pointer");
    return pointees(Cast->getSubExpr());
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return {};
    if (V->getType()->isArrayType())
      return addressOf(DRE);
    if (V->getType()->isPointerType())
      return pointeesOfVar(V);
    if (V->getType()->isReferenceType() && V->getType()->getPointeeType()->isArrayType())
      return addressOf(DRE);
    return Pointees::unknown("`" + V->getNameAsString() +
                             "` is not a pointer the analysis follows");
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return addressOf(UO->getSubExpr());
    if (UO->isIncrementDecrementOp())
      return pointees(UO->getSubExpr());
    return Pointees::unknown("a pointer loaded from memory");
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp())
      return pointees(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return pointees(BO->getRHS());
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    Pointees P = pointees(CO->getTrueExpr());
    P.merge(pointees(CO->getFalseExpr()));
    return P;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const ApiFunction *Api = modelledCallee(Call);
    if (Api && Api->ReturnsAllocation) {
      Pointees P;
      P.Objects.push_back(siteFor(E, nullptr, ObjectKind::HostAllocation));
      return P;
    }
    if (Api && Api->Kind == ApiKind::Pure)
      return {}; // e.g. cudaGetErrorString: a string the program cannot change
    return Pointees::unknown("a pointer returned by `" + calleeName(Call) + "`");
  }
  if (isa<CXXNewExpr>(E)) {
    Pointees P;
    P.Objects.push_back(siteFor(E, nullptr, ObjectKind::HostAllocation));
    return P;
  }
  if (isa<CXXNullPtrLiteralExpr, IntegerLiteral, GNUNullExpr, StringLiteral>(E))
    return {};
  if (E->getType()->isArrayType())
    return addressOf(E);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    if (const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (auto It = PointerArrays.find(V); It != PointerArrays.end()) {
          Pointees P;
          for (const CallExpr *Alloc : It->second) {
            const ApiFunction *Api = modelledCallee(Alloc);
            P.Objects.push_back(
                siteFor(Alloc, V,
                        Api->Allocates == MemorySpace::Device       ? ObjectKind::DeviceAllocation
                        : Api->Allocates == MemorySpace::HostPinned ? ObjectKind::PinnedAllocation
                                                                    : ObjectKind::HostAllocation));
          }
          if (auto VP = VarPointees.find(V); VP != VarPointees.end())
            P.merge(VP->second);
          return P;
        }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return Pointees::unknown("a pointer stored in field `" +
                             ME->getMemberDecl()->getNameAsString() + "`");
  return Pointees::unknown("a pointer expression the analysis cannot follow");
}

Pointees PointsTo::addressOf(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return {};
    if (V->getType()->isReferenceType()) {
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit())
        return addressOf(V->getInit());
      return Pointees::unknown("`" + V->getNameAsString() + "` is a reference");
    }
    Pointees P;
    if (isTracked(V) && !isImmutable(V))
      P.Objects.push_back(storageOf(V));
    return P;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return pointees(AS->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    return pointees(UO->getSubExpr());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? pointees(ME->getBase()) : addressOf(ME->getBase());
  if (isa<StringLiteral>(E))
    return {}; // static storage the program cannot write
  if (isa<MaterializeTemporaryExpr, CompoundLiteralExpr, CXXTemporaryObjectExpr>(E)) {
    Pointees P;
    P.Temporary = true;
    return P;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return addressOf(Cast->getSubExpr());
  return Pointees::unknown("an lvalue the analysis cannot follow");
}

} // namespace streamalloc
