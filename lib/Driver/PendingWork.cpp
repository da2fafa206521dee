#include "streamalloc/Driver/PendingWork.h"
#include "streamalloc/Access/FunctionSummary.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace streamalloc {
namespace {

/// Every mention of a function in the translation unit (templates' patterns
/// included, instantiations not), and the mentions that are the callee of a
/// call written as a statement of its own in a block, outside macros, with
/// the function whose body holds it.
struct Mentions : RecursiveASTVisitor<Mentions> {
  explicit Mentions(ASTContext &Ctx) : Ctx(Ctx) {}
  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, unsigned> All;
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> CallersOf;
  const FunctionDecl *Current = nullptr;

  bool TraverseFunctionDecl(FunctionDecl *F) {
    return traverseIn(F, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(F); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) {
    return traverseIn(F, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(F); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *F) {
    return traverseIn(F, [&] { return RecursiveASTVisitor::TraverseCXXConstructorDecl(F); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *F) {
    return traverseIn(F, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(F); });
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    const FunctionDecl *Outer = Current;
    Current = nullptr; // a lambda's body is not its enclosing function's
    bool Go = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Current = Outer;
    return Go;
  }

  template <typename Fn> bool traverseIn(const FunctionDecl *F, Fn Traverse) {
    const FunctionDecl *Outer = Current;
    Current = F;
    bool Go = Traverse();
    Current = Outer;
    return Go;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *F = dyn_cast<FunctionDecl>(E->getDecl()))
      ++All[F->getCanonicalDecl()];
    return true;
  }

  bool VisitCompoundStmt(CompoundStmt *Block) {
    for (Stmt *S : Block->body()) {
      const auto *Call = dyn_cast<CallExpr>(S);
      if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S))
        Call = dyn_cast<CallExpr>(Cleanups->getSubExpr());
      if (!Call || !Current || S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID() ||
          isa<CUDAKernelCallExpr>(Call))
        continue;
      const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
      if (const auto *F = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr)
        CallersOf[F->getCanonicalDecl()].push_back(Current);
    }
    return true;
  }
};

bool declaredOnlyInMainFile(const FunctionDecl &F, const SourceManager &SM) {
  return llvm::all_of(F.redecls(), [&](const FunctionDecl *D) {
    return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
  });
}

} // namespace

llvm::DenseMap<const FunctionDecl *, std::string>
whyEachMustWaitOnReturn(ASTContext &Ctx, llvm::ArrayRef<const FunctionDecl *> Analysed,
                        FunctionSummaries &Device, bool WholeProgram) {
  Mentions M(Ctx);
  M.TraverseDecl(Ctx.getTranslationUnitDecl());
  llvm::DenseSet<const FunctionDecl *> InView(Analysed.begin(), Analysed.end());
  llvm::DenseMap<const FunctionDecl *, std::string> Why;
  for (const FunctionDecl *F : Analysed) {
    const FunctionSummary &S = Device.get(F);
    if (F->isMain() || !S.PerformsGpuOps)
      continue;
    const FunctionDecl *Canon = F->getCanonicalDecl();
    std::string &W = Why[Canon];
    const std::vector<const FunctionDecl *> &Callers = M.CallersOf.lookup(Canon);
    const SourceManager &SM = Ctx.getSourceManager();
    if (!SM.isInMainFile(SM.getExpansionLoc(F->getLocation())))
      W = "it is defined in an included file, which other translation units may include too";
    else if (F->isExternallyVisible() && !WholeProgram)
      W = "it has external linkage, so callers this translation unit does not show may rely on "
          "its work being complete (declare it `static`, or give --whole-program if this file "
          "is the whole program, to let its callers wait instead)";
    else if (F->isExternallyVisible() && !declaredOnlyInMainFile(*F, SM))
      W = "an included file declares it, so other translation units may call it";
    else if (isa<CXXMethodDecl>(F) || F->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
      W = isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F)->getParent()->isLambda()
              ? "it is a lambda"
              : "it is a member function or a template";
    else if (S.Recursive)
      W = "it is recursive";
    else if (S.LeavesOwnStreamWork || S.ResetsDevice)
      W = "it uses streams of the program's own or resets the device";
    else if (Callers.size() != M.All.lookup(Canon))
      W = "not every mention of it is a call written as a statement of its own (its address is "
          "taken, or a call sits in an expression, a condition or a macro)";
    else if (Callers.empty())
      W = "it is never called";
    else if (llvm::any_of(Callers, [&](const FunctionDecl *C) { return !InView.count(C); }))
      W = "a caller of it is not analysed (a template, a lambda or a function of another file)";
  }
  return Why;
}

} // namespace streamalloc
