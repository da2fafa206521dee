//===- ParseDiagnostics.cpp -----------------------------------------------===//
#include "streamalloc/Driver/ParseDiagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"

namespace streamalloc {

FirstErrorRecorder::FirstErrorRecorder()
    : Printer(std::make_unique<clang::TextDiagnosticPrinter>(llvm::errs(), Options)) {
  Options.ShowColors = llvm::errs().has_colors();
}

FirstErrorRecorder::~FirstErrorRecorder() = default;

void FirstErrorRecorder::BeginSourceFile(const clang::LangOptions &LO,
                                         const clang::Preprocessor *PP) {
  Printer->BeginSourceFile(LO, PP);
}

void FirstErrorRecorder::EndSourceFile() { Printer->EndSourceFile(); }

void FirstErrorRecorder::HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                                          const clang::Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  Printer->HandleDiagnostic(Level, Info);
  if (Level < clang::DiagnosticsEngine::Error || !First.empty())
    return;
  llvm::SmallString<128> Message;
  Info.FormatDiagnostic(Message);
  if (Info.getLocation().isValid() && Info.hasSourceManager()) {
    clang::PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
    if (P.isValid())
      First = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
              std::to_string(P.getColumn()) + ": ";
  }
  First += Message.str();
}

std::string parseFailureHint(llvm::StringRef Error) {
  if (Error.contains("unknown argument") || Error.contains("unsupported option"))
    return "the flags after `--` go to Clang as they are: give nvcc's flags as "
           "`-- nvcc <flags>` (the tool translates them), or the build's "
           "compile_commands.json with -p";
  if (Error.contains("'omp.h' file not found"))
    return "an OpenMP program: pass -fopenmp after `--` (nvcc's -Xcompiler -fopenmp); if it "
           "still fails, install gcc's OpenMP headers (libgomp) or libomp-22-dev";
  if (Error.contains("file not found"))
    return "pass the program's include folders after `--` (-I DIR), or its "
           "compile_commands.json with -p";
  if (Error.contains("undeclared identifier") || Error.contains("unknown type name") ||
      Error.contains("no matching function"))
    return "it may need a macro or include folder of its build (pass the build's flags after "
           "`--` or use -p), or an nvcc built-in the tool does not declare";
  return "check that nvcc compiles the file with the flags passed after `--` (or in "
         "compile_commands.json)";
}

} // namespace streamalloc
