//===- AccessWalker.h - What statements and GPU ops read and write ---------===//
//
// One walker for host and device code: the accesses a statement performs
// while it runs (lvalues read or written, calls through the API model or the
// callee's summary), and the read/write sets of GPU ops. Host functions use
// it per statement (FunctionAccesses); summaries use it on whole bodies.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_LIB_ACCESS_ACCESSWALKER_H
#define STREAMALLOC_LIB_ACCESS_ACCESSWALKER_H

#include "PointsTo.h"
#include "streamalloc/Access/FunctionAccesses.h"

#include "llvm/ADT/DenseSet.h"

namespace streamalloc {

/// What a GPU op reads and writes when it runs.
struct OpEffects {
  AccessSet Effects;
  AccessSet HostSideEffects; ///< see GpuOp::HostSideEffects
  std::string UnknownWhy;
  bool UsesTemporary = false;
};

/// \p Call: a launch or a call of an API function that is a GPU op.
OpEffects opEffects(PointsTo &Pts, const clang::Expr *Call);

/// Whether \p Call enqueues device work by itself (a launch or a GPU op of
/// the API table).
bool isGpuOpCall(const clang::Stmt *S);

/// Accesses of \p S (see FunctionAccesses::accessesOf). \p OpIds numbers the
/// GPU ops of the function, for StmtAccesses::Ops.
StmtAccesses walkAccesses(PointsTo &Pts, const clang::Stmt *S, bool MayNotRun,
                          const clang::Stmt *Skip,
                          const llvm::DenseMap<const clang::Expr *, unsigned> *OpIds,
                          const llvm::DenseSet<const clang::Stmt *> *Ignored = nullptr);

/// The GPU op calls of \p Body that a checking macro evaluates again only on
/// a path that ends the program: `if (op != cudaSuccess) { report(op);
/// exit(1); }`, where `op` is one macro argument expanded in the condition
/// and again in a branch that ends in a call that does not return. They are
/// not ops of the function and touch nothing: the one in the condition is
/// the op, the text they share is rewritten once with it, and on the error
/// path they run again on its stream before the program ends, reporting the
/// status an asynchronous op reports.
llvm::DenseSet<const clang::Stmt *> errorPathRepeats(const clang::Stmt *Body,
                                                     const clang::ASTContext &Ctx);

} // namespace streamalloc

#endif
