//===- CompileCommands.h - From build commands to a CUDA host parse --------===//
#ifndef STREAMALLOC_DRIVER_COMPILECOMMANDS_H
#define STREAMALLOC_DRIVER_COMPILECOMMANDS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"

#include <functional>
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

/// What makes a Clang parse accept the nvcc dialect: __NVCC__, `register`
/// under C++17, the prelude (NvccPrelude.h) and CCCL's include folder.
std::vector<std::string> nvccDialectArguments(llvm::StringRef CudaPath);

/// gcc's omp.h (found when the tool was configured), or empty when it is
/// missing: Clang's packages ship no omp.h for `-fopenmp` programs. Its folder
/// is searched last (-idirafter), so gcc's other headers never shadow Clang's.
llvm::StringRef gccOmpHeader();

/// All adjustments for a host-side CUDA parse of each command.
clang::tooling::ArgumentsAdjuster cudaHostParseAdjuster(const std::string &CudaPath,
                                                        const std::string &ResourceDir);

/// \p Found (a compile_commands.json found above the inputs, no -p given)
/// for the files it has a command for, or can infer one from a neighbour's;
/// for the others no extra flags, as without a database. Calls \p Note once
/// per file that falls back.
std::unique_ptr<clang::tooling::CompilationDatabase>
withFallbackToNoFlags(std::unique_ptr<clang::tooling::CompilationDatabase> Found,
                      std::function<void(llvm::StringRef File)> Note);

} // namespace streamalloc

#endif
