//===- Pipeline.h - Runs the stages on translation units --------------------===//
#ifndef STREAMALLOC_DRIVER_PIPELINE_H
#define STREAMALLOC_DRIVER_PIPELINE_H

#include "streamalloc/Report/Report.h"
#include "streamalloc/Schedule/StreamPlan.h"
#include "streamalloc/Transform/HostPinning.h"

#include <map>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace streamalloc {

class SummaryImports;

enum class DumpStage { Summaries, Accesses, Pending, Schedule, Edits };

struct PipelineOptions {
  std::string CudaPath;
  std::string ResourceDir;
  std::vector<DumpStage> Dumps;
  ScheduleOptions Schedule;
  bool WantGraph = false; ///< fill FileResult::Graph (--graph)
  PinMode Pin = PinMode::Auto;
  /// Remove the program's device syncs that protect no host access (off:
  /// --keep-syncs); they are reported either way.
  bool DropRedundantSyncs = true;
  /// --timers=keep: before a clock read, wait for the work the original had
  /// finished there; false (--timers=ignore): clock reads touch nothing.
  bool TimerWaits = true;
  /// cudaMalloc/cudaFree of buffers whose whole life is in view become
  /// cudaMallocAsync/cudaFreeAsync on the planned streams.
  bool StreamOrderedAlloc = true;
  /// Make only the safe changes that can pay for what they add
  /// (Profit/Profitability.h); false (--profitability=off): every safe change.
  bool Profitability = true;
  /// Loops whose body is only GPU work run each iteration as one CUDA graph
  /// (Schedule/LaunchGraphs.h); false (--cuda-graphs=off): they launch as written.
  bool Graphs = true;
  /// --whole-program: the main file is the whole program (no other unit is
  /// linked with it), so a function with external linkage that no included
  /// file declares has every caller in view (PendingWork.h).
  bool WholeProgram = false;
  /// Analyse and rewrite the host functions of the project's own included
  /// files (ProjectFiles.h) too (-i, --out-dir, --diff); otherwise they are
  /// left as written and the report says so once per file with GPU ops.
  bool RewriteIncluded = false;
  /// Included files (real paths) left as written, with why: the translation
  /// units of one run would rewrite them differently.
  std::map<std::string, std::string> KeepIncluded;

  // Cross-translation-unit summaries (CrossTu.h).
  /// Use the summaries of the functions other units define (off:
  /// --cross-tu=off): the other inputs, and SummarySources.
  bool CrossTu = true;
  std::vector<std::string> SummarySources; ///< units of the database that are not inputs
  std::string SummaryCache;                ///< folder of the summary cache ("" = none)
  unsigned Jobs = 1;                       ///< units analysed at once
  bool Verbose = false;                    ///< a progress line per unit (stderr)
  /// Set by runPipeline: what the units of the run export.
  const SummaryImports *Imports = nullptr;
};

/// A file of the project's own that a translation unit includes.
struct IncludedFile {
  std::string Path;     ///< as the preprocessor found it (for messages)
  std::string RealPath; ///< absolute, without symbolic links (where to write)
  std::string Original;
  std::string Output;      ///< == Original when not rewritten
  bool Rewritable = false; ///< its functions were analysed for this run
  std::string WhyLeft;     ///< why not, when it is the project's but not Rewritable
};

struct FileResult {
  std::string Path;       ///< as given on the command line
  bool Parsed = false;    ///< false: Clang reported errors (printed already)
  std::string FirstError; ///< Clang's first error, `file:line:col: message`
  /// Clang's driver rejected a flag of the file's command (it then parses
  /// the file without it, not the way the build compiles it): not Parsed.
  bool CommandLineError = false;
  std::string Original;
  std::string Output;   ///< the transformed file (valid when Parsed)
  std::string RealPath; ///< of the main file
  /// The project's own files it includes (rewritten or not), in the order
  /// the preprocessor entered them.
  std::vector<IncludedFile> Included;
  std::string Dump;  ///< --dump text
  std::string Graph; ///< dependency graph clusters, Graphviz (--graph)
  FileReport Report;
  std::string Error; ///< internal failure, if any
  /// CPU seconds (user + system) of Clang's parse of the file, and of every
  /// stage after it (--print-timing).
  double ParseSeconds = 0, AnalysisSeconds = 0;
};

/// Parses each file with its command from \p Db and runs every stage.
/// Returns one result per file, in the order given. An included file that
/// two translation units would rewrite differently is left as written in
/// both (they are run again without it).
std::vector<FileResult> runPipeline(const clang::tooling::CompilationDatabase &Db,
                                    const std::vector<std::string> &Files,
                                    const PipelineOptions &Options);

} // namespace streamalloc

#endif
