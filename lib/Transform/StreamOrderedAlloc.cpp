//===- StreamOrderedAlloc.cpp ---------------------------------------------===//
#include "streamalloc/Transform/StreamOrderedAlloc.h"
#include "streamalloc/Model/ApiModel.h"

#include "../Access/AstUtil.h"
#include "PointerUse.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

using namespace clang;

namespace streamalloc {

namespace {

bool isApiCall(const CallExpr *Call, llvm::StringRef Name) {
  const ApiFunction *Api = modelledCallee(Call);
  return Api && Api->Name == Name;
}

/// Every mention of a variable in one function body, lambda bodies included
/// (a mention there is a capture), and the cudaMalloc/cudaFree calls of the
/// body itself (a lambda body is another function).
class BodyIndex : public RecursiveASTVisitor<BodyIndex> {
public:
  llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> Uses;
  std::vector<const CallExpr *> Mallocs, Frees;
  bool shouldVisitLambdaBodies() const { return true; }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++Nested;
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --Nested;
    return Result;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *RD) {
    ++Nested; // a local class: its member functions are other functions
    bool Result = RecursiveASTVisitor::TraverseCXXRecordDecl(RD);
    --Nested;
    return Result;
  }
  bool VisitDeclRefExpr(const DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      Uses[V].push_back(E);
    return true;
  }
  bool VisitCallExpr(const CallExpr *Call) {
    if (Nested)
      return true;
    if (isApiCall(Call, "cudaMalloc"))
      Mallocs.push_back(Call);
    else if (isApiCall(Call, "cudaFree"))
      Frees.push_back(Call);
    return true;
  }

private:
  unsigned Nested = 0;
};

/// Follows one group of device allocations through the code that uses their
/// pointers: the local pointers of the allocating function that hold them,
/// the parameters of the helpers they are passed to, and every place a
/// pointer into them goes. Fails, with the reason, as soon as a pointer goes
/// somewhere the analysis cannot see, or is released other than by a
/// cudaFree of the allocating function.
class DeviceBufferTracer {
public:
  DeviceBufferTracer(ASTContext &Ctx, const FunctionDecl &Home,
                     llvm::DenseMap<const FunctionDecl *, std::unique_ptr<BodyIndex>> &Indexes)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Home(Home), Indexes(Indexes) {}

  std::vector<const CallExpr *> Sites;
  std::vector<const CallExpr *> Releases;
  std::vector<const VarDecl *> HomeHolders;
  std::string Why; ///< set when the group must stay synchronous

  bool trace(const CallExpr *Site) {
    addSite(Site);
    while (!Work.empty()) {
      auto [Fn, V] = Work.pop_back_val();
      checkHolder(Fn, V);
    }
    return Why.empty();
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl &Home;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<BodyIndex>> &Indexes;
  llvm::SmallVector<std::pair<const FunctionDecl *, const VarDecl *>, 8> Work;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;

  std::string at(const Stmt *S) const {
    return " (line " + std::to_string(SM.getSpellingLineNumber(SM.getFileLoc(S->getBeginLoc()))) +
           ")";
  }
  /// Records the first reason; tracing goes on, so that the group still
  /// collects every allocation and release it reaches (for the report).
  bool fail(const std::string &Reason) {
    if (Why.empty())
      Why = Reason;
    return false;
  }

  BodyIndex &indexOf(const FunctionDecl *Fn) {
    std::unique_ptr<BodyIndex> &Index = Indexes[Fn];
    if (!Index) {
      Index = std::make_unique<BodyIndex>();
      Index->TraverseStmt(Fn->getBody());
    }
    return *Index;
  }

  DynTypedNode parentOf(const Expr *E) const {
    auto Parents = Ctx.getParents(*E);
    return Parents.size() == 1 ? Parents[0] : DynTypedNode();
  }

  /// `cudaMalloc(&p, n)` (the address possibly cast): p is a holder.
  bool addSite(const CallExpr *Call) {
    if (llvm::is_contained(Sites, Call))
      return true;
    Sites.push_back(Call);
    const Expr *Out = Call->getNumArgs() ? Call->getArg(0)->IgnoreParenCasts() : nullptr;
    const auto *Addr = dyn_cast_or_null<UnaryOperator>(Out);
    const auto *Ref = Addr && Addr->getOpcode() == UO_AddrOf
                          ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens())
                          : nullptr;
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V)
      return fail("the allocation" + at(Call) +
                  " is not stored straight into a local pointer (`cudaMalloc(&p, n)`)");
    return addHolder(&Home, V);
  }

  bool addHolder(const FunctionDecl *Fn, const VarDecl *V) {
    bool InHome = Fn == &Home;
    if (!V->getType()->isPointerType() || !V->hasLocalStorage() || (InHome && isa<ParmVarDecl>(V)))
      return fail("its pointer is stored in `" + V->getNameAsString() +
                  "`, which is not a local pointer of `" + Fn->getNameAsString() + "`");
    if (Seen.insert(V).second) {
      Work.push_back({Fn, V});
      if (InHome)
        HomeHolders.push_back(V);
    }
    return true;
  }

  void checkHolder(const FunctionDecl *Fn, const VarDecl *V) {
    if (Fn == &Home && V->hasInit())
      checkSource(V->getInit());
    for (const DeclRefExpr *Use : indexOf(Fn).Uses[V])
      checkUse(Fn, Use);
  }

  /// What is assigned to a holder of the allocating function must be group
  /// memory too (or null), so that its cudaFree releases group memory only.
  bool checkSource(const Expr *E) {
    E = E->IgnoreParenCasts();
    // Null is fine: the rewritten release does nothing for it, as cudaFree.
    if (isNullConstant(E, Ctx))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return addHolder(&Home, V);
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAdditiveOp() && BO->getType()->isPointerType())
      return checkSource(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return checkSource(CO->getTrueExpr()) && checkSource(CO->getFalseExpr());
    return fail("its pointer variable may also hold the value of the expression" + at(E));
  }

  /// One mention of a holder variable.
  bool checkUse(const FunctionDecl *Fn, const DeclRefExpr *Use) {
    bool InHome = Fn == &Home;
    std::string Name = cast<VarDecl>(Use->getDecl())->getNameAsString();
    if (Use->refersToEnclosingVariableOrCapture())
      return fail("`" + Name + "` is captured by a lambda" + at(Use));
    DynTypedNode P = parentOf(Use);
    if (const auto *BO = P.get<BinaryOperator>(); BO && BO->getLHS()->IgnoreParens() == Use) {
      if (BO->getOpcode() == BO_Assign)
        return !InHome || checkSource(BO->getRHS());
      if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)
        return true;
    }
    if (const auto *UO = P.get<UnaryOperator>()) {
      if (UO->isIncrementDecrementOp())
        return true;
      if (UO->getOpcode() == UO_AddrOf)
        return addressUse(Fn, UO, Name);
    }
    if (P.get<UnaryExprOrTypeTraitExpr>())
      return true;
    // `&p` in parentheses.
    if (const auto *Paren = P.get<ParenExpr>())
      if (const auto *UO = parentOf(Paren).get<UnaryOperator>(); UO && UO->getOpcode() == UO_AddrOf)
        return addressUse(Fn, UO, Name);
    const auto *Read = P.get<ImplicitCastExpr>();
    if (!Read || Read->getCastKind() != CK_LValueToRValue)
      return fail("`" + Name + "` is used in a way the analysis does not follow" + at(Use));
    return followValue(Fn, Read, false);
  }

  /// `&p`: only as the out-parameter of a cudaMalloc in the allocating
  /// function (another allocation into the same pointer joins the group).
  bool addressUse(const FunctionDecl *Fn, const Expr *AddrOf, const std::string &Name) {
    const Expr *E = AddrOf;
    while (true) {
      DynTypedNode P = parentOf(E);
      if (const auto *Up = P.get<Expr>(); Up && isa<ParenExpr, CastExpr>(Up)) {
        E = Up;
        continue;
      }
      const auto *Call = P.get<CallExpr>();
      if (Fn == &Home && Call && Call->getNumArgs() > 0 && Call->getArg(0) == E &&
          isApiCall(Call, "cudaMalloc"))
        return addSite(Call);
      return fail("the address of `" + Name + "` is taken" + at(AddrOf));
    }
  }

  /// The value of a holder (or a pointer derived from it), up to where it is
  /// used. \p Offset: it may point past the start of the allocation.
  bool followValue(const FunctionDecl *Fn, const Expr *Val, bool Offset) {
    while (true) {
      PointerUse U = classifyPointerUse(parentOf(Val), Val);
      std::string Here = at(Val);
      switch (U.K) {
      case PointerUse::PassesOn:
        Val = U.Next;
        Offset |= U.AddsOffset;
        continue;
      case PointerUse::Harmless:
      case PointerUse::Condition:
        return true;
      case PointerUse::Element:
        return elementAccess(Fn, U.Next);
      case PointerUse::StoredInVar:
        return addHolder(Fn, U.Var);
      case PointerUse::StoredElsewhere:
        return fail("a pointer into it is stored outside a local variable" + Here);
      case PointerUse::Argument:
        return passedToCall(Fn, U.Call, Val, Offset, Here);
      case PointerUse::Returned:
        return fail("a pointer into it is returned from `" + Fn->getNameAsString() + "`" + Here);
      case PointerUse::Converted:
        return fail("a pointer into it is converted to `" + U.TypeName + "`" + Here);
      case PointerUse::Deleted:
      case PointerUse::Unfollowed:
        break;
      }
      return fail("a pointer into it is used in a way the analysis does not follow" + Here);
    }
  }

  /// `p[i]`, `*p`, `p->f`: an access to the buffer; `&p[i]` makes another
  /// pointer into it.
  bool elementAccess(const FunctionDecl *Fn, const Expr *Element) {
    const Expr *E = Element;
    while (const auto *Paren = parentOf(E).get<ParenExpr>())
      E = Paren;
    if (const auto *UO = parentOf(E).get<UnaryOperator>(); UO && UO->getOpcode() == UO_AddrOf)
      return followValue(Fn, UO, true);
    return true;
  }

  bool passedToCall(const FunctionDecl *Fn, const CallExpr *Call, const Expr *Val, bool Offset,
                    const std::string &Here) {
    unsigned Index = 0;
    while (Index < Call->getNumArgs() && Call->getArg(Index) != Val)
      ++Index;
    if (Index == Call->getNumArgs())
      return fail("a pointer into it is called as a function" + Here);
    if (isa<CUDAKernelCallExpr>(Call))
      return true; // the kernel's summary says what it does with the buffer
    if (const ApiFunction *Api = modelledCallee(Call)) {
      ArgRole Role = Api->roleOf(Index);
      if (Role == ArgRole::Free) {
        if (Api->Name != "cudaFree")
          return fail("it is released by `" + Api->Name.str() + "`" + Here);
        if (Fn != &Home)
          return fail("it is released in `" + Fn->getNameAsString() + "`" + Here);
        if (Offset)
          return fail("a pointer into it, not its start, is passed to cudaFree" + Here);
        if (!llvm::is_contained(Releases, Call))
          Releases.push_back(Call);
        return true;
      }
      bool PlainRole = Role == ArgRole::None || Role == ArgRole::Read || Role == ArgRole::Write ||
                       Role == ArgRole::ReadWrite || Role == ArgRole::VariadicRead;
      bool PlainKind = Api->Kind == ApiKind::GpuCopy || Api->Kind == ApiKind::GpuSet ||
                       Api->Kind == ApiKind::Host || Api->Kind == ApiKind::Pure ||
                       Api->Kind == ApiKind::Timer;
      if (PlainRole && PlainKind && !Api->isMember())
        return true;
      return fail("a pointer into it is passed to `" + Api->Name.str() + "`" + Here);
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Def);
    if (!Def || !Def->hasBody() || Index >= Def->getNumParams() || isa<CXXOperatorCallExpr>(Call) ||
        (Method && Method->isVirtual()) ||
        !SM.isWrittenInMainFile(SM.getExpansionLoc(Def->getLocation())) ||
        Def->isTemplateInstantiation() || Def->isDependentContext())
      return fail("a pointer into it is passed to `" + calleeName(Call) +
                  "`, whose body the analysis cannot follow" + Here);
    return addHolder(Def, Def->getParamDecl(Index));
  }
};

unsigned lineOf(const SourceManager &SM, const Stmt *S) {
  return SM.getSpellingLineNumber(SM.getFileLoc(S->getBeginLoc()));
}

} // namespace

std::vector<AllocGroup> findStreamOrderedAllocs(const FunctionDecl &F, ASTContext &Ctx) {
  std::vector<AllocGroup> Groups;
  if (!F.getBody())
    return Groups;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<BodyIndex>> Indexes;
  auto &Home = Indexes[&F];
  Home = std::make_unique<BodyIndex>();
  Home->TraverseStmt(F.getBody());
  std::vector<const CallExpr *> Mallocs = Home->Mallocs, Frees = Home->Frees;

  llvm::SmallPtrSet<const CallExpr *, 8> Grouped;
  for (const CallExpr *Site : Mallocs) {
    if (Grouped.count(Site))
      continue;
    DeviceBufferTracer Tracer(Ctx, F, Indexes);
    Tracer.trace(Site);
    AllocGroup G;
    G.Allocs = Tracer.Sites;
    G.Frees = Tracer.Releases;
    G.WhySync = Tracer.Why;
    G.Name = Tracer.HomeHolders.empty() ? "device buffer"
                                        : Tracer.HomeHolders.front()->getNameAsString();
    G.Line = lineOf(SM, Site);
    // Groups that share a call (a failed trace stops early, so two traces may
    // overlap) are one group.
    for (AllocGroup &Other : Groups) {
      bool Shares =
          llvm::any_of(G.Allocs, [&](auto *C) { return llvm::is_contained(Other.Allocs, C); }) ||
          llvm::any_of(G.Frees, [&](auto *C) { return llvm::is_contained(Other.Frees, C); });
      if (!Shares)
        continue;
      for (const CallExpr *C : Other.Allocs)
        if (!llvm::is_contained(G.Allocs, C))
          G.Allocs.push_back(C);
      for (const CallExpr *C : Other.Frees)
        if (!llvm::is_contained(G.Frees, C))
          G.Frees.push_back(C);
      if (G.WhySync.empty())
        G.WhySync = Other.WhySync;
      Other.Allocs.clear();
      Other.Frees.clear();
    }
    llvm::erase_if(Groups, [](const AllocGroup &O) { return O.Allocs.empty() && O.Frees.empty(); });
    for (const CallExpr *C : G.Allocs)
      Grouped.insert(C);
    for (const CallExpr *C : G.Frees)
      Grouped.insert(C);
    Groups.push_back(std::move(G));
  }
  // A cudaFree whose pointer no group reached releases memory allocated
  // elsewhere (or not by cudaMalloc): it stays synchronous.
  for (const CallExpr *Free : Frees) {
    if (Grouped.count(Free))
      continue;
    AllocGroup G;
    G.Frees.push_back(Free);
    G.Line = lineOf(SM, Free);
    G.WhySync = "it releases memory that is not allocated by a cudaMalloc of `" +
                F.getNameAsString() + "` held only by its local pointers";
    Groups.push_back(std::move(G));
  }
  return Groups;
}

} // namespace streamalloc
