//===- CrossTu.cpp - Summaries of the other translation units of a program -===//
#include "streamalloc/Driver/CrossTu.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Driver/CompileCommands.h"
#include "streamalloc/Driver/NvccPrelude.h"
#include "streamalloc/Driver/Pipeline.h"
#include "streamalloc/Transform/HostPinning.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>
#include <set>

using namespace clang;

namespace streamalloc {

namespace {

constexpr llvm::StringLiteral CacheFormat = "streamalloc-summaries-2";

std::string sha256(llvm::StringRef Data) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Data)), /*LowerCase=*/true);
}

std::string realPathOf(llvm::StringRef File) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(File, Real))
    return File.str();
  return std::string(Real);
}

bool isUnder(llvm::StringRef Path, llvm::StringRef Folder) {
  return Path.size() > Folder.size() && Path.starts_with(Folder) &&
         llvm::sys::path::is_separator(Path[Folder.size()]);
}

/// \p Path relative to the folder the tool runs in when it is below it.
std::string displayName(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::path::is_absolute(Path) && !llvm::sys::fs::current_path(Cwd) && isUnder(Path, Cwd))
    return Path.drop_front(Cwd.size() + 1).str();
  return Path.str();
}

/// The tool itself: a rebuilt tool may summarise differently.
std::string toolIdentity() {
  std::string Id = std::string(CacheFormat) + " " + STREAMALLOC_VERSION;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, (void *)&toolIdentity);
  llvm::sys::fs::file_status Status;
  if (!Exe.empty() && !llvm::sys::fs::status(Exe, Status))
    Id += " " + std::to_string(Status.getSize()) + " " +
          std::to_string(Status.getLastModificationTime().time_since_epoch().count());
  return Id;
}

/// Collects the exports of one parsed unit and the files it read.
class SummariseConsumer : public ASTConsumer {
public:
  SummariseConsumer(CachedSummaries &Out, bool &Parsed) : Out(Out), Parsed(Parsed) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Parsed = true;
    struct Finder : RecursiveASTVisitor<Finder> {
      std::vector<const FunctionDecl *> Found;
      bool VisitFunctionDecl(FunctionDecl *F) {
        if (isExportable(*F))
          Found.push_back(F);
        return true;
      }
    } Finder;
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
    const SourceManager &SM = Ctx.getSourceManager();
    FileManager &FM = SM.getFileManager();
    FunctionSummaries Summaries;
    for (const FunctionDecl *F : Finder.Found) {
      const FunctionSummary &S = Summaries.get(F);
      PortableSummary P = exportSummary(*F, S);
      if (OptionalFileEntryRef Entry =
              SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(F->getLocation()))))
        P.Source = FM.getCanonicalName(*Entry).str();
      if (!S.ResetsDevice)
        P.PlainParams = plainHostParameters(*F);
      if (F->getReturnType()->isPointerType())
        P.ReturnedBytes = returnedAllocationBytes(*F, P.ReturnedBytesWhy);
      Out.Exports.push_back(std::move(P));
    }
    std::set<std::string> Files;
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (It->first.getName() != nvccPreludePath())
        Files.insert(FM.getCanonicalName(It->first).str());
    for (const std::string &F : Files)
      Out.Files.push_back({F, contentHash(F)});
  }

private:
  CachedSummaries &Out;
  bool &Parsed;
};

struct SummariseAction : ASTFrontendAction {
  CachedSummaries &Out;
  bool &Parsed;
  SummariseAction(CachedSummaries &Out, bool &Parsed) : Out(Out), Parsed(Parsed) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<SummariseConsumer>(Out, Parsed);
  }
};

bool parseUnit(const tooling::CompilationDatabase &Db, const std::string &File,
               const PipelineOptions &Options, CachedSummaries &Out) {
  // A file system with its own working folder: the tool moves into each
  // command's folder, and units may be parsed on several threads at once.
  tooling::ClangTool Tool(Db, {File}, std::make_shared<PCHContainerOperations>(),
                          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
                              llvm::vfs::createPhysicalFileSystem().release()));
  Tool.appendArgumentsAdjuster(cudaHostParseAdjuster(Options.CudaPath, Options.ResourceDir));
  Tool.mapVirtualFile(nvccPreludePath(), nvccPreludeText());
  // Counts, prints nothing: an input's own run reports its errors.
  struct Quiet : DiagnosticConsumer {
  } Diagnostics;
  Tool.setDiagnosticConsumer(&Diagnostics);
  Tool.setPrintErrorMessage(false);
  bool Parsed = false;
  struct Factory : tooling::FrontendActionFactory {
    CachedSummaries &Out;
    bool &Parsed;
    bool Ran = false;
    Factory(CachedSummaries &Out, bool &Parsed) : Out(Out), Parsed(Parsed) {}
    std::unique_ptr<FrontendAction> create() override {
      if (Ran) // a file listed twice in the database is summarised once
        return std::make_unique<SyntaxOnlyAction>();
      Ran = true;
      return std::make_unique<SummariseAction>(Out, Parsed);
    }
  } F(Out, Parsed);
  Tool.run(&F);
  // An error also for a flag Clang's driver rejects: not the unit the build compiles.
  return Parsed && Diagnostics.getNumErrors() == 0;
}

/// The name of a unit's cache file: its file and its command, so that the
/// entry of a unit is replaced, not added to, when the tool is rebuilt.
std::string unitName(const tooling::CompilationDatabase &Db, const std::string &File,
                     const PipelineOptions &Options) {
  std::string Text = realPathOf(File) + "\n" + Options.CudaPath + "\n" + Options.ResourceDir + "\n";
  for (const tooling::CompileCommand &C : Db.getCompileCommands(File))
    Text += C.Directory + "\n" + llvm::join(C.CommandLine, "\x1f") + "\n";
  return sha256(Text);
}

bool writeAtomically(const std::string &Path, llvm::StringRef Text) {
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  int FD;
  llvm::SmallString<256> Temp;
  if (llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace

std::string contentHash(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? sha256((*Buf)->getBuffer()) : "";
}

std::string cacheText(const CachedSummaries &C) {
  llvm::json::Array Files, Exports;
  for (const auto &[Path, Hash] : C.Files)
    Files.push_back(llvm::json::Object{{"path", Path}, {"hash", Hash}});
  for (const PortableSummary &P : C.Exports)
    Exports.push_back(toJSON(P));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::json::Value(llvm::json::Object{{"format", CacheFormat},
                                             {"key", C.Key},
                                             {"files", std::move(Files)},
                                             {"functions", std::move(Exports)}})
     << "\n";
  return Text;
}

bool readCache(llvm::StringRef Text, CachedSummaries &C, std::string &Why) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    Why = "not JSON (" + llvm::toString(V.takeError()) + ")";
    return false;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getString("format") != std::optional<llvm::StringRef>(CacheFormat)) {
    Why = "not a summary cache of this tool";
    return false;
  }
  const llvm::json::Array *Files = O->getArray("files");
  const llvm::json::Array *Functions = O->getArray("functions");
  std::optional<llvm::StringRef> Key = O->getString("key");
  if (!Files || !Functions || !Key) {
    Why = "incomplete";
    return false;
  }
  C.Key = Key->str();
  for (const llvm::json::Value &F : *Files) {
    const llvm::json::Object *FO = F.getAsObject();
    if (!FO || !FO->getString("path") || !FO->getString("hash")) {
      Why = "a malformed file entry";
      return false;
    }
    C.Files.push_back({FO->getString("path")->str(), FO->getString("hash")->str()});
  }
  for (const llvm::json::Value &F : *Functions) {
    PortableSummary P;
    llvm::json::Path::Root Root;
    if (!fromJSON(F, P, Root)) {
      Why = "a malformed summary";
      return false;
    }
    C.Exports.push_back(std::move(P));
  }
  return true;
}

std::vector<std::string> summarySourcesOf(const tooling::CompilationDatabase &Db,
                                          const std::vector<std::string> &Inputs, bool All) {
  std::vector<std::string> Folders;
  for (const std::string &In : Inputs)
    Folders.push_back(llvm::sys::path::parent_path(realPathOf(In)).str());
  std::vector<std::string> Sources;
  for (const std::string &File : Db.getAllFiles()) {
    std::string Real = realPathOf(File);
    if (All || llvm::any_of(Folders, [&](const std::string &D) { return isUnder(Real, D); }))
      Sources.push_back(File);
  }
  return Sources;
}

SummaryImports summariseUnits(const tooling::CompilationDatabase &Db,
                              const std::vector<std::string> &Sources,
                              const PipelineOptions &Options) {
  const std::string Tool = toolIdentity();
  std::vector<CachedSummaries> Units(Sources.size());
  std::vector<char> Ok(Sources.size()); // not vector<bool>: written from several threads
  std::mutex Lock;
  std::atomic<unsigned> Started{0};
  if (!Options.SummaryCache.empty())
    llvm::sys::fs::create_directories(Options.SummaryCache);
  auto Summarise = [&](unsigned I) {
    const std::string &File = Sources[I];
    std::string Name = unitName(Db, File, Options);
    std::string Key = sha256(Name + "\n" + Tool); // what the entry must have been made for
    std::string CacheFile;
    if (!Options.SummaryCache.empty()) {
      llvm::SmallString<256> Path(Options.SummaryCache);
      llvm::sys::path::append(Path, Name + ".json");
      CacheFile = std::string(Path);
    }
    std::string Note;
    if (!CacheFile.empty() && llvm::sys::fs::exists(CacheFile)) {
      CachedSummaries C;
      std::string Why;
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
          llvm::MemoryBuffer::getFile(CacheFile);
      if (!Buf || !readCache((*Buf)->getBuffer(), C, Why)) {
        if (!Buf)
          Why = "unreadable";
        std::lock_guard<std::mutex> Guard(Lock);
        llvm::errs() << "streamalloc: note: ignoring the summary cache file " << CacheFile << ": "
                     << Why << "\n";
      } else if (C.Key == Key && llvm::all_of(C.Files, [](const auto &F) {
                   return contentHash(F.first) == F.second;
                 })) {
        Units[I] = std::move(C);
        Ok[I] = true;
        Note = " (cached)";
      }
    }
    if (Note.empty()) {
      Units[I].Key = Key;
      Ok[I] = parseUnit(Db, File, Options, Units[I]);
      if (Ok[I] && !CacheFile.empty())
        writeAtomically(CacheFile, cacheText(Units[I]));
      if (!Ok[I])
        Note = " (does not parse: its functions stay unknown to the others)";
    }
    if (Options.Verbose) {
      std::lock_guard<std::mutex> Guard(Lock);
      llvm::errs() << "[" << ++Started << "/" << Sources.size() << "] summarising "
                   << displayName(File) << Note << "\n";
    }
  };
  if (Options.Jobs <= 1) {
    for (unsigned I = 0; I < Sources.size(); ++I)
      Summarise(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Options.Jobs));
    for (unsigned I = 0; I < Sources.size(); ++I)
      Pool.async([&, I] { Summarise(I); });
    Pool.wait();
  }
  SummaryImports Imports;
  for (unsigned I = 0; I < Sources.size(); ++I) {
    if (!Ok[I])
      continue;
    // The cache keeps absolute paths; messages name files as the user would.
    for (PortableSummary &P : Units[I].Exports)
      P.Source = displayName(P.Source);
    Imports.add(realPathOf(Sources[I]), Units[I].Exports);
  }
  return Imports;
}

} // namespace streamalloc
