//===- PointsTo.cpp -------------------------------------------------------===//
#include "PointsTo.h"

#include "AstUtil.h"
#include "streamalloc/Access/ImportedSummaries.h"
#include "streamalloc/Model/ApiModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace streamalloc {

namespace {
/// Symbolic paths longer than this become Unknown (keeps recursion finite).
constexpr unsigned MaxPathLoads = 3;
/// Rounds of re-evaluating every constraint; real functions need a handful.
constexpr unsigned MaxRounds = 64;
} // namespace

bool Pointees::merge(const Pointees &Other) {
  bool Changed = false;
  if (Objects.size() * Other.Objects.size() > 256) {
    // Large sets: look members up in a hash set, not by scanning (same order).
    llvm::DenseSet<ObjectId> Have(Objects.begin(), Objects.end());
    for (ObjectId O : Other.Objects)
      if (Have.insert(O).second)
        Objects.push_back(O), Changed = true;
  } else {
    for (ObjectId O : Other.Objects)
      if (!llvm::is_contained(Objects, O))
        Objects.push_back(O), Changed = true;
  }
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

Pointees Pointees::of(ObjectId Object) {
  Pointees P;
  P.Objects.push_back(Object);
  return P;
}

void LValue::merge(const LValue &Other) {
  Objects.merge(Other.Objects);
  for (const VarDecl *V : Other.Vars)
    if (!llvm::is_contained(Vars, V))
      Vars.push_back(V);
  if (Key != Other.Key)
    Key = nullptr; // two different fields: any of them
  if (!Value)
    Value = Other.Value;
}

LValue LValue::of(Pointees P, FieldKey Key) {
  LValue L;
  L.Objects = std::move(P);
  L.Key = Key;
  return L;
}

CalleeSummaries::~CalleeSummaries() = default;

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

namespace {

const Expr *strip(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *FE = dyn_cast<FullExpr>(E))
      E = FE->getSubExpr();
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BT->getSubExpr();
    else if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
      E = DA->getExpr();
    else if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
      E = DI->getExpr();
    else if (const auto *OV = dyn_cast<OpaqueValueExpr>(E); OV && OV->getSourceExpr())
      E = OV->getSourceExpr();
    else
      return E;
  }
}

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

/// Whether the class of \p M is a modelled container (its members without a
/// row touch its internals, which the model names differently).
bool isContainerMember(const CXXMethodDecl *M) { return modelledClass(M->getParent()); }

} // namespace

const CXXRecordDecl *containerClass(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  const ApiFunction *Row = modelledClass(RD);
  return Row && Row->Kind == ApiKind::ContainerNew ? RD->getCanonicalDecl() : nullptr;
}

void pointerKeys(QualType T, llvm::SmallVectorImpl<FieldKey> &Keys) {
  auto Add = [&](FieldKey K) {
    if (!llvm::is_contained(Keys, K))
      Keys.push_back(K);
  };
  std::function<void(QualType, unsigned)> Walk = [&](QualType T, unsigned Depth) {
    if (Depth > 4)
      return Add(nullptr);
    T = T.getCanonicalType().getNonReferenceType();
    while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType().getCanonicalType();
    if (T->isPointerType() || T->isMemberPointerType())
      return Add(nullptr);
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD) {
      if (const auto *RT = T->getAs<RecordType>()) // a C struct
        for (const FieldDecl *FD : RT->getDecl()->fields()) {
          QualType FT = FD->getType().getCanonicalType();
          while (const ArrayType *AT = FT->getAsArrayTypeUnsafe())
            FT = AT->getElementType().getCanonicalType();
          if (FT->isPointerType())
            Add(FD);
          else if (FT->isRecordType())
            Walk(FT, Depth + 1);
        }
      return;
    }
    if (!RD->hasDefinition())
      return Add(nullptr);
    if (const CXXRecordDecl *C = containerClass(T))
      return Add(C);
    for (const CXXBaseSpecifier &B : RD->bases())
      Walk(B.getType(), Depth + 1);
    for (const FieldDecl *FD : RD->fields()) {
      QualType FT = FD->getType().getCanonicalType();
      while (const ArrayType *AT = FT->getAsArrayTypeUnsafe())
        FT = AT->getElementType().getCanonicalType();
      if (FT->isPointerType() || FT->isReferenceType() || FT->isMemberPointerType())
        Add(FD);
      else if (containerClass(FT))
        Add(containerClass(FT));
      else if (FT->isRecordType())
        Walk(FT, Depth + 1);
    }
  };
  Walk(T, 0);
}

std::string nameOf(const Expr *E) {
  E = strip(E)->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    return nameOf(UO->getSubExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl()->getNameAsString();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    std::string Base = nameOf(ME->getBase());
    if (Base.empty() || isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return ME->getMemberDecl()->getNameAsString();
    return Base + (ME->isArrow() ? "->" : ".") + ME->getMemberDecl()->getNameAsString();
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return nameOf(AS->getBase());
  return "";
}

CallSite CallSite::of(const Expr *E) {
  CallSite C;
  C.Site = E;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    C.Callee = CE->getConstructor();
    for (const Expr *Arg : CE->arguments())
      C.Args.push_back(Arg);
    return C;
  }
  const auto *Call = cast<CallExpr>(E);
  C.Callee = Call->getDirectCallee();
  unsigned First = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    C.Object = MC->getImplicitObjectArgument();
    if (C.Object)
      C.ObjectIsPointer = C.Object->getType()->isPointerType();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        M && !M->isStatic() && Op->getNumArgs() > 0) {
      C.Object = Op->getArg(0);
      First = 1;
    }
  }
  for (unsigned I = First; I < Call->getNumArgs(); ++I)
    C.Args.push_back(Call->getArg(I));
  return C;
}

CallTarget resolveCall(const Expr *E, bool FromDevice) {
  CallTarget T;
  auto Summarisable = [&](const FunctionDecl *Callee) -> const FunctionDecl * {
    const FunctionDecl *Def = nullptr;
    if (Callee && !FromDevice && !Callee->hasBody(Def))
      if (const ImportedFunction *I = ImportScope::lookup(Callee); I && I->Conflict.empty())
        return Callee->getCanonicalDecl(); // summarised in another translation unit
    if (!Callee || !Callee->hasBody(Def) || !Def || !Def->getBody() || Def->isDependentContext())
      return nullptr;
    if (!FromDevice && isDeviceFunction(*Def) && !isa<CUDAKernelCallExpr>(E))
      return nullptr;
    return Def;
  };
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (const ApiFunction *Row = modelledClass(Ctor->getParent());
        Row && Row->Kind == ApiKind::ContainerNew) {
      T.Api = Row;
      return T;
    }
    if (Ctor->isTrivial() ||
        (Ctor->isCopyOrMoveConstructor() && Ctor->getParent()->isTriviallyCopyable())) {
      T.Builtin = true;
      return T;
    }
    if (const ApiFunction *Row = modelledClass(Ctor->getParent());
        Row && Row->Kind == ApiKind::Pure) {
      T.Api = Row;
      return T;
    }
    if ((T.Def = Summarisable(Ctor)))
      return T;
    T.Why = "constructor of `" + CE->getType().getAsString() + "`";
    return T;
  }
  const auto *Call = cast<CallExpr>(E);
  if (isTrivialAssignment(Call)) {
    T.Builtin = true;
    return T;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee) {
    T.Why = isa<CUDAKernelCallExpr>(Call) ? "a kernel launched through a pointer"
                                          : "a call through a function pointer";
    return T;
  }
  if (const ApiFunction *Api = modelledFunction(Callee)) {
    if (!FromDevice || Api->Kind == ApiKind::Host || Api->Kind == ApiKind::Pure ||
        Api->Kind == ApiKind::Timer || Api->WritesOutput) {
      T.Api = Api;
      return T;
    }
  }
  if (unsigned ID = Callee->getBuiltinID()) {
    const ASTContext &Ctx = Callee->getASTContext();
    if (ID == Builtin::BI__builtin_expect || Ctx.BuiltinInfo.isConst(ID) ||
        ID == Builtin::BI__builtin_assume_aligned) {
      T.Builtin = true;
      return T;
    }
  }
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee)) {
    // A closure the caller only ever calls has its captures in view (see
    // onlyCalledClosure); any other call may reach captures it cannot name.
    if (M->getParent()->isLambda() && !lambdaOfDirectCall(Call)) {
      T.Why = "a call to a lambda";
      return T;
    }
    bool Qualified = false;
    if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens()))
      Qualified = ME->hasQualifier();
    if (M->isVirtual() && !Qualified && !M->hasAttr<FinalAttr>() &&
        !M->getParent()->hasAttr<FinalAttr>()) {
      T.Why = "a virtual call to `" + calleeName(Call) + "`";
      return T;
    }
    if (!M->isStatic() && isContainerMember(M)) {
      T.Why = "call to `" + calleeName(Call) + "`, which has no model";
      return T;
    }
  }
  if ((T.Def = Summarisable(Callee)))
    return T;
  if (const ImportedFunction *I = ImportScope::lookup(Callee); I && !FromDevice) {
    T.Why = "call to `" + calleeName(Call) + "`, whose summary is not used (" + I->Conflict + ")";
    return T;
  }
  T.Why = "call to `" + calleeName(Call) + "`, which has no model or body";
  return T;
}

//===----------------------------------------------------------------------===//
// Construction and solving
//===----------------------------------------------------------------------===//

PointsTo::PointsTo(const FunctionDecl &F, ASTContext &Ctx, ObjectTable &Objects,
                   CalleeSummaries &Callees, AliasPolicy Aliases)
    : F(F), Ctx(Ctx), Objects(Objects), Callees(Callees), Aliases(std::move(Aliases)),
      Device(isDeviceFunction(F)) {
  classifyUses(F.getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&F))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit()) {
        collect(Init->getInit());
        if (Init->getMember())
          MemberInits.push_back(Init);
      }
  collect(F.getBody());
  solve();
}

unsigned PointsTo::lineOf(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getSpellingLineNumber(SM.getFileLoc(Loc));
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
    // `cudaMalloc(&p, n)`: an allocation stores into p and keeps no pointer to it.
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const ApiFunction *Api = modelledCallee(Call))
        for (unsigned I = 0; I < Call->getNumArgs(); ++I)
          if (Api->roleOf(I) == ArgRole::OutAlloc)
            if (const auto *UO = dyn_cast<UnaryOperator>(Call->getArg(I)->IgnoreParenCasts());
                UO && UO->getOpcode() == UO_AddrOf)
              if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
                Plain.insert(DRE);
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &C : Lambda->captures())
        if (C.capturesVariable())
          if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
            Escaping.insert(V);
    for (const Stmt *Child : S->children())
      Walk(Child);
    // An OpenMP region's body is not among its CapturedStmt's children.
    if (const auto *Region = dyn_cast<CapturedStmt>(S))
      Walk(Region->getCapturedStmt());
  };
  Walk(Body);
  for (const DeclRefExpr *DRE : All)
    if (const VarDecl *V = varOf(DRE); V && !Plain.count(DRE))
      Escaping.insert(V);
  for (const DeclRefExpr *DRE : All)
    if (const VarDecl *V = varOf(DRE); V && (isPlainLocal(V) || isSystemGlobal(V)) &&
                                       !Escaping.count(V) &&
                                       !DRE->refersToEnclosingVariableOrCapture())
      PlainOnly.insert(V);
}

void PointsTo::collect(const Stmt *S) {
  if (!S || isa<UnaryExprOrTypeTraitExpr>(S))
    return;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // Its body is another function; what it captures escapes to it.
    Constraints.push_back(Lambda);
    return;
  }
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    // The configuration call is part of the launch, not a call of its own.
    Constraints.push_back(S);
    if (const CallExpr *Config = Launch->getConfig())
      for (const Expr *Arg : Config->arguments())
        collect(Arg);
    for (const Expr *Arg : Launch->arguments())
      collect(Arg);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const LambdaExpr *L = onlyCalledClosure(dyn_cast<VarDecl>(D)))
        ModelledClosures.insert(L);
  if (isa<DeclStmt, CallExpr, CXXConstructExpr, ReturnStmt, CXXNewExpr, AsmStmt>(S))
    Constraints.push_back(S);
  else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
    Constraints.push_back(S);
  for (const Stmt *Child : S->children())
    collect(Child);
  // An OpenMP region's body (its host threads run it before the region
  // ends): not among the CapturedStmt's children.
  if (const auto *Region = dyn_cast<CapturedStmt>(S))
    collect(Region->getCapturedStmt());
}

void PointsTo::solve() {
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    Changed = false;
    for (const CXXCtorInitializer *Init : MemberInits) {
      // `: ptr(p)` stores into the object being built.
      LValue Field = LValue::of(thisPointees());
      Field.Key = Init->getMember();
      QualType T = Init->getMember()->getType();
      if (T->isPointerType())
        store(Field, pointees(Init->getInit()));
      else if (T->isReferenceType())
        store(Field, addressOf(Init->getInit()));
      else if (T->isRecordType() || T->isArrayType())
        assignAggregate(Field, Init->getInit(), T);
    }
    for (const Stmt *S : Constraints)
      apply(S);
    closeEscapes();
    if (!Changed)
      return;
  }
  // Should not happen (everything only grows, within finite bounds); stay
  // safe if it does.
  noteUnknownStores("points-to facts that did not settle");
  for (unsigned O = OutputObject + 1; O < Objects.size(); ++O)
    Escaped.insert(O);
}

void PointsTo::noteUnknownStores(const std::string &Why) {
  if (!StoresUnknown) {
    StoresUnknown = true;
    StoresUnknownWhy = Why;
    Changed = true;
  }
}

void PointsTo::apply(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        collectDecl(V);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    QualType T = BO->getLHS()->getType();
    nameAllocation(BO->getRHS(), nameOf(BO->getLHS()));
    if (T->isPointerType())
      store(lvalue(BO->getLHS()), pointees(BO->getRHS()));
    else if (T->isRecordType() || T->isArrayType())
      assignAggregate(lvalue(BO->getLHS()), BO->getRHS(), T);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    const Expr *Value = RS->getRetValue();
    if (!Value)
      return;
    QualType T = F.getReturnType();
    if (T->isReferenceType()) {
      Changed |= Returned.merge(addressOf(Value));
    } else if (T->isPointerType()) {
      Changed |= Returned.merge(pointees(Value));
    } else if (T->isRecordType()) {
      llvm::SmallVector<FieldKey, 4> Keys;
      pointerKeys(T, Keys);
      for (FieldKey K : Keys) {
        Pointees P = fieldOfValue(Value, K);
        auto It = llvm::find_if(ReturnedFields, [&](const auto &E) { return E.first == K; });
        if (It == ReturnedFields.end()) {
          ReturnedFields.push_back({K, P});
          Changed |= !P.empty();
        } else {
          Changed |= It->second.merge(P);
        }
      }
    }
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // A closure only ever called here keeps its captures in its fields; each
    // call's summary reads and writes through them.
    if (ModelledClosures.count(Lambda))
      return;
    for (const LambdaCapture &C : Lambda->captures()) {
      if (!C.capturesVariable())
        continue;
      const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
      if (!V)
        continue;
      std::string Why = "`" + V->getNameAsString() + "` is captured by a lambda";
      if (C.getCaptureKind() == LCK_ByRef) {
        escape(Pointees::of(storageOf(V)), Why);
      } else {
        LValue L = varLValue(V);
        L.Key = nullptr;
        escape(load(L), Why);
      }
    }
    return;
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
    if (const CXXConstructExpr *C = New->getConstructExpr()) {
      LValue Built = LValue::of(pointees(New));
      applyCall(C, &Built);
    }
    return;
  }
  if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
    const auto *Gcc = dyn_cast<GCCAsmStmt>(Asm);
    if (!Gcc || touchesMemory(*Gcc, Device))
      noteUnknownStores("inline assembly");
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
      if (Asm->getOutputExpr(I)->getType()->isPointerType())
        store(lvalue(Asm->getOutputExpr(I)), Pointees::unknown("a pointer set by inline assembly"));
    return;
  }
  if (isa<CallExpr, CXXConstructExpr>(S))
    applyCall(cast<Expr>(S), nullptr);
}

void PointsTo::collectDecl(const VarDecl *V) {
  const Expr *Init = V->getInit();
  if (!Init)
    return;
  QualType T = V->getType();
  if (T->isReferenceType())
    return; // binds: lvalue() follows the initializer
  nameAllocation(Init, V->getNameAsString());
  const auto *CRD = T->getAsCXXRecordDecl();
  if (const auto *IL = dyn_cast<InitListExpr>(strip(Init));
      IL && T->isRecordType() && !(CRD && CRD->getNumBases()))
    if (const RecordDecl *RD = T->getAsRecordDecl())
      for (const FieldDecl *FD : RD->fields()) // `Grid g{malloc(n), n}`: g.cells
        if (FD->getFieldIndex() < IL->getNumInits())
          nameAllocation(IL->getInit(FD->getFieldIndex()),
                         V->getNameAsString() + "." + FD->getNameAsString());
  if (T->isPointerType()) {
    store(varLValue(V), pointees(Init));
    return;
  }
  if (const LambdaExpr *L = onlyCalledClosure(V)) {
    buildClosure(varLValue(V), L);
    return;
  }
  if (T->isRecordType() || T->isArrayType()) {
    const Expr *Stripped = strip(Init);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Stripped)) {
      LValue Built = varLValue(V);
      CallTarget Target = resolveCall(CE, Device);
      if (Target.Def) {
        applyCall(CE, &Built);
        return;
      }
    }
    assignAggregate(varLValue(V), Init, T);
  }
}

void PointsTo::assignAggregate(const LValue &Where, const Expr *Value, QualType Type) {
  llvm::SmallVector<FieldKey, 4> Keys;
  pointerKeys(Type, Keys);
  for (FieldKey K : Keys) {
    LValue Target = Where;
    Target.Key = K;
    store(Target, fieldOfValue(Value, K));
  }
}

void PointsTo::applyCall(const Expr *E, const LValue *Constructed) {
  CallTarget Target = resolveCall(E, Device);
  CallSite C = CallSite::of(E);
  // A constructor without a known destination builds a temporary: what it
  // stores into it is read back through fieldOfValue().
  LValue Temporary;
  Temporary.Objects.Temporary = true;
  Temporary.Value = E;
  C.Constructed = Constructed ? Constructed : isa<CXXConstructExpr>(E) ? &Temporary : nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && isTrivialAssignment(Call)) {
    assignAggregate(lvalue(Call->getArg(0)), Call->getArg(1), Call->getArg(0)->getType());
    return;
  }
  if (Target.Builtin)
    return; // builtins keep no pointers; trivial constructors are handled by their users
  if (Target.Api) {
    applyApiCall(C, *Target.Api);
    return;
  }
  if (Target.Def) {
    applySummaryCall(C, Callees.summaryOf(Target.Def));
    return;
  }
  if (Device && C.Callee && !isa<CUDAKernelCallExpr>(E))
    return; // device builtins and intrinsics read and write, but keep no pointers
  escapeArguments(C, "`" + (C.Callee ? C.Callee->getNameAsString() : std::string("a call")) +
                         "` may keep it (" + Target.Why + ")");
  noteUnknownStores(Target.Why);
}

void PointsTo::escapeArguments(const CallSite &C, const std::string &Why) {
  if (C.Object)
    escape(C.ObjectIsPointer ? pointees(C.Object) : addressOf(C.Object), Why);
  for (const Expr *Arg : C.Args) {
    if (!Arg)
      continue;
    QualType T = Arg->getType();
    if (T->isPointerType() || T->isArrayType())
      escape(pointees(Arg), Why);
    if (Arg->isGLValue())
      escape(addressOf(Arg), Why); // passed by reference
    else if (T->isRecordType())
      escape(fieldOfValue(Arg, nullptr), Why);
  }
}

void PointsTo::applyApiCall(const CallSite &C, const ApiFunction &Api) {
  // Arguments in role order: the object first for a member function.
  llvm::SmallVector<const Expr *, 6> Args;
  if (Api.isMember())
    Args.push_back(C.Object);
  llvm::append_range(Args, C.Args);
  auto IsContainer = [&](unsigned I) {
    return Args[I] && (Api.isMember() && I == 0 ? true : (bool)containerClass(Args[I]->getType()));
  };
  unsigned FirstParamRole = Api.isMember() ? 1 : 0;
  auto ByReference = [&](unsigned I) {
    if (I < FirstParamRole || !C.Callee || I - FirstParamRole >= C.Callee->getNumParams())
      return false;
    return C.Callee->getParamDecl(I - FirstParamRole)->getType()->isReferenceType();
  };
  auto Memory = [&](unsigned I) -> LValue {
    if (Api.isMember() && I == 0)
      return LValue::of(elementsOf(C.Object, C.ObjectIsPointer));
    if (IsContainer(I))
      return LValue::of(elementsOf(Args[I]));
    if (ByReference(I))
      return lvalue(Args[I]); // the object itself (push_back(p) copies the pointer p)
    if (Args[I]->getType()->isPointerType())
      return pointeeLValue(Args[I]);
    return LValue::of(argumentMemory(Args[I], false));
  };
  switch (Api.Kind) {
  case ApiKind::ContainerNew: {
    // Construction: fresh elements, or a move hands over the argument's.
    const auto *CE = dyn_cast<CXXConstructExpr>(C.Site);
    LValue Where = C.Constructed ? *C.Constructed : LValue();
    const CXXRecordDecl *RD = containerClass(C.Site->getType());
    if (!CE || !RD || !C.Constructed)
      return; // a temporary: fieldOfValue() names its elements
    Where.Key = RD;
    store(Where, fieldOfValue(CE, RD));
    return;
  }
  case ApiKind::ContainerAssign: {
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(C.Callee);
    if (M && M->isMoveAssignmentOperator() && Args.size() > 1 && Args[1]) {
      LValue Where = C.ObjectIsPointer ? LValue::of(pointees(C.Object)) : lvalue(C.Object);
      Where.Key = containerClass(C.Object->getType()->isPointerType()
                                     ? C.Object->getType()->getPointeeType()
                                     : C.Object->getType());
      store(Where, elementsOf(Args[1]));
    }
    return; // a copy writes the elements it already has (or a new buffer: same object)
  }
  case ApiKind::ContainerSwap: {
    if (Args.size() < 2 || !Args[0] || !Args[1])
      return;
    LValue A = C.ObjectIsPointer ? LValue::of(pointees(C.Object)) : lvalue(C.Object);
    LValue B = lvalue(Args[1]);
    A.Key = B.Key = containerClass(Args[1]->getType());
    Pointees EA = load(A), EB = load(B);
    store(A, EB);
    store(B, EA);
    return;
  }
  default:
    break;
  }
  // Copies: what the call writes may now hold the pointers stored in what
  // it reads (memcpy of a struct, cudaMemcpy of an array of device pointers).
  llvm::SmallVector<unsigned, 2> Reads, Writes;
  for (unsigned I = 0; I < Args.size(); ++I) {
    if (!Args[I])
      continue;
    switch (Api.roleOf(I)) {
    case ArgRole::OutAlloc:
      store(pointeeLValue(Args[I]), Pointees::of(allocationSite(C.Site, &Api, nameOf(Args[I]))));
      break;
    case ArgRole::Read:
      Reads.push_back(I);
      break;
    case ArgRole::Write:
    case ArgRole::ReadWrite:
      Writes.push_back(I);
      break;
    case ArgRole::Free:
      if (IsContainer(I))
        Writes.push_back(I);          // the elements may be reallocated and refilled
      else if (Api.ReturnsAllocation) // realloc: the new buffer holds what the old one did
        store(LValue::of(Pointees::of(allocationSite(C.Site, &Api, ""))),
              load(pointeeLValue(Args[I])));
      break;
    case ArgRole::Unknown:
      escape(argumentMemory(Args[I], false),
             "argument " + std::to_string(I + 1) + " of `" + Api.Name.str() + "`");
      noteUnknownStores("`" + Api.Name.str() + "`, which copies memory the analysis cannot name");
      break;
    default:
      break;
    }
  }
  if (Api.has(ApiCap::LaunchesKernel))
    noteUnknownStores("`" + Api.Name.str() + "`");
  if (Reads.empty() || Writes.empty())
    return;
  // Only memory that can hold pointers: copying floats copies no pointers.
  auto MayHoldPointers = [&](unsigned I) {
    if (IsContainer(I))
      return true;
    QualType T = Args[I]->IgnoreParenImpCasts()->getType();
    if (!T->isPointerType() && !T->isArrayType())
      return true;
    QualType Pointee =
        T->isPointerType() ? T->getPointeeType() : QualType(T->getPointeeOrArrayElementType(), 0);
    if (Pointee->isVoidType() || Pointee->isCharType() || Pointee->isIncompleteType())
      return true;
    llvm::SmallVector<FieldKey, 2> Keys;
    pointerKeys(Pointee, Keys);
    return !Keys.empty();
  };
  if (llvm::none_of(Reads, MayHoldPointers) && llvm::none_of(Writes, MayHoldPointers))
    return;
  Pointees Copied;
  for (unsigned I : Reads)
    Copied.merge(load(Memory(I)));
  if (Copied.empty())
    return;
  for (unsigned I : Writes)
    store(Memory(I), Copied);
}

void PointsTo::applySummaryCall(const CallSite &C, const FunctionSummary &S) {
  for (const SummaryStore &St : S.Stores) {
    LValue Target = instantiateTarget(St.Target, C, S);
    Target.Key = St.Field;
    store(Target, instantiate(St.Value, C, S));
  }
  for (const SummaryRef &R : S.Escapes)
    escape(instantiate(R, C, S), "`" + C.Callee->getNameAsString() + "` lets it escape");
  if (S.StoresUnknown)
    noteUnknownStores("`" + C.Callee->getNameAsString() + "` calls code the analysis cannot see");
}

//===----------------------------------------------------------------------===//
// Cells
//===----------------------------------------------------------------------===//

void PointsTo::storeCell(CellList &Cells, FieldKey Key, const Pointees &What) {
  for (auto &[K, P] : Cells)
    if (K == Key) {
      Changed |= P.merge(What);
      return;
    }
  Cells.push_back({Key, What});
  Changed = true;
}

void PointsTo::store(const LValue &Where, const Pointees &What) {
  if (What.empty())
    return;
  Pointees Clean = What;
  Clean.Temporary = false;
  if (Where.Objects.Unknown)
    escape(Clean, "it is stored where the analysis cannot follow");
  for (ObjectId O : Where.Objects.Objects) {
    if (O == UnknownObject) {
      escape(Clean, "it is stored where the analysis cannot follow");
      continue;
    }
    storeCell(ObjectCells[O], Where.Key, Clean);
    if (isGlobalObject(O))
      escape(Clean, "it is stored in global `" + Objects.get(O).Name + "`");
    else if (Escaped.count(O))
      escape(Clean, "it is stored in `" + Objects.get(O).Name + "`, which escapes");
  }
  for (const VarDecl *V : Where.Vars)
    storeCell(VarCells[V], Where.Key, Clean);
}

void PointsTo::escape(const Pointees &P, const std::string &Why) {
  for (ObjectId O : P.Objects)
    if (O > OutputObject && Escaped.insert(O).second) {
      EscapeWhy[O] = Why;
      Changed = true;
    }
}

void PointsTo::closeEscapes() {
  // Code the analysis cannot see may reach what the caller can reach: what
  // is stored in symbolic objects. Once such code runs here, what those
  // objects hold may change.
  if (StoresUnknown)
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (unsigned O = OutputObject + 1; O < Objects.size(); ++O) {
        if (!SymbolPaths.count(O) && !Exposed.count(O))
          continue;
        auto It = ObjectCells.find(O);
        if (It == ObjectCells.end())
          continue;
        for (auto &[K, P] : It->second)
          for (ObjectId Held : P.Objects)
            if (Held > OutputObject && !SymbolPaths.count(Held) && Exposed.insert(Held).second)
              Grew = Changed = true;
      }
    }
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (unsigned O = OutputObject + 1; O < Objects.size(); ++O) {
      if (!Escaped.count(O))
        continue;
      auto It = ObjectCells.find(O);
      if (It == ObjectCells.end())
        continue;
      for (auto &[K, P] : It->second)
        for (ObjectId Held : P.Objects)
          if (Held > OutputObject && Escaped.insert(Held).second) {
            EscapeWhy[Held] = "it is stored in `" + Objects.get(O).Name + "`, which escapes";
            Grew = Changed = true;
          }
    }
  }
}

Pointees PointsTo::readCells(const CellList *Cells, FieldKey Key) const {
  Pointees R;
  if (!Cells)
    return R;
  for (const auto &[K, P] : *Cells)
    if (!Key || !K || K == Key)
      R.merge(P);
  return R;
}

bool PointsTo::isParamVar(const VarDecl *V, unsigned &Index) const {
  const auto *PV = dyn_cast<ParmVarDecl>(V);
  if (!PV)
    return false;
  for (unsigned I = 0; I < F.getNumParams(); ++I)
    if (F.getParamDecl(I) == PV) {
      Index = I;
      return true;
    }
  return false;
}

Pointees PointsTo::paramContent(const VarDecl *V, FieldKey Key) {
  unsigned I;
  if (!isParamVar(V, I))
    return {};
  QualType T = V->getType();
  SymbolicPath P;
  P.Param = I;
  if (T->isPointerType())
    return Pointees::of(symbol(P));
  if (T->isRecordType() || T->isArrayType()) {
    P.ByValue = true;
    return symbolContent(P, Key);
  }
  return {};
}

Pointees PointsTo::readVar(const VarDecl *V, FieldKey Key) {
  auto It = VarCells.find(V);
  Pointees R = readCells(It == VarCells.end() ? nullptr : &It->second, Key);
  R.merge(paramContent(V, Key));
  return R;
}

Pointees PointsTo::readObject(ObjectId O, FieldKey Key) {
  if (O == UnknownObject)
    return Pointees::unknown("a pointer loaded from memory the analysis cannot name");
  if (O == OutputObject)
    return {};
  auto It = ObjectCells.find(O);
  Pointees R = readCells(It == ObjectCells.end() ? nullptr : &It->second, Key);
  bool AnyEscaped = Escaped.count(O);
  if (Aliases.M != AliasPolicy::Mode::Distinct && (SymbolPaths.count(O) || isGlobalObject(O)))
    for (unsigned Other = OutputObject + 1; Other < Objects.size(); ++Other)
      if (Other != O && mayAlias(O, Other)) {
        auto OIt = ObjectCells.find(Other);
        R.merge(readCells(OIt == ObjectCells.end() ? nullptr : &OIt->second, Key));
        AnyEscaped |= Escaped.count(Other) != 0;
      }
  const MemoryObject &Obj = Objects.get(O);
  if (auto P = SymbolPaths.find(O); P != SymbolPaths.end()) {
    SymbolicPath Base = P->second;
    R.merge(symbolContent(Base, Key));
    if (StoresUnknown)
      R.merge(Pointees::unknown(StoresUnknownWhy));
  } else if (isGlobalObject(O)) {
    R.merge(Pointees::unknown("a pointer stored in global `" + Obj.Name + "`"));
  } else if (Obj.Var) {
    R.merge(paramContent(Obj.Var, Key));
  }
  if (StoresUnknown && Exposed.count(O))
    R.merge(Pointees::unknown(StoresUnknownWhy));
  if (AnyEscaped) {
    std::string Why = Obj.Kind == ObjectKind::Variable
                          ? "the address of `" + Obj.Name + "` is taken"
                          : "`" + Obj.Name + "` escapes: " + EscapeWhy.lookup(O);
    R.merge(Pointees::unknown(Why));
  }
  return R;
}

Pointees PointsTo::load(const LValue &L) {
  Pointees R;
  if (L.Objects.Unknown)
    R.merge(Pointees::unknown(L.Objects.Why));
  for (ObjectId O : L.Objects.Objects)
    R.merge(readObject(O, L.Key));
  for (const VarDecl *V : L.Vars)
    R.merge(readVar(V, L.Key));
  if (L.Value)
    R.merge(fieldOfValue(L.Value, L.Key));
  return R;
}

//===----------------------------------------------------------------------===//
// Objects
//===----------------------------------------------------------------------===//

bool PointsTo::isTracked(const VarDecl *V) const {
  return !PlainOnly.count(V) && !isSystemGlobal(V);
}

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
  bool Symbol = V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>() ||
                V->hasAttr<HIPManagedAttr>();
  ObjectId O = Objects.add(Symbol ? ObjectKind::DeviceSymbol : ObjectKind::Variable,
                           V->getNameAsString(), lineOf(V->getLocation()), V);
  if (isImmutable(V))
    ImmutableObjects.insert(O);
  return Storage[V] = O;
}

bool PointsTo::isGlobalObject(ObjectId O) const {
  const VarDecl *V = Objects.get(O).Var;
  return V && V->hasGlobalStorage() && !V->hasAttr<CUDASharedAttr>();
}

const VarDecl *PointsTo::globalOf(ObjectId O) const {
  return O < Objects.size() && isGlobalObject(O) ? Objects.get(O).Var : nullptr;
}

const SymbolicPath *PointsTo::pathOf(ObjectId O) const {
  auto It = SymbolPaths.find(O);
  return It == SymbolPaths.end() ? nullptr : &It->second;
}

bool PointsTo::isEscaped(ObjectId O) const { return Escaped.count(O); }

const llvm::SmallVector<std::pair<FieldKey, Pointees>, 2> *PointsTo::storesOf(ObjectId O) const {
  auto It = ObjectCells.find(O);
  return It == ObjectCells.end() ? nullptr : &It->second;
}

ObjectId PointsTo::symbol(const SymbolicPath &P) {
  auto It = Symbols.find(P);
  if (It != Symbols.end())
    return It->second;
  ObjectId O = Objects.add(ObjectKind::Symbolic, P.str(F), lineOf(F.getLocation()));
  Symbols[P] = O;
  SymbolPaths[O] = P;
  return O;
}

Pointees PointsTo::symbolContent(const SymbolicPath &Base, FieldKey Key) {
  if (Base.Loads.size() >= MaxPathLoads)
    return Pointees::unknown("pointers stored too deep inside `" + Base.str(F) + "`");
  SymbolicPath P = Base;
  P.Loads.push_back(Key);
  return Pointees::of(symbol(P));
}

ObjectId PointsTo::siteFor(const Expr *Site, ObjectKind Kind, std::string Name,
                           SourceLocation Loc) {
  auto It = Sites.find(Site);
  if (It != Sites.end())
    return It->second;
  unsigned Line = lineOf(Loc);
  if (Name.empty())
    Name = "allocation@" + std::to_string(Line);
  return Sites[Site] = Objects.add(Kind, std::move(Name), Line, nullptr, Site);
}

void PointsTo::nameAllocation(const Expr *Value, std::string Name) {
  const Expr *E = strip(Value)->IgnoreParenCasts();
  E = strip(E);
  if (Name.empty() || Sites.count(E))
    return;
  if (isa<CXXNewExpr>(E) && !cast<CXXNewExpr>(E)->getNumPlacementArgs()) {
    siteFor(E, ObjectKind::HostAllocation, std::move(Name), E->getBeginLoc());
  } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
    CallTarget T = resolveCall(Call, Device);
    if (T.Api && T.Api->ReturnsAllocation)
      allocationSite(Call, T.Api, std::move(Name));
    else if (T.Def)
      CallNames.insert({Call, std::move(Name)}); // for what the callee allocates
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    CallTarget T = resolveCall(CE, Device);
    if (T.Api && T.Api->Kind == ApiKind::ContainerNew && !CE->getConstructor()->isMoveConstructor())
      allocationSite(CE, T.Api, std::move(Name));
  }
}

ObjectKind PointsTo::kindOf(const ApiFunction &Api) const {
  switch (Api.Allocates) {
  case MemorySpace::Device:
    return ObjectKind::DeviceAllocation;
  case MemorySpace::HostPinned:
    return ObjectKind::PinnedAllocation;
  case MemorySpace::Managed:
    return ObjectKind::ManagedAllocation;
  default:
    return ObjectKind::HostAllocation;
  }
}

ObjectId PointsTo::allocationSite(const Expr *Allocation, const ApiFunction *Api,
                                  std::string Name) {
  ObjectKind Kind = Api ? kindOf(*Api) : ObjectKind::HostAllocation;
  if (Api && Api->Kind == ApiKind::ContainerNew)
    Kind = ObjectKind::ContainerStorage;
  return siteFor(Allocation, Kind, std::move(Name), Allocation->getBeginLoc());
}

bool PointsTo::mayAlias(ObjectId A, ObjectId B) const {
  if (A == B)
    return true;
  if (Aliases.M == AliasPolicy::Mode::Distinct)
    return false;
  auto RefOf = [&](ObjectId O, SummaryRef &R) {
    if (const SymbolicPath *P = pathOf(O)) {
      R = SummaryRef::path(*P);
      return true;
    }
    if (const VarDecl *V = globalOf(O)) {
      R = SummaryRef::global(V);
      return true;
    }
    return false;
  };
  SummaryRef RA, RB;
  if (!RefOf(A, RA) || !RefOf(B, RB))
    return false;
  return Aliases.mayAlias(RA, RB);
}

void PointsTo::addAccess(AccessSet &Set, const Pointees &P, uint8_t Mode,
                         std::string &UnknownWhy) const {
  if (!Mode)
    return;
  if (P.Unknown) {
    if (!Set.touchesUnknown() && UnknownWhy.empty())
      UnknownWhy = P.Why;
    Set.add(UnknownObject, Mode);
    return;
  }
  for (ObjectId O : P.Objects) {
    if (ImmutableObjects.count(O))
      continue;
    Set.add(O, Mode);
    if (Aliases.M == AliasPolicy::Mode::Distinct || (!pathOf(O) && !globalOf(O)))
      continue;
    for (unsigned Other = OutputObject + 1; Other < Objects.size(); ++Other)
      if (Other != O && !ImmutableObjects.count(Other) && mayAlias(O, Other))
        Set.addAlias(Other, Mode);
  }
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

LValue PointsTo::varLValue(const VarDecl *V) {
  LValue L;
  if (!isTracked(V))
    L.Vars.push_back(V);
  else
    L.Objects = Pointees::of(storageOf(V));
  return L;
}

Pointees PointsTo::addressOf(const Expr *E) { return objectsOf(lvalue(E)); }

LValue PointsTo::pointeeLValue(const Expr *Pointer) {
  const Expr *E = strip(Pointer)->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    return lvalue(UO->getSubExpr()); // keeps a local no one else can reach
  return LValue::of(pointees(Pointer));
}

Pointees PointsTo::objectsOf(const LValue &L) {
  Pointees P = L.Objects;
  for (const VarDecl *V : L.Vars)
    if (isTracked(V))
      P.merge(Pointees::of(storageOf(V)));
  if (L.Value)
    P.Temporary = true;
  return P;
}

Pointees PointsTo::elementsOf(const Expr *Object, bool IsPointer) {
  if (!Object)
    return Pointees::unknown("a container the analysis cannot name");
  QualType T = IsPointer ? Object->getType()->getPointeeType() : Object->getType();
  LValue L = IsPointer ? LValue::of(pointees(Object)) : lvalue(Object);
  L.Key = containerClass(T);
  if (!L.Key)
    return Pointees::unknown("a container the analysis does not model");
  return load(L);
}

Pointees PointsTo::argumentMemory(const Expr *Arg, bool Container) {
  if (!Arg)
    return {};
  QualType T = Arg->getType();
  if (Container || containerClass(T))
    return elementsOf(Arg);
  if (T->isPointerType() || T->isArrayType())
    return pointees(Arg);
  if (T->isRecordType() && !Arg->isGLValue())
    return fieldOfValue(Arg, nullptr); // an iterator passed by value
  if (T->isRecordType())
    return load(lvalue(Arg));
  return {};
}

LValue PointsTo::lvalue(const Expr *E) {
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V) {
      if (isa<FunctionDecl, EnumConstantDecl>(DRE->getDecl()))
        return {};
      return LValue::of(Pointees::unknown("`" + DRE->getDecl()->getNameAsString() +
                                          "` is not a variable the analysis follows"));
    }
    // A capture by an OpenMP region of this function names the variable
    // itself (its threads share it); in a lambda's body, a capture is a field
    // of the closure (`this`), which holds a copy or a reference.
    if (DRE->refersToEnclosingVariableOrCapture() && V->getParentFunctionOrMethod() != &F) {
      if (const FieldDecl *Field = captureField(V)) {
        LValue L = LValue::of(thisPointees());
        L.Key = Field;
        if (Field->getType()->isReferenceType())
          return LValue::of(load(L));
        return L;
      }
      // A lambda may name an enclosing variable it does not capture only
      // where the variable is not odr-used: a constant's value, no memory.
      if (lambdaClass())
        return {};
      return LValue::of(
          Pointees::unknown("`" + V->getNameAsString() + "` is captured from an enclosing scope"));
    }
    if (V->getType()->isReferenceType()) {
      unsigned I;
      if (isParamVar(V, I)) {
        SymbolicPath P;
        P.Param = I;
        return LValue::of(Pointees::of(symbol(P)));
      }
      if (V->getInit())
        return lvalue(V->getInit());
      return LValue::of(Pointees::unknown("`" + V->getNameAsString() + "` is a reference"));
    }
    return varLValue(V);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const ValueDecl *Member = ME->getMemberDecl();
    if (const auto *V = dyn_cast<VarDecl>(Member)) // a static data member
      return LValue::of(Pointees::of(storageOf(V)));
    if (!isa<FieldDecl>(Member))
      return {};
    LValue L = ME->isArrow() ? LValue::of(pointees(ME->getBase())) : lvalue(ME->getBase());
    L.Key = Member;
    if (Member->getType()->isReferenceType()) // a reference member: what it refers to
      return LValue::of(load(L));
    return L;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    if (Base->getType()->isArrayType())
      return lvalue(Base);
    return LValue::of(pointees(AS->getBase()));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_Deref:
      return LValue::of(pointees(UO->getSubExpr()));
    case UO_PreInc:
    case UO_PreDec:
    case UO_Real:
    case UO_Imag:
    case UO_Extension:
      return lvalue(UO->getSubExpr());
    default:
      break;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp())
      return lvalue(BO->getLHS());
    if (BO->getOpcode() == BO_Comma)
      return lvalue(BO->getRHS());
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    LValue L = lvalue(CO->getTrueExpr());
    L.merge(lvalue(CO->getFalseExpr()));
    return L;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return lvalue(Cast->getSubExpr());
  // A prvalue here was materialized (a struct, or a scalar bound to a
  // `const T&` as in std::min(n * 2, m)): a temporary of its own.
  if (isa<MaterializeTemporaryExpr, CompoundLiteralExpr>(E) || !E->isGLValue()) {
    LValue L;
    L.Objects.Temporary = true;
    if (const auto *CL = dyn_cast<CompoundLiteralExpr>(E))
      L.Value = CL->getInitializer();
    else
      L.Value = E;
    return L;
  }
  if (isa<StringLiteral, PredefinedExpr, CXXTypeidExpr>(E))
    return {}; // storage the program cannot write
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callLValue(Call);
  if (isa<CXXThisExpr>(E))
    return LValue::of(pointees(E));
  return LValue::of(Pointees::unknown("an lvalue the analysis cannot follow"));
}

LValue PointsTo::callLValue(const CallExpr *Call) {
  if (isTrivialAssignment(Call))
    return lvalue(Call->getArg(0));
  CallTarget Target = resolveCall(Call, Device);
  CallSite C = CallSite::of(Call);
  if (Target.Api && Target.Api->Kind == ApiKind::ContainerElements)
    return LValue::of(elementsOf(C.Object, C.ObjectIsPointer));
  if (Target.Api && C.Callee) {
    // Stream insertion and the like return the object they were given.
    QualType Ret = C.Callee->getReturnType().getNonReferenceType().getCanonicalType();
    if (C.Object && C.Object->getType().getNonReferenceType().getCanonicalType() == Ret)
      return C.ObjectIsPointer ? LValue::of(pointees(C.Object)) : lvalue(C.Object);
    if (!C.Args.empty() && C.Args[0] &&
        C.Args[0]->getType().getNonReferenceType().getCanonicalType() == Ret)
      return lvalue(C.Args[0]);
  }
  if (Target.Def && Target.Def->getReturnType()->isReferenceType()) {
    const FunctionSummary &S = Callees.summaryOf(Target.Def);
    Pointees P;
    for (const SummaryRef &R : S.Returns)
      P.merge(instantiate(R, C, S));
    if (S.Returns.empty())
      return {};
    if (P.empty()) // as for a returned pointer (pointees)
      return LValue::of(Pointees::unknown("a reference returned by `" + calleeName(Call) +
                                          "`, whose target the analysis does not follow"));
    return LValue::of(P);
  }
  return LValue::of(Pointees::unknown("a reference returned by `" + calleeName(Call) + "`"));
}

Pointees PointsTo::pointees(const Expr *E) {
  E = strip(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
      return load(lvalue(Cast->getSubExpr()));
    case CK_ArrayToPointerDecay:
      return addressOf(Cast->getSubExpr());
    case CK_FunctionToPointerDecay:
    case CK_NullToPointer:
    case CK_BuiltinFnToFnPtr:
      return {};
    case CK_IntegralToPointer:
      if (isNullConstant(Cast->getSubExpr(), Ctx))
        return {};
      return Pointees::unknown("an integer converted to a pointer");
    case CK_UserDefinedConversion:
    case CK_ConstructorConversion:
      if (Cast->getSubExpr()->getType()->isRecordType())
        return fieldOfValue(Cast->getSubExpr(), nullptr);
      return Pointees::unknown("a pointer made by a conversion function");
    default:
      return pointees(Cast->getSubExpr());
    }
  }
  if (E->getType()->isRecordType())
    return fieldOfValue(E, nullptr);
  if (E->getType()->isArrayType())
    return addressOf(E);
  if (E->isGLValue() && !isa<CallExpr>(E))
    return load(lvalue(E));
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_AddrOf:
      return addressOf(UO->getSubExpr());
    case UO_PostInc:
    case UO_PostDec:
    case UO_PreInc:
    case UO_PreDec:
    case UO_Plus:
      return pointees(UO->getSubExpr());
    default:
      return Pointees::unknown("a pointer the analysis cannot follow");
    }
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
  if (isa<CallExpr>(E))
    return callPointees(E);
  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    if (New->getNumPlacementArgs() > 0 && !New->shouldNullCheckAllocation()) {
      Pointees P;
      for (unsigned I = 0; I < New->getNumPlacementArgs(); ++I)
        P.merge(pointees(New->getPlacementArg(I)));
      return P;
    }
    return Pointees::of(siteFor(E, ObjectKind::HostAllocation, "", E->getBeginLoc()));
  }
  if (isa<CXXThisExpr>(E))
    return lambdaClass() ? capturedThis() : thisPointees();
  if (isa<CXXNullPtrLiteralExpr, IntegerLiteral, GNUNullExpr, StringLiteral, CXXBoolLiteralExpr,
          CharacterLiteral, ImplicitValueInitExpr, CXXScalarValueInitExpr>(E))
    return {};
  if (isa<DeclRefExpr>(E)) // functions, enumerators
    return {};
  return Pointees::unknown("a pointer expression the analysis cannot follow");
}

const CXXRecordDecl *PointsTo::lambdaClass() const {
  const auto *M = dyn_cast<CXXMethodDecl>(&F);
  return M && M->getParent()->isLambda() ? M->getParent() : nullptr;
}

const FieldDecl *PointsTo::captureField(const VarDecl *V) const {
  const CXXRecordDecl *Closure = lambdaClass();
  if (!Closure)
    return nullptr;
  return closureFields(*Closure).Vars.lookup(V);
}

Pointees PointsTo::capturedThis() {
  FieldDecl *ThisCapture = closureFields(*lambdaClass()).This;
  if (!ThisCapture || !ThisCapture->getType()->isPointerType())
    return Pointees::unknown("`*this` captured by copy");
  LValue L = LValue::of(thisPointees());
  L.Key = ThisCapture;
  return load(L);
}

void PointsTo::buildClosure(const LValue &Closure, const LambdaExpr *L) {
  auto Init = L->capture_init_begin();
  for (const FieldDecl *Field : L->getLambdaClass()->fields()) {
    if (Init == L->capture_init_end())
      break;
    const Expr *Value = *Init++;
    if (!Value)
      continue;
    LValue Target = Closure;
    Target.Key = Field;
    QualType T = Field->getType();
    if (T->isReferenceType())
      store(Target, addressOf(Value));
    else if (T->isPointerType())
      store(Target, pointees(Value));
    else if (T->isRecordType() || T->isArrayType())
      assignAggregate(Target, Value, T);
  }
}

Pointees PointsTo::thisPointees() {
  SymbolicPath P;
  P.Param = SymbolicPath::This;
  return Pointees::of(symbol(P));
}

Pointees PointsTo::callPointees(const Expr *E) {
  const auto *Call = cast<CallExpr>(E);
  if (Call->isGLValue())
    return load(callLValue(Call));
  CallTarget Target = resolveCall(Call, Device);
  CallSite C = CallSite::of(Call);
  if (const ApiFunction *Api = Target.Api) {
    if (Api->ReturnsAllocation)
      return Pointees::of(allocationSite(Call, Api, ""));
    if (Api->Kind == ApiKind::Pure || Api->Kind == ApiKind::Timer)
      return {}; // e.g. cudaGetErrorString: a string the program cannot change
    if (Api->Kind == ApiKind::ContainerElements)
      return elementsOf(C.Object, C.ObjectIsPointer);
    return Pointees::unknown("a pointer returned by `" + calleeName(Call) + "`");
  }
  if (Target.Builtin) {
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && Callee->getBuiltinID() == Builtin::BI__builtin_assume_aligned)
      return pointees(Call->getArg(0));
    return {};
  }
  if (Target.Def) {
    const FunctionSummary &S = Callees.summaryOf(Target.Def);
    Pointees P;
    for (const SummaryRef &R : S.Returns)
      P.merge(instantiate(R, C, S));
    // What it returns designates something here, but nothing this function
    // can name (a pointer held in a field the caller never saw stored, as in
    // std::unique_ptr::get): it may be anything, not nothing.
    if (!S.Returns.empty() && P.empty())
      return Pointees::unknown("a pointer returned by `" + calleeName(Call) +
                               "`, whose target the analysis does not follow");
    return P;
  }
  return Pointees::unknown("a pointer returned by `" + calleeName(Call) + "`");
}

Pointees PointsTo::fieldOfValue(const Expr *Aggregate, FieldKey Key) {
  const Expr *E = strip(Aggregate);
  if (const auto *Cast = dyn_cast<CastExpr>(E);
      Cast && (Cast->getCastKind() == CK_LValueToRValue || Cast->getType()->isRecordType()))
    return fieldOfValue(Cast->getSubExpr(), Key);
  if (E->isGLValue()) {
    LValue L = lvalue(E);
    L.Key = Key;
    return load(L);
  }
  if (E->getType()->isPointerType())
    return pointees(E);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    if (IL->isTransparent() && IL->getNumInits() == 1)
      return fieldOfValue(IL->getInit(0), Key);
    Pointees P;
    const RecordDecl *RD = E->getType()->getAsRecordDecl();
    const auto *Field = dyn_cast_or_null<FieldDecl>(Key);
    unsigned NumBases = 0;
    if (const auto *CRD = dyn_cast_or_null<CXXRecordDecl>(RD))
      NumBases = CRD->getNumBases();
    if (RD && Field && Field->getParent() == RD && !RD->isUnion()) {
      unsigned Index = NumBases + Field->getFieldIndex();
      if (Index < IL->getNumInits())
        return IL->getInit(Index)->getType()->isPointerType()
                   ? pointees(IL->getInit(Index))
                   : fieldOfValue(IL->getInit(Index), nullptr);
      return {};
    }
    for (const Expr *Init : IL->inits()) {
      QualType T = Init->getType();
      if (T->isPointerType())
        P.merge(pointees(Init));
      else if (T->isRecordType() || T->isArrayType())
        P.merge(fieldOfValue(Init, Key));
    }
    return P;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    CallTarget Target = resolveCall(CE, Device);
    if (Target.Builtin)
      return CE->getNumArgs() == 1 ? fieldOfValue(CE->getArg(0), Key) : Pointees();
    if (Target.Api && Target.Api->Kind == ApiKind::ContainerNew) {
      if (Key && Key != containerClass(CE->getType()))
        return {};
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (Ctor->isMoveConstructor() && CE->getNumArgs() >= 1)
        return elementsOf(CE->getArg(0));
      return Pointees::of(allocationSite(CE, Target.Api, ""));
    }
    if (Target.Api)
      return {};
    if (Target.Def) {
      // What the constructor stores into the object it builds.
      const FunctionSummary &S = Callees.summaryOf(Target.Def);
      CallSite C = CallSite::of(CE);
      LValue Built;
      Built.Objects.Temporary = true;
      C.Constructed = &Built;
      Pointees P;
      for (const SummaryStore &St : S.Stores)
        if (St.Target.Kind == SummaryRef::Path && St.Target.P.Param == SymbolicPath::This &&
            St.Target.P.Loads.empty() && (!Key || !St.Field || St.Field == Key))
          P.merge(instantiate(St.Value, C, S));
      if (S.StoresUnknown)
        P.merge(Pointees::unknown(S.UnknownWhy.empty()
                                      ? "constructor of `" + CE->getType().getAsString() + "`"
                                      : S.UnknownWhy));
      return P;
    }
    return Pointees::unknown("constructor of `" + CE->getType().getAsString() + "`");
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    CallTarget Target = resolveCall(Call, Device);
    CallSite C = CallSite::of(Call);
    if (Target.Api && Target.Api->Kind == ApiKind::ContainerElements)
      return elementsOf(C.Object, C.ObjectIsPointer); // an iterator
    if (Target.Api && (Target.Api->Kind == ApiKind::Pure || Target.Api->Kind == ApiKind::Timer))
      return {};
    if (Target.Def) {
      const FunctionSummary &S = Callees.summaryOf(Target.Def);
      Pointees P;
      for (const auto &[K, R] : S.ReturnFields)
        if (!Key || !K || K == Key)
          P.merge(instantiate(R, C, S));
      return P;
    }
    if (Target.Builtin)
      return {};
    return Pointees::unknown("a value returned by `" + calleeName(Call) + "`");
  }
  if (isa<ImplicitValueInitExpr, CXXScalarValueInitExpr, IntegerLiteral, FloatingLiteral>(E))
    return {};
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    Pointees P = fieldOfValue(CO->getTrueExpr(), Key);
    P.merge(fieldOfValue(CO->getFalseExpr(), Key));
    return P;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Comma)
    return fieldOfValue(BO->getRHS(), Key);
  return Pointees::unknown("a value the analysis cannot follow");
}

LValue PointsTo::instantiateTarget(const SummaryRef &R, const CallSite &C,
                                   const FunctionSummary &S) {
  // The object itself (`this`, or what a reference parameter refers to) may
  // be a local no one else can reach: keep it as a cell, not an object.
  if (R.Kind == SummaryRef::Path && R.P.Loads.empty() && !R.P.ByValue) {
    if (R.P.Param == SymbolicPath::This && C.Constructed)
      return *C.Constructed;
    if (R.P.Param == SymbolicPath::This && C.Object && !C.ObjectIsPointer)
      return lvalue(C.Object);
    const ParmVarDecl *Param = C.Callee && R.P.Param < C.Callee->getNumParams()
                                   ? C.Callee->getParamDecl(R.P.Param)
                                   : nullptr;
    if (Param && Param->getType()->isReferenceType() && C.arg(R.P.Param))
      return lvalue(C.arg(R.P.Param));
    if (const Expr *Arg = C.arg(R.P.Param); Arg && R.P.Param != SymbolicPath::This)
      return pointeeLValue(Arg);
  }
  return LValue::of(instantiate(R, C, S));
}

Pointees PointsTo::instantiate(const SummaryRef &R, const CallSite &C, const FunctionSummary &S) {
  switch (R.Kind) {
  case SummaryRef::Unknown:
    return Pointees::unknown(S.UnknownWhy.empty() ? "`" + C.Callee->getNameAsString() +
                                                        "` names memory the analysis cannot"
                                                  : S.UnknownWhy);
  case SummaryRef::Global:
    if (isSystemGlobal(R.Var))
      return {};
    return Pointees::of(storageOf(R.Var));
  case SummaryRef::Fresh: {
    unsigned Index = R.FreshIndex < S.FreshObjects.size() ? R.FreshIndex : 0;
    if (S.FreshObjects.empty())
      return Pointees::unknown("an object `" + C.Callee->getNameAsString() + "` allocates");
    // Inside a cycle still being solved, one object per call site keeps the
    // number of objects finite.
    const FunctionDecl *Def = nullptr;
    bool Cycle = C.Callee && C.Callee->hasBody(Def) && Callees.inCycle(Def);
    unsigned Slot = Cycle ? ~0u : Index;
    auto Key = std::make_pair(C.Site, Slot);
    auto It = CallSiteFresh.find(Key);
    if (It != CallSiteFresh.end())
      return Pointees::of(It->second);
    const FreshObject &FO = S.FreshObjects[Index];
    auto Hint = CallNames.find(C.Site);
    std::string Name = Cycle ? "allocation in `" + C.Callee->getNameAsString() + "`"
                       : Hint != CallNames.end() && S.FreshObjects.size() == 1
                           ? Hint->second + " (allocated in `" + C.Callee->getNameAsString() + "`)"
                           : FO.Name + " (allocated in `" + C.Callee->getNameAsString() + "`)";
    // A host buffer a helper allocates and returns is made by the call: its
    // site, where pinning starts to follow it (HostPinning.cpp).
    const Expr *Site = !Cycle && FO.Kind == ObjectKind::HostAllocation &&
                               isa_and_nonnull<CallExpr>(C.Site) && S.FreshObjects.size() == 1
                           ? C.Site
                           : nullptr;
    ObjectId O =
        Objects.add(FO.Kind, Name, lineOf(C.Site ? C.Site->getBeginLoc() : C.Callee->getLocation()),
                    nullptr, Site);
    if (!Cycle) {
      MemoryObject &Made = Objects.get(O);
      Made.AllocatedBy = C.Callee;
      Made.Call = C.Site;
      Made.CalleeSite = FO.Site;
    }
    CallSiteFresh[Key] = O;
    return Pointees::of(O);
  }
  case SummaryRef::Path:
    break;
  }
  const SymbolicPath &P = R.P;
  // The root: the memory the parameter (or the object) designates.
  LValue Root;
  if (P.Param == SymbolicPath::This) {
    if (C.Constructed)
      Root = *C.Constructed;
    else if (!C.Object)
      return Pointees::unknown("the object `" + C.Callee->getNameAsString() + "` is called on");
    else
      Root = C.ObjectIsPointer ? LValue::of(pointees(C.Object)) : lvalue(C.Object);
  } else {
    const Expr *Arg = C.arg(P.Param);
    if (!Arg)
      return Pointees::unknown("an argument the analysis cannot see");
    const ParmVarDecl *Param =
        C.Callee && P.Param < C.Callee->getNumParams() ? C.Callee->getParamDecl(P.Param) : nullptr;
    if (P.ByValue) {
      if (P.Loads.empty())
        return {};
      Root.Value = Arg; // the value the callee's copy starts from
    } else if (Param && Param->getType()->isReferenceType()) {
      Root = lvalue(Arg);
    } else {
      Root = LValue::of(pointees(Arg));
    }
  }
  if (P.Loads.empty())
    return objectsOf(Root);
  Root.Key = P.Loads[0];
  Pointees Current = load(Root);
  unsigned FirstLoad = 1;
  for (unsigned I = FirstLoad; I < P.Loads.size(); ++I) {
    if (Current.Unknown)
      break;
    Current = load(LValue::of(Current, P.Loads[I]));
  }
  return Current;
}

} // namespace streamalloc
