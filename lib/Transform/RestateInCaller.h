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
// The callee's half (formulaForCallers) needs only the callee's body, so a
// unit that defines a helper can export it to units that call it; the
// caller's half (restateAt) fills in the arguments.
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

#include "streamalloc/Access/ArgumentFormula.h"
#include "streamalloc/Transform/PointerGroup.h"

#include <string>

namespace streamalloc {

struct RestatedExpr {
  std::string Text; ///< the caller's expression, when there is one
  std::string Why;  ///< else why not, after "its size"
};

struct FormulaOrWhy {
  ArgumentFormula Formula; ///< when Why is empty
  std::string Why;         ///< else why not, after "its size"
};

/// The callee's half: \p E, an integer expression in the body of
/// \p Callee, as a formula over the arguments of a call (parameters the
/// callee may change refuse). \p Uses: the mentions of the callee's
/// variables. \p Operand: parenthesise it as an operand of `*`.
FormulaOrWhy formulaForCallers(const clang::Expr &E, const clang::FunctionDecl &Callee,
                               VariableUses &Uses, bool Operand = false);

/// The caller's half: \p F at \p Call, in \p Caller (the function \p Call
/// is in): each hole becomes the argument as written, where it evaluates
/// again to the same value, or its value where it is a constant. \p Uses:
/// the mentions of the caller's variables.
RestatedExpr restateAt(const ArgumentFormula &F, const clang::CallExpr &Call,
                       const clang::FunctionDecl &Caller, VariableUses &Uses);

} // namespace streamalloc

#endif
