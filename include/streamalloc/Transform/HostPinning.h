//===- HostPinning.h - Page-locked host memory for transferred buffers ------===//
//
// Copies from pageable host memory are slow and block the host even when
// issued with cudaMemcpyAsync (DESIGN §4.5). For each host buffer that a GPU
// copy uses, this decides whether to allocate it page-locked, to register it
// with CUDA for its lifetime, or to leave it pageable, and says why.
//
// A buffer is changed only when the tool sees its whole life: it comes from
// malloc/calloc/new[] of a trivial type in the function that copies it, is
// held only by plain local pointers (and parameters of helpers in this file
// that only read or write through them), and is released only by free or
// delete[] calls in that function. Both the allocation and every release are
// then rewritten in place, to helpers emitted with the stream pool that fall
// back to pageable memory if CUDA cannot pin it. Files that call
// cudaDeviceReset are left pageable: a reset releases pinned memory.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_TRANSFORM_HOSTPINNING_H
#define STREAMALLOC_TRANSFORM_HOSTPINNING_H

#include "streamalloc/Access/MemoryObjects.h"

#include <string>
#include <vector>

namespace clang {
class Expr;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct CraResult;

enum class PinMode {
  Auto,     ///< cost model decides (allocating pinned, when legal, is never slower)
  Alloc,    ///< allocate page-locked (cudaMallocHost) where legal
  Register, ///< cudaHostRegister after malloc, unregister before free, where legal
  Off       ///< leave host memory alone
};

/// Measured on the H200 by bench/pin-cost.cu (docs/results.md).
struct PinCostModel {
  double PageableGBps = 6.0; ///< cudaMemcpy from/to pageable memory
  double PinnedGBps = 53.0;  ///< the same from/to page-locked memory
  /// Extra time to allocate+free page-locked memory instead of malloc+free,
  /// first touch included (negative: cudaMallocHost pre-faults the pages).
  double AllocExtraSecPerGB = -0.2;
  double AllocFixedSec = 30e-6;    ///< cudaMallocHost + cudaFreeHost of a small buffer
  double RegisterSecPerGB = 0.108; ///< cudaHostRegister + cudaHostUnregister
  double RegisterFixedSec = 30e-6;

  /// Seconds saved (positive) by pinning \p Bytes that \p Copies copies of
  /// \p CopyBytes each move, by allocating (\p Register false) or registering.
  double saving(double Bytes, double CopyBytes, unsigned Copies, bool Register) const;
};

enum class PinAction { Pageable, AllocPinned, Register };

struct PinDecision {
  ObjectId Object;
  std::string Name;
  unsigned Line;
  PinAction Action = PinAction::Pageable;
  std::string Why;                           ///< for the report: why this action
  const clang::Expr *Site = nullptr;         ///< malloc/calloc call or new[] expression
  std::vector<const clang::Expr *> Releases; ///< free calls and delete[] expressions
};

/// Decides for every host allocation of \p FA that a GPU copy uses.
std::vector<PinDecision> planPinning(const FunctionAccesses &FA, PinMode Mode,
                                     bool FileResetsDevice, const PinCostModel &Costs = {});

llvm::StringRef pinActionName(PinAction Action);

} // namespace streamalloc

#endif
