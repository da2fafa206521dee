//===- FunctionAccesses.cpp - Host accesses and GPU op effects -------------===//
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Model/ApiModel.h"

#include "AstUtil.h"
#include "PointsTo.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <optional>

using namespace clang;

namespace streamalloc {

struct FunctionAccesses::Impl {
  const FunctionDecl &F;
  ASTContext &Ctx;
  FunctionSummaries &Device;
  ObjectTable Objects;
  PointsTo Pts;
  std::vector<GpuOp> Ops;
  llvm::DenseMap<const Expr *, unsigned> OpIndex;
  ObjectId output() const { return OutputObject; }

  Impl(const FunctionDecl &F, ASTContext &Ctx, FunctionSummaries &Device)
      : F(F), Ctx(Ctx), Device(Device), Pts(F, Ctx, Objects) {}

  unsigned lineOf(SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return SM.getSpellingLineNumber(SM.getFileLoc(L));
  }
  unsigned columnOf(SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return SM.getSpellingColumnNumber(SM.getFileLoc(L));
  }

  void collectOps(const Stmt *S);
  GpuOp makeApiOp(const CallExpr *Call, const ApiFunction &Api);
  GpuOp makeLaunch(const CUDAKernelCallExpr *Launch);
};

namespace {

/// Walks a statement and records what it reads and writes on the host.
class HostAccessVisitor {
public:
  HostAccessVisitor(FunctionAccesses::Impl &P, StmtAccesses &Out, bool MayNotRun, const Stmt *Skip)
      : P(P), Out(Out), MayNotRun(MayNotRun), Skip(Skip) {}

  void visit(const Stmt *S, uint8_t Mode = ReadAccess);

private:
  FunctionAccesses::Impl &P;
  StmtAccesses &Out;
  unsigned Conditional = 0; ///< inside a part of the statement that may not run
  bool MayNotRun;           ///< the statement itself sits in a branch or loop body
  const Stmt *Skip;         ///< a subtree not to visit

  void unknown(std::string Why) {
    if (!Out.Host.touchesUnknown() && Out.UnknownWhy.empty())
      Out.UnknownWhy = std::move(Why);
    Out.Host.add(UnknownObject, ReadWriteAccess);
  }
  void add(const Pointees &Pt, uint8_t Mode) { Pt.addTo(Out.Host, Mode, Out.UnknownWhy); }

  void visitAddress(const Expr *E);
  void visitPointerValue(const Expr *Base);
  void accessLValue(const Expr *E, uint8_t Mode);
  void visitCall(const CallExpr *Call);
  void visitApiCall(const CallExpr *Call, const ApiFunction &Api);
  /// The definition of a host function whose summary can stand for a call.
  static const FunctionDecl *summarisableCallee(const CallExpr *Call);
  void applySummary(const CallExpr *Call, const FunctionDecl &Callee);
};

bool isLValueAccess(const Expr *E) {
  if (!E->isGLValue())
    return false;
  E = E->IgnoreParens();
  if (isa<DeclRefExpr, ArraySubscriptExpr, MemberExpr>(E))
    return true;
  const auto *UO = dyn_cast<UnaryOperator>(E);
  return UO && UO->getOpcode() == UO_Deref;
}

void HostAccessVisitor::visit(const Stmt *S, uint8_t Mode) {
  if (!S || S == Skip)
    return;
  if (const auto *E = dyn_cast<Expr>(S); E && isLValueAccess(E)) {
    accessLValue(E->IgnoreParens(), Mode);
    return;
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S)) {
    if (ICE->getCastKind() == CK_ArrayToPointerDecay)
      visitAddress(ICE->getSubExpr());
    else
      visit(ICE->getSubExpr(), ReadAccess);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_AddrOf)
      return visitAddress(UO->getSubExpr());
    if (UO->isIncrementDecrementOp())
      return visit(UO->getSubExpr(), ReadWriteAccess);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    visit(BO->getRHS(), ReadAccess);
    visit(BO->getLHS(), BO->getOpcode() == BO_Assign ? WriteAccess : ReadWriteAccess);
    return;
  }
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    if (auto It = P.OpIndex.find(Launch); It != P.OpIndex.end())
      Out.Ops.push_back(It->second);
    // The configuration (grid, block, shared memory, stream) and arguments
    // are read at launch; the configuration call itself is the launch.
    if (const CallExpr *Config = Launch->getConfig())
      for (const Expr *Arg : Config->arguments())
        visit(Arg, ReadAccess);
    for (const Expr *Arg : Launch->arguments())
      visit(Arg, ReadAccess);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return visitCall(Call);
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (const Expr *Init = V->getInit()) {
          if (V->getType()->isReferenceType())
            visitAddress(Init);
          else
            visit(Init, ReadAccess);
          if (!V->getType()->isReferenceType() && P.Pts.isTracked(V))
            Out.Host.add(P.Pts.storageOf(V), WriteAccess);
        }
        if (const auto *VAT = P.Ctx.getAsVariableArrayType(V->getType()))
          visit(VAT->getSizeExpr(), ReadAccess);
      }
    return;
  }
  if (isa<UnaryExprOrTypeTraitExpr, CXXTypeidExpr, CXXNoexceptExpr>(S))
    return; // unevaluated
  if (isa<GCCAsmStmt, MSAsmStmt>(S))
    return unknown("inline assembly");
  if (isa<CXXThrowExpr>(S))
    return unknown("a throw expression");
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const ApiFunction *Api = Construct->getType()->getAsCXXRecordDecl() &&
                                     Construct->getType()->getAsCXXRecordDecl()->getIdentifier()
                                 ? lookupApi(Construct->getType()->getAsCXXRecordDecl()->getName())
                                 : nullptr;
    if (!Construct->getConstructor()->isTrivial() && !(Api && Api->Kind == ApiKind::Pure))
      unknown("constructor of `" + Construct->getType().getAsString() + "`");
    for (const Expr *Arg : Construct->arguments())
      visit(Arg, ReadAccess);
    return;
  }
  if (isa<CXXBindTemporaryExpr>(S))
    unknown("destructor of a temporary");
  if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
    if (const CXXConstructExpr *C = New->getConstructExpr(); C && !C->getConstructor()->isTrivial())
      unknown("constructor called by `new`");
    for (const Stmt *Child : S->children())
      visit(Child, ReadAccess);
    return;
  }
  if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
    visit(Delete->getArgument(), ReadAccess);
    add(P.Pts.pointees(Delete->getArgument()), WriteAccess);
    if (const CXXRecordDecl *RD = Delete->getDestroyedType()->getAsCXXRecordDecl();
        RD && RD->hasDefinition() && !RD->hasTrivialDestructor())
      unknown("destructor called by `delete`");
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // Creating a closure copies the variables captured by value; its body
    // runs only when called (a call the analysis does not follow).
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByCopy)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()); V && P.Pts.isTracked(V))
          Out.Host.add(P.Pts.storageOf(V), ReadAccess);
    return;
  }
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(S))
    return visit(Default->getExpr(), Mode);
  if (const auto *DefaultInit = dyn_cast<CXXDefaultInitExpr>(S))
    return visit(DefaultInit->getExpr(), Mode);
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(S))
    return visit(OVE->getSourceExpr(), Mode);
  for (const Stmt *Child : S->children()) {
    bool Skippable = mayBeSkipped(S, Child);
    Conditional += Skippable;
    visit(Child, ReadAccess);
    Conditional -= Skippable;
  }
}

void HostAccessVisitor::visitAddress(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    visitPointerValue(AS->getBase());
    visit(AS->getIdx(), ReadAccess);
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      visitPointerValue(ME->getBase());
    else
      visitAddress(ME->getBase());
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref) {
    visit(UO->getSubExpr(), ReadAccess);
  } else if (!isa<DeclRefExpr>(E)) {
    visit(E, ReadAccess);
  }
}

void HostAccessVisitor::visitPointerValue(const Expr *Base) {
  if (Base->IgnoreParenImpCasts()->getType()->isArrayType())
    visitAddress(Base->IgnoreParenImpCasts());
  else
    visit(Base, ReadAccess);
}

void HostAccessVisitor::accessLValue(const Expr *E, uint8_t Mode) {
  visitAddress(E);
  add(P.Pts.addressOf(E), Mode);
}

void HostAccessVisitor::visitCall(const CallExpr *Call) {
  if (isTrivialAssignment(Call)) {
    visit(Call->getArg(1), ReadAccess);
    visit(Call->getArg(0), WriteAccess);
    return;
  }
  if (const ApiFunction *Api = modelledCallee(Call))
    return visitApiCall(Call, *Api);
  if (const FunctionDecl *Def = summarisableCallee(Call)) {
    for (const Stmt *Child : Call->children())
      visit(Child, ReadAccess);
    return applySummary(Call, *Def);
  }
  // Evaluating the callee and the arguments, then a call the first version
  // cannot see into.
  for (const Stmt *Child : Call->children())
    visit(Child, ReadAccess);
  if (const FunctionDecl *F = Call->getDirectCallee())
    if (F->getBuiltinID() == Builtin::BI__builtin_expect)
      return;
  unknown("call to `" + calleeName(Call) + "`, which has no model or body");
}

const FunctionDecl *HostAccessVisitor::summarisableCallee(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def->getBody() || Def->isVariadic())
    return nullptr;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && !M->isStatic())
    return nullptr; // what `this` points to is not followed yet
  if (Def->hasAttr<CUDAGlobalAttr>() ||
      (Def->hasAttr<CUDADeviceAttr>() && !Def->hasAttr<CUDAHostAttr>()))
    return nullptr;
  return Def;
}

void HostAccessVisitor::applySummary(const CallExpr *Call, const FunctionDecl &Callee) {
  const FunctionSummary &S = P.Device.get(&Callee);
  for (unsigned I = 0; I < Call->getNumArgs() && I < S.ParamModes.size(); ++I) {
    if (!S.ParamModes[I])
      continue;
    const Expr *Arg = Call->getArg(I);
    if (Callee.getParamDecl(I)->getType()->isReferenceType())
      add(P.Pts.addressOf(Arg), S.ParamModes[I]);
    else if (Arg->getType()->isPointerType() || Arg->getType()->isArrayType())
      add(P.Pts.pointees(Arg), S.ParamModes[I]);
  }
  for (auto [Global, Mode] : S.Globals)
    if (!P.Pts.isImmutable(Global))
      Out.Host.add(P.Pts.storageOf(Global), Mode);
  if (S.WritesOutput)
    Out.Host.add(P.output(), WriteAccess);
  Out.ResetsDevice |= S.ResetsDevice;
  if (S.UnknownMode) {
    if (!Out.Host.touchesUnknown() && Out.UnknownWhy.empty())
      Out.UnknownWhy = "`" + Callee.getNameAsString() + "` reaches " + S.UnknownWhy;
    Out.Host.add(UnknownObject, S.UnknownMode);
  }
}

void HostAccessVisitor::visitApiCall(const CallExpr *Call, const ApiFunction &Api) {
  if (auto It = P.OpIndex.find(Call); It != P.OpIndex.end())
    Out.Ops.push_back(It->second);
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    ArgRole Role = Api.roleOf(I);
    if (Role == ArgRole::SymbolRead || Role == ArgRole::SymbolWrite ||
        (Role == ArgRole::OutAlloc && !Api.isGpuOp()))
      visitAddress(Arg->IgnoreParenCasts()->isGLValue() ? Arg->IgnoreParenCasts() : Arg);
    else
      visit(Arg, ReadAccess);
    if (Api.isGpuOp())
      continue; // device effects belong to the op, not to the host
    if (!Arg->getType()->isPointerType() && !Arg->getType()->isArrayType() &&
        Role != ArgRole::Unknown)
      continue; // a scalar argument (printf("%d", n)) is only read as a value
    switch (Role) {
    case ArgRole::Read:
      add(P.Pts.pointees(Arg), ReadAccess);
      break;
    case ArgRole::Write:
      add(P.Pts.pointees(Arg), WriteAccess);
      break;
    case ArgRole::ReadWrite:
    case ArgRole::Free:
      add(P.Pts.pointees(Arg), ReadWriteAccess);
      break;
    case ArgRole::OutAlloc:
      add(P.Pts.pointees(Arg), WriteAccess);
      break;
    case ArgRole::Unknown:
      unknown("argument " + std::to_string(I + 1) + " of `" + Api.Name.str() + "`");
      break;
    default:
      break;
    }
  }
  if (Api.WritesOutput)
    Out.Host.add(P.output(), WriteAccess);
  switch (Api.Kind) {
  case ApiKind::DeviceSync:
    Out.SyncsDevice |= Conditional == 0;
    break;
  case ApiKind::ProgramExit:
    // Ending the program on a path that may not run (the error branch of a
    // CHECK macro) abandons pending GPU work just as a CUDA error does; an
    // unconditional exit waits for everything.
    // It still flushes the program's output, which a pending kernel that
    // prints must reach first.
    if (Conditional == 0 && !MayNotRun)
      unknown("`" + Api.Name.str() + "` ends the program");
    else
      Out.Host.add(P.output(), WriteAccess);
    break;
  case ApiKind::DeviceReset:
    Out.ResetsDevice = true;
    unknown("`" + Api.Name.str() + "` destroys the CUDA context");
    break;
  case ApiKind::UserStreams:
    unknown("`" + Api.Name.str() + "` works with the program's own streams");
    break;
  default:
    break;
  }
}

} // namespace

void FunctionAccesses::Impl::collectOps(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return; // a lambda body is another function
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    OpIndex[Launch] = Ops.size();
    Ops.push_back(makeLaunch(Launch));
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (const ApiFunction *Api = modelledCallee(Call); Api && Api->isGpuOp()) {
      OpIndex[Call] = Ops.size();
      Ops.push_back(makeApiOp(Call, *Api));
    }
  }
  for (const Stmt *Child : S->children())
    collectOps(Child);
}

GpuOp FunctionAccesses::Impl::makeApiOp(const CallExpr *Call, const ApiFunction &Api) {
  GpuOp Op{static_cast<unsigned>(Ops.size()),
           Api.Kind == ApiKind::GpuSet ? GpuOpKind::Set : GpuOpKind::Copy,
           Api.Name.str(),
           Call,
           &Api,
           {},
           {},
           lineOf(Call->getBeginLoc()),
           columnOf(Call->getBeginLoc()),
           false};
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    auto Add = [&](const Pointees &Pt, uint8_t Mode) {
      Pt.addTo(Op.Effects, Mode, Op.UnknownWhy);
      Op.UsesTemporary |= Pt.Temporary;
    };
    switch (Api.roleOf(I)) {
    case ArgRole::Read:
      Add(Pts.pointees(Arg), ReadAccess);
      break;
    case ArgRole::Write:
      Add(Pts.pointees(Arg), WriteAccess);
      break;
    case ArgRole::ReadWrite:
      Add(Pts.pointees(Arg), ReadWriteAccess);
      break;
    case ArgRole::SymbolRead:
    case ArgRole::SymbolWrite: {
      uint8_t Mode = Api.roleOf(I) == ArgRole::SymbolRead ? ReadAccess : WriteAccess;
      const Expr *Sym = Arg->IgnoreParenCasts();
      Add(Sym->isGLValue() ? Pts.addressOf(Sym) : Pts.pointees(Arg), Mode);
      break;
    }
    case ArgRole::Unknown:
      Pointees::unknown("argument " + std::to_string(I + 1) + " of `" + Api.Name.str() +
                        "` carries pointers the analysis does not follow")
          .addTo(Op.Effects, ReadWriteAccess, Op.UnknownWhy);
      break;
    default:
      break;
    }
  }
  return Op;
}

GpuOp FunctionAccesses::Impl::makeLaunch(const CUDAKernelCallExpr *Launch) {
  const FunctionDecl *Kernel = Launch->getDirectCallee();
  GpuOp Op{static_cast<unsigned>(Ops.size()),
           GpuOpKind::Launch,
           Kernel ? Kernel->getNameAsString() : "<kernel pointer>",
           Launch,
           nullptr,
           {},
           {},
           lineOf(Launch->getBeginLoc()),
           columnOf(Launch->getBeginLoc()),
           false};
  const CallExpr *Config = Launch->getConfig();
  if (Config && Config->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Config->getArg(3)))
    Op.HasUserStream = !isNullConstant(Config->getArg(3), Ctx);
  if (!Kernel) {
    Pointees::unknown("a kernel launched through a pointer")
        .addTo(Op.Effects, ReadWriteAccess, Op.UnknownWhy);
    return Op;
  }
  const FunctionSummary &S = Device.get(Kernel);
  for (unsigned I = 0; I < Launch->getNumArgs() && I < S.ParamModes.size(); ++I) {
    if (!S.ParamModes[I])
      continue;
    const Expr *Arg = Launch->getArg(I);
    const ParmVarDecl *Param = Kernel->getParamDecl(I);
    Pointees Pt = Param->getType()->isReferenceType() ? Pts.addressOf(Arg) : Pts.pointees(Arg);
    Pt.addTo(Op.Effects, S.ParamModes[I], Op.UnknownWhy);
    Op.UsesTemporary |= Pt.Temporary;
  }
  for (auto [Global, Mode] : S.Globals)
    if (!Pts.isImmutable(Global))
      Op.Effects.add(Pts.storageOf(Global), Mode);
  if (S.WritesOutput)
    Op.Effects.add(output(), WriteAccess);
  if (S.UnknownMode) {
    if (Op.UnknownWhy.empty())
      Op.UnknownWhy = "kernel `" + Op.Callee + "`: " + S.UnknownWhy;
    Op.Effects.add(UnknownObject, S.UnknownMode);
  }
  return Op;
}

FunctionAccesses::FunctionAccesses(const FunctionDecl &F, ASTContext &Ctx,
                                   FunctionSummaries &Device)
    : P(std::make_unique<Impl>(F, Ctx, Device)) {
  P->collectOps(F.getBody());
}
FunctionAccesses::~FunctionAccesses() = default;
FunctionAccesses::FunctionAccesses(FunctionAccesses &&) = default;

const FunctionDecl &FunctionAccesses::function() const { return P->F; }
std::string FunctionAccesses::name() const { return P->F.getQualifiedNameAsString(); }
const ObjectTable &FunctionAccesses::objects() const { return P->Objects; }
const std::vector<GpuOp> &FunctionAccesses::ops() const { return P->Ops; }

StmtAccesses FunctionAccesses::accessesOf(const Stmt *S, bool MayNotRun, const Stmt *Skip) const {
  StmtAccesses Out;
  HostAccessVisitor(*P, Out, MayNotRun, Skip).visit(S);
  return Out;
}

bool FunctionAccesses::isReachable(const VarDecl *V) const {
  return P->Pts.isTracked(V) && !P->Pts.isImmutable(V);
}

std::string FunctionAccesses::describe(ObjectId Object) const {
  if (Object == UnknownObject)
    return "memory the analysis cannot name";
  return P->Objects.get(Object).Name;
}

void FunctionAccesses::print(llvm::raw_ostream &OS) const {
  OS << "function " << name() << "\n";
  OS << " objects:\n";
  P->Objects.print(OS);
  OS << " ops:\n";
  for (const GpuOp &Op : P->Ops) {
    OS << "  op" << Op.Id << " line " << Op.Line << ":" << Op.Column << " " << Op.Callee
       << " effects: ";
    Op.Effects.print(OS, P->Objects);
    if (!Op.UnknownWhy.empty())
      OS << " (unknown: " << Op.UnknownWhy << ")";
    OS << "\n";
  }
  OS << " statements:\n";
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(P->F.getBody()))
    for (const Stmt *S : Body->body()) {
      StmtAccesses A = accessesOf(S);
      OS << "  line " << P->lineOf(S->getBeginLoc()) << ": host ";
      A.Host.print(OS, P->Objects);
      if (!A.Ops.empty()) {
        OS << "; ops";
        for (unsigned Id : A.Ops)
          OS << " op" << Id;
      }
      if (A.SyncsDevice)
        OS << "; syncs device";
      if (!A.UnknownWhy.empty())
        OS << " (unknown: " << A.UnknownWhy << ")";
      OS << "\n";
    }
}

} // namespace streamalloc
