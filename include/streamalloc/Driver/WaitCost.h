//===- WaitCost.h - What an inserted host wait costs, for the report ---------===//
//
// The report says, for each wait that may make more sync calls than the
// original made there, why it is there and what it costs: one call per
// stream, a wait that repeats in a loop for work queued before it, the one
// sync left of a cudaFree made stream-ordered, a wait that takes the place of
// the original's blocking copy of an earlier pass, a wait for the case that
// a loop which syncs the device on every pass runs no pass.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_DRIVER_WAITCOST_H
#define STREAMALLOC_DRIVER_WAITCOST_H

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <string>

namespace clang {
class Expr;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct CraResult;
struct Wait;

/// The notes for wait \p W of \p Cra, which makes \p Calls sync calls;
/// \p DroppedSyncs: the program's device syncs the output removes. Empty
/// when the wait needs no explanation beyond its reason.
std::string waitCost(const Wait &W, const CraResult &Cra, const FunctionAccesses &FA, size_t Calls,
                     llvm::ArrayRef<const clang::Expr *> DroppedSyncs);

} // namespace streamalloc

#endif
