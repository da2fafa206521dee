//===- FunctionSummary.cpp - Read/write summaries of functions --------------===//
//
// A summary is what one function's points-to facts and accesses say about
// memory its caller can name: symbolic objects (paths from parameters),
// globals, objects it allocates and hands out, and Unknown. Local variables
// and allocations that do not leave the function are left out.
//
//===----------------------------------------------------------------------===//
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/ImportedSummaries.h"

#include "AccessWalker.h"
#include "AstUtil.h"
#include "Registry.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/Support/ErrorHandling.h"

using namespace clang;

namespace streamalloc {

//===----------------------------------------------------------------------===//
// Paths and references
//===----------------------------------------------------------------------===//

namespace {

/// A deterministic order for declarations (pointer order changes between runs).
bool declLess(const Decl *A, const Decl *B) {
  if (A == B)
    return false;
  if (!A || !B)
    return !A;
  unsigned LA = A->getLocation().getRawEncoding(), LB = B->getLocation().getRawEncoding();
  if (LA != LB)
    return LA < LB;
  std::string NA, NB;
  llvm::raw_string_ostream OA(NA), OB(NB);
  if (const auto *ND = dyn_cast<NamedDecl>(A))
    ND->getNameForDiagnostic(OA, A->getASTContext().getPrintingPolicy(), true);
  if (const auto *ND = dyn_cast<NamedDecl>(B))
    ND->getNameForDiagnostic(OB, B->getASTContext().getPrintingPolicy(), true);
  if (NA != NB)
    return NA < NB;
  return A < B; // not reached for different declarations of one program
}

} // namespace

bool SymbolicPath::operator<(const SymbolicPath &O) const {
  if (Param != O.Param)
    return Param < O.Param;
  if (ByValue != O.ByValue)
    return ByValue < O.ByValue;
  if (Loads.size() != O.Loads.size())
    return Loads.size() < O.Loads.size();
  for (unsigned I = 0; I < Loads.size(); ++I)
    if (Loads[I] != O.Loads[I])
      return declLess(Loads[I], O.Loads[I]);
  return false;
}

namespace {
/// The expression for the pointer stored at \p K of the object \p Obj
/// (written like C: `*p` + f -> `p->f`, `w` + f -> `w.f`).
std::string pointerAt(const std::string &Obj, FieldKey K) {
  if (!K)
    return Obj;
  std::string Member = isa<FieldDecl>(K) ? cast<FieldDecl>(K)->getNameAsString() : "data()";
  if (Obj.size() > 1 && Obj[0] == '*') {
    std::string Inner = Obj.substr(1);
    return (Inner[0] == '*' ? "(" + Inner + ")" : Inner) + "->" + Member;
  }
  return Obj + "." + Member;
}
} // namespace

std::string SymbolicPath::str(const FunctionDecl &F) const {
  std::string Name;
  bool Reference = false;
  if (Param == This) {
    Name = "this";
  } else if (Param < F.getNumParams()) {
    const ParmVarDecl *PD = F.getParamDecl(Param);
    Name = PD->getName().empty() ? "param" + std::to_string(Param + 1) : PD->getNameAsString();
    Reference = PD->getType()->isReferenceType();
  } else {
    Name = "param" + std::to_string(Param + 1);
  }
  // Obj: an expression for the current object.
  std::string Obj = ByValue || Reference ? Name : "*" + Name;
  llvm::ArrayRef<FieldKey> Rest = Loads;
  // In a lambda's body, the closure's fields are its captures: name the
  // variable (a reference field designates it, a copy points where it did).
  if (const auto *M = dyn_cast<CXXMethodDecl>(&F);
      Param == This && !Rest.empty() && M && M->getParent()->isLambda()) {
    ClosureFields Captures = closureFields(*M->getParent());
    for (auto [Var, Field] : Captures.Vars)
      if (Field == Rest.front()) {
        Obj = (Field->getType()->isReferenceType() ? "" : "*") + Var->getNameAsString();
        Rest = Rest.drop_front();
        break;
      }
    if (Captures.This && !Rest.empty() && Captures.This == Rest.front()) {
      Obj = "*this";
      Rest = Rest.drop_front();
    }
  }
  for (FieldKey K : Rest)
    Obj = "*" + pointerAt(Obj, K);
  return Obj;
}

SummaryRef SummaryRef::path(SymbolicPath P) {
  SummaryRef R;
  R.Kind = Path;
  R.P = std::move(P);
  return R;
}

SummaryRef SummaryRef::global(const VarDecl *V) {
  SummaryRef R;
  R.Kind = Global;
  R.Var = V;
  return R;
}

SummaryRef SummaryRef::fresh(unsigned Index) {
  SummaryRef R;
  R.Kind = Fresh;
  R.FreshIndex = Index;
  return R;
}

bool SummaryRef::operator==(const SummaryRef &O) const {
  if (Kind != O.Kind)
    return false;
  switch (Kind) {
  case Path:
    return P == O.P;
  case Global:
    return Var == O.Var;
  case Fresh:
    return FreshIndex == O.FreshIndex;
  case Unknown:
    return true;
  }
  llvm_unreachable("not a summary reference kind");
}

bool SummaryRef::operator<(const SummaryRef &O) const {
  if (Kind != O.Kind)
    return Kind < O.Kind;
  switch (Kind) {
  case Path:
    return P < O.P;
  case Global:
    return declLess(Var, O.Var);
  case Fresh:
    return FreshIndex < O.FreshIndex;
  case Unknown:
    return false;
  }
  llvm_unreachable("not a summary reference kind");
}

bool SummaryStore::operator<(const SummaryStore &O) const {
  if (Target != O.Target)
    return Target < O.Target;
  if (Field != O.Field)
    return declLess(Field, O.Field);
  return Value < O.Value;
}

bool AliasPolicy::mayAlias(const SummaryRef &A, const SummaryRef &B) const {
  if (A == B)
    return true;
  if (A.Kind == SummaryRef::Unknown || B.Kind == SummaryRef::Unknown)
    return true;
  if (A.Kind == SummaryRef::Global && B.Kind == SummaryRef::Global)
    return false; // two variables never overlap
  if (A.Kind == SummaryRef::Fresh || B.Kind == SummaryRef::Fresh)
    return false;
  auto Restricted = [&](const SummaryRef &R) {
    return R.Kind == SummaryRef::Path && !R.P.ByValue && R.P.Loads.empty() &&
           Restrict.count(R.P.Param);
  };
  if (Restricted(A) || Restricted(B))
    return false; // __restrict__: nothing else reaches what it points to
  switch (M) {
  case Mode::Distinct:
    return false;
  case Mode::Collapse:
    return true;
  case Mode::Context:
    break;
  }
  auto IsKnown = [&](const SummaryRef &R) {
    return R.Kind == SummaryRef::Path ? Known.count(R.P) != 0 : KnownGlobals.count(R.Var) != 0;
  };
  if (!IsKnown(A) || !IsKnown(B))
    return true; // the call sites were not asked: assume the worst
  return Pairs.count(A < B ? std::make_pair(A, B) : std::make_pair(B, A)) != 0;
}

//===----------------------------------------------------------------------===//
// FunctionSummary
//===----------------------------------------------------------------------===//

uint8_t FunctionSummary::paramMode(unsigned Param) const {
  uint8_t Mode = NoAccess;
  for (const SummaryAccess &A : Accesses)
    if (A.Object.Kind == SummaryRef::Path && A.Object.P.Param == Param && !A.Object.P.ByValue &&
        A.Object.P.Loads.empty())
      Mode |= A.Host | A.Device;
  return Mode;
}

uint8_t FunctionSummary::globalMode(const VarDecl *V) const {
  uint8_t Mode = NoAccess;
  for (const SummaryAccess &A : Accesses)
    if (A.Object.Kind == SummaryRef::Global && A.Object.Var == V)
      Mode |= A.Host | A.Device;
  return Mode;
}

bool FunctionSummary::operator==(const FunctionSummary &O) const {
  return Accesses == O.Accesses && UnknownHost == O.UnknownHost &&
         UnknownDevice == O.UnknownDevice && FreshObjects == O.FreshObjects && Stores == O.Stores &&
         Escapes == O.Escapes && Returns == O.Returns && ReturnFields == O.ReturnFields &&
         StoresUnknown == O.StoresUnknown && WritesOutput == O.WritesOutput &&
         PerformsGpuOps == O.PerformsGpuOps && ResetsDevice == O.ResetsDevice &&
         MaySync == O.MaySync && ReadsTimer == O.ReadsTimer &&
         SyncsDeviceBeforeTimer == O.SyncsDeviceBeforeTimer &&
         LeavesOwnStreamWork == O.LeavesOwnStreamWork &&
         UnknownDeviceHostSide == O.UnknownDeviceHostSide &&
         CalleesPerformGpuOps == O.CalleesPerformGpuOps;
}

namespace {

std::string refName(const SummaryRef &R, const FunctionSummary &S, const FunctionDecl &F) {
  switch (R.Kind) {
  case SummaryRef::Path:
    return R.P.str(F);
  case SummaryRef::Global:
    return R.Var->getNameAsString();
  case SummaryRef::Fresh:
    return R.FreshIndex < S.FreshObjects.size()
               ? "new " + S.FreshObjects[R.FreshIndex].Name + " (" +
                     objectKindName(S.FreshObjects[R.FreshIndex].Kind).str() + ")"
               : "new object";
  case SummaryRef::Unknown:
    return "<unknown>";
  }
  llvm_unreachable("not a summary reference kind");
}

std::string keyName(FieldKey K) {
  if (!K)
    return "[]";
  if (const auto *FD = dyn_cast<FieldDecl>(K))
    return "." + FD->getNameAsString();
  return ".data()";
}

} // namespace

void FunctionSummary::print(llvm::raw_ostream &OS, const FunctionDecl &F) const {
  auto List = [&](const char *Label, auto Pick) {
    std::vector<std::string> Names;
    for (const SummaryAccess &A : Accesses)
      if (Pick(A))
        Names.push_back(refName(A.Object, *this, F));
    if (Names.empty())
      return;
    OS << "  " << Label << ": " << llvm::join(Names, ", ") << "\n";
  };
  List("host reads", [](const SummaryAccess &A) { return A.Host & ReadAccess; });
  List("host writes", [](const SummaryAccess &A) { return A.Host & WriteAccess; });
  List("device reads", [](const SummaryAccess &A) { return A.Device & ReadAccess; });
  List("device writes", [](const SummaryAccess &A) { return A.Device & WriteAccess; });
  auto ModeName = [](uint8_t Mode) {
    return std::string(Mode & ReadAccess ? "R" : "") + (Mode & WriteAccess ? "W" : "");
  };
  if (UnknownHost || UnknownDevice) {
    OS << "  unknown:";
    if (UnknownHost)
      OS << " host " << ModeName(UnknownHost);
    if (UnknownDevice)
      OS << (UnknownHost ? "," : "") << " device " << ModeName(UnknownDevice);
    OS << " (" << UnknownWhy << ")\n";
  }
  for (const SummaryStore &St : Stores)
    OS << "  stores: " << pointerAt(refName(St.Target, *this, F), St.Field) << " = "
       << refName(St.Value, *this, F) << "\n";
  if (!Returns.empty()) {
    std::vector<std::string> Names;
    for (const SummaryRef &R : Returns)
      Names.push_back(refName(R, *this, F));
    OS << "  returns: " << llvm::join(Names, ", ") << "\n";
  }
  for (const auto &[K, R] : ReturnFields)
    OS << "  returns: a value whose " << keyName(K) << " = " << refName(R, *this, F) << "\n";
  if (!Escapes.empty()) {
    std::vector<std::string> Names;
    for (const SummaryRef &R : Escapes)
      Names.push_back(refName(R, *this, F));
    OS << "  escapes: " << llvm::join(Names, ", ") << "\n";
  }
  std::vector<std::string> Flags;
  if (PerformsGpuOps)
    Flags.push_back("performs GPU ops");
  if (MaySync)
    Flags.push_back("may synchronise");
  if (WritesOutput)
    Flags.push_back("prints");
  if (ResetsDevice)
    Flags.push_back("resets the device");
  if (ReadsTimer)
    Flags.push_back(SyncsDeviceBeforeTimer ? "reads a timer after a device sync" : "reads a timer");
  if (LeavesOwnStreamWork)
    Flags.push_back("may return with work on the program's own streams running");
  if (StoresUnknown)
    Flags.push_back("may store unknown pointers");
  if (Recursive)
    Flags.push_back("recursive");
  if (!Flags.empty())
    OS << "  flags: " << llvm::join(Flags, ", ") << "\n";
  if (Accesses.empty() && !UnknownHost && !UnknownDevice && Stores.empty() && Flags.empty() &&
      Returns.empty() && ReturnFields.empty() && Escapes.empty())
    OS << "  touches nothing its callers can see\n";
}

//===----------------------------------------------------------------------===//
// Computing summaries
//===----------------------------------------------------------------------===//

namespace {
constexpr unsigned MaxCycleRounds = 16;

bool isAllocationKind(ObjectKind K) {
  return K == ObjectKind::HostAllocation || K == ObjectKind::PinnedAllocation ||
         K == ObjectKind::DeviceAllocation || K == ObjectKind::ManagedAllocation ||
         K == ObjectKind::ContainerStorage;
}

/// Whether a statement at the top level of \p Def's body synchronises the
/// device before the first one that reads a clock. Outside `main` the tool
/// keeps such a sync (the callers' work may be running there:
/// RedundantSyncs.cpp), or an earlier one at the top level.
bool syncsDeviceBeforeEveryClockRead(PointsTo &Pts, const FunctionDecl &Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def.getBody());
  if (!Body || Def.isMain())
    return false;
  for (const Stmt *S : Body->body()) {
    StmtAccesses A = walkAccesses(Pts, S, false, nullptr, nullptr);
    if (A.ReadsTimer)
      return false;
    if (A.SyncsDevice)
      return true;
  }
  return false;
}

bool inSystemHeader(const FunctionDecl &F) {
  return F.getASTContext().getSourceManager().isInSystemHeader(F.getLocation());
}

/// Whether \p S holds an op given a stream of the program's own (outside lambdas).
bool holdsOwnStreamOp(const Stmt *S, ASTContext &Ctx) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && ownStreamArgument(E, Ctx))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return holdsOwnStreamOp(C, Ctx); });
}

/// Whether \p Def may return while work it put on a stream of the program's
/// own is still running: after such work, no top-level statement of its
/// body that puts none syncs the device before a return or the end (`main`
/// ends the program instead).
bool leavesOwnStreamWork(PointsTo &Pts, const FunctionDecl &Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def.getBody());
  if (!Body || Def.isMain())
    return false;
  bool Pending = false;
  for (const Stmt *S : Body->body()) {
    StmtAccesses A = walkAccesses(Pts, S, false, nullptr, nullptr);
    if (!A.EnqueuesOnOwnStreams && A.SyncsDevice) {
      Pending = false;
      continue;
    }
    Pending |= A.EnqueuesOnOwnStreams;
    if (Pending && containsJump(S, /*LoopJumps=*/false))
      return true;
  }
  return Pending;
}

/// Calls every callback for the expressions a function's analysis looks at:
/// its body, default arguments, member initialisers; not lambda bodies.
void forEachExpr(const FunctionDecl &F, llvm::function_ref<void(const Stmt *)> Fn) {
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    Fn(S);
    if (isa<LambdaExpr>(S))
      return;
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(S))
      Walk(DA->getExpr());
    if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(S))
      Walk(DI->getExpr());
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&F))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Walk(Init->getInit());
  Walk(F.getBody());
}

} // namespace

const FunctionDecl *definitionOf(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def || !Def->getBody())
    return nullptr;
  return Def;
}

const FunctionSummary &Registry::top(const FunctionDecl *Def, std::string Why) {
  auto S = std::make_unique<FunctionSummary>();
  bool Device = isDeviceFunction(*Def);
  (Device ? S->UnknownDevice : S->UnknownHost) = ReadWriteAccess;
  S->UnknownWhy = std::move(Why);
  S->StoresUnknown = true;
  S->WritesOutput = true;
  S->MaySync = !Device;
  S->PerformsGpuOps = !Device;
  // Work on a stream of the program's own may outlive the call.
  S->LeavesOwnStreamWork =
      !Device && !inSystemHeader(*Def) && holdsOwnStreamOp(Def->getBody(), Def->getASTContext());
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    QualType T = Def->getParamDecl(I)->getType();
    if (T->isPointerType() || T->isReferenceType()) {
      SymbolicPath P;
      P.Param = I;
      S->Escapes.push_back(SummaryRef::path(P));
    }
  }
  S->Returns.push_back(SummaryRef::unknown());
  S->ReturnFields.push_back({nullptr, SummaryRef::unknown()});
  Tops.push_back(std::move(S));
  return *Tops.back();
}

std::vector<const FunctionDecl *> Registry::calleesOf(const FunctionDecl *Def) {
  std::vector<const FunctionDecl *> Callees;
  bool Device = isDeviceFunction(*Def);
  auto Add = [&](const FunctionDecl *F) {
    if ((F = definitionOf(F)) && !llvm::is_contained(Callees, F))
      Callees.push_back(F);
  };
  auto Destructor = [&](QualType T) {
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && RD->hasDefinition())
      if (const CXXDestructorDecl *D = RD->getDestructor(); D && !modelledClass(RD))
        Add(D);
  };
  forEachExpr(*Def, [&](const Stmt *S) {
    if (isa<CallExpr, CXXConstructExpr>(S))
      Add(resolveCall(cast<Expr>(S), Device).Def);
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(S))
      Destructor(Bind->getType());
    else if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S))
      Destructor(Delete->getDestroyedType());
  });
  return Callees;
}

const FunctionSummary &Registry::get(const FunctionDecl *F) {
  const FunctionDecl *Def = definitionOf(F);
  if (!Def) {
    if (const ImportedFunction *I = ImportScope::lookup(F); I && I->Conflict.empty())
      return I->Summary;
    auto Key = F->getCanonicalDecl();
    if (auto It = Done.find(Key); It != Done.end())
      return *It->second;
    auto S = std::make_unique<FunctionSummary>();
    S->UnknownHost = ReadWriteAccess;
    S->UnknownWhy = "`" + F->getNameAsString() + "` has no body in this file";
    S->StoresUnknown = true;
    return *(Done[Key] = std::move(S));
  }
  return summaryOf(Def);
}

bool Registry::inCycle(const FunctionDecl *Def) {
  return Working.count(Def->getCanonicalDecl()) != 0;
}

const FunctionSummary &Registry::summaryOf(const FunctionDecl *Def) {
  if (!definitionOf(Def))
    if (const ImportedFunction *I = ImportScope::lookup(Def); I && I->Conflict.empty())
      return I->Summary;
  const FunctionDecl *Key = Def->getCanonicalDecl();
  if (auto It = Done.find(Key); It != Done.end())
    return *It->second;
  if (auto It = Working.find(Key); It != Working.end())
    return It->second;
  if (Solving)
    // A callee the call-graph scan did not find: be safe.
    return top(Def, "`" + Def->getNameAsString() + "`, which the analysis could not order");
  solve(definitionOf(Def) ? definitionOf(Def) : Def);
  return *Done[Key];
}

void Registry::solve(const FunctionDecl *Def) {
  ++Solving;
  strongConnect(Def);
  --Solving;
  Index.clear();
  Low.clear();
}

void Registry::strongConnect(const FunctionDecl *Def) {
  const FunctionDecl *Key = Def->getCanonicalDecl();
  Index[Key] = Low[Key] = Counter++;
  Stack.push_back(Def);
  OnStack.insert(Key);
  bool SelfCall = false;
  for (const FunctionDecl *Callee : calleesOf(Def)) {
    const FunctionDecl *CKey = Callee->getCanonicalDecl();
    if (Done.count(CKey))
      continue;
    if (CKey == Key) {
      SelfCall = true;
    } else if (!Index.count(CKey)) {
      strongConnect(Callee);
      Low[Key] = std::min(Low[Key], Low[CKey]);
    } else if (OnStack.count(CKey)) {
      Low[Key] = std::min(Low[Key], Index[CKey]);
    }
  }
  if (Low[Key] != Index[Key])
    return;
  std::vector<const FunctionDecl *> Members;
  while (true) {
    const FunctionDecl *M = Stack.back();
    Stack.pop_back();
    OnStack.erase(M->getCanonicalDecl());
    Members.push_back(M);
    if (M->getCanonicalDecl() == Key)
      break;
  }
  std::reverse(Members.begin(), Members.end());
  solveCycle(Members, SelfCall || Members.size() > 1);
}

void Registry::solveCycle(const std::vector<const FunctionDecl *> &Members, bool Recursive) {
  if (!Recursive) {
    const FunctionDecl *Def = Members.front();
    Done[Def->getCanonicalDecl()] = std::make_unique<FunctionSummary>(compute(Def));
    return;
  }
  // Start from "touches nothing" and recompute every member until no
  // summary changes (each only grows).
  for (const FunctionDecl *M : Members) {
    FunctionSummary Bottom;
    Bottom.Recursive = true;
    Working[M->getCanonicalDecl()] = Bottom;
  }
  bool Stable = false;
  for (unsigned Round = 0; Round < MaxCycleRounds && !Stable; ++Round) {
    Stable = true;
    for (const FunctionDecl *M : Members) {
      FunctionSummary S = compute(M);
      S.Recursive = true;
      FunctionSummary &Current = Working[M->getCanonicalDecl()];
      if (S != Current) {
        Current = std::move(S);
        Stable = false;
      }
    }
  }
  for (const FunctionDecl *M : Members) {
    const FunctionDecl *Key = M->getCanonicalDecl();
    if (Stable) {
      Done[Key] = std::make_unique<FunctionSummary>(std::move(Working[Key]));
    } else {
      auto S =
          std::make_unique<FunctionSummary>(top(M, "recursive calls whose effects did not settle"));
      S->Recursive = true;
      Done[Key] = std::move(S);
    }
  }
  for (const FunctionDecl *M : Members)
    Working.erase(M->getCanonicalDecl());
}

FunctionSummary Registry::compute(const FunctionDecl *Def) {
  ASTContext &Ctx = Def->getASTContext();
  ObjectTable Objects;
  PointsTo Pts(*Def, Ctx, Objects, *this);
  bool Device = isDeviceFunction(*Def);

  StmtAccesses Body = walkAccesses(Pts, Def->getBody(), false, nullptr, nullptr);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits()) {
      StmtAccesses A = walkAccesses(Pts, Init->getInit(), false, nullptr, nullptr);
      if (Body.UnknownWhy.empty())
        Body.UnknownWhy = A.UnknownWhy;
      Body.Host.addAll(A.Host);
      Body.MaySync |= A.MaySync;
      Body.PerformsGpuOps |= A.PerformsGpuOps;
      Body.ResetsDevice |= A.ResetsDevice;
      Body.ReadsTimer |= A.ReadsTimer;
    }
  AccessSet HostSet, DeviceSet, DeviceHostSideSet;
  std::string DeviceWhy;
  if (Device) {
    DeviceSet = Body.Host;
    DeviceWhy = Body.UnknownWhy;
  } else {
    HostSet = Body.Host;
    forEachExpr(*Def, [&](const Stmt *S) {
      if (!isGpuOpCall(S))
        return;
      OpEffects E = opEffects(Pts, cast<Expr>(S));
      if (DeviceWhy.empty() && E.Effects.touchesUnknown())
        DeviceWhy = E.UnknownWhy;
      DeviceSet.addAll(E.Effects);
      // An op on a stream of the program's own is not ordered by the legacy
      // stream: all it touches counts.
      DeviceHostSideSet.addAll(ownStreamArgument(cast<Expr>(S), Ctx) ? E.Effects
                                                                     : E.HostSideEffects);
    });
  }

  FunctionSummary S;
  llvm::DenseMap<ObjectId, unsigned> FreshIds;
  std::vector<ObjectId> FreshOrder; ///< the object of each of S.FreshObjects
  auto RefOf = [&](ObjectId O, bool AsValue) -> std::optional<SummaryRef> {
    if (O == UnknownObject)
      return SummaryRef::unknown();
    if (const SymbolicPath *P = Pts.pathOf(O))
      return SummaryRef::path(*P);
    if (const VarDecl *V = Pts.globalOf(O))
      return SummaryRef::global(V);
    if (!AsValue)
      return std::nullopt; // private to this call
    const MemoryObject &Obj = Objects.get(O);
    if (!isAllocationKind(Obj.Kind))
      return SummaryRef::unknown(); // the address of a local: gone after the return
    auto It = FreshIds.find(O);
    if (It == FreshIds.end()) {
      It = FreshIds.insert({O, (unsigned)S.FreshObjects.size()}).first;
      S.FreshObjects.push_back({Obj.Kind, Obj.Name, Obj.Site});
      FreshOrder.push_back(O);
    }
    return SummaryRef::fresh(It->second);
  };

  std::map<SummaryRef, SummaryAccess> Accesses;
  auto Record = [&](const AccessSet &Set, uint8_t SummaryAccess::*Field, uint8_t &Unknown) {
    for (auto [O, Mode] : Set.entries()) {
      if (O == OutputObject) {
        S.WritesOutput = true;
        continue;
      }
      if (O == UnknownObject) {
        Unknown |= Mode;
        continue;
      }
      std::optional<SummaryRef> R = RefOf(O, false);
      if (!R)
        continue;
      SummaryAccess &A = Accesses[*R];
      A.Object = *R;
      A.*Field |= Mode;
    }
  };
  Record(HostSet, &SummaryAccess::Host, S.UnknownHost);
  Record(DeviceSet, &SummaryAccess::Device, S.UnknownDevice);
  Record(DeviceHostSideSet, &SummaryAccess::DeviceHostSide, S.UnknownDeviceHostSide);
  for (auto &[R, A] : Accesses)
    S.Accesses.push_back(A);
  if (S.UnknownHost)
    S.UnknownWhy = Body.UnknownWhy;
  if (S.UnknownWhy.empty() && S.UnknownDevice)
    S.UnknownWhy = DeviceWhy;

  auto ValueRefs = [&](const Pointees &P, auto Emit) {
    if (P.Unknown)
      Emit(SummaryRef::unknown());
    for (ObjectId O : P.Objects)
      if (std::optional<SummaryRef> R = RefOf(O, true))
        Emit(*R);
  };
  for (unsigned O = OutputObject + 1; O < Objects.size(); ++O) {
    const SymbolicPath *P = Pts.pathOf(O);
    if (!P)
      continue;
    if (const auto *Cells = Pts.storesOf(O))
      for (const auto &[K, V] : *Cells)
        ValueRefs(V, [&](SummaryRef R) { S.Stores.push_back({SummaryRef::path(*P), K, R}); });
  }
  ValueRefs(Pts.returned(), [&](SummaryRef R) { S.Returns.push_back(R); });
  for (const auto &[K, V] : Pts.returnedFields())
    ValueRefs(V, [&](SummaryRef R) { S.ReturnFields.push_back({K, R}); });
  for (unsigned O = OutputObject + 1; O < Objects.size(); ++O)
    if (Pts.isEscaped(O))
      if (std::optional<SummaryRef> R = RefOf(O, true);
          R && R->Kind != SummaryRef::Unknown && R->Kind != SummaryRef::Global)
        S.Escapes.push_back(*R);
  // An object it allocates that the caller can reach holds what was stored
  // in it, e.g. a device struct filled by a cudaMemcpy of a host struct of
  // device pointers: kernels given the struct reach those buffers. (The
  // list grows while the stores reach further such objects.)
  for (unsigned I = 0; I < FreshOrder.size(); ++I)
    if (const auto *Cells = Pts.storesOf(FreshOrder[I]))
      for (const auto &[K, V] : *Cells)
        ValueRefs(V, [&](SummaryRef R) { S.Stores.push_back({SummaryRef::fresh(I), K, R}); });

  auto SortUnique = [](auto &V) {
    llvm::sort(V);
    V.erase(std::unique(V.begin(), V.end()), V.end());
  };
  SortUnique(S.Stores);
  SortUnique(S.Returns);
  SortUnique(S.Escapes);
  llvm::sort(S.ReturnFields, [](const auto &A, const auto &B) {
    if (A.first != B.first)
      return declLess(A.first, B.first);
    return A.second < B.second;
  });
  S.ReturnFields.erase(std::unique(S.ReturnFields.begin(), S.ReturnFields.end()),
                       S.ReturnFields.end());
  S.StoresUnknown = Pts.storesUnknown();
  if (S.StoresUnknown && S.UnknownWhy.empty())
    S.UnknownWhy = Pts.storesUnknownWhy();
  S.PerformsGpuOps = !Device && Body.PerformsGpuOps;
  S.CalleesPerformGpuOps = !Device && Body.CalleesPerformGpuOps;
  S.ResetsDevice = Body.ResetsDevice;
  S.MaySync = Body.MaySync;
  S.ReadsTimer = !Device && Body.ReadsTimer;
  S.SyncsDeviceBeforeTimer = S.ReadsTimer && syncsDeviceBeforeEveryClockRead(Pts, *Def);
  // A library's own streams are its business (README: external code).
  S.LeavesOwnStreamWork = !Device && !inSystemHeader(*Def) && Body.EnqueuesOnOwnStreams &&
                          leavesOwnStreamWork(Pts, *Def);
  return S;
}

//===----------------------------------------------------------------------===//
// Alias policies: what the call sites say
//===----------------------------------------------------------------------===//

void Registry::buildIndex(ASTContext &Ctx) {
  struct Indexer : RecursiveASTVisitor<Indexer> {
    Registry &R;
    std::vector<const FunctionDecl *> Stack;
    explicit Indexer(Registry &R) : R(R) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitImplicitCode() const { return true; }
    bool TraverseDecl(Decl *D) {
      const auto *F = dyn_cast_or_null<FunctionDecl>(D);
      if (F)
        Stack.push_back(F);
      bool Result = RecursiveASTVisitor::TraverseDecl(D);
      if (F)
        Stack.pop_back();
      return Result;
    }
    bool TraverseLambdaExpr(LambdaExpr *L) {
      Stack.push_back(L->getCallOperator());
      bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
      Stack.pop_back();
      return Result;
    }
    bool inDependentCode() const { return !Stack.empty() && Stack.back()->isDependentContext(); }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *F = dyn_cast<FunctionDecl>(DRE->getDecl()); F && !inDependentCode())
        ++R.UseIndex[F->getCanonicalDecl()].References;
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (inDependentCode() || Stack.empty())
        return true;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
        if (const auto *F = dyn_cast<FunctionDecl>(DRE->getDecl()))
          R.UseIndex[F->getCanonicalDecl()].Calls.push_back({Call, Stack.back()});
      return true;
    }
  } I(*this);
  I.TraverseDecl(Ctx.getTranslationUnitDecl());
  Indexed = true;
}

std::string Registry::unknownContext(const FunctionDecl *Def) {
  std::string Name = "`" + Def->getNameAsString() + "`";
  if (Def->isMain())
    return Name + " is where the program starts";
  if (Def->isExternallyVisible())
    return Name + " may be called from other files";
  if (!Indexed)
    buildIndex(Def->getASTContext());
  const Uses &U = UseIndex[Def->getCanonicalDecl()];
  // A lambda whose closure variable is only ever called has every call in
  // view (and cannot be converted to a function pointer).
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && M->getParent()->isLambda()) {
    if (!onlyCalledDirectly(*M, Def->getASTContext()))
      return "`" + displayName(*Def) +
             "` is used other than by direct calls of a variable that holds it";
  }
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def);
      M && !M->isStatic() && !M->getParent()->isLambda())
    return Name + " is a member function";
  if (Def->isVariadic())
    return Name + " takes variable arguments";
  if (U.References != U.Calls.size())
    return Name + " is used other than by direct calls";
  for (const auto &[Call, Caller] : U.Calls)
    if (!definitionOf(Caller))
      return Name + " is called from code the analysis does not see";
  return "";
}

Registry::Model &Registry::model(const FunctionDecl *Def) {
  auto &Slot = Models[Def->getCanonicalDecl()];
  if (!Slot) {
    auto M = std::make_unique<Model>();
    M->Pts =
        std::make_unique<PointsTo>(*Def, Def->getASTContext(), M->Objects, *this, aliasPolicy(Def));
    Slot = std::move(M);
  }
  return *Slot;
}

AliasPolicy Registry::aliasPolicy(const FunctionDecl *F) {
  const FunctionDecl *Def = definitionOf(F);
  if (!Def)
    Def = F;
  const FunctionDecl *Key = Def->getCanonicalDecl();
  if (auto It = Policies.find(Key); It != Policies.end())
    return It->second;
  AliasPolicy P;
  for (unsigned I = 0; I < Def->getNumParams(); ++I)
    if (Def->getParamDecl(I)->getType().isRestrictQualified())
      P.Restrict.insert(I);
  if (std::string Why = unknownContext(Def); !Why.empty() || PolicyInProgress.count(Key)) {
    P.M = AliasPolicy::Mode::Collapse;
    P.Notes.push_back(Why.empty() ? "`" + Def->getNameAsString() + "` is part of a cycle of calls"
                                  : Why);
    if (!PolicyInProgress.count(Key))
      Policies[Key] = P;
    return P;
  }
  PolicyInProgress.insert(Key);
  // The symbolic objects and globals the function names (with every object
  // its statements and ops would create).
  ObjectTable Objects;
  PointsTo Pts(*Def, Def->getASTContext(), Objects, *this);
  walkAccesses(Pts, Def->getBody(), false, nullptr, nullptr);
  forEachExpr(*Def, [&](const Stmt *S) {
    if (isGpuOpCall(S))
      opEffects(Pts, cast<Expr>(S));
  });
  std::vector<SummaryRef> Refs;
  for (unsigned O = OutputObject + 1; O < Objects.size(); ++O) {
    if (const SymbolicPath *Path = Pts.pathOf(O)) {
      Refs.push_back(SummaryRef::path(*Path));
      P.Known.insert(*Path);
    } else if (const VarDecl *V = Pts.globalOf(O); V && !Pts.isImmutable(V)) {
      Refs.push_back(SummaryRef::global(V));
      P.KnownGlobals.insert(V);
    }
  }
  P.M = AliasPolicy::Mode::Context;
  const FunctionSummary &S = summaryOf(Def);
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  for (const auto &[Call, Caller] : UseIndex[Key].Calls) {
    Model &M = model(definitionOf(Caller));
    CallSite C = CallSite::of(Call);
    std::vector<Pointees> Mapped;
    for (const SummaryRef &R : Refs)
      Mapped.push_back(M.Pts->instantiate(R, C, S));
    for (unsigned I = 0; I < Refs.size(); ++I)
      for (unsigned J = I + 1; J < Refs.size(); ++J) {
        if (Refs[I].Kind == SummaryRef::Global && Refs[J].Kind == SummaryRef::Global)
          continue;
        bool Alias = Mapped[I].Unknown || Mapped[J].Unknown;
        for (ObjectId A : Mapped[I].Objects)
          for (ObjectId B : Mapped[J].Objects)
            Alias |= M.Pts->mayAlias(A, B);
        if (!Alias)
          continue;
        auto Pair =
            Refs[I] < Refs[J] ? std::make_pair(Refs[I], Refs[J]) : std::make_pair(Refs[J], Refs[I]);
        if (P.Pairs.insert(Pair).second) {
          auto Name = [&](const SummaryRef &R) {
            return R.Kind == SummaryRef::Path ? R.P.str(*Def) : R.Var->getNameAsString();
          };
          P.Notes.push_back(Name(Pair.first) + " and " + Name(Pair.second) +
                            " may be the same memory (call on line " +
                            std::to_string(SM.getExpansionLineNumber(Call->getBeginLoc())) + ")");
        }
      }
  }
  PolicyInProgress.erase(Key);
  Policies[Key] = P;
  return P;
}

//===----------------------------------------------------------------------===//
// FunctionSummaries
//===----------------------------------------------------------------------===//

FunctionSummaries::FunctionSummaries() : P(std::make_unique<Impl>()) {}
FunctionSummaries::~FunctionSummaries() = default;

const FunctionSummary &FunctionSummaries::get(const FunctionDecl *F) { return P->get(F); }

void FunctionSummaries::setLeftAsWritten(const FunctionDecl *F, bool CompletesEarlierWork) {
  P->LeftAsWritten[F->getCanonicalDecl()] = CompletesEarlierWork;
}

void FunctionSummaries::setBlocksAsWritten(const FunctionDecl *F) {
  P->BlocksAsWritten.insert(F->getCanonicalDecl());
}

void FunctionSummaries::setPendingWorkStream(const FunctionDecl *F,
                                             std::optional<unsigned> Stream) {
  if (Stream)
    P->PendingWork[F->getCanonicalDecl()] = *Stream;
  else
    P->PendingWork.erase(F->getCanonicalDecl());
}

FunctionSummaries::Findings FunctionSummaries::findings() const {
  Findings F;
  F.LeftAsWritten.assign(P->LeftAsWritten.begin(), P->LeftAsWritten.end());
  F.PendingWork.assign(P->PendingWork.begin(), P->PendingWork.end());
  F.BlocksAsWritten.assign(P->BlocksAsWritten.begin(), P->BlocksAsWritten.end());
  return F;
}

void FunctionSummaries::restore(const Findings &F) {
  P->LeftAsWritten.clear();
  P->LeftAsWritten.insert(F.LeftAsWritten.begin(), F.LeftAsWritten.end());
  P->PendingWork.clear();
  P->PendingWork.insert(F.PendingWork.begin(), F.PendingWork.end());
  P->BlocksAsWritten.clear();
  P->BlocksAsWritten.insert(F.BlocksAsWritten.begin(), F.BlocksAsWritten.end());
}

std::optional<unsigned> FunctionSummaries::pendingWorkStream(const FunctionDecl *F) const {
  return P->pendingWorkStream(F);
}

void FunctionSummaries::print(llvm::raw_ostream &OS, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    std::vector<const FunctionDecl *> Found;
    explicit Finder(const SourceManager &SM) : SM(SM) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitFunctionDecl(FunctionDecl *F) {
      if (F->doesThisDeclarationHaveABody() && !F->isDependentContext() && !F->isImplicit() &&
          SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation())))
        if (const auto *M = dyn_cast<CXXMethodDecl>(F); !M || !M->getParent()->isLambda())
          Found.push_back(F);
      return true;
    }
    std::vector<const FunctionDecl *> Imported; ///< called here, summarised elsewhere
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (F && !F->hasBody() && SM.isWrittenInMainFile(SM.getExpansionLoc(Call->getBeginLoc())) &&
          ImportScope::lookup(F) && !llvm::is_contained(Imported, F->getCanonicalDecl()))
        Imported.push_back(F->getCanonicalDecl());
      return true;
    }
  } Finder(Ctx.getSourceManager());
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *F : Finder.Imported) {
    const ImportedFunction &I = *ImportScope::lookup(F);
    OS << "summary of " << F->getQualifiedNameAsString() << " (host, imported from " << I.Source
       << ", line " << I.Line << ")\n";
    if (I.Conflict.empty())
      I.Summary.print(OS, *F);
    else
      OS << "  not used: " << I.Conflict << "\n";
  }
  for (const FunctionDecl *F : Finder.Found) {
    bool Device = isDeviceFunction(*F);
    std::string Kind = F->hasAttr<CUDAGlobalAttr>()                                 ? "kernel"
                       : Device                                                     ? "device"
                       : F->hasAttr<CUDADeviceAttr>() && F->hasAttr<CUDAHostAttr>() ? "host device"
                                                                                    : "host";
    OS << "summary of " << F->getQualifiedNameAsString() << " (" << Kind << ", line "
       << Ctx.getSourceManager().getExpansionLineNumber(F->getLocation()) << ")\n";
    P->get(F).print(OS, *F);
    if (Device)
      continue;
    AliasPolicy Policy = P->aliasPolicy(F);
    bool Symbolic = isa<CXXMethodDecl>(F) || llvm::any_of(F->parameters(), [](const auto *P) {
                      QualType T = P->getType();
                      return T->isPointerType() || T->isReferenceType() || T->isRecordType();
                    });
    if (Policy.M == AliasPolicy::Mode::Collapse && Symbolic)
      OS << "  aliases: what parameters point to may overlap each other and globals ("
         << Policy.Notes.front()
         << (Policy.Restrict.empty() ? "" : "; __restrict__ parameters excepted") << ")\n";
    else if (Policy.M == AliasPolicy::Mode::Context && Policy.Pairs.empty() && Symbolic)
      OS << "  aliases: none (every call site is in view)\n";
    else if (Policy.M == AliasPolicy::Mode::Context)
      for (const std::string &Note : Policy.Notes)
        OS << "  aliases: " << Note << "\n";
    FunctionAccesses FA(*F, Ctx, *this);
    for (const GpuOp &Op : FA.ops()) {
      OS << "  op" << Op.Id << " line " << Op.Line << ":" << Op.Column << " " << Op.Callee;
      std::vector<std::string> Reads, Writes, Aliases;
      for (auto [O, Mode] : Op.Effects.entries()) {
        const std::string &Name = FA.objects().get(O).Name;
        if (Op.Effects.isAliasOnly(O))
          Aliases.push_back(Name);
        else if (Mode & ReadAccess)
          Reads.push_back(Name);
        if (!Op.Effects.isAliasOnly(O) && (Mode & WriteAccess))
          Writes.push_back(Name);
      }
      OS << " reads: " << (Reads.empty() ? "-" : llvm::join(Reads, ", "))
         << "; writes: " << (Writes.empty() ? "-" : llvm::join(Writes, ", "));
      if (!Aliases.empty())
        OS << "; may overlap: " << llvm::join(Aliases, ", ");
      if (!Op.UnknownWhy.empty())
        OS << " (unknown: " << Op.UnknownWhy << ")";
      OS << "\n";
    }
  }
}

} // namespace streamalloc
