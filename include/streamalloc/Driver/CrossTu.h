//===- CrossTu.h - Summaries of the other translation units of a program ---===//
//
// Phase 1 of a run over several translation units: each unit is parsed and
// the summaries of its exportable functions (SummaryExchange.h) collected,
// in parallel, with an on-disk cache keyed by the contents of every file the
// unit reads, its command line and the tool itself. Phase 2 (Pipeline.cpp)
// transforms each input with the other units' summaries.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_DRIVER_CROSSTU_H
#define STREAMALLOC_DRIVER_CROSSTU_H

#include "streamalloc/Access/ImportedSummaries.h"

#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace streamalloc {

struct PipelineOptions;

/// The files of \p Db that are summary sources for \p Inputs: every file of
/// the database (\p All), or those in the folder of an input or below it.
std::vector<std::string> summarySourcesOf(const clang::tooling::CompilationDatabase &Db,
                                          const std::vector<std::string> &Inputs, bool All);

/// Parses (or reads from the cache) every file of \p Sources and returns
/// what they export. A unit that does not parse exports nothing (its
/// functions stay Unknown for the others).
SummaryImports summariseUnits(const clang::tooling::CompilationDatabase &Db,
                              const std::vector<std::string> &Sources,
                              const PipelineOptions &Options);

/// What the cache file of a unit holds, and whether it is still valid.
struct CachedSummaries {
  std::string Key; ///< of the unit's path, command and the tool that wrote it
  std::vector<std::pair<std::string, std::string>> Files; ///< every file read, with its hash
  std::vector<PortableSummary> Exports;
};
/// Hash of a file's current content ("" when it cannot be read).
std::string contentHash(const std::string &Path);
std::string cacheText(const CachedSummaries &C);
/// Reads \p Text; false with \p Why for a file that is corrupt or not one
/// of this tool's.
bool readCache(llvm::StringRef Text, CachedSummaries &C, std::string &Why);

} // namespace streamalloc

#endif
