//===- CompileCommands.h - From build commands to a CUDA host parse --------===//
#ifndef STREAMALLOC_DRIVER_COMPILECOMMANDS_H
#define STREAMALLOC_DRIVER_COMPILECOMMANDS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace streamalloc {

/// The CUDA installation to parse against: \p Requested (from --cuda-path)
/// if set, else $CUDA_PATH, else /usr/local/cuda. Fails with a message that
/// says where it looked when the directory has no include/cuda_runtime.h.
llvm::Expected<std::string> findCudaInstallation(llvm::StringRef Requested);

/// Clang's resource directory (its CUDA wrapper headers), checked to exist.
llvm::Expected<std::string> findClangResourceDir();

/// Rewrites an nvcc command line (as CMake writes it into
/// compile_commands.json) into clang arguments: keeps -I/-isystem/-D/-U/
/// -std/-include, maps `-x cu`, drops nvcc-only flags. Other commands are
/// returned unchanged.
std::vector<std::string> translateNvccCommand(const std::vector<std::string> &Args);

/// All adjustments for a host-side CUDA parse of each command.
clang::tooling::ArgumentsAdjuster cudaHostParseAdjuster(const std::string &CudaPath,
                                                        const std::string &ResourceDir);

} // namespace streamalloc

#endif
