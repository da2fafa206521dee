//===- NvccCommandLine.h - What streamalloc-nvcc reads from nvcc's argv ----===//
//
// streamalloc-nvcc transforms the CUDA sources of a compile and leaves every
// other nvcc invocation alone. This header answers, from an nvcc command line
// alone, which invocation it is, which arguments are CUDA sources, and what
// the command writes besides its object (a depfile).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_NVCC_NVCCCOMMANDLINE_H
#define STREAMALLOC_NVCC_NVCCCOMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace streamalloc::nvcc {

/// One nvcc command line (the arguments after the program), classified.
struct NvccCommand {
  std::vector<std::string> Args;
  /// A compile (-c, -dc, -dw) or a compile and link (no phase option). Every
  /// other phase (-E, -M, -ptx, -cubin, -lib, -dlink, -run, --version, ...) is
  /// passed to nvcc untouched.
  bool Compiles = false;
  /// Stops after the object (-c, -dc, -dw): without -o, nvcc names each object
  /// after its source.
  bool CompileOnly = false;
  /// Indexes into Args of the CUDA sources: `.cu` files, or every C/C++
  /// source under `-x cu`.
  std::vector<size_t> CudaInputs;
  /// Indexes into Args of the other inputs (objects, libraries).
  std::vector<size_t> OtherInputs;
  /// The value of -o / --output-file, if given.
  std::optional<std::string> Output;
  /// -MD or -MMD (a depfile besides the object) and the value of -MF.
  bool WritesDepFile = false;
  std::optional<std::string> DepFile;
  /// The value of -odir / --output-directory, if given.
  std::optional<std::string> OutputDirectory;
};

/// Classifies \p Args (nvcc's arguments, without the program name).
NvccCommand parseNvccCommand(llvm::ArrayRef<std::string> Args);

/// The flags that describe how \p Command parses its sources, for the tool's
/// `-- nvcc <flags>`: every argument except the inputs, -o and the depfile
/// options.
std::vector<std::string> parseFlags(const NvccCommand &Command);

} // namespace streamalloc::nvcc

#endif
