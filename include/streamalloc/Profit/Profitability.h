//===- Profitability.h - Changes that cannot pay are not made --------------===//
//
// The analysis proves which changes are safe; this stage asks which of them
// can pay for what they add (Model/CostModel.h). It runs after the stream
// plan, and what it rejects goes back into the analysis as ops that stay
// synchronous (lib/Driver/Pipeline.cpp iterates to a fixed point):
//
// - A stream-ordered allocation pays only where its calls repeat: a group of
//   cudaMalloc/cudaFree calls none of which sits in a loop of the function
//   keeps them (one device-wide sync saved does not recoup the pool's set-up).
// - A copy (or fill) that the original ran synchronously gains from running
//   asynchronously only if something can overlap it: GPU work on another
//   stream of another engine (a kernel, the other copy direction) that
//   neither depends on it nor it on them, or host work before the wait for
//   it. Host work counts only for page-locked memory: a copy of pageable
//   memory returns once the host side is done, asynchronous or not, and
//   costs more than cudaMemcpy (issue 12's traces: 740 ms vs 683 ms over
//   1,007 copies).
// - A function in which, after that, nothing the original ran synchronously
//   runs asynchronously, whose kernels would share one stream and that drops
//   none of its device syncs gains nothing: it is left as written.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_PROFIT_PROFITABILITY_H
#define STREAMALLOC_PROFIT_PROFITABILITY_H

#include "streamalloc/Model/CostModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct AllocGroup;
struct CraResult;
struct PinDecision;
struct StreamPlan;

/// Why making \p Group stream-ordered cannot pay, or empty when it may.
std::string unprofitableAllocGroup(const AllocGroup &Group, const std::string &Function,
                                   clang::ASTContext &Ctx, const CostModel &Costs = {});

/// Per op id: why the op, asynchronous in \p Cra, should stay synchronous
/// because nothing can overlap it (empty: it may pay, or it is synchronous
/// already). \p Pins: the pinning decisions for the same analysis.
/// \p PageLockedParams: the pointer parameters whose memory every caller
/// passes page-locked (allocated so, or pinned by the caller).
std::vector<std::string> unprofitableOps(const FunctionAccesses &FA, const CraResult &Cra,
                                         const StreamPlan &Plan,
                                         const std::vector<PinDecision> &Pins,
                                         llvm::ArrayRef<unsigned> PageLockedParams = {});

/// Why none of the function's changes can pay, or empty. \p DropsSyncs: the
/// output removes some of its device syncs.
std::string unprofitableFunction(const FunctionAccesses &FA, const CraResult &Cra,
                                 const StreamPlan &Plan, bool DropsSyncs);

} // namespace streamalloc

#endif
