//===- PointerUse.h - What the expression around a pointer value does with it ===//
//
// Pinning and stream-ordered allocation both follow a buffer's pointer
// through every expression that carries it, up to where it is used. This is
// the one step they share: given a pointer value and its parent in the AST,
// say whether the parent passes the value on, uses it, stores it, or does
// something neither follows. What to do at a use is theirs.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_LIB_TRANSFORM_POINTERUSE_H
#define STREAMALLOC_LIB_TRANSFORM_POINTERUSE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <string>

namespace streamalloc {

struct PointerUse {
  enum Kind {
    PassesOn,        ///< Next has the value too (parens, pointer casts, p + k, ?: arms, `(x, p)`)
    Harmless,        ///< compared, tested, discarded, a pointer difference, sizeof
    Element,         ///< `*p`, `p[i]`, `p->f`: Next is that access
    StoredInVar,     ///< assigned to or initialises Var
    StoredElsewhere, ///< assigned to something that is not a variable
    Argument,        ///< an argument of Call
    Deleted,         ///< the operand of Delete
    Returned,
    Converted, ///< converted to the non-pointer type TypeName
    Condition, ///< the condition of an if/while/for/do/switch
    Unfollowed,
  } K;
  const clang::Expr *Next = nullptr;
  bool AddsOffset = false; ///< PassesOn: Next may point past where the value did
  const clang::VarDecl *Var = nullptr;
  const clang::CallExpr *Call = nullptr;
  const clang::CXXDeleteExpr *Delete = nullptr;
  std::string TypeName = {};
};

/// `*p` or `p[0]`: the element at the pointer itself.
bool isZeroElement(const clang::Expr *Element);

/// What \p Parent (the single parent of \p Val, or none) does with the
/// pointer value \p Val.
PointerUse classifyPointerUse(const clang::DynTypedNode &Parent, const clang::Expr *Val);

/// The call that \p AddrOf (`&p`) is the first argument of, through
/// parentheses and casts (`cudaMalloc(&p, n)`, `posix_memalign((void **)&p,
/// a, n)`: an allocation's out-parameter), or null.
const clang::CallExpr *callGivenAddressFirst(const clang::Expr *AddrOf, clang::ASTContext &Ctx);

/// The variable whose address \p Call gets as its first argument (`&p`,
/// perhaps cast), or null.
const clang::VarDecl *variableGivenAddressFirst(const clang::CallExpr &Call);

} // namespace streamalloc

#endif
