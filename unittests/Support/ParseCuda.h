//===- ParseCuda.h - Parse a CUDA snippet for a unit test -------------------===//
#ifndef STREAMALLOC_UNITTESTS_PARSECUDA_H
#define STREAMALLOC_UNITTESTS_PARSECUDA_H

#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <string>

namespace streamalloc::test {

/// Parses \p Code as CUDA host code (with the CUDA headers); fails the test
/// on errors.
std::unique_ptr<clang::ASTUnit> parseCuda(const std::string &Code);

/// The definition of the function called \p Name.
const clang::FunctionDecl *findFunction(clang::ASTUnit &AST, llvm::StringRef Name);

/// The first statement of \p F's body whose source text starts with \p Prefix.
const clang::Stmt *findStmt(const clang::FunctionDecl *F, llvm::StringRef Prefix);

} // namespace streamalloc::test

#endif
