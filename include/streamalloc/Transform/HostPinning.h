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

#include "streamalloc/Access/ArgumentFormula.h"
#include "streamalloc/Access/MemoryObjects.h"
#include "streamalloc/Model/CostModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <string>
#include <vector>

namespace clang {
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
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

enum class PinAction { Pageable, AllocPinned, Register };

struct PinDecision {
  ObjectId Object;
  std::string Name;
  unsigned Line;
  PinAction Action = PinAction::Pageable;
  std::string Why = {};                           ///< for the report: why this action
  const clang::Expr *Site = nullptr;              ///< malloc/calloc call or new[] expression
  std::vector<const clang::Expr *> Releases = {}; ///< free calls and delete[] expressions
  /// Another site of a group reported under its first buffer: an allocation
  /// inside a helper that allocates for this function (no buffer of its own).
  bool SiteOnly = false;
  /// For a std::vector's elements (Site is its construction): the vector,
  /// and the statement of its block after which they are registered.
  const clang::VarDecl *Vector = nullptr;
  const clang::Stmt *RegisterAfter = nullptr;
  /// For the call of a helper left as written whose result is registered as
  /// it returns (Site is the call): the bytes the call allocates, as an
  /// expression to evaluate right after it.
  std::string RegisteredBytes = {};
};

/// Decides for every host allocation of \p FA that a GPU copy uses (\p Cra
/// tells which copies sit in loops). \p WholeProgram: no other translation
/// unit calls this file's functions (a helper that allocates need not be
/// `static`).
std::vector<PinDecision> planPinning(const FunctionAccesses &FA, const CraResult &Cra, PinMode Mode,
                                     bool FileResetsDevice, const CostModel &Costs = {},
                                     bool WholeProgram = false);

llvm::StringRef pinActionName(PinAction Action);

/// The objects of \p FA whose memory is page-locked when the output runs:
/// allocated page-locked or managed, pinned by \p Pins (the plan for the
/// same analysis), or what one of \p PageLockedParams points to (parameters
/// every caller passes page-locked memory).
llvm::DenseSet<ObjectId> pageLockedObjects(const FunctionAccesses &FA,
                                           const std::vector<PinDecision> &Pins,
                                           llvm::ArrayRef<unsigned> PageLockedParams = {});

/// The pointer parameters of \p F (by index) whose memory F only reads or
/// writes, as pinning sees it: F and the helpers it passes the pointer to
/// neither keep, return nor release it, nor hand it to an asynchronous copy
/// of the program's own. A caller in another translation unit may pin a
/// buffer it passes there (SummaryExchange.h exports the list).
std::vector<unsigned> plainHostParameters(const clang::FunctionDecl &F);

/// What a caller elsewhere needs to register the buffer \p F returns: the
/// bytes of the one C allocation (malloc, calloc, aligned_alloc,
/// posix_memalign) whose start F returns without keeping or releasing it,
/// as a formula over F's arguments. Empty, with \p Why saying why, when
/// a caller cannot register it (SummaryExchange.h exports both).
ArgumentFormula returnedAllocationBytes(const clang::FunctionDecl &F, std::string &Why);

} // namespace streamalloc

#endif
