//===- ParseCuda.cpp ------------------------------------------------------===//
#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;

namespace streamalloc::test {

std::unique_ptr<ASTUnit> parseCuda(const std::string &Code) {
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-host-only",
                                   "--cuda-path=" STREAMALLOC_TEST_CUDA_PATH,
                                   "-resource-dir=" STREAMALLOC_TEST_RESOURCE_DIR,
                                   "-Wno-unknown-cuda-version",
                                   "-std=c++17"};
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
  EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << "snippet does not parse";
  return AST;
}

const FunctionDecl *findFunction(ASTUnit &AST, llvm::StringRef Name) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    const FunctionDecl *Found = nullptr;
    bool VisitFunctionDecl(FunctionDecl *F) {
      if (F->getIdentifier() && F->getName() == Name && F->doesThisDeclarationHaveABody())
        Found = F;
      return true;
    }
  } F;
  F.Name = Name;
  F.TraverseDecl(AST.getASTContext().getTranslationUnitDecl());
  return F.Found;
}

const Stmt *findStmt(const FunctionDecl *F, llvm::StringRef Prefix) {
  const SourceManager &SM = F->getASTContext().getSourceManager();
  const Stmt *Found = nullptr;
  // Statements are the children of blocks (an expression statement is an Expr).
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *Block = dyn_cast<CompoundStmt>(S))
      for (const Stmt *Child : Block->body()) {
        llvm::StringRef Text =
            Lexer::getSourceText(CharSourceRange::getTokenRange(Child->getSourceRange()), SM,
                                 F->getASTContext().getLangOpts());
        if (Text.starts_with(Prefix)) {
          Found = Child;
          return;
        }
      }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(F->getBody());
  return Found;
}

} // namespace streamalloc::test
