//===- AstUtil.h - Small AST helpers shared by the read/write analysis -----===//
#ifndef STREAMALLOC_LIB_ACCESS_ASTUTIL_H
#define STREAMALLOC_LIB_ACCESS_ASTUTIL_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace streamalloc {

struct ApiFunction;

/// The API-table row for the function \p Call calls, if it is a modelled
/// global or std:: function, or a member function of a modelled std class.
const ApiFunction *modelledCallee(const clang::CallExpr *Call);

/// The row for a function declaration (see lookupApi for the names).
const ApiFunction *modelledFunction(const clang::FunctionDecl *F);

/// The row of the class \p RD (a std class the model knows), if any.
const ApiFunction *modelledClass(const clang::CXXRecordDecl *RD);

/// Whether inline assembly may read or write memory. Only device code with
/// register operands, no address operand in its text and no "memory"
/// clobber is known not to (`nanosleep.u32 %0;`, reading %globaltimer).
bool touchesMemory(const clang::GCCAsmStmt &Asm, bool Device);

/// Whether \p F is a kernel or a function only device code may call.
bool isDeviceFunction(const clang::FunctionDecl &F);

/// Name of the called function, or "a function pointer".
std::string calleeName(const clang::CallExpr *Call);

/// True for `0`, `NULL`, `nullptr`, `cudaStreamLegacy`-free null constants.
bool isNullConstant(const clang::Expr *E, clang::ASTContext &Ctx);

/// Whether \p E is the integer 0 where it is evaluated: a constant
/// expression (a literal, a `const` or `constexpr` variable, a macro), or a
/// local integer variable initialised with one that its function only reads.
bool isZeroInteger(const clang::Expr *E, clang::ASTContext &Ctx);

/// Whether \p S holds a jump (outside lambda bodies): return, goto, throw,
/// and with \p LoopJumps also break and continue.
bool containsJump(const clang::Stmt *S, bool LoopJumps = true);

/// Whether \p Stream (a stream argument) names the legacy default stream: a
/// null, a defaulted argument, or a parameter that is only read and that
/// every call in the unit leaves to a null default, passes a null, or passes
/// such a parameter of its own (AstUtil.cpp says when a parameter without a
/// default qualifies).
bool isLegacyStream(const clang::Expr *Stream, clang::ASTContext &Ctx);

/// The first use in the unit of \p F other than as the callee of a direct
/// call (its address taken, a reference to it kept), or an invalid location.
clang::SourceLocation escapingUseOf(const clang::FunctionDecl &F, clang::ASTContext &Ctx);

/// The expression \p E is used as, past the implicit conversions,
/// parentheses, temporaries, cleanups and copies or moves C++ spells out
/// around it.
const clang::Expr *outermostValue(const clang::Expr *E, clang::ASTContext &Ctx);

/// The lambda \p V is initialised with, for a local closure variable
/// (null otherwise).
const clang::LambdaExpr *closureInit(const clang::VarDecl *V);

/// The lambda a local closure variable holds when the program does nothing
/// with the variable but call it (`auto f = [&](int i) {...}; f(0);`): no
/// copy, reference, capture or conversion of it. The caller then knows the
/// closure's fields (its captures), so a call's summary can be instantiated
/// through them (PointsTo). Null otherwise.
const clang::LambdaExpr *onlyCalledClosure(const clang::VarDecl *V);

/// For `f(args)`, a call of such a closure variable \p f: its lambda.
const clang::LambdaExpr *lambdaOfDirectCall(const clang::CallExpr *Call);

/// The fields of a lambda's closure class that hold its captures: one per
/// captured variable, and the one for `this` (null if not captured).
struct ClosureFields {
  llvm::DenseMap<const clang::ValueDecl *, clang::FieldDecl *> Vars;
  clang::FieldDecl *This = nullptr;
};
ClosureFields closureFields(const clang::CXXRecordDecl &Closure);

/// Every direct call of \p F in the unit (template instantiations included).
const std::vector<const clang::CallExpr *> &directCallsOf(const clang::FunctionDecl &F,
                                                          clang::ASTContext &Ctx);

/// A mention of a field (`this->f`, `o.f`, `p->f`) and the function whose
/// body holds it (a lambda's body counts as its enclosing function's; null
/// outside any function, e.g. in a default member initialiser).
struct FieldMention {
  const clang::MemberExpr *Expr;
  const clang::FunctionDecl *In;
};

/// Every mention of \p F in the unit (template instantiations included).
const std::vector<FieldMention> &mentionsOf(const clang::FieldDecl &F, clang::ASTContext &Ctx);

/// The function whose body holds \p S (a lambda's body counts as its
/// enclosing function's), or null.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The name of the stream \p Stream, an argument in \p F, when it is the
/// same stream wherever it is spelled in \p F (ownStreamKey in OwnStreams.h
/// says when), or "".
std::string streamKey(const clang::Expr *Stream, const clang::FunctionDecl &F,
                      clang::ASTContext &Ctx);

/// For a call of an asynchronous copy or fill (cudaMemcpyAsync, ...) that
/// passes a stream other than the legacy one: the row of its synchronous form,
/// which models it as a GPU op left on that stream (ApiModel.def).
const ApiFunction *ownStreamOpApi(const clang::CallExpr *Call);

/// The row that models \p Call as a GPU op: a copy or fill, or a call of
/// ownStreamOpApi(); null for anything else.
const ApiFunction *gpuOpApi(const clang::CallExpr *Call);

/// The stream argument of an op the program put on a stream of its own (a
/// launch's fourth configuration argument, an asynchronous call's stream),
/// or null.
const clang::Expr *ownStreamArgument(const clang::Expr *Op, clang::ASTContext &Ctx);

/// Whether a launch names a stream of its own (a fourth configuration
/// argument that is not the legacy stream's null).
bool launchNamesStream(const clang::CUDAKernelCallExpr &Launch, clang::ASTContext &Ctx);

/// `a = b` for a class with a trivial copy/move assignment: a plain store of
/// b's bytes into a, not a call anyone needs to look into.
bool isTrivialAssignment(const clang::CallExpr *Call);

/// Whether \p Child, a direct child of \p Parent, may not run when Parent
/// does: branches and loop bodies, the second operand of `&&`/`||`, the arms
/// of `?:`, and anything in a statement expression (it may jump).
bool mayBeSkipped(const clang::Stmt *Parent, const clang::Stmt *Child);

/// Whether \p S runs its body more than once: for, while, range-for, and a
/// do-while other than `do { } while (0)` (the shape of error-check macros).
bool isRepeatingLoop(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// The parts of a for, while or do loop evaluated between its passes (a
/// for's condition and increment, the condition of the others; null where
/// absent); none for anything else.
llvm::SmallVector<const clang::Stmt *, 2> loopHeader(const clang::Stmt *Loop);

/// The body of a for, while or do loop; null for anything else.
const clang::Stmt *loopBody(const clang::Stmt *Loop);

/// The repeating loops around \p S inside its function, innermost first.
std::vector<const clang::Stmt *> loopsAround(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace streamalloc

#endif
