//===- HostPinning.cpp ----------------------------------------------------===//
#include "streamalloc/Transform/HostPinning.h"
#include "PointerUse.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Model/ApiModel.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace streamalloc {

double PinCostModel::saving(const BufferTraffic &T, bool Register) const {
  constexpr double GB = 1e9;
  double Saved = T.H2DBytes / GB * (1.0 / PageableH2DGBps - 1.0 / PinnedGBps) +
                 T.D2HBytes / GB * (1.0 / PageableD2HGBps - 1.0 / PinnedGBps);
  double Cost = Register ? RegisterFixedSec + RegisterSecPerGB * T.Bytes / GB
                         : AllocFixedSec + AllocExtraSecPerGB * T.Bytes / GB;
  return Saved - Cost;
}

llvm::StringRef pinActionName(PinAction Action) {
  switch (Action) {
  case PinAction::Pageable:
    return "pageable";
  case PinAction::AllocPinned:
    return "allocated page-locked";
  case PinAction::Register:
    return "registered";
  }
  return "?";
}

namespace {

/// The asynchronous form of a GPU copy or fill (the program's own
/// cudaMemcpyAsync and the like): with pageable memory it returns only once
/// the host side of the transfer is done, with page-locked memory at once.
bool isAsyncFormOfGpuOp(const ApiFunction &Api) {
  static const llvm::StringSet<> AsyncForms = [] {
    llvm::StringSet<> Names;
    for (unsigned I = 0; I < apiModelSize(); ++I)
      if (apiModelRow(I).isGpuOp() && !apiModelRow(I).AsyncName.empty())
        Names.insert(apiModelRow(I).AsyncName);
    return Names;
  }();
  return AsyncForms.contains(Api.Name);
}

/// Every DeclRefExpr of each variable in one function body.
class UseIndex : public RecursiveASTVisitor<UseIndex> {
public:
  llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> Uses;
  bool VisitDeclRefExpr(const DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      Uses[V].push_back(E);
    return true;
  }
};

/// Follows one group of host allocations through the code that uses them:
/// the variables that hold them (in the function that made them and in the
/// helpers they are passed to) and every place their pointers go. Fails, with
/// a reason, as soon as a pointer goes somewhere the rewrite could not see.
class BufferTracer {
public:
  BufferTracer(ASTContext &Ctx, const FunctionDecl &Home)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Home(Home) {}

  std::vector<const Expr *> Sites;
  std::vector<const Expr *> Releases;
  std::string Why; ///< set when the group cannot be pinned

  bool trace(const Expr *Site) {
    if (!addSite(Site))
      return false;
    while (!Work.empty() && Why.empty()) {
      auto [Fn, V] = Work.pop_back_val();
      checkHolder(Fn, V);
    }
    return Why.empty();
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl &Home;
  llvm::SmallVector<std::pair<const FunctionDecl *, const VarDecl *>, 8> Work;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<UseIndex>> Indexes;

  unsigned lineOf(const Stmt *S) const {
    return SM.getSpellingLineNumber(SM.getFileLoc(S->getBeginLoc()));
  }
  bool fail(const std::string &Reason) {
    if (Why.empty())
      Why = Reason;
    return false;
  }

  const std::vector<const DeclRefExpr *> &usesOf(const FunctionDecl *Fn, const VarDecl *V) {
    std::unique_ptr<UseIndex> &Index = Indexes[Fn];
    if (!Index) {
      Index = std::make_unique<UseIndex>();
      Index->TraverseStmt(Fn->getBody());
    }
    return Index->Uses[V];
  }

  static bool writtenDirectly(const SourceManager &SM, SourceLocation L) {
    return L.isFileID() && SM.isWrittenInMainFile(L);
  }

  /// An allocation the rewrite can replace: malloc/calloc named directly, or
  /// new[] of a trivial type with the global operator new.
  bool addSite(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (llvm::is_contained(Sites, E))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
      const ApiFunction *Api = modelledCallee(Call);
      if (!Api || (Api->Name != "malloc" && Api->Name != "calloc"))
        return fail("it may also hold memory from `" + calleeName(Call) + "` (line " +
                    std::to_string(lineOf(Call)) + ")");
      if (!Callee || Callee->hasQualifier() || !writtenDirectly(SM, Callee->getLocation()))
        return fail("its allocation on line " + std::to_string(lineOf(Call)) +
                    " is not spelled as a plain call in this file");
    } else if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
      if (!New->isArray() || New->getNumPlacementArgs() != 0 ||
          !New->getAllocatedType().isTrivialType(Ctx) ||
          !New->getOperatorNew()->isReplaceableGlobalAllocationFunction() ||
          (New->hasInitializer() && !isa<ImplicitValueInitExpr>(New->getInitializer())))
        return fail("its allocation on line " + std::to_string(lineOf(New)) +
                    " is not a plain new[] of a trivial type");
      if (!writtenDirectly(SM, New->getBeginLoc()) || !writtenDirectly(SM, New->getEndLoc()))
        return fail("its allocation on line " + std::to_string(lineOf(New)) +
                    " is spelled through a macro");
    } else {
      return fail("it may also hold a pointer the analysis cannot follow (line " +
                  std::to_string(lineOf(E)) + ")");
    }
    Sites.push_back(E);
    return holdsResultOf(E);
  }

  /// The allocation's result must go straight into a plain local pointer.
  bool holdsResultOf(const Expr *Site) {
    const Expr *Val = Site;
    while (true) {
      auto Parents = Ctx.getParents(*Val);
      if (Parents.size() != 1)
        return fail("its allocation's result is used in several places");
      if (const auto *P = Parents[0].get<Expr>(); P && isa<ParenExpr, CastExpr>(P)) {
        Val = P;
        continue;
      }
      if (const auto *V = Parents[0].get<VarDecl>())
        return addHolder(&Home, V);
      if (const auto *BO = Parents[0].get<BinaryOperator>();
          BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Val)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
            return addHolder(&Home, V);
      return fail("the allocation on line " + std::to_string(lineOf(Site)) +
                  " is not stored straight into a local pointer");
    }
  }

  bool addHolder(const FunctionDecl *Fn, const VarDecl *V) {
    bool InHome = Fn == &Home;
    if (!V->getType()->isPointerType() || !V->hasLocalStorage() || (InHome && isa<ParmVarDecl>(V)))
      return fail("it is stored in `" + V->getNameAsString() +
                  "`, which is not a local pointer of `" + Fn->getNameAsString() + "`");
    if (Seen.insert(V).second)
      Work.push_back({Fn, V});
    return true;
  }

  void checkHolder(const FunctionDecl *Fn, const VarDecl *V) {
    bool InHome = Fn == &Home;
    if (InHome && V->hasInit() && !isa<ParmVarDecl>(V))
      checkSource(V->getInit());
    for (const DeclRefExpr *Use : usesOf(Fn, V))
      if (!checkUse(Fn, Use))
        return;
  }

  /// What is assigned to a holder in the allocating function: it must be
  /// part of the group too (free(p) then releases group memory only).
  bool checkSource(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (isNullConstant(E, Ctx))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return addHolder(&Home, V);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAdditiveOp() && BO->getType()->isPointerType())
      return checkSource(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return checkSource(CO->getTrueExpr()) && checkSource(CO->getFalseExpr());
    // `&p[i]`: a pointer into what p holds.
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
          Sub && Sub->getBase()->getType()->isPointerType())
        return checkSource(Sub->getBase());
    if (isa<CallExpr, CXXNewExpr>(E))
      return addSite(E);
    return fail("it may also hold a pointer from the expression on line " +
                std::to_string(lineOf(E)));
  }

  /// The one parent of \p E (none when it has several, e.g. in a template).
  DynTypedNode parentOf(const Expr *E) const {
    auto Parents = Ctx.getParents(*E);
    return Parents.size() == 1 ? Parents[0] : DynTypedNode();
  }

  /// One mention of a holder variable.
  bool checkUse(const FunctionDecl *Fn, const DeclRefExpr *Use) {
    bool InHome = Fn == &Home;
    std::string Name = cast<VarDecl>(Use->getDecl())->getNameAsString();
    // The variable itself (in parentheses or not): read (below), assigned,
    // moved within the object.
    const Expr *Var = Use;
    while (const auto *Paren = parentOf(Var).get<ParenExpr>())
      Var = Paren;
    DynTypedNode P = parentOf(Var);
    if (const auto *BO = P.get<BinaryOperator>(); BO && BO->getLHS() == Var) {
      if (BO->getOpcode() == BO_Assign)
        return !InHome || checkSource(BO->getRHS());
      if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)
        return true;
    }
    if (const auto *UO = P.get<UnaryOperator>(); UO && UO->isIncrementDecrementOp())
      return true;
    if (P.get<UnaryExprOrTypeTraitExpr>())
      return true;
    const auto *Read = P.get<ImplicitCastExpr>();
    if (!Read || Read->getCastKind() != CK_LValueToRValue)
      return fail("the address of `" + Name + "` is taken or it is bound to a reference (line " +
                  std::to_string(lineOf(Use)) + ")");
    return traceValue(Read, Fn, /*Offset=*/false);
  }

  /// A pointer value into the buffer (\p Offset: it may point past the
  /// start of the allocation), and the pointers derived from it, followed
  /// up to where they are used.
  bool traceValue(const Expr *Val, const FunctionDecl *Fn, bool Offset) {
    bool InHome = Fn == &Home;
    while (true) {
      PointerUse U = classifyPointerUse(parentOf(Val), Val);
      auto Here = " (line " + std::to_string(lineOf(Val)) + ")";
      switch (U.K) {
      case PointerUse::PassesOn:
        Val = U.Next;
        Offset |= U.AddsOffset;
        continue;
      case PointerUse::Harmless:
      case PointerUse::Condition:
        return true;
      case PointerUse::Element:
        return elementAccess(U.Next, Fn, Offset);
      case PointerUse::StoredInVar:
        return addHolder(Fn, U.Var);
      case PointerUse::StoredElsewhere:
        return fail("a pointer into it is stored outside a local variable" + Here);
      case PointerUse::Argument:
        return passedToCall(U.Call, Val, Fn, Offset, Here);
      case PointerUse::Deleted:
        if (!InHome || Offset || !U.Delete->isArrayForm())
          return fail("it is released by a delete the rewrite does not handle" + Here);
        Releases.push_back(U.Delete);
        return writtenDirectly(SM, U.Delete->getBeginLoc()) ||
               fail("it is released through a macro" + Here);
      case PointerUse::Returned:
        return fail("a pointer into it is returned from `" + Fn->getNameAsString() + "`" + Here);
      case PointerUse::Converted:
        return fail("a pointer into it is converted to `" + U.TypeName + "`" + Here);
      case PointerUse::Unfollowed:
        break;
      }
      return fail("a pointer into it is used in a way the pinning analysis does not follow" + Here);
    }
  }

  /// `p[i]`, `*p`, `p->f`: an access to the buffer's memory. A pointer into
  /// it may be derived again: `&p[i]`, `&(p[i])`, `&p[i].f`, or an array
  /// member decaying (`p[i].arr`); `&p[0]` and `&*p` keep \p Offset.
  bool elementAccess(const Expr *Element, const FunctionDecl *Fn, bool Offset) {
    bool SameStart = isZeroElement(Element);
    const Expr *E = Element;
    while (true) {
      DynTypedNode P = parentOf(E);
      if (const auto *Paren = P.get<ParenExpr>()) {
        E = Paren;
        continue;
      }
      if (const auto *Member = P.get<MemberExpr>(); Member && !Member->isArrow()) {
        E = Member;
        SameStart = false;
        continue;
      }
      const auto *UO = P.get<UnaryOperator>();
      const auto *Decay = P.get<ImplicitCastExpr>();
      if (UO && UO->getOpcode() == UO_AddrOf)
        return traceValue(UO, Fn, Offset || !SameStart);
      if (Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
        return traceValue(Decay, Fn, /*Offset=*/true);
      return true;
    }
  }

  bool passedToCall(const CallExpr *Call, const Expr *Val, const FunctionDecl *Fn, bool Offset,
                    const std::string &Here) {
    unsigned Index = 0;
    while (Index < Call->getNumArgs() && Call->getArg(Index) != Val)
      ++Index;
    if (Index == Call->getNumArgs())
      return fail("a pointer into it is called as a function" + Here);
    if (isa<CUDAKernelCallExpr>(Call))
      return fail("a pointer into it is passed to a kernel" + Here);
    if (const ApiFunction *Api = modelledCallee(Call)) {
      if (isAsyncFormOfGpuOp(*Api))
        return fail("the program's own " + Api->Name.str() + " on line " +
                    std::to_string(lineOf(Call)) +
                    " would become truly asynchronous (with pageable memory it returns only "
                    "once the host side of the copy is done)");
      switch (Api->roleOf(Index)) {
      case ArgRole::None:
      case ArgRole::Read:
      case ArgRole::Write:
      case ArgRole::ReadWrite:
      case ArgRole::VariadicRead:
        if (Api->Kind == ApiKind::Allocate || Api->Name.starts_with("cudaHost"))
          break;
        return true;
      case ArgRole::Free:
        if (Api->Name == "free" && Fn == &Home && !Offset) {
          const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
          if (!Callee || Callee->hasQualifier() || !writtenDirectly(SM, Callee->getLocation()))
            return fail("it is released by a `free` not spelled plainly" + Here);
          Releases.push_back(Call);
          return true;
        }
        break;
      default:
        break;
      }
      if (Api->roleOf(Index) == ArgRole::Free && Fn != &Home)
        return fail("it is released in `" + Fn->getNameAsString() + "`" + Here);
      return fail("a pointer into it is passed to `" + Api->Name.str() + "`" + Here);
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || Index >= Def->getNumParams() ||
        !SM.isWrittenInMainFile(SM.getExpansionLoc(Def->getLocation())) ||
        Def->isTemplateInstantiation())
      return fail("a pointer into it is passed to `" + calleeName(Call) +
                  "`, whose body the analysis cannot see" + Here);
    return addHolder(Def, Def->getParamDecl(Index));
  }
};

/// Bytes of an allocation or a copy when they are compile-time constants.
std::optional<double> constantBytes(const Expr *Site, ASTContext &Ctx) {
  auto Eval = [&](const Expr *E) -> std::optional<double> {
    Expr::EvalResult R;
    if (E && E->EvaluateAsInt(R, Ctx))
      return (double)R.Val.getInt().getZExtValue();
    return std::nullopt;
  };
  if (const auto *Call = dyn_cast<CallExpr>(Site)) {
    std::optional<double> A = Eval(Call->getArg(0));
    if (Call->getNumArgs() == 2) {
      std::optional<double> B = Eval(Call->getArg(1));
      return A && B ? std::optional<double>(*A * *B) : std::nullopt;
    }
    return A;
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(Site)) {
    std::optional<double> N = New->getArraySize() ? Eval(*New->getArraySize()) : std::nullopt;
    if (!N)
      return std::nullopt;
    return *N * Ctx.getTypeSizeInChars(New->getAllocatedType()).getQuantity();
  }
  return std::nullopt;
}

} // namespace

std::vector<PinDecision> planPinning(const FunctionAccesses &FA, const CraResult &Cra, PinMode Mode,
                                     bool FileResetsDevice, const PinCostModel &Costs) {
  std::vector<PinDecision> Decisions;
  ASTContext &Ctx = FA.function().getASTContext();
  const ObjectTable &Objects = FA.objects();
  // Host allocations the GPU copies of this function use, with the bytes
  // the copies move in each direction (-1: the whole buffer, size unknown
  // here) and the loops each copy sits in.
  struct Use {
    double Bytes;
    bool Reads;
    bool Async;
    std::vector<const Stmt *> Loops;
  };
  llvm::DenseMap<ObjectId, std::vector<Use>> Copied;
  for (const GpuOp &Op : FA.ops()) {
    if (Op.Kind != GpuOpKind::Copy)
      continue;
    double Bytes = -1;
    if (Op.Api && Op.Api->Name == "cudaMemcpy")
      if (const auto *Call = dyn_cast<CallExpr>(Op.Call); Call && Call->getNumArgs() > 2) {
        Expr::EvalResult R;
        if (Call->getArg(2)->EvaluateAsInt(R, Ctx))
          Bytes = (double)R.Val.getInt().getZExtValue();
      }
    for (auto [Obj, Access] : Op.Effects.entries())
      if (Obj != UnknownObject && Objects.get(Obj).Kind == ObjectKind::HostAllocation)
        Copied[Obj].push_back(
            {Bytes, !(Access & WriteAccess), Cra.Ops[Op.Id].Async, Cra.Ops[Op.Id].Loops});
  }
  // The loops around an allocation site, to tell copies repeated per
  // allocation from copies repeated with it.
  auto LoopsAround = [&](const Stmt *S) {
    std::vector<const Stmt *> Loops;
    for (auto Parents = Ctx.getParents(*S); Parents.size() == 1;
         Parents = Ctx.getParents(Parents[0])) {
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P)
        break;
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
        Loops.push_back(P);
    }
    return Loops;
  };
  constexpr double AssumedTrips = 4; // a loop around a copy but not its allocation

  llvm::SmallPtrSet<const Expr *, 8> Done;
  for (ObjectId Obj = 0; Obj < Objects.size(); ++Obj) {
    auto It = Copied.find(Obj);
    if (It == Copied.end())
      continue;
    const MemoryObject &M = Objects.get(Obj);
    PinDecision D{Obj, M.Name, M.Line};
    D.Site = M.Site;
    if (D.Site && Done.count(D.Site))
      continue; // pinned together with an earlier buffer
    if (Mode == PinMode::Off)
      D.Why = "pinning is off (--pin=off)";
    else if (FileResetsDevice)
      D.Why = "the file calls cudaDeviceReset, which would release page-locked memory";
    else if (!D.Site)
      D.Why = "its allocation is not an expression the rewrite can replace";
    if (!D.Why.empty()) {
      Decisions.push_back(std::move(D));
      continue;
    }
    BufferTracer Tracer(Ctx, FA.function());
    if (!Tracer.trace(D.Site)) {
      D.Why = Tracer.Why;
      Decisions.push_back(std::move(D));
      continue;
    }
    // The cost model: bytes unknown at compile time count as large buffers.
    BufferTraffic T;
    T.Bytes = constantBytes(D.Site->IgnoreParenCasts(), Ctx).value_or(1e9);
    std::vector<const Stmt *> SiteLoops = LoopsAround(D.Site);
    for (const Use &U : It->second) {
      double Trips =
          llvm::any_of(U.Loops, [&](const Stmt *L) { return !llvm::is_contained(SiteLoops, L); })
              ? AssumedTrips
              : 1;
      (U.Reads ? T.H2DBytes : T.D2HBytes) += Trips * (U.Bytes >= 0 ? U.Bytes : T.Bytes);
      ++T.Copies;
    }
    unsigned Copies = T.Copies;
    double AllocSaving = Costs.saving(T, false), RegisterSaving = Costs.saving(T, true);
    bool Register =
        Mode == PinMode::Register || (Mode == PinMode::Auto && RegisterSaving > AllocSaving);
    // An asynchronous copy from or to pageable memory blocks the host until
    // the work queued before it has finished, so pinning is what lets the
    // host run ahead at all; its worth (the GPU time queued before the copy)
    // is not known here, but measured on the bench suite it is the main gain.
    bool AnyAsync = llvm::any_of(It->second, [](const Use &U) { return U.Async; });
    if (Mode == PinMode::Auto && !AnyAsync && std::max(AllocSaving, RegisterSaving) <= 0) {
      D.Why = "pinning it costs more than its " + std::to_string(Copies) + " cop" +
              (Copies == 1 ? "y" : "ies") + " would save (measured cost model)";
    } else {
      D.Action = Register ? PinAction::Register : PinAction::AllocPinned;
      D.Why = AnyAsync ? std::string("asynchronous copies of pageable memory block the host")
                       : "so that its " + std::to_string(Copies) + " cop" +
                             (Copies == 1 ? "y" : "ies") + " run at full speed";
      for (const Expr *S : Tracer.Sites)
        Done.insert(S);
      D.Releases = Tracer.Releases;
      // The other allocations of the group go with it.
      for (const Expr *S : Tracer.Sites)
        if (S != D.Site->IgnoreParenCasts()) {
          PinDecision Extra = D;
          Extra.Site = S;
          Extra.Releases.clear();
          Decisions.push_back(std::move(Extra));
        }
    }
    Decisions.push_back(std::move(D));
  }
  return Decisions;
}

} // namespace streamalloc
