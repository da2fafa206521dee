//===- LambdaUses.cpp - Where a lambda may run -------------------------------===//
//
// A lambda passed to a function runs where its caller does not see the call.
// Its body can still be rewritten when every such function runs it on the
// caller's thread, before it returns: the body then orders its first work
// after everything enqueued before it (an event on the legacy stream) and
// finishes its work before it returns, so to every caller it behaves as the
// original did. What may run it on another thread (std::thread, an execution
// policy, a function the unit does not define) is not such a function.
//
//===----------------------------------------------------------------------===//
#include "AstUtil.h"
#include "streamalloc/Access/FunctionAccesses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace streamalloc {
namespace {

/// Standard algorithms that call the function they are given only on the
/// calling thread, before they return (without an execution policy).
bool isSequentialStdAlgorithm(const FunctionDecl &F) {
  static const llvm::StringSet<> Names = {
      "for_each",    "for_each_n",  "transform",   "generate",      "generate_n",    "all_of",
      "any_of",      "none_of",     "count_if",    "find_if",       "find_if_not",   "remove_if",
      "replace_if",  "copy_if",     "sort",        "stable_sort",   "partial_sort",  "nth_element",
      "min_element", "max_element", "accumulate",  "partition",     "is_sorted",     "unique",
      "lower_bound", "upper_bound", "equal_range", "binary_search", "adjacent_find", "invoke"};
  return F.isInStdNamespace() && F.getIdentifier() && Names.contains(F.getName());
}

/// Why passing the closure \p Use to its parent call may run it elsewhere
/// than during that call, on this thread ("" when it cannot).
std::string whyArgumentMayRunElsewhere(const Expr *Use, ASTContext &Ctx) {
  const Expr *Outer = outermostValue(Use, Ctx);
  auto Parents = Ctx.getParents(*Outer);
  if (const auto *Construct = Parents.size() == 1 ? Parents[0].get<CXXConstructExpr>() : nullptr;
      Construct && llvm::is_contained(Construct->arguments(), Outer))
    return "it is passed to a constructor of `" +
           Construct->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) +
           "`, which may keep it or run it on another thread";
  const auto *Call = Parents.size() == 1 ? Parents[0].get<CallExpr>() : nullptr;
  if (!Call || Call->getCallee()->IgnoreParenImpCasts() == Outer ||
      !llvm::is_contained(Call->arguments(), Outer))
    return "it is stored, copied, converted or captured";
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F)
    return "it is passed to a call through a pointer";
  std::string Name = "`" + F->getQualifiedNameAsString() + "`";
  const SourceManager &SM = Ctx.getSourceManager();
  if (isSequentialStdAlgorithm(*F)) {
    for (const Expr *Arg : Call->arguments())
      if (isParallelExecutionPolicy(Arg->getType()))
        return "it is passed to " + Name +
               " with an execution policy, which may run it on other "
               "threads";
    return "";
  }
  const FunctionDecl *Def = nullptr;
  if (SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())) || !F->hasBody(Def) || !Def)
    return "it is passed to " + Name +
           ", which is not known to run it only before it returns, on the caller's thread";
  // A function of the program's own: its body is in the unit, so a host
  // thread it may start is one the unit starts (startsHostThreads()).
  return "";
}

class ClosureUses : public RecursiveASTVisitor<ClosureUses> {
public:
  ClosureUses(const CXXRecordDecl &Closure, ASTContext &Ctx) : Closure(Closure), Ctx(Ctx) {}
  std::string Why;
  SourceLocation Where;

  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && Holder && C.getCapturedVar() == Holder)
        fail("it is captured by another lambda", C.getLocation());
    if (L->getLambdaClass() != &Closure)
      return true;
    const VarDecl *V = heldIn(L);
    if (V)
      Holder = V;
    else
      check(L);
    return Why.empty();
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (!Holder || E->getDecl() != Holder)
      return true;
    auto Parents = Ctx.getParents(*outermostValue(E, Ctx));
    const auto *Op = Parents.size() == 1 ? Parents[0].get<CXXOperatorCallExpr>() : nullptr;
    if (Op && Op->getOperator() == OO_Call && Op->getArg(0)->IgnoreParenImpCasts() == E)
      return true; // a direct call
    check(E);
    return Why.empty();
  }

private:
  const CXXRecordDecl &Closure;
  ASTContext &Ctx;
  const VarDecl *Holder = nullptr; ///< the local variable the closure initialises

  const VarDecl *heldIn(const LambdaExpr *L) {
    for (auto Parents = Ctx.getParents(*L); Parents.size() == 1;
         Parents = Ctx.getParents(Parents[0])) {
      if (const auto *V = Parents[0].get<VarDecl>())
        return closureInit(V) == L ? V : nullptr;
      if (!Parents[0].get<Expr>())
        return nullptr;
    }
    return nullptr;
  }
  void check(const Expr *Use) {
    if (std::string W = whyArgumentMayRunElsewhere(Use, Ctx); !W.empty())
      fail(std::move(W), Use->getBeginLoc());
  }
  void fail(std::string W, SourceLocation Loc) {
    if (Why.empty()) {
      Why = std::move(W);
      Where = Loc;
    }
  }
};

} // namespace

bool isParallelExecutionPolicy(QualType T) {
  // libstdc++ declares the policies in __pstl::execution, libc++ in
  // std::execution: a class `*_policy` in a namespace `execution`.
  const auto *R = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!R || !R->getIdentifier() || !R->getName().ends_with("_policy") ||
      R->getName().starts_with("sequenced"))
    return false;
  for (const DeclContext *DC = R->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && NS->getName() == "execution")
      return true;
  return false;
}

std::string whyLambdaMayRunElsewhere(const CXXMethodDecl &Body, ASTContext &Ctx) {
  const CXXRecordDecl *Closure = Body.getParent();
  const auto *Enclosing = dyn_cast_or_null<FunctionDecl>(Closure->getParentFunctionOrMethod());
  if (!Closure->isLambda() || !Enclosing || !Enclosing->getBody())
    return "it is not written in a function";
  ClosureUses Uses(*Closure, Ctx);
  Uses.TraverseStmt(Enclosing->getBody());
  if (Uses.Why.empty())
    return "";
  return Uses.Why + " (line " +
         std::to_string(Ctx.getSourceManager().getExpansionLineNumber(Uses.Where)) + ")";
}

} // namespace streamalloc
