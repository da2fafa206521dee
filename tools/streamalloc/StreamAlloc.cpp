//===- StreamAlloc.cpp - The streamalloc command-line tool -----------------===//
//
// streamalloc [options] <file.cu>... [-- <compiler flags>]
//
// Reads CUDA programs written with synchronous copies and default-stream
// kernels and writes versions whose GPU work runs asynchronously on streams,
// with a wait wherever the host needs the results.
//
//===----------------------------------------------------------------------===//
#include "streamalloc/Driver/CompileCommands.h"
#include "streamalloc/Driver/CrossTu.h"
#include "streamalloc/Driver/ParseDiagnostics.h"
#include "streamalloc/Driver/Pipeline.h"
#include "streamalloc/Driver/UnifiedDiff.h"
#include "streamalloc/Model/ApiModel.h"
#include "streamalloc/Report/Report.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>
#include <set>

using namespace llvm;
using namespace streamalloc;

namespace {

cl::OptionCategory Category("streamalloc options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file.cu>..."), cl::OneOrMore,
                             cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory containing compile_commands.json"),
                               cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("Write the transformed file here (one input only)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> InPlace("i",
                      cl::desc("Rewrite the input files, and the project's own files they "
                               "include, in place"),
                      cl::cat(Category));
cl::alias InPlaceLong("in-place", cl::desc("Alias for -i"), cl::aliasopt(InPlace));
cl::opt<std::string>
    OutDir("out-dir",
           cl::desc("Write the transformed inputs and the project's own files they include "
                    "under this folder, with the layout of the source tree"),
           cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> Diff("diff", cl::desc("Print a unified diff instead of the transformed file"),
                   cl::cat(Category));
cl::opt<bool> Report("report",
                     cl::desc("Print what was made asynchronous, where each wait went and why, "
                              "and what was left alone and why (to stderr)"),
                     cl::cat(Category));
cl::opt<std::string> ReportFile("report-file", cl::desc("Write the report to this file"),
                                cl::value_desc("file"), cl::cat(Category));
enum class ReportFormat { Text, Json };
cl::opt<ReportFormat>
    ReportFormatOpt("report-format", cl::desc("Report format"), cl::init(ReportFormat::Text),
                    cl::values(clEnumValN(ReportFormat::Text, "text", "plain text (default)"),
                               clEnumValN(ReportFormat::Json, "json", "JSON, for tools")),
                    cl::cat(Category));
cl::list<DumpStage> Dumps(
    "dump", cl::desc("Print a stage's result instead of the transformed file"), cl::CommaSeparated,
    cl::values(clEnumValN(DumpStage::Summaries, "summaries",
                          "each function's read/write summary and each GPU op's read/write sets"),
               clEnumValN(DumpStage::Accesses, "accesses",
                          "read/write sets of every GPU op and statement"),
               clEnumValN(DumpStage::Pending, "pending",
                          "pending ops before each statement, decisions and waits (CRA)"),
               clEnumValN(DumpStage::Schedule, "schedule", "stream of each op, waits per stream"),
               clEnumValN(DumpStage::Edits, "edits", "the source edits")),
    cl::cat(Category));
cl::opt<unsigned> MaxStreams("max-streams",
                             cl::desc("Most streams one function's GPU work is spread over "
                                      "(default 4; 1 keeps the GPU work in program order)"),
                             cl::init(ScheduleOptions().MaxStreams), cl::value_desc("n"),
                             cl::cat(Category));
cl::opt<PinMode>
    Pin("pin", cl::desc("Page-locked host memory for buffers that GPU copies use"),
        cl::init(PinMode::Auto),
        cl::values(clEnumValN(PinMode::Auto, "auto", "where the cost model says it pays (default)"),
                   clEnumValN(PinMode::Alloc, "alloc", "allocate them page-locked where possible"),
                   clEnumValN(PinMode::Register, "register",
                              "register them with CUDA for their lifetime where possible"),
                   clEnumValN(PinMode::Off, "off", "leave host memory pageable")),
        cl::cat(Category));
// Help texts that name API functions take the names from the API table.
const std::string KeepSyncsHelp =
    "Keep the program's " + apiName(ApiId::cudaDeviceSynchronize).str() + "()/" +
    apiName(ApiId::cudaThreadSynchronize).str() +
    "() calls that protect no host access (by default they are removed, except before a clock "
    "read; the report lists each either way)";
const std::string AllocName = apiWith(ApiCap::StreamOrderableAlloc).Name.str();
const std::string FreeName = apiWith(ApiCap::StreamOrderableRelease).Name.str();
const std::string StreamOrderedAllocHelp =
    AllocName + "/" + FreeName + " of device buffers whose whole life is in view become " +
    apiWith(ApiCap::StreamOrderableAlloc).AsyncName.str() + "/" +
    apiWith(ApiCap::StreamOrderableRelease).AsyncName.str() + " on the planned streams";
const std::string KeepAllocsHelp = "keep every " + AllocName + " and " + FreeName + " synchronous";

cl::opt<bool> KeepSyncs("keep-syncs", cl::desc(KeepSyncsHelp), cl::cat(Category));
cl::opt<bool> WholeProgram(
    "whole-program",
    cl::desc("The input file is the whole program (no other translation unit is linked with "
             "it): helpers with external linkage that no included file declares may then return "
             "with their GPU work pending, like static ones"),
    cl::cat(Category));
cl::opt<bool> PrintTiming("print-timing",
                          cl::desc("Print, for each file, the CPU seconds of Clang's parse and "
                                   "of the tool's own stages to stderr"),
                          cl::cat(Category));
// The removal used to be opt-in; the old flag is accepted and changes nothing.
cl::opt<bool> DropRedundantSyncs("drop-redundant-syncs",
                                 cl::desc("Accepted for compatibility: removal is the default"),
                                 cl::Hidden, cl::cat(Category));
enum class TimerMode { Keep, Ignore };
cl::opt<TimerMode> Timers(
    "timers",
    cl::desc("What a clock read (gettimeofday, clock_gettime, std::chrono, a wrapper "
             "of them) means"),
    cl::init(TimerMode::Keep),
    cl::values(clEnumValN(TimerMode::Keep, "keep",
                          "wait before it for the GPU work the original had finished there, so "
                          "printed times measure the same work (default)"),
               clEnumValN(TimerMode::Ignore, "ignore",
                          "it touches nothing: timed regions may overlap, printed times may "
                          "change meaning")),
    cl::cat(Category));

enum class OnOff { On, Off };
cl::opt<OnOff> StreamOrderedAlloc("stream-ordered-alloc", cl::desc(StreamOrderedAllocHelp),
                                  cl::init(OnOff::On),
                                  cl::values(clEnumValN(OnOff::On, "on",
                                                        "where it is provably safe (default)"),
                                             clEnumValN(OnOff::Off, "off", KeepAllocsHelp)),
                                  cl::cat(Category));
cl::opt<OnOff> Profitability(
    "profitability",
    cl::desc("Make only the safe changes that can pay for what they add (streams, events, "
             "page-locked memory, a memory pool); the report says why each other one was not "
             "made"),
    cl::init(OnOff::On), cl::cat(Category),
    cl::values(clEnumValN(OnOff::On, "on", "weigh each change with the cost model (default)"),
               clEnumValN(OnOff::Off, "off", "make every change that is provably safe")));
cl::opt<OnOff> CudaGraphs(
    "cuda-graphs",
    cl::desc("Run each iteration of a loop whose body is only kernel launches, fills and "
             "device-to-device copies as one CUDA graph, where that saves launch time"),
    cl::init(OnOff::On), cl::cat(Category),
    cl::values(clEnumValN(OnOff::On, "on", "where the cost model says it pays (default)"),
               clEnumValN(OnOff::Off, "off", "launch every op as written")));
cl::opt<std::string> GraphFile("graph",
                               cl::desc("Write each function's GPU-op dependency graph with the "
                                        "chosen streams to this file (Graphviz DOT)"),
                               cl::value_desc("file"), cl::cat(Category));
enum class CrossTuMode { Folder, All, Off };
cl::opt<CrossTuMode> CrossTu(
    "cross-tu",
    cl::desc("Use the summaries of functions other translation units define: the other inputs, "
             "--summary-source files and, with -p, files of the compilation database"),
    cl::init(CrossTuMode::Folder),
    cl::values(clEnumValN(CrossTuMode::Folder, "folder",
                          "with -p, the database's files in an input's folder or below it "
                          "(default)"),
               clEnumValN(CrossTuMode::All, "all", "with -p, every file of the database"),
               clEnumValN(CrossTuMode::Off, "off",
                          "none: a call to a function without a body in the file is unknown")),
    cl::cat(Category));
cl::list<std::string> SummarySources("summary-source",
                                     cl::desc("Other translation units of the program whose "
                                              "functions' summaries the inputs may use (not "
                                              "transformed)"),
                                     cl::value_desc("file"), cl::CommaSeparated, cl::cat(Category));
cl::opt<std::string> SummaryCache("summary-cache",
                                  cl::desc("Folder of the summary cache (default with -p: "
                                           "<build-dir>/streamalloc-summaries; otherwise none)"),
                                  cl::value_desc("dir"), cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Translation units summarised at once (default 1)"),
                       cl::init(1), cl::value_desc("n"), cl::cat(Category));
cl::opt<bool> Verbose("verbose",
                      cl::desc("Print a progress line per translation unit of a run over "
                               "several (to stderr)"),
                      cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA installation (default: $CUDA_PATH, /usr/local/cuda)"),
                              cl::value_desc("dir"), cl::cat(Category));

int fail(const Twine &Message) {
  errs() << "streamalloc: error: " << Message << "\n";
  return 1;
}

/// Writes \p Text to \p Path through a temporary file in the same folder, so
/// a failure never leaves a half-written file behind. A path that names
/// something other than a regular file (/dev/null, /dev/stdout, a pipe) is
/// written directly: renaming over it would replace the device. A symbolic
/// link is followed (/dev/stdout of a shell that redirects it to a file is a
/// link to that file): the rename replaces its target, never the link.
Error writeAtomically(StringRef Requested, StringRef Text) {
  SmallString<256> Resolved;
  StringRef Path = Requested;
  if (sys::fs::is_symlink_file(Requested) && !sys::fs::real_path(Requested, Resolved))
    Path = Resolved;
  sys::fs::file_status Status;
  if (!sys::fs::status(Path, Status) && sys::fs::exists(Status) &&
      Status.type() != sys::fs::file_type::regular_file) {
    if (Status.type() == sys::fs::file_type::directory_file)
      return createStringError(std::make_error_code(std::errc::is_a_directory),
                               "cannot write '" + Requested + "': it is a directory");
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    if (!EC) {
      OS << Text;
      OS.close();
      EC = OS.error();
    }
    if (EC)
      return createStringError(EC, "cannot write '" + Requested + "': " + EC.message());
    return Error::success();
  }
  SmallString<256> Dir(Path);
  sys::path::remove_filename(Dir);
  if (Dir.empty())
    Dir = ".";
  SmallString<256> Model(Dir);
  sys::path::append(Model, "." + sys::path::filename(Path).str() + ".streamalloc-%%%%%%");
  int FD;
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Temp))
    return createStringError(EC, "cannot write '" + Requested + "': " + EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      sys::fs::remove(Temp);
      return createStringError(OS.error(),
                               "cannot write '" + Requested + "': " + OS.error().message());
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return createStringError(EC, "cannot write '" + Requested + "': " + EC.message());
  }
  return Error::success();
}

/// The deepest folder that holds every input and every file of the
/// project's they include (--out-dir mirrors the tree below it), ending in a
/// separator.
std::string commonFolder(const std::vector<FileResult> &Results) {
  std::optional<std::string> Common;
  auto Add = [&](StringRef Real) {
    std::string Dir = sys::path::parent_path(Real).str();
    if (!Common) {
      Common = Dir;
      return;
    }
    while (!Common->empty() &&
           !(StringRef(Dir) == *Common ||
             StringRef(Dir).starts_with(*Common + sys::path::get_separator().str())))
      *Common = sys::path::parent_path(*Common).str();
  };
  for (const FileResult &R : Results) {
    if (!R.Parsed || R.RealPath.empty())
      continue;
    Add(R.RealPath);
    for (const IncludedFile &Inc : R.Included)
      Add(Inc.RealPath);
  }
  std::string Root = Common.value_or("");
  if (Root.empty() || !sys::path::is_separator(Root.back()))
    Root += sys::path::get_separator().str();
  return Root;
}

std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(std::unique_ptr<clang::tooling::FixedCompilationDatabase> FromDashDash,
             std::string &Error) {
  using namespace clang::tooling;
  if (!BuildPath.empty()) {
    std::unique_ptr<CompilationDatabase> Db =
        CompilationDatabase::loadFromDirectory(BuildPath, Error);
    if (!Db)
      Error = "cannot load a compilation database from '" + BuildPath + "': " + Error;
    return Db;
  }
  if (FromDashDash)
    return FromDashDash;
  // Like clang-tidy: a compile_commands.json above the first input gives the
  // flags. A file it has no command for (not even one inferred from a
  // neighbour) is parsed with no extra flags, and the user is told.
  std::string Ignored;
  if (std::unique_ptr<CompilationDatabase> Db =
          CompilationDatabase::autoDetectFromSource(Inputs.front(), Ignored))
    return withFallbackToNoFlags(std::move(Db), [](StringRef File) {
      errs() << "streamalloc: note: the compile_commands.json found above '" << File
             << "' has no command for it; parsing it with no extra flags (give them after "
                "--, or a build directory with -p)\n";
    });
  return std::make_unique<FixedCompilationDatabase>(".", std::vector<std::string>());
}

/// `-- nvcc <nvcc flags>` (what streamalloc-nvcc passes): the flags are
/// translated as for an nvcc command of compile_commands.json. Other flags
/// after `--` are Clang's and stay as they are.
std::vector<const char *> translateNvccFlagsAfterDashDash(int Argc, const char **Argv,
                                                          std::vector<std::string> &Storage) {
  std::vector<const char *> Out(Argv, Argv + Argc);
  auto DashDash = std::find(Out.begin(), Out.end(), StringRef("--"));
  if (DashDash == Out.end() || DashDash + 1 == Out.end() ||
      sys::path::filename(*(DashDash + 1)) != "nvcc")
    return Out;
  std::vector<std::string> Nvcc(DashDash + 1, Out.end());
  Storage = translateNvccCommand(Nvcc);
  Out.erase(DashDash + 1, Out.end());
  // Storage[0] names the compiler (clang++); the database adds its own.
  for (auto It = Storage.begin() + 1; It != Storage.end(); ++It)
    Out.push_back(It->c_str());
  return Out;
}

} // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  std::vector<std::string> TranslatedStorage;
  std::vector<const char *> Args = translateNvccFlagsAfterDashDash(argc, argv, TranslatedStorage);
  argc = static_cast<int>(Args.size());
  argv = Args.data();
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "streamalloc " << STREAMALLOC_VERSION << " (LLVM/Clang " << LLVM_VERSION_STRING << ")\n";
  });
  std::string DbError;
  std::unique_ptr<clang::tooling::FixedCompilationDatabase> FromDashDash =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(argc, argv, DbError);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "streamalloc: makes the GPU work of synchronous CUDA programs asynchronous.\n\n"
          "  streamalloc [options] <file.cu>... [-- <compiler flags>]\n\n"
          "The transformed file goes to stdout unless -o, -i or --diff is given.\n",
          &errs()))
    return 1;

  bool ToStdout = OutputFile.empty() && !InPlace && OutDir.empty() && !Diff && Dumps.empty();
  if (!OutputFile.empty() && InPlace)
    return fail("-o and -i cannot be used together");
  if (!OutDir.empty() && (InPlace || !OutputFile.empty()))
    return fail("--out-dir cannot be used with -i or -o");
  if (!OutputFile.empty() && Inputs.size() > 1)
    return fail("-o takes one input file; use -i for several");
  if (ToStdout && Inputs.size() > 1)
    return fail("several input files: use -i, -o, --diff or --dump");
  for (const std::string &File : Inputs)
    if (!sys::fs::exists(File))
      return fail("no such file: '" + File + "'");
    else if (sys::fs::is_directory(File))
      return fail("'" + File + "' is a directory, not a source file");

  Expected<std::string> Cuda = findCudaInstallation(CudaPath);
  if (!Cuda)
    return fail(toString(Cuda.takeError()));
  Expected<std::string> ResourceDir = findClangResourceDir();
  if (!ResourceDir)
    return fail(toString(ResourceDir.takeError()));
  std::unique_ptr<clang::tooling::CompilationDatabase> Db =
      loadDatabase(std::move(FromDashDash), DbError);
  if (!Db)
    return fail(DbError);

  if (MaxStreams < 1)
    return fail("--max-streams must be at least 1");
  PipelineOptions Options;
  Options.Schedule.MaxStreams = MaxStreams;
  Options.WantGraph = !GraphFile.empty();
  Options.Pin = Pin;
  if (KeepSyncs && DropRedundantSyncs)
    return fail("--keep-syncs and --drop-redundant-syncs contradict each other");
  Options.DropRedundantSyncs = !KeepSyncs;
  Options.TimerWaits = Timers == TimerMode::Keep;
  Options.StreamOrderedAlloc = StreamOrderedAlloc == OnOff::On;
  Options.Profitability = Profitability == OnOff::On;
  Options.Graphs = CudaGraphs == OnOff::On;
  if (WholeProgram && (Inputs.size() != 1 || !BuildPath.empty() || !SummarySources.empty()))
    return fail("--whole-program takes one input file, without -p or --summary-source (the "
                "program must be that one translation unit)");
  Options.WholeProgram = WholeProgram;
  Options.CudaPath = *Cuda;
  Options.ResourceDir = *ResourceDir;
  Options.Dumps.assign(Dumps.begin(), Dumps.end());
  // Included files need somewhere to go (or are only shown).
  Options.RewriteIncluded = InPlace || !OutDir.empty() || Diff || !Dumps.empty();
  std::vector<std::string> Files(Inputs.begin(), Inputs.end());
  for (const std::string &File : SummarySources)
    if (!sys::fs::exists(File))
      return fail("no such file: '" + File + "' (--summary-source)");
  Options.CrossTu = CrossTu != CrossTuMode::Off;
  Options.SummarySources.assign(SummarySources.begin(), SummarySources.end());
  if (Options.CrossTu && !BuildPath.empty())
    llvm::append_range(Options.SummarySources,
                       summarySourcesOf(*Db, Files, CrossTu == CrossTuMode::All));
  Options.SummaryCache = SummaryCache;
  if (SummaryCache.empty() && !BuildPath.empty()) {
    SmallString<256> Dir(BuildPath);
    sys::path::append(Dir, "streamalloc-summaries");
    Options.SummaryCache = std::string(Dir);
  }
  Options.Jobs = std::max(1u, unsigned(Jobs));
  Options.Verbose = Verbose;
  std::vector<FileResult> Results = runPipeline(*Db, Files, Options);

  int Status = 0;
  std::vector<FileReport> Reports;
  // Each included file is written (or shown) once, however many inputs
  // include it: the pipeline made sure they all ask for the same text.
  std::set<std::string> IncludedDone;
  std::string Root = OutDir.empty() ? std::string() : commonFolder(Results);
  for (FileResult &R : Results) {
    if (!R.Parsed) {
      Status = fail("'" + R.Path +
                    (R.CommandLineError
                         ? "': Clang rejected a flag of its compile command; nothing was written "
                           "for it"
                         : "' could not be parsed; nothing was written for it"));
      if (!R.FirstError.empty())
        errs() << "streamalloc: note: the first error was " << R.FirstError
               << "\nstreamalloc: hint: " << parseFailureHint(R.FirstError) << "\n";
      continue;
    }
    if (!R.Error.empty()) {
      Status = fail("internal error while rewriting '" + R.Path + "': " + R.Error);
      continue;
    }
    Reports.push_back(R.Report);
    if (PrintTiming)
      errs() << formatv("streamalloc: {0}: parse {1:F2} s, analysis and rewrite {2:F2} s "
                        "(CPU)\n",
                        R.Path, R.ParseSeconds, R.AnalysisSeconds);
    if (!Dumps.empty()) {
      outs() << R.Dump;
      continue;
    }
    if (Diff) {
      auto Show = [](StringRef Path, StringRef Original, StringRef Output) {
        bool Absolute = sys::path::is_absolute(Path);
        outs() << unifiedDiff(Original, Output, (Absolute ? "" : "a/") + Path.str(),
                              (Absolute ? "" : "b/") + Path.str());
      };
      Show(R.Path, R.Original, R.Output);
      for (const IncludedFile &Inc : R.Included)
        if (Inc.Output != Inc.Original && IncludedDone.insert(Inc.RealPath).second)
          Show(Inc.Path, Inc.Original, Inc.Output);
      continue;
    }
    if (!OutDir.empty()) {
      // The main file and every file of the project's it includes, changed
      // or not, so that the includes of the copies find each other.
      auto Put = [&](StringRef Real, StringRef Text) {
        SmallString<256> Target(OutDir);
        sys::path::append(Target, Real.substr(Root.size()));
        if (std::error_code EC = sys::fs::create_directories(sys::path::parent_path(Target)))
          Status = fail("cannot create '" + sys::path::parent_path(Target) + "': " + EC.message());
        else if (Error E = writeAtomically(Target, Text))
          Status = fail(toString(std::move(E)));
      };
      Put(R.RealPath, R.Output);
      for (const IncludedFile &Inc : R.Included)
        if (IncludedDone.insert(Inc.RealPath).second)
          Put(Inc.RealPath, Inc.Output);
      continue;
    }
    if (ToStdout) {
      outs() << R.Output;
      continue;
    }
    std::string Target = InPlace ? R.Path : OutputFile.getValue();
    if (InPlace)
      for (const IncludedFile &Inc : R.Included)
        if (Inc.Output != Inc.Original && IncludedDone.insert(Inc.RealPath).second)
          if (Error E = writeAtomically(Inc.RealPath, Inc.Output))
            Status = fail(toString(std::move(E)));
    if (InPlace && !R.Report.Changed)
      continue;
    if (Error E = writeAtomically(Target, R.Output))
      Status = fail(toString(std::move(E)));
  }

  if (!GraphFile.empty()) {
    std::string Text;
    raw_string_ostream OS(Text);
    OS << "// streamalloc: GPU ops (nodes, coloured by stream) and their dependencies\n"
       << "// (edges: solid = in program order, dashed = carried by a loop, red = across\n"
       << "// streams, ordered by an event). Render with: dot -Tsvg FILE -o graph.svg\n"
       << "digraph streamalloc {\n  node [fontname=\"monospace\"];\n";
    for (const FileResult &R : Results)
      OS << R.Graph;
    OS << "}\n";
    if (Error E = writeAtomically(GraphFile, Text))
      Status = fail(toString(std::move(E)));
  }

  auto PrintReport = [&](raw_ostream &OS) {
    if (ReportFormatOpt == ReportFormat::Json)
      printJsonReport(OS, Reports);
    else
      printTextReport(OS, Reports);
  };
  if (Report)
    PrintReport(errs());
  if (!ReportFile.empty()) {
    std::string Text;
    raw_string_ostream OS(Text);
    PrintReport(OS);
    if (Error E = writeAtomically(ReportFile, Text))
      Status = fail(toString(std::move(E)));
  }
  return Status;
}
