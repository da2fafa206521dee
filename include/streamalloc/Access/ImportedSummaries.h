//===- ImportedSummaries.h - Summaries of functions other units define -----===//
//
// The summaries that other translation units of the program export
// (SummaryExchange.h), by function USR, and while one unit is analysed, the
// scope that makes them visible to its analysis: a call to a function with
// no body in the unit but an exported summary is analysed with that summary
// as if the body were there. A function two units define (an ODR
// violation) and one whose exported signature differs from the caller's
// declaration are not imported: calls to them stay Unknown.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_IMPORTEDSUMMARIES_H
#define STREAMALLOC_ACCESS_IMPORTEDSUMMARIES_H

#include "streamalloc/Access/SummaryExchange.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

/// Every exported summary of a run, by USR.
class SummaryImports {
public:
  struct Entry {
    PortableSummary Summary;
    std::string OtherSource; ///< another unit defines it too: never imported
  };
  /// Adds what the translation unit \p Source exports (again: replaces).
  void add(const std::string &Source, const std::vector<PortableSummary> &Exports);
  const Entry *find(llvm::StringRef Usr) const;
  bool empty() const { return Entries.empty(); }

private:
  llvm::StringMap<Entry> Entries;
  llvm::StringMap<std::string> SourceOf; ///< USR -> the unit that added it
};

/// A summary resolved in the importing unit.
struct ImportedFunction {
  FunctionSummary Summary;
  std::string Source; ///< the file that defines the function
  unsigned Line = 0;
  std::vector<unsigned> PlainParams; ///< see PortableSummary::PlainParams
  ArgumentFormula ReturnedBytes;     ///< see PortableSummary::ReturnedBytes
  std::string ReturnedBytesWhy;
  std::string Conflict; ///< non-empty: why it is not used (two definitions)
};

/// Makes \p Imports visible to the analysis of the unit of \p Ctx while it
/// lives (one scope per unit; units may be analysed on several threads).
class ImportScope {
public:
  ImportScope(clang::ASTContext &Ctx, const SummaryImports &Imports);
  ~ImportScope();
  ImportScope(const ImportScope &) = delete;
  ImportScope &operator=(const ImportScope &) = delete;

  /// For a call to \p F, a function without a body in its unit: the summary
  /// another unit exports for it, or null (no scope, not exported, internal
  /// linkage, other signature).
  static const ImportedFunction *lookup(const clang::FunctionDecl *F);
  /// The imported summaries the analysis asked for, in the order asked.
  static std::vector<std::pair<const clang::FunctionDecl *, const ImportedFunction *>>
  used(clang::ASTContext &Ctx);

  struct State; // defined in lib/Access

private:
  std::unique_ptr<State> S;
  clang::ASTContext &Ctx;
};

} // namespace streamalloc

#endif
