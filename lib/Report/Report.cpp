//===- Report.cpp ---------------------------------------------------------===//
#include "streamalloc/Report/Report.h"
#include "streamalloc/Model/ApiModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <set>

namespace streamalloc {

ReportMark::ReportMark(FileReport &Report)
    : Report(Report), Ops(Report.Ops.size()), Waits(Report.Waits.size()),
      Buffers(Report.Buffers.size()), Syncs(Report.Syncs.size()),
      ClockReads(Report.ClockReads.size()), Functions(Report.Functions.size()),
      Loops(Report.Loops.size()) {}

template <typename Fn> void ReportMark::forEachAdded(Fn &&F) {
  F(Report.Ops, Ops);
  F(Report.Waits, Waits);
  F(Report.Buffers, Buffers);
  F(Report.Syncs, Syncs);
  F(Report.ClockReads, ClockReads);
  F(Report.Functions, Functions);
  F(Report.Loops, Loops);
}

void ReportMark::stampFile(const std::string &File) {
  forEachAdded([&](auto &Entries, size_t From) {
    for (size_t I = From; I < Entries.size(); ++I)
      Entries[I].File = File;
  });
}

void ReportMark::keepAddedOnLines(const std::string &File,
                                  const std::vector<std::pair<unsigned, unsigned>> &Lines) {
  forEachAdded([&](auto &Entries, size_t From) {
    Entries.erase(std::remove_if(Entries.begin() + From, Entries.end(),
                                 [&](const auto &Entry) {
                                   return Entry.File != File || llvm::none_of(Lines, [&](auto L) {
                                            return L.first <= Entry.Line && Entry.Line <= L.second;
                                          });
                                 }),
                  Entries.end());
  });
}

namespace {
/// OpReport::Kind of the work a call returns with (GpuOpKind::CallWork).
constexpr llvm::StringLiteral CallWorkKind = "call";
constexpr const char *AsyncErrorNote =
    "note: an error raised by an asynchronous op is now reported by the next wait or CUDA call "
    "rather than by the op itself";
constexpr const char *DroppedSyncNote =
    "note: redundant syncs were removed (--keep-syncs keeps them); a sync followed by a clock "
    "read in the same pass stays, and before every clock read the tool waits for the GPU work "
    "the original had finished there (--timers=keep)";
std::string droppedUntimedSyncNote() {
  return "note: redundant syncs were removed (--keep-syncs keeps them) and clock reads do not "
         "wait (--timers=ignore): timing code around them (e.g. `" +
         apiOfKind(ApiKind::DeviceSync).Name.str() +
         "(); t1 = now();`) no longer waits for the GPU";
}
constexpr const char *TimersIgnoredNote =
    "note: --timers=ignore: clock reads do not wait for GPU work, so printed times may change "
    "meaning";

/// The note on redundant syncs and clock reads, once for all files (null
/// when there is nothing to say).
std::optional<std::string> syncNote(const std::vector<FileReport> &Files) {
  bool Dropped = false, TimersIgnored = false;
  for (const FileReport &F : Files) {
    TimersIgnored |= F.TimersIgnored;
    for (const SyncReport &S : F.Syncs)
      Dropped |= S.Dropped;
  }
  if (Dropped)
    return TimersIgnored ? droppedUntimedSyncNote() : DroppedSyncNote;
  if (TimersIgnored)
    return TimersIgnoredNote;
  return std::nullopt;
}

std::string syncStatus(const SyncReport &S) {
  if (S.Dropped)
    return "redundant, removed";
  if (S.Redundant)
    return "redundant, kept";
  return "needed";
}
} // namespace

void printTextReport(llvm::raw_ostream &OS, const std::vector<FileReport> &Files) {
  bool AnyAsync = false;
  std::set<std::string> NotedIncluded; // each included file's note once per run
  for (const FileReport &F : Files) {
    // An entry's file: the main file, or the included file it names.
    auto In = [&](const std::string &File) -> const std::string & {
      return File.empty() ? F.File : File;
    };
    // The work a call returns with is not an op of its own in the count.
    unsigned Async = 0, Total = 0;
    for (const OpReport &Op : F.Ops)
      if (Op.Kind != CallWorkKind) {
        Async += Op.Async;
        ++Total;
      }
    AnyAsync |= Async != 0;
    OS << F.File << ": " << Async << " of " << Total << " GPU ops made asynchronous on "
       << F.Streams << " stream(s), " << F.Waits.size() << " wait(s) inserted\n";
    for (const std::string &B : F.FileBlockers)
      OS << "  file left unchanged: " << B << "\n";
    for (const OpReport &Op : F.Ops) {
      OS << "  " << In(Op.File) << ":" << Op.Line << ":" << Op.Column << ": ";
      if (Op.Kind == CallWorkKind)
        OS << "work `" << Op.Callee << "` returns with";
      else
        OS << Op.Callee;
      if (Op.Async) {
        assert(Op.Stream && "an asynchronous op has a stream");
        OS << ": async on stream " << *Op.Stream;
        if (Op.WaitLine)
          OS << ", waited for before line " << *Op.WaitLine;
        if (Op.PendingOnReturn)
          OS << ", still pending when `" << Op.Function << "` returns (its callers wait)";
      } else {
        OS << ": left synchronous: " << Op.Reason;
      }
      OS << "\n";
    }
    for (const WaitReport &W : F.Waits) {
      OS << "  " << In(W.File) << ":" << W.Line << ": wait (" << W.Cause << ") for line";
      OS << (W.OpLines.size() > 1 ? "s" : "");
      for (unsigned I = 0; I < W.OpLines.size(); ++I)
        OS << (I ? ", " : " ") << W.OpLines[I];
      OS << ": " << W.Reason;
      if (!W.Cost.empty())
        OS << "; " << W.Cost;
      OS << "\n";
    }
    for (const PinReport &B : F.Buffers)
      OS << "  " << In(B.File) << ":" << B.Line << ": host buffer `" << B.Buffer
         << "`: " << B.Action << ": " << B.Reason << "\n";
    for (const SyncReport &S : F.Syncs)
      OS << "  " << In(S.File) << ":" << S.Line << ": " << S.Callee << "(): " << syncStatus(S)
         << ": " << S.Reason << "\n";
    for (const ReturnReport &R : F.Returns) {
      OS << "  " << In(R.File) << ":" << R.Line << ": `" << R.Function << "` ";
      if (R.Pending)
        OS << "returns with its work pending on stream " << R.Stream.value_or(0) << ": " << R.Reason
           << "\n";
      else
        OS << "waits for its GPU work before it returns: " << R.Reason << "\n";
    }
    for (const LoopReport &L : F.Loops) {
      OS << "  " << In(L.File) << ":" << L.Line << ": loop in `" << L.Function << "`: ";
      if (L.Graph)
        OS << "each iteration runs as one CUDA graph on stream " << L.Stream << " (" << L.Ops
           << " GPU ops; the first " << L.DirectIterations
           << " iterations of the program run directly, to pay for the graph's set-up)\n";
      else
        OS << "not a CUDA graph: " << L.Reason << "\n";
    }
    for (const TemplateReport &T : F.Templates) {
      OS << "  " << In(T.File) << ":" << T.Line << ": template `" << T.Template << "`";
      if (T.Rewritten)
        OS << ": analysed per instantiation (" << llvm::join(T.Instances, ", ")
           << "), which agree on every edit"
           << (T.BranchesDiffer ? " of the code they share (their `if constexpr` branches are "
                                  "rewritten for each)"
                                : "")
           << "\n";
      else
        OS << ": left unchanged: " << T.Reason << "\n";
    }
    for (const IncludedFileReport &I : F.IncludedFiles)
      if (!I.Reason.empty() && NotedIncluded.insert(I.File).second)
        OS << "  ops in " << I.File << " left as written: " << I.Reason << "\n";
    for (const ImportedSummaryReport &I : F.ImportedSummaries)
      if (I.Conflict.empty())
        OS << "  calls to `" << I.Function << "` use its summary from " << I.Source << ":" << I.Line
           << "\n";
      else
        OS << "  calls to `" << I.Function << "` stay unknown: " << I.Conflict << "\n";
  }
  if (AnyAsync)
    OS << AsyncErrorNote << "\n";
  if (std::optional<std::string> Note = syncNote(Files))
    OS << *Note << "\n";
}

void printJsonReport(llvm::raw_ostream &OS, const std::vector<FileReport> &Files) {
  llvm::json::Array JFiles;
  for (const FileReport &F : Files) {
    llvm::json::Array Ops, Waits, Blockers, Buffers, Syncs, Clocks, Functions;
    auto lines = [](const std::vector<unsigned> &Ls) {
      llvm::json::Array A;
      for (unsigned L : Ls)
        A.push_back(L);
      return A;
    };
    // The file of an entry that is in an included file of the project's.
    auto WithFile = [](llvm::json::Object J, const std::string &File) {
      if (!File.empty())
        J["file"] = File;
      return J;
    };
    for (const ClockReadReport &C : F.ClockReads)
      Clocks.push_back(WithFile(llvm::json::Object{{"function", C.Function},
                                                   {"line", C.Line},
                                                   {"end_line", C.EndLine},
                                                   {"done_in_original", lines(C.DoneInOriginal)},
                                                   {"pending_at_read", lines(C.PendingAtRead)}},
                                C.File));
    for (const FunctionExtent &E : F.Functions)
      Functions.push_back(WithFile(
          llvm::json::Object{{"name", E.Name}, {"line", E.Line}, {"end_line", E.EndLine}}, E.File));
    for (const SyncReport &S : F.Syncs)
      Syncs.push_back(WithFile(llvm::json::Object{{"function", S.Function},
                                                  {"line", S.Line},
                                                  {"callee", S.Callee},
                                                  {"redundant", S.Redundant},
                                                  {"removable", S.Removable},
                                                  {"dropped", S.Dropped},
                                                  {"pending_ops", S.PendingOps},
                                                  {"reason", S.Reason}},
                               S.File));
    for (const PinReport &B : F.Buffers)
      Buffers.push_back(WithFile(llvm::json::Object{{"function", B.Function},
                                                    {"buffer", B.Buffer},
                                                    {"line", B.Line},
                                                    {"action", B.Action},
                                                    {"reason", B.Reason}},
                                 B.File));
    for (const OpReport &Op : F.Ops) {
      llvm::json::Object J{{"function", Op.Function}, {"line", Op.Line}, {"column", Op.Column},
                           {"callee", Op.Callee},     {"kind", Op.Kind}, {"async", Op.Async}};
      if (Op.Stream)
        J["stream"] = *Op.Stream;
      if (Op.WaitLine)
        J["wait_line"] = *Op.WaitLine;
      if (Op.PendingOnReturn)
        J["pending_on_return"] = true;
      if (!Op.Async)
        J["reason"] = Op.Reason;
      Ops.push_back(WithFile(std::move(J), Op.File));
    }
    for (const WaitReport &W : F.Waits)
      Waits.push_back(WithFile(llvm::json::Object{{"function", W.Function},
                                                  {"line", W.Line},
                                                  {"cause", W.Cause},
                                                  {"reason", W.Reason},
                                                  {"cost", W.Cost},
                                                  {"op_lines", lines(W.OpLines)}},
                               W.File));
    for (const std::string &B : F.FileBlockers)
      Blockers.push_back(B);
    llvm::json::Array Templates;
    for (const TemplateReport &T : F.Templates) {
      llvm::json::Array Instances;
      for (const std::string &I : T.Instances)
        Instances.push_back(I);
      llvm::json::Object J{{"template", T.Template},
                           {"line", T.Line},
                           {"instances", std::move(Instances)},
                           {"rewritten", T.Rewritten}};
      if (T.BranchesDiffer)
        J["branches_differ"] = true;
      if (!T.Rewritten)
        J["reason"] = T.Reason;
      Templates.push_back(WithFile(std::move(J), T.File));
    }
    llvm::json::Object JFile{{"file", F.File},
                             {"changed", F.Changed},
                             {"streams", F.Streams},
                             {"file_blockers", std::move(Blockers)},
                             {"ops", std::move(Ops)},
                             {"waits", std::move(Waits)},
                             {"host_buffers", std::move(Buffers)},
                             {"syncs", std::move(Syncs)},
                             {"clock_reads", std::move(Clocks)},
                             {"functions", std::move(Functions)}};
    // Absent from reports without templated GPU code, which stay as they were.
    if (!Templates.empty())
      JFile["templates"] = std::move(Templates);
    // Absent where no helper with GPU work returns, or could return, first.
    llvm::json::Array Returns;
    for (const ReturnReport &R : F.Returns) {
      llvm::json::Object J{
          {"function", R.Function}, {"line", R.Line}, {"pending", R.Pending}, {"reason", R.Reason}};
      if (R.Stream)
        J["stream"] = *R.Stream;
      Returns.push_back(WithFile(std::move(J), R.File));
    }
    if (!Returns.empty())
      JFile["returns"] = std::move(Returns);
    // Absent where no loop has two or more GPU ops in its body, or one alone.
    llvm::json::Array Loops;
    for (const LoopReport &L : F.Loops) {
      llvm::json::Object J{{"function", L.Function}, {"line", L.Line}, {"graph", L.Graph}};
      if (L.Graph) {
        J["ops"] = L.Ops;
        J["stream"] = L.Stream;
        J["direct_iterations"] = L.DirectIterations;
      } else {
        J["reason"] = L.Reason;
      }
      Loops.push_back(WithFile(std::move(J), L.File));
    }
    if (!Loops.empty())
      JFile["loops"] = std::move(Loops);
    // Absent where the file includes none of the project's files with GPU ops.
    llvm::json::Array Included;
    for (const IncludedFileReport &I : F.IncludedFiles) {
      llvm::json::Object J{{"file", I.File}, {"changed", I.Changed}};
      if (!I.Reason.empty())
        J["left_as_written"] = I.Reason;
      Included.push_back(std::move(J));
    }
    if (!Included.empty())
      JFile["included_files"] = std::move(Included);
    // Absent where no summary came from another translation unit.
    llvm::json::Array Imported;
    for (const ImportedSummaryReport &I : F.ImportedSummaries) {
      llvm::json::Object J{{"function", I.Function}, {"file", I.Source}, {"line", I.Line}};
      if (!I.Conflict.empty())
        J["not_used"] = I.Conflict;
      Imported.push_back(std::move(J));
    }
    if (!Imported.empty())
      JFile["imported_summaries"] = std::move(Imported);
    JFiles.push_back(std::move(JFile));
  }
  llvm::json::Object Top{{"files", std::move(JFiles)}, {"note", AsyncErrorNote}};
  if (std::optional<std::string> Note = syncNote(Files))
    Top["sync_note"] = *Note;
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Top))) << "\n";
}

} // namespace streamalloc
