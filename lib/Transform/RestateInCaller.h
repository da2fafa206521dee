//===- RestateInCaller.h - A callee's integer expression, in its caller ----===//
//
// Registering the memory a helper returns (`float *x = make(n);`) where the
// helper is called needs the bytes the helper allocated, which only the
// helper's body says (`malloc(n * sizeof(float))`). This restates such an
// integer expression of the callee in the caller's terms: each parameter
// becomes the argument the call passed, each constant its value, each
// conversion an explicit cast, so that evaluated right after the call the
// text gives what the callee computed.
//
// That holds only when neither side can have changed in between: the
// parameters (and locals) the expression reads are never modified in the
// callee, and the arguments are re-evaluable without side effects, reading
// only constants and local variables of the caller whose address is not
// taken where it may run before the call (the callee cannot reach them).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_LIB_TRANSFORM_RESTATEINCALLER_H
#define STREAMALLOC_LIB_TRANSFORM_RESTATEINCALLER_H

#include "streamalloc/Transform/PointerGroup.h"

#include <string>

namespace streamalloc {

struct RestatedExpr {
  std::string Text; ///< the caller's expression, when there is one
  std::string Why;  ///< else why not, after "its size"
};

/// Restates \p E, an integer expression in the body of \p Call's direct
/// callee, in \p Caller (the function \p Call is in). \p Uses: the mentions
/// of the variables of both functions.
RestatedExpr restateInCaller(const clang::Expr &E, const clang::CallExpr &Call,
                             const clang::FunctionDecl &Caller, VariableUses &Uses,
                             bool Operand = false);

} // namespace streamalloc

#endif
