//===- ParseDiagnostics.h - Clang's diagnostics, and the first error -------===//
#ifndef STREAMALLOC_DRIVER_PARSEDIAGNOSTICS_H
#define STREAMALLOC_DRIVER_PARSEDIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"

#include <memory>
#include <string>

namespace streamalloc {

/// Prints Clang's diagnostics as Clang does and keeps the first error as
/// `file:line:col: message`, for the one-line summary of a failed parse.
class FirstErrorRecorder : public clang::DiagnosticConsumer {
public:
  FirstErrorRecorder();
  ~FirstErrorRecorder() override;
  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  const std::string &firstError() const { return First; }

private:
  clang::DiagnosticOptions Options;
  std::unique_ptr<clang::DiagnosticConsumer> Printer;
  std::string First;
};

/// A one-line hint on what to try for a file whose first error is \p Error.
std::string parseFailureHint(llvm::StringRef Error);

} // namespace streamalloc

#endif
