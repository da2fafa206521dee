//===- PointerGroup.cpp ---------------------------------------------------===//
#include "streamalloc/Transform/PointerGroup.h"
#include "PointerUse.h"
#include "streamalloc/Access/ImportedSummaries.h"
#include "streamalloc/Model/ApiModel.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace streamalloc {

namespace {

class MentionCollector : public RecursiveASTVisitor<MentionCollector> {
public:
  explicit MentionCollector(llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> &Uses)
      : Uses(Uses) {}
  bool VisitDeclRefExpr(const DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      Uses[V].push_back(E);
    return true;
  }

private:
  llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> &Uses;
};

} // namespace

const std::vector<const DeclRefExpr *> &VariableUses::of(const FunctionDecl *Fn, const VarDecl *V) {
  std::unique_ptr<PerVariable> &Body = Bodies[Fn];
  if (!Body) {
    Body = std::make_unique<PerVariable>();
    MentionCollector(*Body).TraverseStmt(Fn->getBody());
  }
  return (*Body)[V];
}

void PointerGroupTracer::drainWork() {
  while (!Work.empty()) {
    auto [Fn, V] = Work.pop_back_val();
    checkHolder(Fn, V);
  }
}

bool PointerGroupTracer::trace(const Expr *Site) {
  Policy.site(*this, Site);
  drainWork();
  return Why.empty();
}

bool PointerGroupTracer::traceHolder(const FunctionDecl *Fn, const VarDecl *V) {
  addHolder(Fn, V);
  drainWork();
  return Why.empty();
}

bool PointerGroupTracer::traceReturnedValue(const Expr *Value) {
  checkSource(Value);
  drainWork();
  return Why.empty();
}

bool PointerGroupTracer::traceField(const FieldDecl *F) {
  if (const Expr *Init = F->getInClassInitializer(); Init && !isNullConstant(Init, Ctx))
    fail("its member `" + F->getNameAsString() + "` has a default initialiser that is not null" +
         at(Init));
  const auto *Class = dyn_cast<CXXRecordDecl>(F->getParent());
  if (Class)
    for (const CXXConstructorDecl *Ctor : Class->ctors())
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() == F && Init->isWritten())
          Policy.fieldStore(*this, Ctor, nullptr, Init->getInit());
  for (const FieldMention &M : mentionsOf(*F, Ctx)) {
    if (M.In && M.In->isDependentContext())
      continue; // a template's pattern: its instantiations are traced
    if (!M.In) {
      fail("its member `" + F->getNameAsString() + "` is used outside a function" + at(M.Expr));
      continue;
    }
    checkFieldUse(M.In, M.Expr);
  }
  drainWork();
  return Why.empty();
}

bool PointerGroupTracer::traceCallResult(const FunctionDecl *Caller, const CallExpr *Call,
                                         bool Element) {
  if (Element)
    elementAccess(Caller, Call, /*Offset=*/true);
  else
    traceValue(Caller, Call, /*Offset=*/false);
  drainWork();
  return Why.empty();
}

/// One mention of the traced field: stored into, read, or its address taken.
bool PointerGroupTracer::checkFieldUse(const FunctionDecl *Fn, const MemberExpr *Use) {
  std::string Name = Use->getMemberDecl()->getNameAsString();
  // The member itself: in parentheses, or an arm of `c ? f : g` (an lvalue).
  const Expr *Field = Use;
  while (true) {
    DynTypedNode Up = parentOf(Field);
    if (const auto *Paren = Up.get<ParenExpr>()) {
      Field = Paren;
      continue;
    }
    if (const auto *Arms = Up.get<ConditionalOperator>();
        Arms && Arms->isGLValue() && Arms->getCond() != Field) {
      Field = Arms;
      continue;
    }
    break;
  }
  DynTypedNode P = parentOf(Field);
  if (const auto *BO = P.get<BinaryOperator>();
      BO && BO->getLHS() == Field && BO->getOpcode() == BO_Assign)
    return Policy.fieldStore(*this, Fn, BO, BO->getRHS());
  if (const auto *UO = P.get<UnaryOperator>(); UO && UO->getOpcode() == UO_AddrOf)
    return Policy.holderAddress(*this, Fn, UO, Name);
  if (P.get<UnaryExprOrTypeTraitExpr>())
    return true;
  const auto *Read = P.get<ImplicitCastExpr>();
  if (!Read || Read->getCastKind() != CK_LValueToRValue)
    return fail(Policy.wording().UnfollowedUse(Name) + at(Use));
  return traceValue(Fn, Read, /*Offset=*/false);
}

bool PointerGroupPolicy::returned(PointerGroupTracer &T, const FunctionDecl *Fn, const Expr *Val) {
  return T.fail("a pointer into it is returned from `" + Fn->getNameAsString() + "`" + T.at(Val));
}

bool PointerGroupPolicy::fieldStore(PointerGroupTracer &T, const FunctionDecl *Fn,
                                    const BinaryOperator *, const Expr *Value) {
  return T.fail("a pointer is stored into it in `" + Fn->getNameAsString() + "`" + T.at(Value));
}

bool PointerGroupTracer::recordSite(const Expr *Site) {
  if (llvm::is_contained(Sites, Site))
    return false;
  Sites.push_back(Site);
  return true;
}

void PointerGroupTracer::recordRelease(const Expr *Release) {
  if (!llvm::is_contained(Releases, Release))
    Releases.push_back(Release);
}

bool PointerGroupTracer::fail(const std::string &Reason) {
  if (Why.empty())
    Why = Reason;
  return false;
}

unsigned PointerGroupTracer::lineOf(const Stmt *S) const {
  return SM.getSpellingLineNumber(SM.getFileLoc(S->getBeginLoc()));
}

std::string PointerGroupTracer::at(const Stmt *S) const {
  return " (line " + std::to_string(lineOf(S)) + ")";
}

bool PointerGroupTracer::writtenDirectly(SourceLocation L) const {
  // In the file of the allocating function, which the tool rewrites (the
  // main file or one of the project's own included files).
  return L.isFileID() && SM.getFileID(L) == SM.getFileID(SM.getExpansionLoc(Home.getLocation()));
}

bool PointerGroupTracer::insideLambda(const Expr *E) const {
  DynTypedNode N = DynTypedNode::create(*E);
  while (true) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return false;
    if (Parents[0].get<LambdaExpr>())
      return true;
    if (const auto *F = Parents[0].get<FunctionDecl>()) {
      const auto *M = dyn_cast<CXXMethodDecl>(F);
      return M && M->getParent()->isLambda();
    }
    N = Parents[0];
  }
}

DynTypedNode PointerGroupTracer::parentOf(const Expr *E) const {
  auto Parents = Ctx.getParents(*E);
  return Parents.size() == 1 ? Parents[0] : DynTypedNode();
}

bool PointerGroupTracer::addHolder(const FunctionDecl *Fn, const VarDecl *V) {
  bool InHome = Fn == &Home;
  if (!V->getType()->isPointerType() || !V->hasLocalStorage() || (InHome && isa<ParmVarDecl>(V)))
    return fail(std::string(Policy.wording().Holder) + " stored in `" + V->getNameAsString() +
                "`, which is not a local pointer of `" + Fn->getNameAsString() + "`");
  if (Seen.insert(V).second) {
    Work.push_back({Fn, V});
    if (InHome)
      HomeHolders.push_back(V);
  }
  return true;
}

void PointerGroupTracer::checkHolder(const FunctionDecl *Fn, const VarDecl *V) {
  if (Fn == &Home && V->hasInit() && !isa<ParmVarDecl>(V))
    checkSource(V->getInit());
  for (const DeclRefExpr *Use : Uses.of(Fn, V))
    checkUse(Fn, Use);
}

/// What is assigned to a holder of the allocating function must be group
/// memory too (or null), so that its release releases group memory only.
bool PointerGroupTracer::checkSource(const Expr *E) {
  E = E->IgnoreParenCasts();
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
  // `&p[i]`: a pointer into what p holds.
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
        Sub && Sub->getBase()->getType()->isPointerType())
      return checkSource(Sub->getBase());
  return Policy.otherSource(*this, E);
}

/// One mention of a holder variable.
bool PointerGroupTracer::checkUse(const FunctionDecl *Fn, const DeclRefExpr *Use) {
  bool InHome = Fn == &Home;
  std::string Name = cast<VarDecl>(Use->getDecl())->getNameAsString();
  if (Policy.capturesBlock() && Use->refersToEnclosingVariableOrCapture())
    return fail("`" + Name + "` is captured by " +
                (insideLambda(Use) ? "a lambda" : "an OpenMP region") + at(Use));
  // The variable itself, in parentheses or not: read (below), assigned,
  // moved within the object, or its address taken.
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
  if (const auto *UO = P.get<UnaryOperator>()) {
    if (UO->isIncrementDecrementOp())
      return true;
    if (UO->getOpcode() == UO_AddrOf)
      return Policy.holderAddress(*this, Fn, UO, Name);
  }
  if (P.get<UnaryExprOrTypeTraitExpr>())
    return true;
  // An OpenMP region's capture of the variable (by reference): its uses in
  // the region are mentions of their own, followed like the others.
  if (P.get<CapturedStmt>())
    return true;
  const auto *Read = P.get<ImplicitCastExpr>();
  if (!Read || Read->getCastKind() != CK_LValueToRValue)
    return fail(Policy.wording().UnfollowedUse(Name) + at(Use));
  return traceValue(Fn, Read, /*Offset=*/false);
}

/// A pointer value into the group (\p Offset: it may point past the start
/// of an allocation) and the pointers derived from it, up to where they are
/// used.
bool PointerGroupTracer::traceValue(const FunctionDecl *Fn, const Expr *Val, bool Offset) {
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
      return elementAccess(Fn, U.Next, Offset);
    case PointerUse::StoredInVar:
      return addHolder(Fn, U.Var);
    case PointerUse::StoredElsewhere:
      return fail("a pointer into it is stored outside a local variable" + Here);
    case PointerUse::Argument:
      return passedToCall(Fn, U.Call, Val, Offset);
    case PointerUse::Deleted:
      return Policy.deleted(*this, Fn, U.Delete, Offset);
    case PointerUse::Returned:
      return Policy.returned(*this, Fn, Val);
    case PointerUse::Converted:
      return fail("a pointer into it is converted to `" + U.TypeName + "`" + Here);
    case PointerUse::Unfollowed:
      break;
    }
    return fail(std::string("a pointer into it is used in a way ") +
                Policy.wording().UnfollowedValue + Here);
  }
}

/// `p[i]`, `*p`, `p->f`: an access to the group's memory. A pointer into it
/// may be derived again: `&p[i]`, `&(p[i])`, `&p[i].f`, or an array member
/// decaying (`p[i].arr`); `&p[0]` and `&*p` keep \p Offset.
bool PointerGroupTracer::elementAccess(const FunctionDecl *Fn, const Expr *Element, bool Offset) {
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
    if (const auto *UO = P.get<UnaryOperator>(); UO && UO->getOpcode() == UO_AddrOf)
      return traceValue(Fn, UO, Offset || !SameStart);
    if (const auto *Decay = P.get<ImplicitCastExpr>();
        Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
      return traceValue(Fn, Decay, /*Offset=*/true);
    // `return p[i];` from a function returning a reference: the caller
    // holds the element and may take its address.
    if (P.get<ReturnStmt>() && Fn->getReturnType()->isReferenceType())
      return Policy.returned(*this, Fn, E);
    return true;
  }
}

bool PointerGroupTracer::passedToCall(const FunctionDecl *Fn, const CallExpr *Call, const Expr *Val,
                                      bool Offset) {
  unsigned Index = 0;
  while (Index < Call->getNumArgs() && Call->getArg(Index) != Val)
    ++Index;
  if (Index == Call->getNumArgs())
    return fail("a pointer into it is called as a function" + at(Val));
  if (isa<CUDAKernelCallExpr>(Call))
    return Policy.kernelArgument(*this, Call, Val);
  if (const ApiFunction *Api = modelledCallee(Call))
    return Policy.modelledCall(*this, Fn, Call, *Api, Index, Offset);
  const FunctionDecl *Callee = Call->getDirectCallee();
  // A member operator's call (`f(x)` of a lambda or a functor) passes the
  // object as its first argument: the parameters start at the second.
  unsigned Param = Index;
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
      Method && Method->isInstance() && isa<CXXOperatorCallExpr>(Call)) {
    if (Index == 0)
      return fail("a pointer into it is the object of an operator call" + at(Val));
    Param = Index - 1;
  }
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def && Policy.trustsPlainImportedParams())
    if (const ImportedFunction *I = ImportScope::lookup(Callee);
        I && I->Conflict.empty() && llvm::is_contained(I->PlainParams, Param))
      return true; // the other unit's analysis followed it there
  if (!Def || !Def->hasBody() || Param >= Def->getNumParams() ||
      SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return fail("a pointer into it is passed to `" + calleeName(Call) + "`, whose body " +
                Policy.wording().OpaqueCallee + at(Val));
  if (!Policy.followsInto(Call, Def))
    return fail("a pointer into it is passed to `" + calleeName(Call) + "`, " +
                Policy.wording().UnfollowedCallee + at(Val));
  return addHolder(Def, Def->getParamDecl(Param));
}

} // namespace streamalloc
