//===- TemplateInstances.cpp ----------------------------------------------===//
#include "streamalloc/Driver/TemplateInstances.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace streamalloc {

std::vector<TemplateInstances>
findTemplateInstances(ASTContext &Ctx, llvm::function_ref<bool(const FunctionDecl *)> Wanted) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::function_ref<bool(const FunctionDecl *)> Wanted;
    std::vector<TemplateInstances> Found;
    llvm::DenseMap<const FunctionDecl *, unsigned> IndexOf; ///< by canonical pattern
    llvm::DenseSet<const FunctionDecl *> Seen;

    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *F) {
      if (!F->isTemplateInstantiation() || !F->doesThisDeclarationHaveABody() ||
          F->isDependentContext() || !Seen.insert(F).second || !Wanted(F))
        return true;
      const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
      if (!Pattern || !Pattern->doesThisDeclarationHaveABody())
        return true;
      auto [It, New] = IndexOf.try_emplace(Pattern->getCanonicalDecl(), Found.size());
      if (New)
        Found.push_back({Pattern, {}});
      Found[It->second].Instances.push_back(F);
      return true;
    }
  } Finder;
  Finder.Wanted = Wanted;
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Finder.Found);
}

std::string instanceName(const FunctionDecl &F) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy = F.getASTContext().getPrintingPolicy();
  Policy.SuppressScope = false;
  F.getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  return Name;
}

/// The file offsets [begin, end) of the text \p R covers, at the outermost
/// macro expansion.
static std::pair<unsigned, unsigned> textRange(SourceRange R, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(R.getBegin());
  SourceLocation End = SM.getExpansionRange(R.getEnd()).getEnd();
  End = Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
  return {SM.getFileOffset(Begin), SM.getFileOffset(End)};
}

TextRanges discardedBranches(const FunctionDecl &Instance) {
  TextRanges Found;
  ASTContext &Ctx = Instance.getASTContext();
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *If = dyn_cast<IfStmt>(S); If && If->isConstexpr() && If->getCond()) {
      // Clang keeps a discarded branch as an empty block with the branch's
      // source range; the condition tells which one it is.
      bool Taken;
      if (!If->getCond()->isValueDependent() &&
          If->getCond()->EvaluateAsBooleanCondition(Taken, Ctx)) {
        if (const Stmt *Discarded = Taken ? If->getElse() : If->getThen())
          Found.push_back(textRange(Discarded->getSourceRange(), Ctx));
        Walk(If->getInit());
        Walk(Taken ? If->getThen() : If->getElse());
        return;
      }
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Instance.getBody());
  return Found;
}

TextRanges overlaps(const TextRanges &A, const TextRanges &B) {
  TextRanges Both;
  for (auto [ABegin, AEnd] : A)
    for (auto [BBegin, BEnd] : B)
      if (std::max(ABegin, BBegin) < std::min(AEnd, BEnd))
        Both.emplace_back(std::max(ABegin, BBegin), std::min(AEnd, BEnd));
  return Both;
}

std::pair<unsigned, unsigned> patternRange(const FunctionDecl &Pattern) {
  return textRange(Pattern.getSourceRange(), Pattern.getASTContext());
}

} // namespace streamalloc
