//===- PendingWork.h - Helpers that may return with GPU work pending -------===//
//
// A helper that copies to the device and returns lets its caller's host work
// overlap the copy only if it does not wait for the copy before returning.
// A function may return with work pending on a stream of the tool's when
// every call of it is seen and modelled: then each caller treats the call as
// an op on that stream (GpuOpKind::CallWork) and waits for it at its own
// first conflicting access. This file says which functions qualify from the
// syntax and their summaries; the driver then decides, from trial analyses
// of the callee and its callers, which of them do.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_DRIVER_PENDINGWORK_H
#define STREAMALLOC_DRIVER_PENDINGWORK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

class FunctionSummaries;

/// For each function of \p Analysed that performs GPU ops (not `main`), by
/// its canonical declaration: why it must wait for its work before
/// returning, or "" when it may return with work pending. It may when it is
/// defined in the main file with internal linkage, is a plain function (not
/// a member, a template or a lambda), not recursive, with no work on the
/// program's own streams, no device reset, and every mention of it in the
/// translation unit is a direct call written as a statement of its own in a
/// block (outside macros) of a function of \p Analysed. (What its locals'
/// destructors touch is waited for at each return: CraResult::LeftPending.)
/// \p WholeProgram (the main file is the whole program): external linkage
/// is no obstacle for a function that only the main file declares.
llvm::DenseMap<const clang::FunctionDecl *, std::string>
whyEachMustWaitOnReturn(clang::ASTContext &Ctx,
                        llvm::ArrayRef<const clang::FunctionDecl *> Analysed,
                        FunctionSummaries &Device, bool WholeProgram);

} // namespace streamalloc

#endif
