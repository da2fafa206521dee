//===- ProjectFiles.h - Which files of a translation unit are the project's --===//
//
// The tool rewrites the project's own files, never a system or CUDA header.
// A file is the project's own when it lies under the main file's folder, or
// under an -I/-iquote folder (not -isystem) that itself lies under the main
// file's folder or the compile command's folder (the build's source tree:
// `src/main.cu`, `src/kernels.cuh`, `include/util.h` with `-I../include`),
// and not under the CUDA installation. Whether the preprocessor saw it as a
// system header is the caller's check.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_DRIVER_PROJECTFILES_H
#define STREAMALLOC_DRIVER_PROJECTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace streamalloc {

class ProjectFiles {
public:
  /// Relative paths are taken relative to \p WorkingDir (the compile
  /// command's folder, which is also the database's folder for the -I rule).
  ProjectFiles(llvm::StringRef MainFile, llvm::ArrayRef<std::string> IncludeDirs,
               llvm::StringRef WorkingDir, llvm::StringRef CudaPath);

  /// Whether \p Path is under one of the roots and not under the CUDA
  /// installation.
  bool contains(llvm::StringRef Path) const;

  /// The folders whose files are the project's own, absolute and without
  /// symbolic links, the main file's folder first.
  llvm::ArrayRef<std::string> roots() const { return Roots; }

private:
  std::string WorkingDir;
  std::vector<std::string> Roots;
  std::string Cuda;

  std::string normalise(llvm::StringRef Path) const;
};

/// Whether \p Path names \p Dir or something under it (both normalised).
bool isUnderFolder(llvm::StringRef Path, llvm::StringRef Dir);

} // namespace streamalloc

#endif
