//===- StreamAllocNvcc.cpp - streamalloc-nvcc, nvcc with streamalloc first --===//
//
//   streamalloc-nvcc <nvcc arguments>                 (drop-in for nvcc)
//   streamalloc-nvcc /path/to/nvcc <nvcc arguments>   (compiler launcher)
//
// For each CUDA source of a compile, runs streamalloc on it into a temporary
// file next to the source (so that its `#include "..."` resolve exactly as
// before), numbered like the source with `#line` markers, then runs the real
// nvcc with the temporary in the source's place.
// A file the tool refuses is compiled as written, with a warning. Every other
// nvcc invocation (--version, -E, -M, linking, ...) reaches nvcc untouched.
//
//===----------------------------------------------------------------------===//
#include "streamalloc/Nvcc/DepFile.h"
#include "streamalloc/Nvcc/LineMarkers.h"
#include "streamalloc/Nvcc/NvccCommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace streamalloc::nvcc;

namespace {

const char *const Usage =
    R"(streamalloc-nvcc: nvcc with streamalloc's rewrite of each CUDA source first.

  streamalloc-nvcc <nvcc arguments>                as nvcc itself (CMAKE_CUDA_COMPILER)
  streamalloc-nvcc /path/to/nvcc <nvcc arguments>  as a launcher (CMAKE_CUDA_COMPILER_LAUNCHER)
  streamalloc-nvcc --streamalloc-help              this text (--help belongs to nvcc)

Each .cu input of a compile (-c, -dc, or compile and link) is rewritten by
streamalloc into a temporary file next to it, which nvcc then compiles in its
place; depfiles and objects keep the source's name. A file that streamalloc
refuses is compiled as written, after a warning. Other invocations reach nvcc
untouched.

Environment:
  STREAMALLOC_NVCC=FILE        the real nvcc (drop-in; default $CUDA_PATH/bin/nvcc,
                               then /usr/local/cuda/bin/nvcc)
  STREAMALLOC=FILE             the streamalloc tool (default: next to this program)
  STREAMALLOC_NVCC_OPTIONS=..  extra streamalloc options, space-separated (--max-streams=2)
  STREAMALLOC_NVCC_REPORT=DIR  write streamalloc's JSON report to DIR/<file>.report.json
  STREAMALLOC_NVCC_STRICT=1    a file streamalloc refuses is an error, not a warning
  STREAMALLOC_NVCC_DISABLE=1   run nvcc alone
  STREAMALLOC_NVCC_VERBOSE=1   print each command and streamalloc's messages
)";

constexpr const char *Me = "streamalloc-nvcc";
// Set for the nvcc this program runs: seeing it again in drop-in mode means
// the "real" nvcc found leads back here.
constexpr const char *ActiveVariable = "STREAMALLOC_NVCC_ACTIVE";

std::optional<std::string> env(const char *Name) {
  std::optional<std::string> Value = sys::Process::GetEnv(Name);
  if (Value && Value->empty())
    return std::nullopt;
  return Value;
}

bool envFlag(const char *Name) {
  std::optional<std::string> Value = env(Name);
  return Value && !is_contained({"0", "off", "OFF", "false", "no"}, *Value);
}

bool verbose() { return envFlag("STREAMALLOC_NVCC_VERBOSE"); }

int fail(const Twine &Message) {
  errs() << Me << ": error: " << Message << "\n";
  return 1;
}

bool isSameFile(StringRef A, StringRef B) {
  bool Same = false;
  return !sys::fs::equivalent(A, B, Same) && Same;
}

bool isExecutableFile(StringRef Path) {
  return sys::fs::is_regular_file(Path) && sys::fs::can_execute(Path);
}

/// In launcher mode the first argument is the compiler: an executable that
/// is neither an option nor an input file (those have extensions).
bool looksLikeCompiler(StringRef Arg) {
  if (Arg.starts_with("-") || !isExecutableFile(Arg))
    return false;
  StringRef Name = sys::path::filename(Arg);
  return !sys::path::has_extension(Name) || Name == "nvcc.exe";
}

bool isNvccName(StringRef Path) { return sys::path::stem(Path).starts_with("nvcc"); }

/// $STREAMALLOC_NVCC, then $CUDA_PATH/bin/nvcc, then /usr/local/cuda/bin/nvcc;
/// never this program itself.
Expected<std::string> findRealNvcc(StringRef Self) {
  if (std::optional<std::string> Given = env("STREAMALLOC_NVCC")) {
    if (!isExecutableFile(*Given))
      return createStringError("$STREAMALLOC_NVCC ('" + *Given + "') is not an executable file");
    if (isSameFile(*Given, Self))
      return createStringError("$STREAMALLOC_NVCC ('" + *Given +
                               "') is streamalloc-nvcc itself; point it at the real nvcc");
    return *Given;
  }
  std::vector<std::string> Candidates;
  if (std::optional<std::string> Cuda = env("CUDA_PATH")) {
    SmallString<256> P(*Cuda);
    sys::path::append(P, "bin", "nvcc");
    Candidates.push_back(std::string(P));
  }
  Candidates.push_back("/usr/local/cuda/bin/nvcc");
  for (const std::string &C : Candidates)
    if (isExecutableFile(C) && !isSameFile(C, Self))
      return C;
  return createStringError("no nvcc found (looked at $CUDA_PATH/bin/nvcc and "
                           "/usr/local/cuda/bin/nvcc); set STREAMALLOC_NVCC to the real nvcc");
}

/// The CUDA installation that \p Nvcc belongs to (`<dir>/bin/nvcc`), so that
/// the tool parses against the headers nvcc compiles with; none for an nvcc
/// outside a toolkit folder (a script in /usr/bin), where the tool's own
/// default applies.
std::optional<std::string> cudaInstallationOf(StringRef Nvcc) {
  auto Root = [](StringRef Program) -> std::optional<std::string> {
    SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Program)));
    SmallString<256> Header(Dir);
    sys::path::append(Header, "include", "cuda_runtime.h");
    if (Dir.empty() || !sys::fs::exists(Header))
      return std::nullopt;
    return std::string(Dir);
  };
  // As named first (/usr/local/cuda rather than the versioned folder it
  // links to), then through symbolic links.
  if (std::optional<std::string> Dir = Root(Nvcc))
    return Dir;
  SmallString<256> Real;
  if (sys::fs::real_path(Nvcc, Real))
    return std::nullopt;
  return Root(Real);
}

std::string quoted(ArrayRef<std::string> Command) {
  std::string Out;
  for (const std::string &A : Command) {
    if (!Out.empty())
      Out += ' ';
    bool Plain = !A.empty() && A.find_first_of(" \t\"'\\$;&|<>()*?") == std::string::npos;
    Out += Plain ? A : "'" + A + "'";
  }
  return Out;
}

/// Runs \p Command (its first element is the program). Output goes to \p Log
/// when given. Returns the exit status, or -1 with \p Error set when the
/// program could not run or died.
int run(const std::vector<std::string> &Command, std::optional<StringRef> Log, std::string &Error) {
  if (verbose())
    errs() << Me << ": " << quoted(Command) << "\n";
  std::vector<StringRef> Args(Command.begin(), Command.end());
  std::optional<StringRef> Redirects[3] = {std::nullopt, Log, Log};
  bool NotStarted = false;
  int Status = sys::ExecuteAndWait(Command.front(), Args, std::nullopt, Redirects, 0, 0, &Error,
                                   &NotStarted);
  if (Status < 0 && Error.empty())
    Error = "'" + Command.front() + "' did not finish";
  return Status;
}

/// Runs the compiler (its program and any launcher before it, such as
/// ccache) with \p Args and returns its exit status.
int runCompiler(ArrayRef<std::string> Compiler, ArrayRef<std::string> Args) {
  std::vector<std::string> Command(Compiler.begin(), Compiler.end());
  Command.insert(Command.end(), Args.begin(), Args.end());
  std::string Error;
  int Status = run(Command, std::nullopt, Error);
  if (Status < 0)
    return fail(Error);
  return Status;
}

/// Files that must not outlive this run, whatever happens.
class TemporaryFiles {
public:
  ~TemporaryFiles() {
    for (const std::string &F : Files) {
      sys::fs::remove(F);
      sys::DontRemoveFileOnSignal(F);
    }
  }
  void add(StringRef F) {
    Files.push_back(F.str());
    sys::RemoveFileOnSignal(F);
  }

private:
  std::vector<std::string> Files;
};

/// One CUDA source and the temporary that nvcc compiles in its place.
struct StandIn {
  size_t ArgIndex;
  std::string Source;
  std::string Temporary;
  /// File names without their extension: the temporary's stem is replaced by
  /// the source's in depfiles and object names.
  std::string TemporaryStem, SourceStem;
};

/// The first line of \p Log that states an error, without the tool's prefix.
std::string firstError(StringRef Log) {
  SmallVector<StringRef> Lines;
  Log.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef L : Lines)
    if (L.contains("error: "))
      return L.trim().str();
  return Lines.empty() ? std::string() : Lines.front().trim().str();
}

std::string readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

std::vector<std::string> splitOptions(StringRef Text) {
  SmallVector<StringRef> Parts;
  SplitString(Text, Parts);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

class Wrapper {
public:
  Wrapper(std::string Self, std::vector<std::string> Compiler, NvccCommand Command)
      : Self(std::move(Self)), Compiler(std::move(Compiler)), Command(std::move(Command)) {}

  int compile() {
    for (size_t Index : Command.CudaInputs)
      if (std::optional<int> Failed = transform(Index))
        return *Failed;
    int Status = runCompiler(Compiler, Command.Args);
    if (Status == 0)
      restoreSourceNames();
    return Status;
  }

private:
  std::string Self;
  std::vector<std::string> Compiler;
  NvccCommand Command;
  std::vector<StandIn> StandIns;
  TemporaryFiles Temporaries;

  std::string toolPath() const {
    if (std::optional<std::string> Given = env("STREAMALLOC"))
      return *Given;
    SmallString<256> P(sys::path::parent_path(Self));
    sys::path::append(P, "streamalloc");
    return std::string(P);
  }

  /// Rewrites the source at \p Index into a temporary and puts that in its
  /// place; a refusal compiles the source as written (or fails, when strict).
  std::optional<int> transform(size_t Index) {
    std::string Source = Command.Args[Index];
    std::string Reason;
    std::optional<StandIn> S = rewrite(Source, Reason);
    if (S) {
      Command.Args[Index] = S->Temporary;
      StandIns.push_back(*S);
      return std::nullopt;
    }
    if (Reason.empty()) // streamalloc changed nothing: compile the source itself
      return std::nullopt;
    std::string What = Source + ": not transformed (" + Reason + ")";
    if (envFlag("STREAMALLOC_NVCC_STRICT"))
      return fail(What + "; STREAMALLOC_NVCC_STRICT is set");
    errs() << Me << ": warning: " << What << "; compiling it as written\n";
    return std::nullopt;
  }

  /// The stand-in for \p Source, or none with \p Reason empty when the tool
  /// left it as it is, or none with the reason it failed.
  std::optional<StandIn> rewrite(const std::string &Source, std::string &Reason) {
    std::string Tool = toolPath();
    if (!isExecutableFile(Tool)) {
      Reason = "no streamalloc at '" + Tool + "'; set STREAMALLOC to the tool";
      return std::nullopt;
    }
    StandIn S;
    S.Source = Source;
    S.SourceStem = sys::path::stem(Source).str();
    S.TemporaryStem = "." + S.SourceStem + ".streamalloc-%%%%%%";
    SmallString<256> Model(sys::path::parent_path(Source));
    sys::path::append(Model, S.TemporaryStem + sys::path::extension(Source).str());
    SmallString<256> Temporary;
    if (std::error_code EC = sys::fs::createUniqueFile(Model, Temporary)) {
      Reason = "cannot create a temporary file next to it: " + EC.message();
      return std::nullopt;
    }
    Temporaries.add(Temporary);
    S.Temporary = std::string(Temporary);
    S.TemporaryStem = sys::path::stem(Temporary).str();

    SmallString<256> Log;
    if (std::error_code EC = sys::fs::createTemporaryFile(Me, "txt", Log)) {
      Reason = "cannot create a temporary file: " + EC.message();
      return std::nullopt;
    }
    Temporaries.add(Log);

    std::vector<std::string> ToolCommand{Tool, Source, "-o", S.Temporary};
    if (std::optional<std::string> Cuda = cudaInstallationOf(Compiler.back()))
      ToolCommand.push_back("--cuda-path=" + *Cuda);
    if (std::optional<std::string> Dir = env("STREAMALLOC_NVCC_REPORT")) {
      sys::fs::create_directories(*Dir);
      SmallString<256> Report(*Dir);
      sys::path::append(Report, sys::path::filename(Source) + ".report.json");
      ToolCommand.push_back("--report-file=" + std::string(Report));
      ToolCommand.push_back("--report-format=json");
    }
    if (std::optional<std::string> Extra = env("STREAMALLOC_NVCC_OPTIONS"))
      for (std::string &O : splitOptions(*Extra))
        ToolCommand.push_back(std::move(O));
    ToolCommand.push_back("--");
    ToolCommand.push_back("nvcc"); // the flags are nvcc's: the tool translates them
    for (std::string &F : parseFlags(Command))
      ToolCommand.push_back(std::move(F));

    std::string Error;
    int Status = run(ToolCommand, StringRef(Log), Error);
    std::string Messages = readFile(Log);
    if (verbose())
      errs() << Messages;
    if (Status != 0) {
      Reason = Status < 0 ? Error : firstError(Messages);
      if (Reason.empty())
        Reason = "streamalloc exited with status " + std::to_string(Status);
      return std::nullopt;
    }
    std::string Original = readFile(Source), Transformed = readFile(S.Temporary);
    if (Transformed == Original)
      return std::nullopt;
    std::error_code EC;
    raw_fd_ostream OS(S.Temporary, EC);
    if (!EC)
      OS << withLineMarkers(Original, Transformed, Source);
    OS.close();
    if (EC || OS.has_error()) {
      Reason = "cannot write '" + S.Temporary + "'";
      return std::nullopt;
    }
    return S;
  }

  /// nvcc named what it derived from its input (the object without -o, the
  /// depfile's rule) after the temporary; give them the source's name.
  void restoreSourceNames() {
    if (StandIns.empty())
      return;
    SmallString<256> OutDir(Command.OutputDirectory.value_or(""));
    std::vector<std::string> DepFiles;
    if (Command.DepFile)
      DepFiles.push_back(*Command.DepFile);
    else if (Command.WritesDepFile && Command.Output)
      DepFiles.push_back(withExtension(*Command.Output, ".d"));
    for (const StandIn &S : StandIns) {
      if (Command.CompileOnly && !Command.Output)
        renameIfPresent(OutDir, S, ".o");
      if (Command.WritesDepFile && !Command.DepFile && !Command.Output)
        if (std::optional<std::string> D = renameIfPresent(OutDir, S, ".d"))
          DepFiles.push_back(*D);
    }
    for (const std::string &D : DepFiles) {
      std::string Text = readFile(D), Renamed = Text;
      for (const StandIn &S : StandIns)
        Renamed = renameInDepFile(Renamed, S.TemporaryStem, S.SourceStem);
      if (Renamed == Text)
        continue;
      std::error_code EC;
      raw_fd_ostream OS(D, EC);
      if (!EC)
        OS << Renamed;
      OS.close();
      if (EC || OS.has_error())
        errs() << Me << ": warning: cannot rewrite the depfile '" << D << "'\n";
    }
  }

  static std::string withExtension(StringRef Path, StringRef Extension) {
    SmallString<256> P(Path);
    sys::path::replace_extension(P, Extension);
    return std::string(P);
  }

  std::optional<std::string> renameIfPresent(StringRef Dir, const StandIn &S, StringRef Extension) {
    SmallString<256> From(Dir), To(Dir);
    sys::path::append(From, S.TemporaryStem + Extension);
    sys::path::append(To, S.SourceStem + Extension);
    if (!sys::fs::exists(From) || sys::fs::rename(From, To))
      return std::nullopt;
    return std::string(To);
  }
};

} // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  std::vector<std::string> Args(argv + 1, argv + argc);
  if (Args.empty() || (Args.size() == 1 && Args[0] == "--streamalloc-help")) {
    (Args.empty() ? errs() : outs()) << Usage;
    return Args.empty() ? 1 : 0;
  }
  std::string Self = sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&main));
  bool Nested = envFlag(ActiveVariable);

  std::vector<std::string> Compiler;
  if (looksLikeCompiler(Args.front())) {
    // A launcher before nvcc (`ccache nvcc ...`) stays in front of it.
    bool LauncherFirst = !isNvccName(Args.front()) && Args.size() > 1 &&
                         looksLikeCompiler(Args[1]) && isNvccName(Args[1]);
    size_t Words = LauncherFirst ? 2 : 1;
    Compiler.assign(Args.begin(), Args.begin() + Words);
    Args.erase(Args.begin(), Args.begin() + Words);
    // Another streamalloc-nvcc, a compiler that is not nvcc, or a launcher
    // inside one of this program's own runs: the compiler does its own work.
    if (Nested || isSameFile(Compiler.back(), Self) || !isNvccName(Compiler.back()))
      return runCompiler(Compiler, Args);
  } else {
    if (Nested)
      return fail("the nvcc it runs leads back to streamalloc-nvcc; set STREAMALLOC_NVCC to "
                  "the real nvcc");
    Expected<std::string> Nvcc = findRealNvcc(Self);
    if (!Nvcc)
      return fail(toString(Nvcc.takeError()));
    Compiler.push_back(*Nvcc);
  }

  // From here on the compiler is the real nvcc: if it runs this program
  // again, that is a loop.
  ::setenv(ActiveVariable, "1", 1);
  NvccCommand Command = parseNvccCommand(Args);
  if (envFlag("STREAMALLOC_NVCC_DISABLE") || !Command.Compiles || Command.CudaInputs.empty())
    return runCompiler(Compiler, Args);
  return Wrapper(Self, Compiler, std::move(Command)).compile();
}
