//===- LegacyStream.cpp - How the output's legacy-stream work is ordered ----===//
#include "streamalloc/CRA/LegacyStream.h"
#include "streamalloc/Access/FunctionAccesses.h"

namespace streamalloc {

bool runsOnLegacyStream(const GpuOp &Op) {
  switch (Op.Kind) {
  case GpuOpKind::Copy:
  case GpuOpKind::Set:
  case GpuOpKind::Launch:
    return !Op.HasUserStream;
  case GpuOpKind::Alloc: // left as written, cudaMalloc/cudaFree are host calls
  case GpuOpKind::Free:
    return false;
  }
  return false;
}

const AccessSet &hostTouchedWhenLeft(const GpuOp &Op) {
  return runsOnLegacyStream(Op) ? Op.HostSideEffects : Op.Effects;
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

} // namespace streamalloc
