//===- VectorRegistration.h - Where a std::vector's elements can be pinned -===//
//
// A std::vector allocates its elements itself, so pinning cannot replace the
// allocation; it can register the elements with CUDA once the vector has
// reached its final size and unregister them before the vector releases
// them. The rewrite declares a guard object right after the statement where
// the vector stops reallocating, in the vector's own block: the guard is
// destroyed first, at every exit of the block.
//
// That is correct only while the elements stay where they were registered:
// no call that may reallocate them after that statement, and no way for the
// vector to be resized out of the analysis' sight (a non-const reference, a
// move, a capture). The pointers into the elements (data(), &v[i]) are
// followed by the pinning policy, which refuses the program's own
// asynchronous copies of them.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_LIB_TRANSFORM_VECTORREGISTRATION_H
#define STREAMALLOC_LIB_TRANSFORM_VECTORREGISTRATION_H

#include "streamalloc/Transform/PointerGroup.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace streamalloc {

struct VectorRegistration {
  const clang::VarDecl *Vector = nullptr;
  /// The statement of the vector's block after which the guard goes.
  const clang::Stmt *After = nullptr;
  std::string Why; ///< empty when the elements can be registered
};

/// The variable whose initialiser is \p Site (through temporaries), or null.
const clang::VarDecl *vectorConstructedBy(const clang::CXXConstructExpr *Site,
                                          clang::ASTContext &Ctx);

/// Traces the life of the local std::vector that \p Site constructs in the
/// home function of \p Tracer, whose policy follows the pointers into its
/// elements (and records the copies helpers make of them). \p CopiesInHome:
/// the GPU copies of the elements in the home function, which must come
/// after the registration to gain from it.
VectorRegistration traceVectorStorage(const clang::CXXConstructExpr *Site,
                                      PointerGroupTracer &Tracer, VariableUses &Uses,
                                      llvm::ArrayRef<const clang::Stmt *> CopiesInHome);

} // namespace streamalloc

#endif
