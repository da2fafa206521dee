//===- FunctionAccesses.cpp - Host accesses and GPU op effects -------------===//
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Model/ApiModel.h"

#include "AccessWalker.h"
#include "AstUtil.h"
#include "Registry.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>
#include <functional>

using namespace clang;

namespace streamalloc {

namespace {

bool isLValueAccess(const Expr *E) {
  if (!E->isGLValue())
    return false;
  E = E->IgnoreParens();
  if (isa<DeclRefExpr, ArraySubscriptExpr, MemberExpr>(E))
    return !isa<MemberExpr>(E) || isa<FieldDecl, VarDecl>(cast<MemberExpr>(E)->getMemberDecl());
  const auto *UO = dyn_cast<UnaryOperator>(E);
  return UO && UO->getOpcode() == UO_Deref;
}

/// Walks a statement and records what it reads and writes (on the host, or
/// on the device for device code).
class AccessWalker {
public:
  AccessWalker(PointsTo &Pts, StmtAccesses &Out, bool MayNotRun, const Stmt *Skip,
               const llvm::DenseMap<const Expr *, unsigned> *OpIds, bool HostSideOnly = false,
               const llvm::DenseSet<const Stmt *> *Ignored = nullptr)
      : Pts(Pts), Out(Out), MayNotRun(MayNotRun), Skip(Skip), OpIds(OpIds), Device(Pts.isDevice()),
        HostSideOnly(HostSideOnly), Ignored(Ignored) {}

  void visit(const Stmt *S, uint8_t Mode = ReadAccess);
  /// The destructor of the local \p V, run at the end of its scope.
  void destroy(const VarDecl *V) {
    LValue Object;
    if (Pts.isTracked(V))
      Object.Objects = Pointees::of(Pts.storageOf(V));
    else
      Object.Vars.push_back(V);
    QualType T = Pts.context().getBaseElementType(V->getType());
    visitDestructor(T->getAsCXXRecordDecl(), Object, V->getInit(), "the end of its scope");
  }

private:
  PointsTo &Pts;
  StmtAccesses &Out;
  unsigned Conditional = 0; ///< inside a part of the statement that may not run
  bool MayNotRun;           ///< the statement itself sits in a branch or loop body
  const Stmt *Skip;         ///< a subtree not to visit
  const llvm::DenseMap<const Expr *, unsigned> *OpIds;
  bool Device;
  /// Record only what the host touches of a callee left as written
  /// (StmtAccesses::HostSide).
  bool HostSideOnly;
  /// Calls that run only on a path that ends the program
  /// (errorPathRepeats()): they count for nothing.
  const llvm::DenseSet<const Stmt *> *Ignored;

  void unknown(std::string Why, uint8_t Mode = ReadWriteAccess) {
    if (!Out.Host.touchesUnknown() && Out.UnknownWhy.empty())
      Out.UnknownWhy = std::move(Why);
    Out.Host.add(UnknownObject, Mode);
  }
  void add(const Pointees &Pt, uint8_t Mode) { Pts.addAccess(Out.Host, Pt, Mode, Out.UnknownWhy); }
  /// \p What ends the program here. On a path that may not run (the error
  /// branch of a CHECK macro) that abandons pending GPU work just as a CUDA
  /// error does; an unconditional end waits for everything. It still flushes
  /// the program's output, which a pending kernel that prints must reach
  /// first.
  void endProgram(const std::string &What) {
    if (Conditional == 0 && !MayNotRun) {
      Out.MayBlock = true; // the program's end: nothing may be left running
      unknown(What + " ends the program");
    } else {
      Out.Host.add(OutputObject, WriteAccess);
    }
  }
  /// A throw in `main` outside any try block and lambda: no handler can
  /// catch it, so the program ends (std::terminate).
  bool endsTheProgram(const CXXThrowExpr &Throw) const {
    if (!Pts.function().isMain())
      return false;
    const Stmt *Body = Pts.function().getBody();
    DynTypedNodeList Parents = Pts.context().getParents(Throw);
    while (!Parents.empty()) {
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P || isa<CXXTryStmt, LambdaExpr>(P))
        return false;
      if (P == Body)
        return true;
      Parents = Pts.context().getParents(*P);
    }
    return false;
  }
  void recordOp(const Expr *Call) {
    Out.PerformsGpuOps = true;
    Out.EnqueuesOnOwnStreams |= ownStreamArgument(Call, Pts.context()) != nullptr;
    if (OpIds)
      if (auto It = OpIds->find(Call); It != OpIds->end()) {
        Out.Ops.push_back(It->second);
        if (Conditional == 0)
          Out.OpsAlwaysEnqueued.push_back(It->second);
      }
  }

  void visitAddress(const Expr *E);
  void visitPointerValue(const Expr *Base);
  void visitObject(const CallSite &C);
  void accessLValue(const Expr *E, uint8_t Mode);
  void visitCall(const CallExpr *Call);
  void visitConstruct(const CXXConstructExpr *CE, const LValue *Constructed);
  void visitApiCall(const CallSite &C, const ApiFunction &Api);
  void applySummary(const CallSite &C, const FunctionDecl &Callee);
  void visitDestructor(const CXXRecordDecl *RD, const LValue &Object, const Expr *Site,
                       const char *What);
};

void AccessWalker::visit(const Stmt *S, uint8_t Mode) {
  if (!S || S == Skip || (Ignored && Ignored->count(S)))
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
    recordOp(Launch);
    if (Device)
      unknown("a kernel launched from device code");
    // The configuration (grid, block, shared memory, stream) and arguments
    // are read at launch; the configuration call itself is the launch.
    if (const CallExpr *Config = Launch->getConfig())
      for (const Expr *Arg : Config->arguments())
        visit(Arg, ReadAccess);
    for (const Expr *Arg : Launch->arguments())
      visit(Arg, ReadAccess);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    visitCall(Call);
    // A call that returns a reference (v[i], an accessor) designates memory
    // that is accessed like any other lvalue.
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    if (Call->isGLValue() && !(Op && Op->isAssignmentOp()))
      add(Pts.addressOf(Call), Mode);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (const Expr *Init = V->getInit()) {
          const auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit());
          if (V->getType()->isReferenceType()) {
            visitAddress(Init);
          } else if (CE && !isa<CXXTemporaryObjectExpr>(CE)) {
            LValue Built;
            if (Pts.isTracked(V))
              Built.Objects = Pointees::of(Pts.storageOf(V));
            else
              Built.Vars.push_back(V);
            visitConstruct(CE, &Built);
          } else {
            visit(Init, ReadAccess);
          }
          if (!V->getType()->isReferenceType() && Pts.isTracked(V))
            add(Pointees::of(Pts.storageOf(V)), WriteAccess);
        }
        if (const auto *VAT = Pts.context().getAsVariableArrayType(V->getType()))
          visit(VAT->getSizeExpr(), ReadAccess);
      }
    return;
  }
  if (isa<UnaryExprOrTypeTraitExpr, CXXTypeidExpr, CXXNoexceptExpr>(S))
    return; // unevaluated
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S); Asm && !touchesMemory(*Asm, Device)) {
    // Register operands only (`asm("nanosleep.u32 %0;" :: "r"(ns))`): the
    // outputs are written and the inputs read like any other lvalue/value.
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
      visit(Asm->getOutputExpr(I), Asm->isOutputPlusConstraint(I) ? ReadWriteAccess : WriteAccess);
    for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
      visit(Asm->getInputExpr(I), ReadAccess);
    return;
  }
  if (isa<GCCAsmStmt, MSAsmStmt>(S))
    return unknown("inline assembly");
  if (const auto *Throw = dyn_cast<CXXThrowExpr>(S); Throw && !Device) {
    if (!endsTheProgram(*Throw))
      return unknown("a throw expression");
    // No handler anywhere: std::terminate ends the program, as an exit does.
    for (const Stmt *Child : S->children())
      visit(Child, ReadAccess);
    return endProgram("an exception no handler catches");
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    return visitConstruct(CE, nullptr);
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(S)) {
    visit(Bind->getSubExpr(), ReadAccess);
    if (!Device) {
      LValue Temp;
      Temp.Objects.Temporary = true;
      Temp.Value = Bind->getSubExpr();
      visitDestructor(Bind->getType()->getAsCXXRecordDecl(), Temp, Bind, "a temporary");
    }
    return;
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
    for (const Stmt *Child : S->children())
      if (Child != New->getConstructExpr())
        visit(Child, ReadAccess);
    if (const CXXConstructExpr *C = New->getConstructExpr()) {
      LValue Built = LValue::of(Pts.pointees(New));
      visitConstruct(C, &Built);
    }
    return;
  }
  if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
    visit(Delete->getArgument(), ReadAccess);
    Pointees Freed = Pts.pointees(Delete->getArgument());
    add(Freed, WriteAccess);
    if (const CXXRecordDecl *RD = Delete->getDestroyedType()->getAsCXXRecordDecl())
      visitDestructor(RD, LValue::of(Freed), Delete, "`delete`");
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // Creating a closure copies the variables captured by value; its body
    // runs only when called (a call the analysis does not follow).
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByCopy)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()); V && Pts.isTracked(V))
          add(Pointees::of(Pts.storageOf(V)), ReadAccess);
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
  // An OpenMP region's body runs (on its threads) before the region ends;
  // it is not among the CapturedStmt's children.
  if (const auto *Region = dyn_cast<CapturedStmt>(S))
    visit(Region->getCapturedStmt(), ReadAccess);
}

void AccessWalker::visitAddress(const Expr *E) {
  E = E->IgnoreParens();
  // Casts that keep an lvalue (to const, to a base class) designate the same object.
  while (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (!ICE->isGLValue())
      break;
    E = ICE->getSubExpr()->IgnoreParens();
  }
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

void AccessWalker::visitPointerValue(const Expr *Base) {
  if (Base->IgnoreParenImpCasts()->getType()->isArrayType())
    visitAddress(Base->IgnoreParenImpCasts());
  else
    visit(Base, ReadAccess);
}

void AccessWalker::accessLValue(const Expr *E, uint8_t Mode) {
  visitAddress(E);
  add(Pts.addressOf(E), Mode);
}

/// The object a member function is called on: evaluated, not accessed (the
/// callee's summary or model says what it touches).
void AccessWalker::visitObject(const CallSite &C) {
  if (!C.Object)
    return;
  if (C.ObjectIsPointer)
    visit(C.Object, ReadAccess);
  else
    visitAddress(C.Object);
}

void AccessWalker::visitCall(const CallExpr *Call) {
  if (isTrivialAssignment(Call)) {
    visit(Call->getArg(1), ReadAccess);
    visit(Call->getArg(0), WriteAccess);
    return;
  }
  CallTarget Target = resolveCall(Call, Device);
  CallSite C = CallSite::of(Call);
  auto VisitOperands = [&] {
    visitObject(C);
    if (!isa<CXXMemberCallExpr>(Call) && !(C.Object && isa<CXXOperatorCallExpr>(Call)))
      visit(Call->getCallee(), ReadAccess);
    for (const Expr *Arg : C.Args)
      visit(Arg, ReadAccess);
  };
  // A copy or fill on a stream of the program's own is a GPU op, modelled
  // with its synchronous form's row.
  if (const ApiFunction *Own = Target.Api ? ownStreamOpApi(Call) : nullptr)
    return visitApiCall(C, *Own);
  if (Target.Api)
    return visitApiCall(C, *Target.Api);
  if (Target.Def) {
    VisitOperands();
    return applySummary(C, *Target.Def);
  }
  VisitOperands();
  if (Target.Builtin)
    return;
  if (Device && C.Callee) {
    // Builtins, atomics, intrinsics: whatever they are given a pointer to may
    // be read and written.
    for (unsigned I = 0; I < C.Args.size(); ++I) {
      const Expr *Arg = C.Args[I];
      const ParmVarDecl *Param = I < C.Callee->getNumParams() ? C.Callee->getParamDecl(I) : nullptr;
      if (Param && Param->getType()->isReferenceType())
        add(Pts.addressOf(Arg), ReadWriteAccess);
      else if (Arg->getType()->isPointerType() || Arg->getType()->isArrayType())
        add(Pts.pointees(Arg), ReadWriteAccess);
    }
    return;
  }
  Out.MayBlock = Out.CallsUnseen = true;
  unknown(Target.Why);
}

void AccessWalker::visitConstruct(const CXXConstructExpr *CE, const LValue *Constructed) {
  CallTarget Target = resolveCall(CE, Device);
  CallSite C = CallSite::of(CE);
  LValue Temp;
  Temp.Objects.Temporary = true;
  Temp.Value = CE;
  C.Constructed = Constructed ? Constructed : &Temp;
  if (Target.Api)
    return visitApiCall(C, *Target.Api);
  for (const Expr *Arg : C.Args)
    visit(Arg, ReadAccess);
  if (Target.Builtin)
    return;
  if (Target.Def)
    return applySummary(C, *Target.Def);
  if (!Device) {
    Out.MayBlock = Out.CallsUnseen = true;
    unknown(Target.Why);
  }
}

void AccessWalker::visitDestructor(const CXXRecordDecl *RD, const LValue &Object, const Expr *Site,
                                   const char *What) {
  if (!RD || !RD->hasDefinition() || RD->hasTrivialDestructor())
    return;
  if (const ApiFunction *Row = modelledClass(RD); Row && Row->Kind == ApiKind::ContainerNew) {
    LValue Elements = Object;
    Elements.Key = RD->getCanonicalDecl();
    add(Pts.load(Elements), WriteAccess); // frees the elements
    return;
  }
  const CXXDestructorDecl *Dtor = RD->getDestructor();
  const FunctionDecl *Def = nullptr;
  if (Dtor && Dtor->hasBody(Def) && Def && Def->getBody() && !Dtor->isVirtual()) {
    CallSite C;
    C.Callee = Def;
    C.Constructed = &Object;
    C.Site = Site;
    return applySummary(C, *Def);
  }
  Out.MayBlock = Out.CallsUnseen = true;
  unknown(std::string("destructor called by ") + What);
}

void AccessWalker::applySummary(const CallSite &C, const FunctionDecl &Callee) {
  const FunctionSummary &S = Pts.callees().summaryOf(&Callee);
  // The GPU ops of a callee left as written run on the legacy stream after
  // all the work on the tool's streams queued before the call; only what the
  // host touches during the call can conflict with that work.
  bool Legacy = S.PerformsGpuOps && !S.CalleesPerformGpuOps && !S.Recursive &&
                Pts.callees().leftAsWritten(&Callee);
  Out.CallsLeftAsWritten |= Legacy;
  Out.CallCompletesEarlierWork |= Conditional == 0 && Pts.callees().completesEarlierWork(&Callee);
  // Work the callee leaves on a stream of the program's own is an op of the
  // caller's (FunctionAccesses::Impl::collectOps).
  if (S.LeavesOwnStreamWork) {
    Out.EnqueuesOnOwnStreams = true;
    recordOp(C.Site);
  }
  // Work the callee returns with on a stream of the tool's is an op of the
  // caller's (a CallWork op, collectOps).
  if (Pts.callees().pendingWorkStream(&Callee))
    recordOp(C.Site);
  bool HostSide = Legacy && HostSideOnly;
  for (const SummaryAccess &A : S.Accesses) {
    uint8_t Mode = A.Host | (HostSide ? A.DeviceHostSide : A.Device);
    if (Mode)
      add(Pts.instantiate(A.Object, C, S), Mode);
  }
  Out.CalleesPerformGpuOps |= S.PerformsGpuOps;
  Out.CalleesMayBlockDifferently |= S.PerformsGpuOps && !Pts.callees().blocksAsWritten(&Callee);
  if (S.WritesOutput)
    Out.Host.add(OutputObject, WriteAccess);
  Out.ResetsDevice |= S.ResetsDevice;
  Out.MaySync |= S.MaySync;
  Out.PerformsGpuOps |= S.PerformsGpuOps;
  Out.MayBlock |= S.MaySync || S.PerformsGpuOps;
  // A callee that synchronises the device before it reads the clock needs
  // no wait before the call: the output keeps that sync.
  Out.ReadsTimer |= S.ReadsTimer && !S.SyncsDeviceBeforeTimer;
  if (uint8_t Mode = HostSide ? S.UnknownHost | S.UnknownDeviceHostSide : S.unknownMode()) {
    unknown("`" + Callee.getNameAsString() + "` reaches " + S.UnknownWhy, Mode);
    // What reaches that memory may be a call it cannot see either.
    Out.CallsUnseen |= !Pts.callees().blocksAsWritten(&Callee);
  }
}

void AccessWalker::visitApiCall(const CallSite &C, const ApiFunction &Api) {
  // A stream-ordered allocation or release (an op of the function, though
  // its row is not a GPU op): the memory it creates or frees is the op's
  // effect; the pointer it stores into `&p` is written on the host at once.
  bool StreamOrdered = !Api.isGpuOp() && OpIds && OpIds->count(C.Site);
  if (Api.isGpuOp() || StreamOrdered)
    recordOp(C.Site);
  // Arguments in role order: the object first for a member function.
  llvm::SmallVector<const Expr *, 6> Args;
  if (Api.isMember())
    Args.push_back(C.Object);
  llvm::append_range(Args, C.Args);
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *Arg = Args[I];
    if (!Arg)
      continue;
    bool IsObject = Api.isMember() && I == 0;
    ArgRole Role = Api.roleOf(I);
    if (IsObject)
      visitObject(C);
    else if (Role == ArgRole::SymbolRead || Role == ArgRole::SymbolWrite ||
             (Role == ArgRole::OutAlloc && !Api.isGpuOp()))
      visitAddress(Arg->IgnoreParenCasts()->isGLValue() ? Arg->IgnoreParenCasts() : Arg);
    else
      visit(Arg, ReadAccess);
    if (Api.isGpuOp() || (StreamOrdered && Role == ArgRole::Free))
      continue; // device effects belong to the op, not to the host
    bool Container = IsObject || containerClass(Arg->getType());
    QualType T = Arg->getType();
    if (!Container && !T->isPointerType() && !T->isArrayType() && Role != ArgRole::Unknown &&
        !(T->isRecordType() && !Arg->isGLValue()))
      continue; // a scalar argument (printf("%d", n)) is only read as a value
    auto Memory = [&] {
      if (IsObject)
        return Pts.elementsOf(C.Object, C.ObjectIsPointer);
      return Pts.argumentMemory(Arg, Container);
    };
    switch (Role) {
    case ArgRole::Read:
      add(Memory(), ReadAccess);
      break;
    case ArgRole::Write:
      add(Memory(), WriteAccess);
      break;
    case ArgRole::ReadWrite:
    case ArgRole::Free:
      add(Memory(), ReadWriteAccess);
      break;
    case ArgRole::OutAlloc:
      add(Pts.pointees(Arg), WriteAccess);
      break;
    case ArgRole::Unknown:
      unknown("argument " + std::to_string(I + 1) + " of `" + Api.Name.str() + "`");
      break;
    default:
      break;
    }
  }
  if (Api.Kind == ApiKind::ContainerNew) {
    // Copying another container reads its elements; the new elements are
    // fresh (or, for a move, the other's: no access).
    for (const Expr *Arg : C.Args)
      if (Arg && containerClass(Arg->getType()))
        add(Pts.elementsOf(Arg), ReadAccess);
  }
  if (Api.Kind == ApiKind::ContainerSwap && Args.size() > 1 && Args[1])
    add(Pts.elementsOf(Args[1]), ReadWriteAccess);
  if (Api.WritesOutput)
    Out.Host.add(OutputObject, WriteAccess);
  // The CUDA runtime's calls other than queries and GPU ops (allocations,
  // releases, the program's own *Async copies of pageable memory, ...) may
  // wait for earlier device work; which ones do is not modelled.
  if (Api.CudaRuntime && !Api.isGpuOp() && Api.Kind != ApiKind::Pure)
    Out.MayBlock = true;
  switch (Api.Kind) {
  case ApiKind::Timer:
    Out.ReadsTimer = true;
    break;
  case ApiKind::DeviceSync:
    Out.SyncsDevice |= Conditional == 0;
    if (Conditional == 0)
      Out.SyncCalls.push_back(C.Site);
    Out.MaySync = true;
    break;
  case ApiKind::OtherSync:
    Out.MaySync = true;
    if (Conditional == 0 && Api.Id == ApiId::cudaStreamSynchronize)
      Out.StreamSyncCalls.push_back(C.Site);
    break;
  case ApiKind::ProgramExit:
    endProgram("`" + Api.Name.str() + "`");
    break;
  case ApiKind::DeviceReset:
    Out.ResetsDevice = true;
    unknown("`" + Api.Name.str() + "` destroys the CUDA context");
    break;
  case ApiKind::UserStreams:
    unknown("`" + Api.Name.str() + "` works with the program's own streams");
    break;
  case ApiKind::DeviceSelect:
    if (Device)
      unknown("`" + Api.Name.str() + "`");
    break;
  default:
    break;
  }
}

} // namespace

bool isGpuOpCall(const Stmt *S) {
  if (isa<CUDAKernelCallExpr>(S))
    return true;
  const auto *Call = dyn_cast<CallExpr>(S);
  return Call && gpuOpApi(Call);
}

namespace {

void collectGpuOpCalls(const Stmt *S, llvm::SmallVectorImpl<const Stmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isGpuOpCall(S))
    Out.push_back(S);
  for (const Stmt *Child : S->children())
    collectGpuOpCalls(Child, Out);
}

/// Whether every path through \p S ends the program: its last statement
/// calls a function that does not return (exit, abort), and nothing in it
/// jumps out first.
bool endsTheProgram(const Stmt *S) {
  const Stmt *Last = S;
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    if (Block->body_empty())
      return false;
    Last = Block->body_back();
  }
  const auto *Call = dyn_cast<CallExpr>(Last);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->isNoReturn() && !containsJump(S);
}

} // namespace

llvm::DenseSet<const Stmt *> errorPathRepeats(const Stmt *Body, const ASTContext &Ctx) {
  llvm::DenseSet<const Stmt *> Repeats;
  const SourceManager &SM = Ctx.getSourceManager();
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    for (const Stmt *Child : S->children())
      Visit(Child);
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable() || If->isConstexpr() ||
        If->isConsteval() || !endsTheProgram(If->getThen()))
      return;
    llvm::SmallVector<const Stmt *, 2> Checked, Again;
    collectGpuOpCalls(If->getCond(), Checked);
    if (Checked.size() != 1 || !Checked.front()->getBeginLoc().isMacroID() ||
        !SM.isMacroArgExpansion(Checked.front()->getBeginLoc()))
      return;
    SourceLocation Spelled = SM.getSpellingLoc(Checked.front()->getBeginLoc());
    collectGpuOpCalls(If->getThen(), Again);
    if (Again.empty() || llvm::any_of(Again, [&](const Stmt *Call) {
          return !Call->getBeginLoc().isMacroID() ||
                 SM.getSpellingLoc(Call->getBeginLoc()) != Spelled;
        }))
      return;
    Repeats.insert(Again.begin(), Again.end());
  };
  Visit(Body);
  return Repeats;
}

namespace {

/// Whether the host itself may touch what argument \p Role of a call of
/// \p Api (a synchronous copy or fill) names before the legacy stream
/// reaches the call: the source of a copy to the device (a pageable one is
/// staged when the call is made).
bool hostSideArgument(const ApiFunction &Api, CopyDirection Direction, ArgRole Role) {
  switch (Role) {
  case ArgRole::SymbolRead:
  case ArgRole::SymbolWrite:
    return false; // a __device__ or __constant__ variable
  case ArgRole::Unknown:
    return true;
  default:
    break;
  }
  if (Api.Kind != ApiKind::GpuCopy)
    return true; // a fill: what it writes outside device memory (below)
  switch (Direction) {
  case CopyDirection::DeviceToDevice:
    return false;
  case CopyDirection::HostToDevice:
    return Role == ArgRole::Read;
  case CopyDirection::DeviceToHost:
    // The host buffer is written only once the copy has run on the device
    // (from a staging buffer when it is pageable), so after earlier work.
    return false;
  case CopyDirection::HostToHost:
  case CopyDirection::Unknown:
    return true;
  }
  llvm_unreachable("not a copy direction");
}

/// \p P without the objects only the device can touch (cudaMalloc buffers,
/// __device__ variables).
Pointees outsideDeviceMemory(Pointees P, const ObjectTable &Objects) {
  if (!P.Unknown)
    llvm::erase_if(P.Objects, [&](ObjectId O) {
      ObjectKind K = Objects.get(O).Kind;
      return K == ObjectKind::DeviceAllocation || K == ObjectKind::DeviceSymbol;
    });
  return P;
}

} // namespace

OpEffects opEffects(PointsTo &Pts, const Expr *E) {
  OpEffects Op;
  auto Add = [&](const Pointees &Pt, uint8_t Mode, bool HostSide = false) {
    Pts.addAccess(Op.Effects, Pt, Mode, Op.UnknownWhy);
    Op.UsesTemporary |= Pt.Temporary;
    if (HostSide) {
      std::string Ignored;
      Pts.addAccess(Op.HostSideEffects, outsideDeviceMemory(Pt, Pts.objects()), Mode, Ignored);
    }
  };
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(E)) {
    const FunctionDecl *Kernel = Launch->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!Kernel || !Kernel->hasBody(Def) || !Def->getBody()) {
      Add(Pointees::unknown(Kernel ? "kernel `" + Kernel->getNameAsString() +
                                         "` has no body in this file"
                                   : "a kernel launched through a pointer"),
          ReadWriteAccess);
      if (Kernel)
        Op.Effects.add(OutputObject, WriteAccess);
      return Op;
    }
    const FunctionSummary &S = Pts.callees().summaryOf(Def);
    CallSite C = CallSite::of(Launch);
    for (const SummaryAccess &A : S.Accesses)
      if (uint8_t Mode = A.Host | A.Device)
        Add(Pts.instantiate(A.Object, C, S), Mode);
    if (S.WritesOutput)
      Op.Effects.add(OutputObject, WriteAccess);
    if (uint8_t Mode = S.unknownMode()) {
      if (Op.UnknownWhy.empty())
        Op.UnknownWhy = "kernel `" + Kernel->getNameAsString() + "`: " + S.UnknownWhy;
      Op.Effects.add(UnknownObject, Mode);
    }
    return Op;
  }
  const auto *Call = cast<CallExpr>(E);
  const ApiFunction &Api = *gpuOpApi(Call);
  CopyDirection Direction = copyDirectionOf(Api, *Call);
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    bool HostSide = hostSideArgument(Api, Direction, Api.roleOf(I));
    switch (Api.roleOf(I)) {
    case ArgRole::Read:
      Add(Pts.pointees(Arg), ReadAccess, HostSide);
      break;
    case ArgRole::Write:
      Add(Pts.pointees(Arg), WriteAccess, HostSide);
      break;
    case ArgRole::ReadWrite:
      Add(Pts.pointees(Arg), ReadWriteAccess, HostSide);
      break;
    case ArgRole::SymbolRead:
    case ArgRole::SymbolWrite: {
      uint8_t Mode = Api.roleOf(I) == ArgRole::SymbolRead ? ReadAccess : WriteAccess;
      const Expr *Sym = Arg->IgnoreParenCasts();
      Add(Sym->isGLValue() ? Pts.addressOf(Sym) : Pts.pointees(Arg), Mode);
      break;
    }
    case ArgRole::Unknown:
      Add(Pointees::unknown("argument " + std::to_string(I + 1) + " of `" + Api.Name.str() +
                            "` carries pointers the analysis does not follow"),
          ReadWriteAccess, HostSide);
      break;
    default:
      break;
    }
  }
  return Op;
}

StmtAccesses walkAccesses(PointsTo &Pts, const Stmt *S, bool MayNotRun, const Stmt *Skip,
                          const llvm::DenseMap<const Expr *, unsigned> *OpIds,
                          const llvm::DenseSet<const Stmt *> *Ignored) {
  StmtAccesses Out;
  AccessWalker(Pts, Out, MayNotRun, Skip, OpIds, false, Ignored).visit(S);
  return Out;
}

//===----------------------------------------------------------------------===//
// FunctionAccesses
//===----------------------------------------------------------------------===//

struct FunctionAccesses::Impl {
  const FunctionDecl &F;
  ASTContext &Ctx;
  ObjectTable Objects;
  std::unique_ptr<PointsTo> Pts;
  std::vector<GpuOp> Ops;
  llvm::DenseMap<const Expr *, unsigned> OpIndex;
  llvm::SmallPtrSet<const Expr *, 4> StreamOrdered;
  llvm::DenseSet<const Stmt *> ErrorPathRepeats; ///< see errorPathRepeats()

  Impl(const FunctionDecl &F, ASTContext &Ctx, FunctionSummaries &Summaries) : F(F), Ctx(Ctx) {
    Registry &R = Summaries.impl();
    Pts = std::make_unique<PointsTo>(F, Ctx, Objects, R, R.aliasPolicy(&F));
  }

  unsigned lineOf(SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return SM.getSpellingLineNumber(SM.getFileLoc(L));
  }
  unsigned columnOf(SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return SM.getSpellingColumnNumber(SM.getFileLoc(L));
  }

  void collectOps(const Stmt *S);

  /// The definition a host call (not a launch) runs, if it has a body.
  static const FunctionDecl *calledDefinition(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee(), *Def = nullptr;
    if (!Callee || !Callee->hasBody(Def) || !Def || isa<CUDAKernelCallExpr>(Call))
      return nullptr;
    return Def;
  }

  /// The definition \p Call runs when that function may return while work
  /// it put on a stream of the program's own is still running.
  const FunctionDecl *leavesOwnStreamWork(const CallExpr *Call) const {
    const FunctionDecl *Def = calledDefinition(Call);
    return Def && Pts->callees().summaryOf(Def).LeavesOwnStreamWork ? Def : nullptr;
  }

  /// The work \p Call of \p Def leaves running when it returns, as an op of
  /// this function of kind \p Kind touching what the callee's summary says:
  /// its device side only (\p DeviceOnly), or everything.
  GpuOp workLeftBy(const CallExpr *Call, const FunctionDecl *Def, GpuOpKind Kind, bool DeviceOnly) {
    const FunctionSummary &Sum = Pts->callees().summaryOf(Def);
    GpuOp Op{static_cast<unsigned>(Ops.size()),
             Kind,
             Def->getNameAsString(),
             Call,
             nullptr,
             {},
             {},
             lineOf(Call->getBeginLoc()),
             columnOf(Call->getBeginLoc()),
             Kind != GpuOpKind::CallWork};
    CallSite C = CallSite::of(Call);
    for (const SummaryAccess &A : Sum.Accesses)
      if (uint8_t Mode = DeviceOnly ? A.Device : A.Host | A.Device)
        Pts->addAccess(Op.Effects, Pts->instantiate(A.Object, C, Sum), Mode, Op.UnknownWhy);
    if (uint8_t Mode = DeviceOnly ? Sum.UnknownDevice : Sum.unknownMode()) {
      Op.UnknownWhy = "`" + Op.Callee + "`: " + Sum.UnknownWhy;
      Op.Effects.add(UnknownObject, Mode);
    }
    return Op;
  }

  bool ReturnsWithWorkPending = false;
  mutable std::optional<AccessSet> DestroyedOnReturn;
};

void FunctionAccesses::Impl::collectOps(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S) || ErrorPathRepeats.count(S))
    return; // a lambda body is another function
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && StreamOrdered.count(Call)) {
    const ApiFunction *Api = modelledCallee(Call);
    bool Alloc = Api->Kind == ApiKind::Allocate;
    GpuOp Op{static_cast<unsigned>(Ops.size()),
             Alloc ? GpuOpKind::Alloc : GpuOpKind::Free,
             Api->Name.str(),
             Call,
             Api,
             {},
             {},
             lineOf(Call->getBeginLoc()),
             columnOf(Call->getBeginLoc()),
             false};
    // The allocation writes the fresh object when its stream reaches it; the
    // release writes (frees) what its argument points to.
    Pointees Memory;
    if (Alloc) {
      for (ObjectId O = OutputObject + 1; O < Objects.size(); ++O)
        if (Objects.get(O).Site == Call)
          Memory.Objects.push_back(O);
      if (Memory.Objects.empty())
        Memory = Pointees::unknown("the allocation on line " + std::to_string(Op.Line) +
                                   " has no object");
    } else if (Call->getNumArgs() > 0) {
      Memory = Pts->pointees(Call->getArg(0));
    }
    Pts->addAccess(Op.Effects, Memory, WriteAccess, Op.UnknownWhy);
    Op.HostSideEffects = Op.Effects;
    OpIndex[Call] = Ops.size();
    Ops.push_back(std::move(Op));
  }
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isGpuOpCall(S))
    if (const FunctionDecl *Def = leavesOwnStreamWork(Call)) {
      // The work the callee may leave running on a stream of the program's
      // own when it returns: an op of this function on an unnamed stream of
      // the program, touching whatever the callee touches.
      OpIndex[Call] = Ops.size();
      Ops.push_back(workLeftBy(Call, Def, GpuOpKind::Launch, false));
    }
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isGpuOpCall(S))
    if (const FunctionDecl *Def = calledDefinition(Call))
      if (std::optional<unsigned> Stream = Pts->callees().pendingWorkStream(Def)) {
        // The work the callee leaves running on a stream of the tool's when
        // it returns: an op of this function on that stream, touching what
        // the callee's GPU work may touch (the call's host accesses happen
        // during the call).
        GpuOp Op = workLeftBy(Call, Def, GpuOpKind::CallWork, true);
        Op.HostSideEffects = Op.Effects;
        Op.FixedStream = Stream;
        OpIndex[Call] = Ops.size();
        Ops.push_back(std::move(Op));
      }
  if (isGpuOpCall(S)) {
    const auto *Call = cast<CallExpr>(S);
    OpEffects E = opEffects(*Pts, Call);
    GpuOp Op{static_cast<unsigned>(Ops.size()),
             GpuOpKind::Launch,
             "",
             Call,
             nullptr,
             std::move(E.Effects),
             std::move(E.UnknownWhy),
             lineOf(Call->getBeginLoc()),
             columnOf(Call->getBeginLoc()),
             false,
             E.UsesTemporary,
             std::move(E.HostSideEffects)};
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
      const FunctionDecl *Kernel = Launch->getDirectCallee();
      Op.Callee = Kernel ? Kernel->getNameAsString() : "<kernel pointer>";
      Op.HasUserStream = ownStreamArgument(Launch, Ctx) != nullptr;
    } else {
      Op.Api = gpuOpApi(Call);
      assert(Op.Api && "a GPU op that is not a launch is a call of a modelled API");
      Op.Kind = Op.Api->Kind == ApiKind::GpuSet ? GpuOpKind::Set : GpuOpKind::Copy;
      Op.Callee = modelledCallee(Call)->Name.str(); // as written: cudaMemcpyAsync
      Op.HasUserStream = ownStreamOpApi(Call) != nullptr;
    }
    if (const Expr *Stream = ownStreamArgument(Call, Ctx))
      Op.StreamKey = streamKey(Stream, F, Ctx);
    OpIndex[Call] = Ops.size();
    Ops.push_back(std::move(Op));
  }
  for (const Stmt *Child : S->children())
    collectOps(Child);
}

bool FunctionAccesses::hasOps(const FunctionDecl &F,
                              llvm::ArrayRef<const clang::Expr *> StreamOrdered,
                              FunctionSummaries *Device) {
  // The statements collectOps() makes ops of, without the analysis.
  std::function<bool(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (isGpuOpCall(S) || llvm::is_contained(StreamOrdered, S))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S); Device && Call)
      if (const FunctionDecl *Def = Impl::calledDefinition(Call);
          Def && Device->pendingWorkStream(Def))
        return true;
    return llvm::any_of(S->children(), Find);
  };
  return Find(F.getBody());
}

FunctionAccesses::FunctionAccesses(const FunctionDecl &F, ASTContext &Ctx,
                                   FunctionSummaries &Summaries,
                                   llvm::ArrayRef<const clang::Expr *> StreamOrdered,
                                   bool ReturnsWithWorkPending)
    : P(std::make_unique<Impl>(F, Ctx, Summaries)) {
  P->StreamOrdered.insert(StreamOrdered.begin(), StreamOrdered.end());
  P->ReturnsWithWorkPending = ReturnsWithWorkPending;
  P->ErrorPathRepeats = errorPathRepeats(F.getBody(), Ctx);
  // Name every object the statements touch first, so that each op's effects
  // also list the objects they may overlap.
  walkAccesses(*P->Pts, F.getBody(), false, nullptr, nullptr);
  P->collectOps(F.getBody());
  for (unsigned I = 0; I < P->Ops.size(); ++I)
    assert(P->Ops[I].Id == I && "an op's id is its index in ops()");
}
FunctionAccesses::~FunctionAccesses() = default;
FunctionAccesses::FunctionAccesses(FunctionAccesses &&) = default;

const FunctionDecl &FunctionAccesses::function() const { return P->F; }
std::string displayName(const FunctionDecl &F) {
  const auto *M = dyn_cast<CXXMethodDecl>(&F);
  if (!M || !M->getParent()->isLambda())
    return F.getQualifiedNameAsString();
  const auto *Enclosing =
      dyn_cast_or_null<FunctionDecl>(M->getParent()->getParentFunctionOrMethod());
  return "lambda in " + (Enclosing ? displayName(*Enclosing) : std::string("a class")) + ", line " +
         std::to_string(F.getASTContext().getSourceManager().getExpansionLineNumber(
             M->getParent()->getLocation()));
}

std::string FunctionAccesses::name() const { return displayName(P->F); }
const ObjectTable &FunctionAccesses::objects() const { return P->Objects; }
const std::vector<GpuOp> &FunctionAccesses::ops() const { return P->Ops; }
bool FunctionAccesses::returnsWithWorkPending() const { return P->ReturnsWithWorkPending; }

const AccessSet &FunctionAccesses::destroyedOnReturn() const {
  if (P->DestroyedOnReturn)
    return *P->DestroyedOnReturn;
  struct Locals : RecursiveASTVisitor<Locals> {
    std::vector<const VarDecl *> Found;
    bool VisitVarDecl(VarDecl *V) {
      const CXXRecordDecl *R = V->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
      if (V->hasLocalStorage() && R && R->hasDefinition() && !R->hasTrivialDestructor())
        Found.push_back(V);
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; } // another function's locals
  } L;
  L.TraverseStmt(P->F.getBody());
  P->DestroyedOnReturn.emplace();
  for (const VarDecl *V : L.Found)
    P->DestroyedOnReturn->addAll(destructorAccesses(V).Host);
  return *P->DestroyedOnReturn;
}

bool FunctionAccesses::mayOutliveFunction(const GpuOp &Op) const {
  if (Op.HasUserStream || Op.Kind == GpuOpKind::Alloc || Op.Kind == GpuOpKind::Free ||
      Op.Effects.touchesUnknown())
    return false;
  for (auto [Obj, Mode] : Op.Effects.entries()) {
    const MemoryObject &M = P->Objects.get(Obj);
    switch (M.Kind) {
    case ObjectKind::Symbolic:
    case ObjectKind::DeviceSymbol:
      continue;
    case ObjectKind::Variable:
      // A global's storage outlives the call; a local's does not.
      if (M.Var && M.Var->hasGlobalStorage() && !M.Var->isStaticLocal())
        continue;
      return false;
    default: // the function's own allocations, a local vector's elements, the output
      return false;
    }
  }
  return true;
}

StmtAccesses FunctionAccesses::accessesOf(const Stmt *S, bool MayNotRun, const Stmt *Skip) const {
  assert(S && "the accesses of a statement");
  StmtAccesses Out = walkAccesses(*P->Pts, S, MayNotRun, Skip, &P->OpIndex, &P->ErrorPathRepeats);
  if (Out.CallsLeftAsWritten) {
    StmtAccesses HostSide;
    AccessWalker(*P->Pts, HostSide, MayNotRun, Skip, &P->OpIndex, true, &P->ErrorPathRepeats)
        .visit(S);
    Out.HostSide = std::move(HostSide.Host);
  }
  return Out;
}

StmtAccesses FunctionAccesses::destructorAccesses(const VarDecl *V) const {
  StmtAccesses Out;
  AccessWalker(*P->Pts, Out, false, nullptr, &P->OpIndex, false, &P->ErrorPathRepeats).destroy(V);
  return Out;
}

bool FunctionAccesses::isReachable(const VarDecl *V) const {
  return P->Pts->isTracked(V) && !P->Pts->isImmutable(V);
}

std::optional<std::vector<ObjectId>> FunctionAccesses::pointeesOf(const Expr *E) const {
  Pointees Pts = P->Pts->pointees(E);
  if (Pts.Unknown)
    return std::nullopt;
  return std::vector<ObjectId>(Pts.Objects.begin(), Pts.Objects.end());
}

std::optional<unsigned> FunctionAccesses::pointedToByParam(ObjectId Object) const {
  const SymbolicPath *Path = P->Pts->pathOf(Object);
  if (!Path || Path->ByValue || !Path->Loads.empty() || Path->Param == SymbolicPath::This)
    return std::nullopt;
  return Path->Param;
}

std::string FunctionAccesses::describe(ObjectId Object) const {
  if (Object == UnknownObject)
    return "memory the analysis cannot name";
  std::string Name = P->Objects.get(Object).Name;
  // Name what it may be the same memory as: that explains a wait the
  // program's own names alone do not.
  std::vector<std::string> Overlaps;
  if (P->Pts->pathOf(Object) || P->Pts->globalOf(Object))
    for (unsigned O = OutputObject + 1; O < P->Objects.size(); ++O)
      if (O != Object && (P->Pts->pathOf(O) || P->Pts->globalOf(O)) && P->Pts->mayAlias(Object, O))
        Overlaps.push_back(P->Objects.get(O).Name);
  if (Overlaps.empty())
    return Name;
  if (Overlaps.size() > 3) {
    Overlaps.resize(3);
    Overlaps.back() += ", ...";
  }
  return Name + " (which may overlap " + llvm::join(Overlaps, ", ") + ")";
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

CopyDirection copyDirectionOf(const GpuOp &Op) {
  const auto *Call = Op.Kind == GpuOpKind::Copy ? dyn_cast<CallExpr>(Op.Call) : nullptr;
  return Call && Op.Api ? copyDirectionOf(*Op.Api, *Call) : CopyDirection::Unknown;
}

CopyDirection copyDirectionOf(const ApiFunction &Api, const CallExpr &Call) {
  if (Api.Kind != ApiKind::GpuCopy || Api.CopyKindArg >= Call.getNumArgs())
    return CopyDirection::Unknown;
  const Expr *Arg = Call.getArg(Api.CopyKindArg);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
    Arg = Default->getExpr();
  const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *Kind = Ref ? dyn_cast<EnumConstantDecl>(Ref->getDecl()) : nullptr;
  if (!Kind)
    return CopyDirection::Unknown;
  return llvm::StringSwitch<CopyDirection>(Kind->getName())
#define API_COPY_KIND(Name, Direction) .Case(#Name, CopyDirection::Direction)
#include "streamalloc/Model/ApiModel.def"
      .Default(CopyDirection::Unknown);
}

} // namespace streamalloc
