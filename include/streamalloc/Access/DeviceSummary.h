//===- DeviceSummary.h - What kernels and device functions touch -----------===//
//
// For each __global__ / __device__ function: which of its pointer (or
// reference) parameters it may read and write, which global device variables
// it touches, and whether it touches memory the analysis cannot name. A
// launch instantiates the kernel's summary with its arguments.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_DEVICESUMMARY_H
#define STREAMALLOC_ACCESS_DEVICESUMMARY_H

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

struct DeviceSummary {
  llvm::SmallVector<uint8_t, 8> ParamModes;             ///< AccessMode per parameter
  /// Device globals touched, in the order first seen (deterministic output).
  llvm::MapVector<const clang::VarDecl *, uint8_t> Globals;
  uint8_t UnknownMode = 0;                              ///< access to unnamed memory
  bool WritesOutput = false;                            ///< calls printf (flushed at syncs)
  std::string UnknownWhy;                               ///< the first construct that caused it
};

/// Computes and caches device summaries; callees are summarised on demand,
/// recursion falls back to Unknown.
class DeviceSummaries {
public:
  DeviceSummaries();
  ~DeviceSummaries();
  const DeviceSummary &get(const clang::FunctionDecl *F);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace streamalloc

#endif
