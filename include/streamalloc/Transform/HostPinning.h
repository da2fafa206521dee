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
  Auto,     ///< the cost model picks allocating, registering or neither
  Alloc,    ///< allocate page-locked (cudaMallocHost) where legal
  Register, ///< cudaHostRegister after malloc, unregister before free, where legal
  Off       ///< leave host memory alone
};

/// Host-side traffic of one buffer, as the cost model sees it.
struct BufferTraffic {
  double Bytes = 0;    ///< allocation size (1 GB when not a compile-time constant)
  double H2DBytes = 0; ///< bytes copies read from it per allocation (loops count 4 times)
  double D2HBytes = 0; ///< bytes copies write into it per allocation
  unsigned Copies = 0; ///< copy ops that use it
};

/// Constants measured on the H200 by bench/pin-cost.cu (docs/results.md).
struct PinCostModel {
  double PageableH2DGBps = 9.0, PageableD2HGBps = 15.6; ///< cudaMemcpy, pageable memory
  double PinnedGBps = 55.4;                             ///< the same, page-locked memory
  /// cudaMallocHost + cudaFreeHost instead of malloc + free, first touch
  /// included: per GB (0.04-0.11 measured) and per allocation.
  double AllocExtraSecPerGB = 0.07, AllocFixedSec = 634e-6;
  /// cudaHostRegister + cudaHostUnregister of malloc'd memory.
  double RegisterSecPerGB = 0.06, RegisterFixedSec = 112e-6;

  /// Seconds saved (negative: lost) by pinning a buffer with \p Traffic,
  /// by allocating it page-locked or (\p Register) registering it. Counts
  /// only the faster copies; the overlap that page-locked memory allows on
  /// top (an asynchronous copy no longer blocks the host) is not counted.
  double saving(const BufferTraffic &Traffic, bool Register) const;
};

enum class PinAction { Pageable, AllocPinned, Register };

struct PinDecision {
  ObjectId Object;
  std::string Name;
  unsigned Line;
  PinAction Action = PinAction::Pageable;
  std::string Why = {};                           ///< for the report: why this action
  const clang::Expr *Site = nullptr;              ///< malloc/calloc call or new[] expression
  std::vector<const clang::Expr *> Releases = {}; ///< free calls and delete[] expressions
};

/// Decides for every host allocation of \p FA that a GPU copy uses (\p Cra
/// tells which copies sit in loops).
std::vector<PinDecision> planPinning(const FunctionAccesses &FA, const CraResult &Cra, PinMode Mode,
                                     bool FileResetsDevice, const PinCostModel &Costs = {});

llvm::StringRef pinActionName(PinAction Action);

} // namespace streamalloc

#endif
