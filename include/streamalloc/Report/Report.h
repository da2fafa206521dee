//===- Report.h - What the tool did to a file, and why ----------------------===//
#ifndef STREAMALLOC_REPORT_REPORT_H
#define STREAMALLOC_REPORT_REPORT_H

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace streamalloc {

struct OpReport {
  std::string Function;
  unsigned Line = 0, Column = 0;
  std::string Callee;
  std::string Kind; ///< copy, set, launch
  bool Async = false;
  std::optional<unsigned> Stream;
  std::optional<unsigned> WaitLine; ///< line of the statement the covering wait precedes
  std::string Reason;               ///< why it stayed synchronous
  std::string File;                 ///< an included file it is in (empty: the main file)
  /// Still pending when its function returns: the callers wait for it.
  bool PendingOnReturn = false;
};

struct WaitReport {
  std::string Function;
  unsigned Line = 0; ///< the wait is inserted before this line
  std::string Cause;
  std::string Reason;
  std::vector<unsigned> OpLines; ///< ops it waits for
  /// What it costs in host calls and why it is there rather than cheaper,
  /// when that is worth saying (a call per stream, a wait that repeats in a
  /// loop); empty otherwise.
  std::string Cost;
  std::string File; ///< an included file it is in (empty: the main file)
};

/// What was done with a host buffer that GPU copies use.
struct PinReport {
  std::string Function;
  std::string Buffer; ///< the variable it was first stored in
  unsigned Line = 0;  ///< its allocation
  std::string Action; ///< pageable, allocated page-locked, registered
  std::string Reason;
  std::string File; ///< an included file it is in (empty: the main file)
};

/// One of the program's own device syncs (cudaDeviceSynchronize).
struct SyncReport {
  std::string Function;
  unsigned Line = 0;
  std::string Callee;
  bool Redundant = false; ///< it protects no host access
  bool Removable = false; ///< the whole statement can be removed
  bool Dropped = false;   ///< removed from the output
  unsigned PendingOps = 0;
  std::string Reason; ///< why it is (or is not) redundant, and why it was kept
  std::string File;   ///< an included file it is in (empty: the main file)
};

/// A statement of an analysed function that reads a clock (--timers).
struct ClockReadReport {
  std::string Function;
  unsigned Line = 0, EndLine = 0; ///< the statement's first and last line
  /// Lines of the ops pending before it that the original had completed there.
  std::vector<unsigned> DoneInOriginal;
  /// Lines of the ops still pending in the output when it reads the clock.
  std::vector<unsigned> PendingAtRead;
  std::string File; ///< an included file it is in (empty: the main file)
};

/// A function the analysis ran on, for checks over the report.
struct FunctionExtent {
  std::string Name;
  unsigned Line = 0, EndLine = 0;
  std::string File; ///< an included file it is in (empty: the main file)
};

/// A helper with GPU ops: whether it returns with its work pending (its
/// callers wait for it), and why, or why it waits for its work first.
struct ReturnReport {
  std::string Function;
  unsigned Line = 0;
  bool Pending = false;
  std::optional<unsigned> Stream; ///< where its work stays pending
  std::string Reason;
  std::string File; ///< an included file it is in (empty: the main file)
};

/// A loop whose body holds two or more GPU ops, or one op alone: whether each
/// iteration runs as one CUDA graph (Schedule/LaunchGraphs.h), and why not.
struct LoopReport {
  std::string Function;
  unsigned Line = 0;
  unsigned Ops = 0; ///< ops per iteration in the graph
  bool Graph = false;
  unsigned Stream = 0;
  unsigned DirectIterations = 0; ///< run before the first capture
  std::string Reason;            ///< why it is not a graph
  std::string File;              ///< an included file it is in (empty: the main file)
};

/// A templated host function with GPU ops: whether its text was rewritten
/// (every instantiation asked for the same edits of the code it shares with
/// the others: not in the `if constexpr` branches it discards) and why not.
struct TemplateReport {
  std::string File; ///< an included file it is written in (empty: the main file)
  std::string Template;
  unsigned Line = 0;
  std::vector<std::string> Instances; ///< `run<float>`, ...
  bool Rewritten = false;             ///< analysed and its edits applied (maybe none)
  bool BranchesDiffer = false;        ///< rewritten where `if constexpr` keeps each one's code
  std::string Reason;                 ///< why it is left unchanged
};

/// A file of the project's own that the translation unit includes.
struct IncludedFileReport {
  std::string File;
  bool Changed = false;
  std::string Reason; ///< why its GPU ops were left as written (empty: analysed)
};

/// A function defined in another translation unit whose summary the
/// analysis was given (CrossTu.h).
struct ImportedSummaryReport {
  std::string Function;
  std::string Source; ///< the file that defines it
  unsigned Line = 0;
  std::string Conflict; ///< non-empty: not used, and why
};

struct FileReport {
  std::string File;
  bool Changed = false;
  std::vector<std::string> FileBlockers; ///< why the whole file was left alone
  unsigned Streams = 0;
  bool TimersIgnored = false; ///< --timers=ignore: clock reads did not wait
  std::vector<OpReport> Ops;
  std::vector<WaitReport> Waits;
  std::vector<PinReport> Buffers;
  std::vector<SyncReport> Syncs;
  std::vector<ClockReadReport> ClockReads;
  std::vector<FunctionExtent> Functions;
  std::vector<ReturnReport> Returns;
  std::vector<LoopReport> Loops;
  std::vector<TemplateReport> Templates;
  std::vector<IncludedFileReport> IncludedFiles;
  std::vector<ImportedSummaryReport> ImportedSummaries;
};

/// What a report holds at one moment, to name or filter what is added to
/// it after (the entries one function's analysis adds).
class ReportMark {
public:
  explicit ReportMark(FileReport &Report);
  /// Names \p File as the file of every entry added since.
  void stampFile(const std::string &File);
  /// Drops every entry added since, except those of \p File on a line of
  /// one of \p Lines (first and last line, inclusive).
  void keepAddedOnLines(const std::string &File,
                        const std::vector<std::pair<unsigned, unsigned>> &Lines);

private:
  FileReport &Report;
  size_t Ops, Waits, Buffers, Syncs, ClockReads, Functions, Loops;

  /// Calls \p Fn(entries, size when marked) for each kind of entry.
  template <typename Fn> void forEachAdded(Fn &&F);
};

void printTextReport(llvm::raw_ostream &OS, const std::vector<FileReport> &Files);
void printJsonReport(llvm::raw_ostream &OS, const std::vector<FileReport> &Files);

} // namespace streamalloc

#endif
