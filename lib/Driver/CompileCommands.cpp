//===- CompileCommands.cpp ------------------------------------------------===//
#include "streamalloc/Driver/CompileCommands.h"
#include "streamalloc/Driver/NvccPrelude.h"
#include "streamalloc/Nvcc/NvccOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace streamalloc {

llvm::Expected<std::string> findCudaInstallation(llvm::StringRef Requested) {
  std::string Path, From;
  if (!Requested.empty()) {
    Path = Requested.str();
    From = "--cuda-path";
  } else if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("CUDA_PATH");
             Env && !Env->empty()) {
    Path = *Env;
    From = "$CUDA_PATH";
  } else {
    Path = "/usr/local/cuda";
    From = "the default location";
  }
  llvm::SmallString<256> Header(Path);
  llvm::sys::path::append(Header, "include", "cuda_runtime.h");
  if (!llvm::sys::fs::exists(Header))
    return llvm::createStringError(
        "no CUDA installation found at '" + Path + "' (" + From +
        "): it has no include/cuda_runtime.h; pass --cuda-path=DIR or set CUDA_PATH");
  return Path;
}

llvm::Expected<std::string> findClangResourceDir() {
  std::string Dir = STREAMALLOC_CLANG_RESOURCE_DIR;
  if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("STREAMALLOC_RESOURCE_DIR"))
    Dir = *Env;
  llvm::SmallString<256> Wrapper(Dir);
  llvm::sys::path::append(Wrapper, "include", "__clang_cuda_runtime_wrapper.h");
  if (!llvm::sys::fs::exists(Wrapper))
    return llvm::createStringError("Clang's resource directory '" + Dir +
                                   "' lacks its CUDA headers; reinstall clang-22 or set "
                                   "STREAMALLOC_RESOURCE_DIR");
  return Dir;
}

namespace {
bool isNvcc(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  return Name == "nvcc" || Name == "nvcc.exe";
}

} // namespace

std::vector<std::string> translateNvccCommand(const std::vector<std::string> &Args) {
  if (Args.empty() || !isNvcc(Args[0]))
    return Args;
  std::vector<std::string> Out{"clang++"};
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    auto Next = [&]() -> std::string { return I + 1 < Args.size() ? Args[++I] : ""; };
    if (A == "-x" || A == "--x") {
      std::string Lang = Next();
      Out.push_back("-x");
      Out.push_back(Lang == "cu" ? "cuda" : Lang);
    } else if (A == "--default-stream" || A.starts_with("--default-stream=") ||
               A == "-default-stream" || A.starts_with("-default-stream=")) {
      std::string Mode = A.contains('=') ? A.split('=').second.str() : Next();
      if (Mode == "per-thread")
        Out.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    } else if (A == "-std" || A == "--std") {
      Out.push_back("-std=" + Next());
    } else if (A == "--include-path" || A == "--define-macro" || A == "--undefine-macro" ||
               A == "--pre-include" || A == "--system-include") {
      const char *Flag = A == "--include-path"     ? "-I"
                         : A == "--define-macro"   ? "-D"
                         : A == "--undefine-macro" ? "-U"
                         : A == "--pre-include"    ? "-include"
                                                   : "-isystem";
      Out.push_back(Flag);
      Out.push_back(Next());
    } else if (A.starts_with("--include-path=")) {
      Out.push_back("-I" + A.split('=').second.str());
    } else if (A.starts_with("--define-macro=")) {
      Out.push_back("-D" + A.split('=').second.str());
    } else if (A == "-Xcompiler" || A == "--compiler-options" || A.starts_with("-Xcompiler=") ||
               A.starts_with("--compiler-options=")) {
      // Host-compiler options are dropped, except OpenMP: it changes what parses.
      std::string Options = A.contains('=') ? A.split('=').second.str() : Next();
      if (llvm::is_contained(llvm::split(Options, ','), "-fopenmp"))
        Out.push_back("-fopenmp");
    } else if (nvcc::droppedForClang(A)) {
      if (nvcc::takesSeparateValue(A))
        Next();
    } else {
      Out.push_back(A.str());
    }
  }
  return Out;
}

std::vector<std::string> nvccDialectArguments(llvm::StringRef CudaPath) {
  // nvcc accepts `register` under C++17; the prelude declares (and defines
  // __NVCC__ for) what nvcc provides implicitly.
  std::vector<std::string> Args = {"-Wno-register", "-include", nvccPreludePath().str()};
  // nvcc.profile puts CCCL (thrust, cub, libcu++) on the system include path.
  llvm::SmallString<256> Cccl(CudaPath);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(Cccl)) {
    Args.push_back("-isystem");
    Args.push_back(std::string(Cccl));
  }
  return Args;
}

llvm::StringRef gccOmpHeader() {
  static const std::string Header = [] {
    std::string H = STREAMALLOC_GCC_OMP_HEADER;
    return llvm::sys::fs::exists(H) ? H : std::string();
  }();
  return Header;
}

clang::tooling::ArgumentsAdjuster cudaHostParseAdjuster(const std::string &CudaPath,
                                                        const std::string &ResourceDir) {
  using namespace clang::tooling;
  ArgumentsAdjuster Nvcc = [](const CommandLineArguments &Args, llvm::StringRef) {
    return translateNvccCommand(Args);
  };
  CommandLineArguments Extra = {"-x",
                                "cuda",
                                "--cuda-host-only",
                                "--cuda-path=" + CudaPath,
                                "-resource-dir=" + ResourceDir,
                                "-Wno-unknown-cuda-version"};
  for (const std::string &A : nvccDialectArguments(CudaPath))
    Extra.push_back(A);
  ArgumentsAdjuster OpenMp = [](const CommandLineArguments &Args, llvm::StringRef) {
    CommandLineArguments Out = Args;
    if (llvm::is_contained(Args, "-fopenmp") && !gccOmpHeader().empty())
      Out.insert(Out.begin() + 1,
                 {"-idirafter", std::string(llvm::sys::path::parent_path(gccOmpHeader()))});
    return Out;
  };
  ArgumentsAdjuster Adjust = combineAdjusters(Nvcc, getClangStripDependencyFileAdjuster());
  Adjust =
      combineAdjusters(Adjust, getInsertArgumentAdjuster(Extra, ArgumentInsertPosition::BEGIN));
  return combineAdjusters(Adjust, OpenMp);
}

namespace {

/// The found database, or no flags for the files it knows nothing about.
class FallbackDatabase : public clang::tooling::CompilationDatabase {
public:
  FallbackDatabase(std::unique_ptr<CompilationDatabase> Found,
                   std::function<void(llvm::StringRef)> Note)
      : Found(std::move(Found)), Note(std::move(Note)), NoFlags(".", std::vector<std::string>()) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<clang::tooling::CompileCommand> Commands = Found->getCompileCommands(File);
    if (!Commands.empty())
      return Commands;
    if (Noted.insert(File).second)
      Note(File);
    return NoFlags.getCompileCommands(File);
  }
  std::vector<std::string> getAllFiles() const override { return Found->getAllFiles(); }

private:
  std::unique_ptr<CompilationDatabase> Found;
  std::function<void(llvm::StringRef)> Note;
  clang::tooling::FixedCompilationDatabase NoFlags;
  mutable llvm::StringSet<> Noted;
};

} // namespace

std::unique_ptr<clang::tooling::CompilationDatabase>
withFallbackToNoFlags(std::unique_ptr<clang::tooling::CompilationDatabase> Found,
                      std::function<void(llvm::StringRef File)> Note) {
  return std::make_unique<FallbackDatabase>(std::move(Found), std::move(Note));
}

} // namespace streamalloc
