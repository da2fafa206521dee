//===- VectorRegistration.cpp ---------------------------------------------===//
#include "VectorRegistration.h"
#include "streamalloc/Model/ApiModel.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace streamalloc {

namespace {

/// `std::vector<T>` with the default allocator and T other than bool (whose
/// vector has no data()).
bool isPlainStdVector(QualType Type) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Type->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || Spec->getName() != "vector")
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() != 2 || Args[0].getKind() != TemplateArgument::Type ||
      Args[0].getAsType()->isBooleanType() || Args[1].getKind() != TemplateArgument::Type)
    return false;
  const CXXRecordDecl *Alloc = Args[1].getAsType()->getAsCXXRecordDecl();
  return Alloc && Alloc->isInStdNamespace() && Alloc->getName() == "allocator";
}

bool isVectorMember(const FunctionDecl *F) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(F);
  return M && isPlainStdVector(M->getASTContext().getCanonicalTagType(M->getParent()));
}

/// Whether the value of \p Call cannot point into anything (a std::
/// function returning it hands out no pointer into the vector): void, or a
/// number or enumerator returned by value.
bool carriesNoPointer(const Expr *Call) {
  QualType Type = Call->getType();
  return Type->isVoidType() ||
         (!Call->isGLValue() && (Type->isArithmeticType() || Type->isEnumeralType()));
}

class VectorTrace {
public:
  VectorTrace(PointerGroupTracer &T, VariableUses &Uses)
      : T(T), Uses(Uses), Ctx(T.context()), SM(Ctx.getSourceManager()), Home(T.home()) {}

  VectorRegistration run(const CXXConstructExpr *Site, llvm::ArrayRef<const Stmt *> CopiesInHome);

private:
  PointerGroupTracer &T;
  VariableUses &Uses;
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl &Home;
  llvm::SmallVector<std::pair<const FunctionDecl *, const VarDecl *>, 4> Work;
  llvm::SmallPtrSet<const VarDecl *, 4> Seen;
  std::vector<const CallExpr *> Reallocations; ///< in the home function
  /// The vector passed on to a helper's reference parameter \p To.
  struct Pass {
    const VarDecl *From;
    const CallExpr *Call;
    const Expr *Arg;
    const VarDecl *To;
    bool InHome;
  };
  std::vector<Pass> Passes;
  llvm::SmallPtrSet<const VarDecl *, 4> Resized;   ///< helpers' parameters that reallocate
  llvm::SmallPtrSet<const VarDecl *, 4> Copied;    ///< those whose elements a GPU copy uses
  llvm::SmallPtrSet<const VarDecl *, 4> Iterators; ///< local variables holding iterators
  /// Uses in the home function through which a helper copies the elements.
  std::vector<const Expr *> HelperCopyUses;

  bool fail(const std::string &Why) { return T.fail(Why); }
  std::string at(const Stmt *S) const { return T.at(S); }
  static std::string name(const VarDecl *V) { return "`" + V->getNameAsString() + "`"; }

  DynTypedNode parentOf(const Stmt *S) const {
    auto Parents = Ctx.getParents(*S);
    return Parents.size() == 1 ? Parents[0] : DynTypedNode();
  }
  void follow(const FunctionDecl *Fn, const VarDecl *V) {
    if (Seen.insert(V).second)
      Work.push_back({Fn, V});
  }
  bool checkUse(const FunctionDecl *Fn, const VarDecl *V, const DeclRefExpr *Use);
  bool vectorCall(const FunctionDecl *Fn, const VarDecl *V, const CallExpr *Call);
  bool passedTo(const FunctionDecl *Fn, const VarDecl *V, const CallExpr *Call, const Expr *Arg);
  bool iteratorUse(const FunctionDecl *Fn, const VarDecl *V, const Expr *Iter);
  bool iteratorVariable(const FunctionDecl *Fn, const VarDecl *V, const VarDecl *Var,
                        const Stmt *Where);
  bool rangeFor(const FunctionDecl *Fn, const VarDecl *V, const CXXForRangeStmt *For);
  unsigned offsetOf(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }
};

/// One mention of the vector (or of a const reference to it in a helper).
bool VectorTrace::checkUse(const FunctionDecl *Fn, const VarDecl *V, const DeclRefExpr *Use) {
  if (Use->refersToEnclosingVariableOrCapture())
    return fail(name(V) + " is captured by " +
                (T.insideLambda(Use) ? "a lambda" : "an OpenMP region") + at(Use));
  const Expr *E = Use;
  while (true) {
    DynTypedNode P = parentOf(E);
    if (const auto *Paren = P.get<ParenExpr>()) {
      E = Paren;
      continue;
    }
    if (const auto *Cast = P.get<ImplicitCastExpr>();
        Cast && (Cast->getCastKind() == CK_NoOp || Cast->getCastKind() == CK_LValueToRValue)) {
      E = Cast;
      continue;
    }
    break;
  }
  DynTypedNode P = parentOf(E);
  if (const auto *Member = P.get<MemberExpr>()) {
    if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(parentOf(Member).get<Stmt>());
        Call && Call->getCallee()->IgnoreParens() == Member)
      return vectorCall(Fn, V, Call);
    return fail(name(V) + "'s member `" + Member->getMemberDecl()->getNameAsString() +
                "` is used in a way the pinning analysis does not follow" + at(Use));
  }
  if (const auto *Op = P.get<CXXOperatorCallExpr>();
      Op && Op->getNumArgs() > 0 && Op->getArg(0) == E)
    return vectorCall(Fn, V, Op);
  if (const auto *Call = P.get<CallExpr>())
    return passedTo(Fn, V, Call, E);
  if (const auto *Construct = P.get<CXXConstructExpr>()) {
    if (Construct->getConstructor()->isCopyConstructor())
      return true; // a copy of the elements: a vector of its own
    const Stmt *Value = Construct;
    while (const auto *Up = parentOf(Value).get<ExprWithCleanups>())
      Value = Up;
    if (parentOf(Value).get<ReturnStmt>())
      return fail(name(V) + " is returned from `" + Fn->getNameAsString() + "`" + at(Use));
    return fail(name(V) + " is moved or converted" + at(Use));
  }
  if (P.get<UnaryExprOrTypeTraitExpr>())
    return true;
  if (const auto *Bound = P.get<VarDecl>()) {
    // `for (x : v)` binds v to an implicit reference first.
    for (const DynTypedNode &Up : Ctx.getParents(*Bound))
      if (const auto *DS = Up.get<DeclStmt>())
        if (const auto *For = parentOf(DS).get<CXXForRangeStmt>(); For && For->getRangeStmt() == DS)
          return rangeFor(Fn, V, For);
    if (Bound->getType()->isReferenceType() &&
        Bound->getType().getNonReferenceType().isConstQualified()) {
      follow(Fn, Bound);
      return true;
    }
    return fail(name(V) + " is bound to " + name(Bound) +
                ", which the pinning analysis does not follow" + at(Use));
  }
  if (P.get<ReturnStmt>())
    return fail(name(V) + " is returned from `" + Fn->getNameAsString() + "`" + at(Use));
  if (const auto *UO = P.get<UnaryOperator>(); UO && UO->getOpcode() == UO_AddrOf)
    return fail("the address of " + name(V) + " is taken" + at(Use));
  return fail(name(V) + " is used in a way the pinning analysis does not follow" + at(Use));
}

/// A member function (or member operator) called on the vector.
bool VectorTrace::vectorCall(const FunctionDecl *Fn, const VarDecl *V, const CallExpr *Call) {
  const ApiFunction *Api = modelledCallee(Call);
  std::string Callee = "`" + calleeName(Call) + "`";
  if (!Api)
    return fail(name(V) + "'s " + Callee + " is not followed by the pinning analysis" + at(Call));
  switch (Api->Id) {
  case ApiId::std_vector_data:
    return T.traceCallResult(Fn, Call, /*Element=*/false);
  case ApiId::std_vector_operator_subscript:
  case ApiId::std_vector_at:
  case ApiId::std_vector_front:
  case ApiId::std_vector_back:
    return T.traceCallResult(Fn, Call, /*Element=*/true);
  case ApiId::std_vector_begin:
  case ApiId::std_vector_end:
  case ApiId::std_vector_cbegin:
  case ApiId::std_vector_cend:
    return iteratorUse(Fn, V, Call);
  case ApiId::std_vector_size:
  case ApiId::std_vector_empty:
  case ApiId::std_vector_capacity:
  case ApiId::std_vector_pop_back:
  case ApiId::std_vector_clear:
  case ApiId::std_vector_erase:
    return true; // the elements stay where they are
  case ApiId::std_vector_push_back:
  case ApiId::std_vector_emplace_back:
  case ApiId::std_vector_resize:
  case ApiId::std_vector_reserve:
  case ApiId::std_vector_shrink_to_fit:
  case ApiId::std_vector_assign:
  case ApiId::std_vector_insert:
  case ApiId::std_vector_operator_assign:
  case ApiId::std_vector_swap:
    // In a helper: its callers' calls that pass the vector on reallocate.
    if (Fn != &Home)
      Resized.insert(V);
    else
      Reallocations.push_back(Call);
    return true;
  default:
    return fail(name(V) + "'s " + Callee + " is not followed by the pinning analysis" + at(Call));
  }
}

/// The vector passed to a call as \p Arg (not as the object of a member call).
bool VectorTrace::passedTo(const FunctionDecl *Fn, const VarDecl *V, const CallExpr *Call,
                           const Expr *Arg) {
  unsigned Index = 0;
  while (Index < Call->getNumArgs() && Call->getArg(Index) != Arg)
    ++Index;
  const FunctionDecl *Callee = Call->getDirectCallee();
  unsigned Param = Index;
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
      Method && Method->isInstance() && isa<CXXOperatorCallExpr>(Call))
    Param = Index - 1; // argument 0 is the object
  std::string Here = " to `" + calleeName(Call) + "`" + at(Arg);
  if (!Callee || Index == Call->getNumArgs() || Param >= Callee->getNumParams())
    return fail(name(V) + " is passed" + Here + ", which the pinning analysis does not follow");
  if (Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
      (Callee->getName() == "move" || Callee->getName() == "forward"))
    return fail(name(V) + " is moved" + at(Arg));
  QualType Type = Callee->getParamDecl(Param)->getType();
  if (!Type->isReferenceType())
    return fail(name(V) + " is passed" + Here + ", which the pinning analysis does not follow");
  bool MayResize = !Type.getNonReferenceType().isConstQualified();
  // Another vector copying these elements (`w = v`, `w.assign(...)`), or a
  // library function that hands out nothing that points into them.
  if (!MayResize && (isVectorMember(Callee) || isa<CXXConstructorDecl>(Callee)))
    return true;
  if (MayResize && SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return fail(name(V) + " is passed by reference" + Here + ", which may resize it");
  if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return carriesNoPointer(Call) ||
           fail(name(V) + " is passed" + Here + ", which may return a pointer into it");
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !Def->hasBody())
    return fail(name(V) + " is passed" + Here + ", whose body the analysis cannot see");
  // The parameter is followed like the vector itself: a helper that resizes
  // it makes the call a point where the elements may move; one that copies
  // them, a copy there.
  Passes.push_back({V, Call, Arg, Def->getParamDecl(Param), Fn == &Home});
  follow(Def, Def->getParamDecl(Param));
  return true;
}

/// An iterator into the vector (\p Iter: a begin()/end() call, a mention of
/// a local iterator variable, or an iterator computed from one). Followed
/// through local iterator variables and iterator arithmetic; `*it`, `it[k]`
/// and `it->x` hand an element or a pointer to the pinning tracer;
/// comparisons and differences carry no pointer. Elsewhere it is accepted
/// only as an argument of another vector's member or of a `std::` algorithm
/// whose result is discarded or holds no pointer.
bool VectorTrace::iteratorUse(const FunctionDecl *Fn, const VarDecl *V, const Expr *Iter) {
  const Expr *E = outermostValue(Iter, Ctx);
  DynTypedNode P = parentOf(E);
  std::string Why = "an iterator into " + name(V) +
                    " is used in a way the pinning analysis does not follow" + at(Iter);
  // Discarded (`++it;`, a for loop's increment).
  if (P.get<CompoundStmt>() || (P.get<ForStmt>() && P.get<ForStmt>()->getInc() == E))
    return true;
  if (const auto *Op = P.get<CXXOperatorCallExpr>()) {
    bool First = Op->getNumArgs() > 0 && Op->getArg(0) == E;
    switch (Op->getOperator()) {
    case OO_Star:
    case OO_Subscript:
      return First ? T.traceCallResult(Fn, Op, /*Element=*/true) : fail(Why);
    case OO_Arrow:
      return First ? T.traceCallResult(Fn, Op, /*Element=*/false) : fail(Why);
    case OO_Equal:
      // `it = <iterator>`: the variable assigned holds it from now on.
      if (!First)
        if (const auto *Target = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
          if (const auto *Var = dyn_cast<VarDecl>(Target->getDecl()))
            return iteratorVariable(Fn, V, Var, Op) && iteratorUse(Fn, V, Op);
      return First ? iteratorUse(Fn, V, Op) : fail(Why);
    case OO_PlusPlus:
    case OO_MinusMinus:
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_Plus:
    case OO_Minus:
      return iteratorUse(Fn, V, Op); // another iterator into the same elements
    default:
      // A comparison or a difference.
      return carriesNoPointer(Op) || fail(Why);
    }
  }
  if (const auto *Var = P.get<VarDecl>())
    return iteratorVariable(Fn, V, Var, Iter);
  const FunctionDecl *Callee = nullptr;
  const Stmt *User = nullptr;
  if (const auto *Outer = P.get<CallExpr>()) {
    Callee = Outer->getDirectCallee();
    User = Outer;
  } else if (const auto *Construct = P.get<CXXConstructExpr>()) {
    Callee = Construct->getConstructor();
    User = Construct;
  }
  if (!Callee)
    return fail(Why);
  if (isVectorMember(Callee))
    return true; // another vector's constructor, assign or insert
  if (!Callee->isInStdNamespace() ||
      !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return fail(Why);
  // The algorithm's result is discarded or holds no pointer.
  if (carriesNoPointer(cast<Expr>(User)))
    return true;
  const Stmt *Value = User;
  for (const Expr *Up = parentOf(Value).get<Expr>();
       Up && isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr>(Up);
       Up = parentOf(Value).get<Expr>())
    Value = Up;
  return parentOf(Value).get<CompoundStmt>() || fail(Why);
}

/// A local variable of \p Fn that holds an iterator into the vector (from
/// \p Where on): each of its mentions is followed as the iterator.
bool VectorTrace::iteratorVariable(const FunctionDecl *Fn, const VarDecl *V, const VarDecl *Var,
                                   const Stmt *Where) {
  if (Var->getType()->isReferenceType() || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
    return fail("an iterator into " + name(V) + " is kept in " + name(Var) +
                ", which the pinning analysis does not follow" + at(Where));
  if (!Iterators.insert(Var).second)
    return true;
  for (const DeclRefExpr *Use : Uses.of(Fn, Var)) {
    if (Use->refersToEnclosingVariableOrCapture())
      return fail("an iterator into " + name(V) + " is captured" + at(Use));
    if (!iteratorUse(Fn, V, Use))
      return false;
  }
  return true;
}

/// `for (x : v)`: the loop reads or writes the elements through x; taking
/// x's address would make a pointer the analysis does not follow.
bool VectorTrace::rangeFor(const FunctionDecl *Fn, const VarDecl *V, const CXXForRangeStmt *For) {
  const VarDecl *Element = For->getLoopVariable();
  if (!Element->getType()->isReferenceType())
    return true;
  for (const DeclRefExpr *Use : Uses.of(Fn, Element)) {
    const Expr *E = Use;
    while (const auto *Paren = parentOf(E).get<ParenExpr>())
      E = Paren;
    if (const auto *UO = parentOf(E).get<UnaryOperator>(); UO && UO->getOpcode() == UO_AddrOf)
      return fail("the address of an element of " + name(V) + " is taken" + at(UO));
    if (const auto *Bound = parentOf(E).get<VarDecl>();
        Bound && Bound->getType()->isReferenceType())
      return fail("an element of " + name(V) + " is bound to " + name(Bound) + at(Use));
  }
  return true;
}

/// The first goto in \p S (outside lambdas), or null.
const Stmt *firstGoto(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = firstGoto(Child))
      return Found;
  return nullptr;
}

/// The statement of \p Block that holds \p S, or null.
const Stmt *statementOf(const CompoundStmt *Block, const Stmt *S, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*S);
  while (true) {
    auto Parents = Ctx.getParents(N);
    if (Parents.size() != 1)
      return nullptr;
    if (Parents[0].get<CompoundStmt>() == Block)
      return N.get<Stmt>();
    N = Parents[0];
  }
}

VectorRegistration VectorTrace::run(const CXXConstructExpr *Site,
                                    llvm::ArrayRef<const Stmt *> CopiesInHome) {
  VectorRegistration R;
  auto Done = [&] {
    R.Why = T.Why;
    return R;
  };
  const VarDecl *V = vectorConstructedBy(Site, Ctx);
  if (!V) {
    fail("its vector is not a variable of its own" + at(Site));
    return Done();
  }
  R.Vector = V;
  const DeclStmt *DS = nullptr;
  for (const DynTypedNode &Up : Ctx.getParents(*V))
    if (const auto *Decl = Up.get<DeclStmt>())
      DS = Decl;
  const auto *Block = DS ? parentOf(DS).get<CompoundStmt>() : nullptr;
  if (!isPlainStdVector(V->getType()))
    fail(name(V) + " is not a std::vector with the standard allocator");
  else if (!V->hasLocalStorage() || V->getDeclContext() != &Home)
    fail(name(V) + " is not a local variable of `" + Home.getNameAsString() + "`");
  else if (!Block)
    fail(name(V) + " is not declared in a block of its own" + at(Site));
  else if (!SM.isInMainFile(SM.getExpansionLoc(V->getLocation())))
    fail(name(V) + " is declared in an included file");
  if (!T.Why.empty())
    return Done();
  follow(&Home, V);
  while (!Work.empty()) {
    auto [Fn, Holder] = Work.pop_back_val();
    for (const DeclRefExpr *Use : Uses.of(Fn, Holder)) {
      size_t CopiesBefore = T.HelperCopies.size();
      checkUse(Fn, Holder, Use);
      if (T.HelperCopies.size() == CopiesBefore)
        continue;
      if (Fn == &Home)
        HelperCopyUses.push_back(Use);
      else
        Copied.insert(Holder);
    }
  }
  if (!T.Why.empty())
    return Done();
  // A parameter that passes the vector on to one that resizes (copies) it
  // resizes (copies) it too.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Pass &P : Passes) {
      if (Resized.count(P.To) && Resized.insert(P.From).second)
        Changed = true;
      if (Copied.count(P.To) && Copied.insert(P.From).second)
        Changed = true;
    }
  }
  for (const Pass &P : Passes)
    if (P.InHome) {
      if (Resized.count(P.To))
        Reallocations.push_back(P.Call);
      if (Copied.count(P.To))
        HelperCopyUses.push_back(P.Arg);
    }
  // The guard goes after the declaration or the last statement that may
  // reallocate the elements, whichever is later.
  R.After = DS;
  for (const CallExpr *Call : Reallocations) {
    const Stmt *S = statementOf(Block, Call, Ctx);
    if (!S) {
      fail(name(V) + " may be reallocated by `" + calleeName(Call) + "` in a nested scope" +
           at(Call));
      return Done();
    }
    if (offsetOf(S->getBeginLoc()) > offsetOf(R.After->getBeginLoc()))
      R.After = S;
  }
  // A goto from before the guard to a label after it would jump past its
  // initialisation, which C++ forbids.
  if (const Stmt *Goto = firstGoto(Home.getBody())) {
    fail("`" + Home.getNameAsString() + "` uses goto" + at(Goto) +
         ", which may jump past the registration");
    return Done();
  }
  if (!T.writtenDirectly(R.After->getBeginLoc()) || !T.writtenDirectly(R.After->getEndLoc())) {
    fail("the statement after which " + name(V) + " would be registered is spelled in a macro" +
         at(R.After));
    return Done();
  }
  unsigned End = offsetOf(R.After->getEndLoc());
  auto Early = [&](const Stmt *Copy) { return offsetOf(Copy->getBeginLoc()) <= End; };
  for (const Stmt *Copy : CopiesInHome)
    if (Early(Copy)) {
      fail("its GPU copy" + at(Copy) + " does not come after the last statement that may " +
           "reallocate " + name(V) + at(R.After));
      return Done();
    }
  for (const Expr *Use : HelperCopyUses)
    if (Early(Use)) {
      fail("the copy of its elements by the call" + at(Use) +
           " does not come after the last statement that may reallocate " + name(V) + at(R.After));
      return Done();
    }
  return Done();
}

} // namespace

const VarDecl *vectorConstructedBy(const CXXConstructExpr *Site, ASTContext &Ctx) {
  const Expr *Init = Site;
  while (true) {
    auto Parents = Ctx.getParents(*Init);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *Up = Parents[0].get<Expr>();
        Up && isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr>(Up)) {
      Init = Up;
      continue;
    }
    const auto *V = Parents[0].get<VarDecl>();
    return V && V->getInit() == Init ? V : nullptr;
  }
}

VectorRegistration traceVectorStorage(const CXXConstructExpr *Site, PointerGroupTracer &Tracer,
                                      VariableUses &Uses,
                                      llvm::ArrayRef<const Stmt *> CopiesInHome) {
  return VectorTrace(Tracer, Uses).run(Site, CopiesInHome);
}

} // namespace streamalloc
