//===- LegacyStream.cpp - How the output's legacy-stream work is ordered ----===//
#include "streamalloc/CRA/LegacyStream.h"
#include "streamalloc/Access/FunctionAccesses.h"

#include "../Access/AstUtil.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/ErrorHandling.h"

namespace streamalloc {

bool runsOnLegacyStream(const GpuOp &Op) {
  switch (Op.Kind) {
  case GpuOpKind::Copy:
  case GpuOpKind::Set:
  case GpuOpKind::Launch:
    return !Op.HasUserStream;
  case GpuOpKind::Alloc: // left as written, cudaMalloc/cudaFree are host calls
  case GpuOpKind::Free:
  case GpuOpKind::CallWork: // on a stream of the tool's, where the callee left it
    return false;
  }
  llvm_unreachable("not an op kind");
}

const AccessSet &hostTouchedWhenLeft(const GpuOp &Op) {
  // An op on a stream of the program's own runs in that stream's order; CRA
  // orders it with the other GPU work itself (PendingSet::OwnStream).
  return runsOnLegacyStream(Op) || Op.HasUserStream ? Op.HostSideEffects : Op.Effects;
}

bool completesEarlierWork(const GpuOp &Op) {
  return runsOnLegacyStream(Op) && copyDirectionOf(Op) == CopyDirection::DeviceToHost;
}

bool completesEarlierWork(const StmtAccesses &A, const FunctionAccesses &FA,
                          llvm::function_ref<bool(unsigned)> LeftAsWritten) {
  for (unsigned Op : A.OpsAlwaysEnqueued)
    if (LeftAsWritten(Op) && completesEarlierWork(FA.ops()[Op]))
      return true;
  return false;
}

bool callCompletesEarlierWork(const FunctionAccesses &FA) {
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(FA.function().getBody());
  if (!Body)
    return false;
  for (const clang::Stmt *S : Body->body()) {
    StmtAccesses A = FA.accessesOf(S);
    if (A.SyncsDevice || completesEarlierWork(A, FA, [](unsigned) { return true; }))
      return true;
    if (containsJump(S, /*LoopJumps=*/false))
      return false;
  }
  return false;
}

} // namespace streamalloc
