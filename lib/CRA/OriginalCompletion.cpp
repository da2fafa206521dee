//===- OriginalCompletion.cpp - Which calls block the host in the original ===//
#include "streamalloc/CRA/OriginalCompletion.h"
#include "streamalloc/Access/FunctionAccesses.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace clang;

namespace streamalloc {

namespace {

/// A fill that writes only device memory (a cudaMalloc buffer or a
/// __device__ symbol); one of host-pinned or managed memory blocks.
bool fillsOnlyDeviceMemory(const GpuOp &Op, const FunctionAccesses &FA) {
  bool Any = false;
  for (auto [Obj, Mode] : Op.Effects.entries()) {
    if (!(Mode & WriteAccess))
      continue;
    if (Obj == UnknownObject)
      return false;
    ObjectKind K = FA.objects().get(Obj).Kind;
    if (K != ObjectKind::DeviceAllocation && K != ObjectKind::DeviceSymbol)
      return false;
    Any = true;
  }
  return Any;
}

} // namespace

bool blocksInOriginal(const GpuOp &Op, const FunctionAccesses &FA) {
  switch (Op.Kind) {
  case GpuOpKind::Launch:
    return false;
  case GpuOpKind::Copy:
    // Device to device is the only synchronous copy that does not block the
    // host; a kind the text does not name may be any direction.
    return copyDirectionOf(Op) != CopyDirection::DeviceToDevice;
  case GpuOpKind::Set:
    return !fillsOnlyDeviceMemory(Op, FA);
  case GpuOpKind::Alloc:    // cudaMalloc: whether it waits is not documented
  case GpuOpKind::Free:     // cudaFree synchronises the device
  case GpuOpKind::CallWork: // the original's callee may have waited for it
    return true;
  }
  llvm_unreachable("not an op kind");
}

bool statementBlocksInOriginal(const StmtAccesses &A, const FunctionAccesses &FA) {
  return A.MayBlock || A.MaySync || A.SyncsDevice ||
         llvm::any_of(A.Ops, [&](unsigned Op) { return blocksInOriginal(FA.ops()[Op], FA); });
}

} // namespace streamalloc
