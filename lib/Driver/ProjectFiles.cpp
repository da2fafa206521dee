//===- ProjectFiles.cpp ---------------------------------------------------===//
#include "streamalloc/Driver/ProjectFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace streamalloc {

bool isUnderFolder(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Dir.empty() || !Path.starts_with(Dir))
    return false;
  return Path.size() == Dir.size() || llvm::sys::path::is_separator(Path[Dir.size()]) ||
         llvm::sys::path::is_separator(Dir.back());
}

std::string ProjectFiles::normalise(llvm::StringRef Path) const {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    Abs = WorkingDir;
    llvm::sys::path::append(Abs, Path);
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  // The same file through a symbolic link is the same file.
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Abs, Real))
    return std::string(Real);
  return std::string(Abs);
}

ProjectFiles::ProjectFiles(llvm::StringRef MainFile, llvm::ArrayRef<std::string> IncludeDirs,
                           llvm::StringRef WorkingDirIn, llvm::StringRef CudaPath) {
  llvm::SmallString<256> Cwd(WorkingDirIn);
  if (Cwd.empty() || !llvm::sys::path::is_absolute(Cwd))
    llvm::sys::fs::make_absolute(Cwd);
  WorkingDir = std::string(Cwd);
  WorkingDir = normalise(WorkingDir);
  Cuda = CudaPath.empty() ? std::string() : normalise(CudaPath);
  std::string MainDir = normalise(llvm::sys::path::parent_path(normalise(MainFile)));
  Roots.push_back(MainDir);
  for (const std::string &Dir : IncludeDirs) {
    std::string D = normalise(Dir);
    if ((isUnderFolder(D, MainDir) || isUnderFolder(D, WorkingDir)) &&
        !llvm::is_contained(Roots, D))
      Roots.push_back(D);
  }
}

bool ProjectFiles::contains(llvm::StringRef Path) const {
  std::string P = normalise(Path);
  if (!Cuda.empty() && isUnderFolder(P, Cuda))
    return false;
  return llvm::any_of(Roots, [&](const std::string &Root) { return isUnderFolder(P, Root); });
}

} // namespace streamalloc
