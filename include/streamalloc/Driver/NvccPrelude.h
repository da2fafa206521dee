//===- NvccPrelude.h - A header for what nvcc declares implicitly ---------===//
#ifndef STREAMALLOC_DRIVER_NVCCPRELUDE_H
#define STREAMALLOC_DRIVER_NVCCPRELUDE_H

#include "llvm/ADT/StringRef.h"

namespace streamalloc {

/// Where the prelude lives in the parse's in-memory file system (no real file).
llvm::StringRef nvccPreludePath();

/// Declarations nvcc provides to every CUDA file and Clang does not: the
/// `__nv_atomic_*` builtins with their order/scope constants, and host-side
/// min/max overloads. Force-included after Clang's CUDA wrapper.
llvm::StringRef nvccPreludeText();

} // namespace streamalloc

#endif
