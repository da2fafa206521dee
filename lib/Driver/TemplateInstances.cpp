//===- TemplateInstances.cpp ----------------------------------------------===//
#include "streamalloc/Driver/TemplateInstances.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

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

std::pair<unsigned, unsigned> patternRange(const FunctionDecl &Pattern) {
  const SourceManager &SM = Pattern.getASTContext().getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(Pattern.getSourceRange().getBegin());
  SourceLocation End = SM.getExpansionRange(Pattern.getSourceRange().getEnd()).getEnd();
  End = Lexer::getLocForEndOfToken(End, 0, SM, Pattern.getASTContext().getLangOpts());
  return {SM.getFileOffset(Begin), SM.getFileOffset(End)};
}

} // namespace streamalloc
