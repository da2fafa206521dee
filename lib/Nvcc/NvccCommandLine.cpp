//===- NvccCommandLine.cpp ------------------------------------------------===//
#include "streamalloc/Nvcc/NvccCommandLine.h"
#include "streamalloc/Nvcc/NvccOptions.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

namespace streamalloc::nvcc {

namespace {

/// Phases that stop after the object.
bool isCompileOnlyPhase(llvm::StringRef A) {
  static const llvm::StringSet<> Set = {"-c",         "--compile", "-dc",
                                        "--device-c", "-dw",       "--device-w"};
  return Set.contains(A);
}

/// Everything that is not a compile to an object or a program: these
/// invocations go to nvcc as they are.
bool isOtherPhase(llvm::StringRef A) {
  static const llvm::StringSet<> Set = {"-E",
                                        "--preprocess",
                                        "-M",
                                        "--generate-dependencies",
                                        "-MM",
                                        "--generate-nonsystem-dependencies",
                                        "-cuda",
                                        "--cuda",
                                        "-ptx",
                                        "--ptx",
                                        "-cubin",
                                        "--cubin",
                                        "-fatbin",
                                        "--fatbin",
                                        "-optix-ir",
                                        "--optix-ir",
                                        "-lib",
                                        "--lib",
                                        "-dlink",
                                        "--device-link",
                                        "-link",
                                        "--link",
                                        "-run",
                                        "--run",
                                        "-V",
                                        "--version",
                                        "-h",
                                        "--help",
                                        "-dryrun",
                                        "--dryrun",
                                        "--list-gpu-arch",
                                        "-arch-ls",
                                        "--list-gpu-code",
                                        "-code-ls"};
  return Set.contains(A);
}

bool isCOrCxxSource(llvm::StringRef Path) {
  static const llvm::StringSet<> Set = {".cu", ".c", ".cc", ".cpp", ".cxx", ".c++", ".C"};
  return Set.contains(llvm::sys::path::extension(Path));
}

/// Options and flags that change nothing about how a source parses; the tool
/// gets none of them (its own -o is the temporary).
bool isOutput(llvm::StringRef A) {
  const NvccOption *O = findOption(optionName(A));
  return O && O->Output && (O->TakesValue || O == findOption(A));
}

} // namespace

NvccCommand parseNvccCommand(llvm::ArrayRef<std::string> Args) {
  NvccCommand C;
  C.Args.assign(Args.begin(), Args.end());
  bool OtherPhase = false;
  std::optional<std::string> Language;
  std::vector<size_t> Positional;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A.empty() || A[0] != '-' || A == "-") {
      Positional.push_back(I);
      continue;
    }
    llvm::StringRef Name = optionName(A);
    std::optional<std::string> Value;
    if (A.contains('=') && takesSeparateValue(Name))
      Value = A.split('=').second.str();
    else if (takesSeparateValue(A) && I + 1 < Args.size())
      Value = Args[++I];
    if (isCompileOnlyPhase(A))
      C.CompileOnly = true;
    else if (isOtherPhase(A))
      OtherPhase = true;
    else if (A == "-MD" || A == "-MMD" || A == "--generate-dependencies-with-compile" ||
             A == "--generate-nonsystem-dependencies-with-compile")
      C.WritesDepFile = true;
    if (!Value)
      continue;
    if (Name == "-o" || Name == "--output-file")
      C.Output = *Value;
    else if (Name == "-MF" || Name == "--dependency-output")
      C.DepFile = *Value;
    else if (Name == "-odir" || Name == "--output-directory")
      C.OutputDirectory = *Value;
    else if (Name == "-x" || Name == "--x")
      Language = *Value;
  }
  for (size_t I : Positional) {
    llvm::StringRef Path = Args[I];
    bool Cuda = Language ? *Language == "cu" && isCOrCxxSource(Path)
                         : llvm::sys::path::extension(Path) == ".cu";
    (Cuda ? C.CudaInputs : C.OtherInputs).push_back(I);
  }
  C.Compiles = !OtherPhase;
  return C;
}

std::vector<std::string> parseFlags(const NvccCommand &Command) {
  std::vector<std::string> Flags;
  auto IsInput = [&](size_t I) {
    return llvm::is_contained(Command.CudaInputs, I) || llvm::is_contained(Command.OtherInputs, I);
  };
  for (size_t I = 0; I < Command.Args.size(); ++I) {
    llvm::StringRef A = Command.Args[I];
    bool SeparateValue = takesSeparateValue(A) && I + 1 < Command.Args.size();
    if (!IsInput(I) && !isOutput(A)) {
      Flags.push_back(A.str());
      if (SeparateValue)
        Flags.push_back(Command.Args[I + 1]);
    }
    if (SeparateValue)
      ++I;
  }
  return Flags;
}

} // namespace streamalloc::nvcc
