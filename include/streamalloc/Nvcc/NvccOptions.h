//===- NvccOptions.h - nvcc's options, from NvccOptions.def -----*- C++ -*-===//
//
// What an nvcc option is, for the two readers of nvcc command lines:
// streamalloc-nvcc (NvccCommandLine.h: which arguments are inputs, which go
// to the tool) and the compile-command translation for Clang
// (Driver/CompileCommands.h). One table, so the two cannot disagree about
// which options take a value.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_NVCC_NVCCOPTIONS_H
#define STREAMALLOC_NVCC_NVCCOPTIONS_H

#include "llvm/ADT/StringRef.h"

namespace streamalloc::nvcc {

struct NvccOption {
  llvm::StringRef Short, Long;
  bool TakesValue;   ///< its value is the next argument, or follows `=`
  bool KeptForClang; ///< a Clang parse of the file gets it (as written or translated)
  bool Output;       ///< it names or controls what nvcc writes
};

/// The option spelled \p Name exactly (either spelling, without `=value`).
const NvccOption *findOption(llvm::StringRef Name);

/// The option name of `--name=value` / `-name=value`, or \p Arg itself.
llvm::StringRef optionName(llvm::StringRef Arg);

/// Whether \p Arg is an option whose value is the next argument.
bool takesSeparateValue(llvm::StringRef Arg);

/// Whether \p Arg (a whole argument, `-arch=sm_90` or `--expt-relaxed-constexpr`)
/// is an option a Clang parse of the file does not get. With a separate
/// value (takesSeparateValue), the value goes too.
bool droppedForClang(llvm::StringRef Arg);

} // namespace streamalloc::nvcc

#endif
