//===- FunctionSummary.h - What a function may read and write ---------------===//
//
// For each function with a body in the translation unit (kernels, __device__
// functions, host helpers): which of its pointer (or reference) parameters it
// may read and write through, which globals it touches, and whether it
// touches memory the analysis cannot name. Summaries are computed on demand,
// callees first; recursion falls back to Unknown. A launch instantiates the
// kernel's summary with its arguments, a host call the callee's.
//
// A host function's summary includes the effects of the GPU ops it performs:
// the tool waits for them before the function returns, so by then they are
// done.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_FUNCTIONSUMMARY_H
#define STREAMALLOC_ACCESS_FUNCTIONSUMMARY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <string>

namespace clang {
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace streamalloc {

struct FunctionSummary {
  llvm::SmallVector<uint8_t, 8> ParamModes; ///< AccessMode per parameter
  /// Device globals touched, in the order first seen (deterministic output).
  llvm::MapVector<const clang::VarDecl *, uint8_t> Globals;
  uint8_t UnknownMode = 0;     ///< access to unnamed memory
  bool WritesOutput = false;   ///< prints (for a kernel: flushed at syncs)
  bool PerformsGpuOps = false; ///< copies, fills or launches (host code)
  bool ResetsDevice = false;   ///< may call cudaDeviceReset
  std::string UnknownWhy;      ///< the first construct that caused it
};

/// Computes and caches device summaries; callees are summarised on demand,
/// recursion falls back to Unknown.
class FunctionSummaries {
public:
  FunctionSummaries();
  ~FunctionSummaries();
  const FunctionSummary &get(const clang::FunctionDecl *F);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace streamalloc

#endif
