//===- Pipeline.cpp - Frontend action that runs the five stages ------------===//
#include "streamalloc/Driver/Pipeline.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/CRA/LegacyStream.h"
#include "streamalloc/CRA/OwnStreams.h"
#include "streamalloc/CRA/RedundantSyncs.h"
#include "streamalloc/Driver/CompileCommands.h"
#include "streamalloc/Driver/CrossTu.h"
#include "streamalloc/Driver/InactiveCode.h"
#include "streamalloc/Driver/NvccPrelude.h"
#include "streamalloc/Driver/PageLockedParams.h"
#include "streamalloc/Driver/ParseDiagnostics.h"
#include "streamalloc/Driver/PendingWork.h"
#include "streamalloc/Driver/ProjectFiles.h"
#include "streamalloc/Driver/TemplateInstances.h"
#include "streamalloc/Driver/WaitCost.h"
#include "streamalloc/Model/ApiModel.h"
#include "streamalloc/Profit/Profitability.h"
#include "streamalloc/Schedule/LaunchGraphs.h"
#include "streamalloc/Transform/FileRewriter.h"
#include "streamalloc/Transform/StreamOrderedAlloc.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"

#include <cassert>
#include <iterator>
#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace streamalloc {

namespace {

/// Whether \p E lies inside one of the texts \p Ranges.
bool inAnyOf(const TextRanges &Ranges, const Edit &E) {
  return llvm::any_of(Ranges, [&](auto R) { return E.inside(R.first, R.second); });
}

/// What the preprocessor saw in the main file (and in the other files, for
/// the project's own included files) that the stages need.
struct PreprocessorFacts {
  std::vector<unsigned> IncludeEnds;   ///< just past top-level #include lines
  std::vector<InactiveGroup> Inactive; ///< groups of #if chains this build skips
  /// The same for the other files: include ends with the #if depth of the
  /// directive (an include guard's is 1), inactive groups.
  std::map<FileID, std::vector<std::pair<unsigned, unsigned>>> IncludeEndsIn;
  std::map<FileID, std::vector<InactiveGroup>> InactiveIn;
  /// The files entered, in order, and how often each file was entered.
  std::vector<FileID> Entered;
  std::map<unsigned, unsigned> TimesEntered; ///< by FileEntry UID

  /// Where the inactive groups of \p File that hold code begin: a wait for
  /// what they may touch goes there.
  std::vector<unsigned> inactiveCode(FileID File, FileID Main) const {
    std::vector<unsigned> Begins;
    auto It = InactiveIn.find(File);
    for (const InactiveGroup &G : File == Main             ? Inactive
                                  : It != InactiveIn.end() ? It->second
                                                           : std::vector<InactiveGroup>())
      if (G.HasCode)
        Begins.push_back(G.Begin);
    return Begins;
  }
};

/// Records PreprocessorFacts: where top-level #include lines end (the stream
/// pool goes after them) and which groups of #if chains this configuration
/// skips.
class PreprocessorTracker : public PPCallbacks {
public:
  PreprocessorTracker(const SourceManager &SM, PreprocessorFacts &Facts) : SM(SM), Facts(Facts) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind,
                   FileID) override {
    if (Reason != EnterFile)
      return;
    FileID File = SM.getFileID(Loc);
    Facts.Entered.push_back(File);
    if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File))
      ++Facts.TimesEntered[Entry->getUID()];
  }
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool, SrcMgr::CharacteristicKind) override {
    FileID File = SM.getFileID(HashLoc);
    unsigned Depth = Depths[File];
    StringRef Buffer = SM.getBufferData(File);
    size_t NL = Buffer.find('\n', SM.getFileOffset(FilenameRange.getEnd()));
    unsigned End = NL == StringRef::npos ? Buffer.size() : NL + 1;
    if (File != SM.getMainFileID())
      Facts.IncludeEndsIn[File].push_back({End, Depth});
    else if (Depth == 0)
      Facts.IncludeEnds.push_back(End);
  }
  void If(SourceLocation L, SourceRange, ConditionValueKind) override { ++Depths[SM.getFileID(L)]; }
  void Ifdef(SourceLocation L, const Token &, const MacroDefinition &) override {
    ++Depths[SM.getFileID(L)];
  }
  void Ifndef(SourceLocation L, const Token &, const MacroDefinition &) override {
    ++Depths[SM.getFileID(L)];
  }
  void Endif(SourceLocation L, SourceLocation) override {
    unsigned &Depth = Depths[SM.getFileID(L)];
    Depth -= Depth > 0;
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    FileID File = SM.getFileID(Range.getBegin());
    if (File != SM.getFileID(Range.getEnd()))
      return;
    std::vector<InactiveGroup> &Groups =
        File == SM.getMainFileID() ? Facts.Inactive : Facts.InactiveIn[File];
    llvm::append_range(Groups,
                       inactiveGroups(SM.getBufferData(File), SM.getFileOffset(Range.getBegin()),
                                      SM.getFileOffset(Range.getEnd())));
  }

private:
  const SourceManager &SM;
  PreprocessorFacts &Facts;
  std::map<FileID, unsigned> Depths; ///< #if nesting per file
};

/// A host function written in one of \p Files, other than a lambda;
/// templated or not. Its body lies in that file (no file is included in the
/// middle of it).
bool isHostFunctionIn(const FunctionDecl *F, const SourceManager &SM,
                      const std::set<FileID> &Files) {
  if (!F->doesThisDeclarationHaveABody() || F->isImplicit() || F->isDefaulted())
    return false;
  FileID File = SM.getFileID(SM.getExpansionLoc(F->getLocation()));
  if (!Files.count(File) || !F->getBody() ||
      SM.getFileID(SM.getExpansionLoc(F->getBody()->getBeginLoc())) != File ||
      SM.getFileID(SM.getExpansionLoc(F->getBody()->getEndLoc())) != File)
    return false;
  if (F->hasAttr<CUDAGlobalAttr>() || F->hasAttr<CUDADeviceAttr>())
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda())
    return false;
  return true;
}

/// A host function analysed on its own (an instantiation is analysed as part
/// of its template, see tryTemplate()), in one of the files rewritten.
bool isAnalysedHostFunction(const FunctionDecl *F, const SourceManager &SM,
                            const std::set<FileID> &Files) {
  return isHostFunctionIn(F, SM, Files) && !F->isDependentContext() &&
         !F->isTemplateInstantiation();
}

bool isLambdaBody(const FunctionDecl *F) {
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  return M && M->getParent()->isLambda();
}

/// A lambda body whose callers do not all see its calls (it is passed to an
/// algorithm): it orders its work after all earlier work itself.
bool runsUnorderedByCallers(const FunctionDecl &F) {
  return isLambdaBody(&F) && !onlyCalledDirectly(cast<CXXMethodDecl>(F), F.getASTContext());
}

/// A lambda's body analysed as a function of its own, like a helper: a host
/// lambda that is not generic, written in a function that is analysed
/// itself (a lambda in a template has a body per instantiation), and run only
/// during calls on its callers' thread: calls they see, or of algorithms they
/// pass it to (whyLambdaMayRunElsewhere()). One passed to an algorithm orders
/// its work after all earlier work itself (orderAfterEarlierWork()). One
/// stored, converted, or passed to what may run it on another thread, is left
/// as written: its work stays on the legacy stream, which orders it. Whether
/// the file starts host threads is decided after the survey.
bool isAnalysedLambda(const FunctionDecl *F, const SourceManager &SM,
                      const std::set<FileID> &Files) {
  if (!isLambdaBody(F) || !F->doesThisDeclarationHaveABody() || !F->getBody() ||
      F->isDependentContext() || F->isTemplateInstantiation() || F->hasAttr<CUDAGlobalAttr>() ||
      !whyLambdaMayRunElsewhere(*cast<CXXMethodDecl>(F), F->getASTContext()).empty())
    return false;
  // Clang makes a lambda without attributes implicitly __host__ __device__.
  if (const auto *Device = F->getAttr<CUDADeviceAttr>(); Device && !Device->isImplicit())
    return false;
  const auto *Enclosing = dyn_cast_or_null<FunctionDecl>(
      cast<CXXMethodDecl>(F)->getParent()->getParentFunctionOrMethod());
  if (!Enclosing ||
      !(isAnalysedHostFunction(Enclosing, SM, Files) || isAnalysedLambda(Enclosing, SM, Files)))
    return false;
  FileID File = SM.getFileID(SM.getExpansionLoc(Enclosing->getLocation()));
  return SM.getFileID(SM.getExpansionLoc(F->getBody()->getBeginLoc())) == File &&
         SM.getFileID(SM.getExpansionLoc(F->getBody()->getEndLoc())) == File;
}

/// Why the ops of the lambda whose body is \p F stay as written.
std::string whyLambdaIsLeftAsWritten(const FunctionDecl &F, const SourceManager &SM,
                                     const std::set<FileID> &Files,
                                     const std::string &HostThreads) {
  if (isAnalysedLambda(&F, SM, Files))
    return "inside a lambda, left as written: " + HostThreads;
  if (F.isDependentContext() || F.isTemplateInstantiation())
    return "inside a lambda that is generic or written in a template; this version transforms "
           "the bodies of other lambdas only";
  if (std::string Why = whyLambdaMayRunElsewhere(cast<CXXMethodDecl>(F), F.getASTContext());
      !Why.empty())
    return "inside a lambda that may run other than during a call on its caller's thread: " + Why +
           "; its work stays on the legacy stream, which orders it with the rest";
  return "inside a lambda this version does not transform (declared __device__, or written in "
         "a function it does not analyse)";
}

/// Collects the host functions to analyse, file-level blockers, and GPU ops
/// that sit in code the first version does not transform.
class Survey : public RecursiveASTVisitor<Survey> {
public:
  /// \p Files: the files rewritten; \p LeftAsWritten: the project's own
  /// files that are not, whose GPU ops are counted.
  Survey(ASTContext &Ctx, const std::set<FileID> &Files, const std::set<FileID> &LeftAsWritten)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Files(Files), LeftAsWritten(LeftAsWritten) {}

  std::vector<const FunctionDecl *> Functions;
  std::map<FileID, unsigned> OpsLeftIn; ///< GPU ops in host code of LeftAsWritten
  std::vector<std::string> Blockers;
  std::vector<std::pair<const Expr *, const FunctionDecl *>> OpsInTemplates;
  /// GPU ops in the bodies of lambdas analysed as functions (isAnalysedLambda).
  std::vector<std::pair<const Expr *, const FunctionDecl *>> OpsInLambdas;

  /// Leaves lambda bodies as written (the file starts host threads, which may
  /// call them at once): their ops are reported as templates' ops are.
  void leaveLambdasAsWritten() {
    llvm::erase_if(Functions, isLambdaBody);
    llvm::append_range(OpsInTemplates, OpsInLambdas);
    OpsInLambdas.clear();
  }

  void block(std::string Why) {
    if (!llvm::is_contained(Blockers, Why))
      Blockers.push_back(std::move(Why));
  }
  bool CallsDeviceReset = false;
  bool QueriesMemory = false; ///< calls cudaMemGetInfo

  bool shouldVisitLambdaBodies() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *F) {
    return traverseFunction(F, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(F); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) {
    return traverseFunction(F, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(F); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *F) {
    return traverseFunction(F, [&] { return RecursiveASTVisitor::TraverseCXXConstructorDecl(F); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *F) {
    return traverseFunction(F, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(F); });
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    return traverseFunction(L->getCallOperator(),
                            [&] { return RecursiveASTVisitor::TraverseLambdaExpr(L); });
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (!inHostCode())
      return true;
    FileID File = SM.getFileID(SM.getExpansionLoc(Call->getBeginLoc()));
    if (LeftAsWritten.count(File)) {
      std::string Name = spelledCallee(Call);
      const ApiFunction *Api = Name.empty() ? nullptr : lookupApi(Name);
      OpsLeftIn[File] += isa<CUDAKernelCallExpr>(Call) || (Api && Api->isGpuOp());
    }
    if (!Files.count(File))
      return true;
    unsigned Line = SM.getExpansionLineNumber(Call->getBeginLoc());
    std::string At = "line " + std::to_string(Line) + ": ";
    if (File != SM.getMainFileID())
      At =
          llvm::sys::path::filename(SM.getFilename(SM.getExpansionLoc(Call->getBeginLoc()))).str() +
          ", " + At;
    std::string Name = spelledCallee(Call);
    // A launch's stream is an argument of its configuration call; name the kernel.
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call))
      LaunchOfConfig[Launch->getConfig()] = Launch;
    const CUDAKernelCallExpr *LaunchOfThis = LaunchOfConfig.lookup(Call);
    if (LaunchOfThis)
      Name = spelledCallee(LaunchOfThis);
    const ApiFunction *Api = Name.empty() ? nullptr : lookupApi(Name);
    if (Api && Api->Kind == ApiKind::DeviceReset)
      CallsDeviceReset = true;
    if (const ImportedFunction *I = ImportScope::lookup(Call->getDirectCallee());
        I && I->Conflict.empty()) {
      if (I->Summary.ResetsDevice)
        CallsDeviceReset = true; // another unit's function resets the device
      // Work another unit's function leaves on a stream of the program's
      // own: the call would be an op of this function, but its effects are
      // only the imported summary's.
      if (I->Summary.LeavesOwnStreamWork)
        block(At + "`" + Name + "`, defined in another unit, may return while work it put on a " +
              "stream of the program's own is still running");
    }
    if (Api && Api->has(ApiCap::QueriesFreeMemory))
      QueriesMemory = true;
    if (Api && Api->Kind == ApiKind::UserStreams)
      block(At + "`" + Api->Name.str() +
            "` puts work on the program's own streams in a way the tool does not model");
    if (Api && Api->Kind == ApiKind::DeviceSelect) {
      if (!isZeroInteger(Call->getArg(0), Ctx))
        block(At + "`" + Api->Name.str() +
              "` may select a device other than 0, and the stream pool belongs to one device");
    }
    // A launch (its configuration call) or an asynchronous copy or fill on a
    // stream of the program's own is an op CRA models (OwnStreams.h); a
    // stream's sync, query, event record or destruction orders nothing the
    // tool relies on; anything else given such a stream may enqueue work the
    // analysis does not see.
    const Expr *OwnOp = LaunchOfThis ? static_cast<const Expr *>(LaunchOfThis) : Call;
    if (!ownStreamOf(OwnOp, Ctx))
      OwnOp = nullptr;
    bool StreamNeutral = Api && (Api->Kind == ApiKind::OtherSync || Api->Kind == ApiKind::Pure ||
                                 (Api->Kind == ApiKind::Host && Api->CudaRuntime));
    // A function of the files rewritten is analysed itself; what it leaves
    // running on the stream, its callers model (FunctionSummary).
    if (const FunctionDecl *Callee = Call->getDirectCallee(), *Def = nullptr;
        !Api && Callee && Callee->hasBody(Def) && Def && isHostFunctionIn(Def, SM, Files) &&
        !isa<CUDAKernelCallExpr>(Call) && !LaunchOfThis)
      StreamNeutral = true;
    if (OwnOp && (Stack.empty() || !isAnalysed(Stack.back())))
      block(At + "`" + (Name.empty() ? "call" : Name) +
            "` runs on a stream of the program's own inside a template or a lambda, where "
            "the tool does not model it");
    for (unsigned I = 0; I < Call->getNumArgs() && !OwnOp && !StreamNeutral; ++I) {
      const Expr *Arg = Call->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg) || !isStream(Arg))
        continue;
      if (!namesLegacyStream(Arg, Ctx))
        block(At + "passes a stream of the program's own (`" + (Name.empty() ? "call" : Name) +
              "`)");
    }
    bool IsOp = isa<CUDAKernelCallExpr>(Call) || (Api && Api->isGpuOp());
    if (IsOp && !Stack.empty() && !isAnalysed(Stack.back()))
      OpsInTemplates.push_back({Call, Stack.back()});
    if (IsOp && !Stack.empty() && isAnalysedLambda(Stack.back(), SM, Files))
      OpsInLambdas.push_back({Call, Stack.back()});
    return true;
  }

  /// The name a call is written with, also when it is unresolved in a template.
  static std::string spelledCallee(const CallExpr *Call) {
    const Expr *C = Call->getCallee() ? Call->getCallee()->IgnoreParenImpCasts() : nullptr;
    if (const auto *ULE = dyn_cast_or_null<UnresolvedLookupExpr>(C))
      return ULE->getName().getAsString();
    if (const FunctionDecl *F = Call->getDirectCallee(); F && F->getIdentifier())
      return F->getName().str();
    return "";
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  const std::set<FileID> &Files, &LeftAsWritten;
  std::vector<const FunctionDecl *> Stack;
  llvm::DenseMap<const CallExpr *, const CUDAKernelCallExpr *> LaunchOfConfig;

  bool isAnalysed(const FunctionDecl *F) const {
    return isAnalysedHostFunction(F, SM, Files) || isAnalysedLambda(F, SM, Files);
  }

  template <typename Fn> bool traverseFunction(const FunctionDecl *F, Fn Traverse) {
    if (F && isAnalysed(F) && F->isThisDeclarationADefinition())
      Functions.push_back(F);
    if (F)
      Stack.push_back(F);
    bool Result = Traverse();
    if (F)
      Stack.pop_back();
    return Result;
  }

  bool inHostCode() const {
    return Stack.empty() ||
           (!Stack.back()->hasAttr<CUDAGlobalAttr>() &&
            !(Stack.back()->hasAttr<CUDADeviceAttr>() && !Stack.back()->hasAttr<CUDAHostAttr>()));
  }

  static bool isStream(const Expr *E) {
    for (QualType T = E->getType(); const auto *TT = T->getAs<TypedefType>(); T = TT->desugar())
      if (isApiSymbol(TT->getDecl()->getName(), ApiSymbol::cudaStream_t))
        return true;
    return false;
  }
};

/// Whether planStreams() would plan the same streams, edges and events for
/// both runs: it reads which ops run asynchronously, the statement that
/// enqueues each, the loops around it, and the program's device syncs the run
/// relies on (a sync that completes a producer saves an event wait; with that
/// sync ignored, the wait is needed). The waits it binds are redone.
bool sameSchedulingInput(const CraResult &A, const CraResult &B) {
  if (A.Ops.size() != B.Ops.size() || A.Syncs.size() != B.Syncs.size())
    return false;
  for (unsigned I = 0; I < A.Syncs.size(); ++I)
    if (A.Syncs[I].Statement != B.Syncs[I].Statement)
      return false;
  for (unsigned I = 0; I < A.Ops.size(); ++I)
    if (A.Ops[I].Async != B.Ops[I].Async || A.Ops[I].Statement != B.Ops[I].Statement ||
        A.Ops[I].Loops != B.Ops[I].Loops)
      return false;
  return true;
}

const char *opKindName(GpuOpKind K) {
  // In the enum's order.
  static constexpr const char *Names[] = {"copy", "set", "launch", "alloc",
                                          "free", // not an API name
                                          "call"};
  static_assert(std::size(Names) == static_cast<size_t>(GpuOpKind::CallWork) + 1,
                "a name per op kind");
  return Names[static_cast<size_t>(K)];
}

/// User + system CPU seconds of this process so far.
double cpuSeconds() {
  llvm::TimeRecord T = llvm::TimeRecord::getCurrentTime(/*Start=*/false);
  return T.getUserTime() + T.getSystemTime();
}

class PipelineConsumer : public ASTConsumer {
public:
  PipelineConsumer(FileResult &Result, const PipelineOptions &Options,
                   const PreprocessorFacts &Facts, Preprocessor &PP, double ParseStart,
                   ProjectFiles Project)
      : Result(Result), Options(Options), Facts(Facts), PP(PP), ParseStart(ParseStart),
        Project(std::move(Project)) {}

  /// Sorts the files the preprocessor entered: \p Files gets the project's
  /// own included files this run rewrites, \p LeftAsWritten the others of
  /// the project's (with why in WhyLeft); Result.Included lists both.
  void classifyIncludedFiles(ASTContext &Ctx, std::set<FileID> &Files,
                             std::set<FileID> &LeftAsWritten) {
    const SourceManager &SM = Ctx.getSourceManager();
    FileID Main = SM.getMainFileID();
    std::set<FileID> Projects{Main};
    std::set<unsigned> Seen;
    for (FileID F : Facts.Entered) {
      OptionalFileEntryRef Entry = SM.getFileEntryRefForID(F);
      if (F == Main || !Entry)
        continue;
      if (!Seen.insert(Entry->getUID()).second) {
        LeftAsWritten.insert(F); // entered again: already classified as left
        continue;
      }
      if (SM.getFileCharacteristic(SM.getLocForStartOfFile(F)) != SrcMgr::C_User ||
          Entry->getName() == nvccPreludePath() || !Project.contains(Entry->getName()) ||
          !Projects.count(SM.getFileID(SM.getIncludeLoc(F))))
        continue;
      Projects.insert(F);
      IncludedFile Inc;
      llvm::SmallString<256> Real;
      if (llvm::sys::fs::real_path(Entry->getName(), Real))
        Real = Entry->getName();
      Inc.RealPath = std::string(Real);
      // Named for the user: relative to the folder the tool runs in, if under it.
      llvm::SmallString<256> Cwd;
      llvm::StringRef Rel(Inc.RealPath);
      if (!llvm::sys::fs::current_path(Cwd) && isUnderFolder(Rel, Cwd) && Rel.size() > Cwd.size())
        Rel = Rel.drop_front(Cwd.size()).ltrim("/");
      Inc.Path = Rel.str();
      Inc.Original = Inc.Output = SM.getBufferData(F).str();
      std::string Why;
      if (const Decl *Around = declAround(Ctx, SM.getIncludeLoc(F)))
        Why = "it is included inside a declaration (" + std::string(Around->getDeclKindName()) +
              ", line " + std::to_string(SM.getExpansionLineNumber(Around->getBeginLoc())) +
              "), where the declarations of the stream pool would not name the main file's";
      else if (Facts.TimesEntered.at(Entry->getUID()) > 1)
        Why = "it is included more than once in this translation unit (without an include guard)";
      else if (!Options.RewriteIncluded)
        Why = "rewrite included files with -i or --out-dir";
      else if (auto It = Options.KeepIncluded.find(Inc.RealPath); It != Options.KeepIncluded.end())
        Why = It->second;
      Inc.Rewritable = Why.empty();
      Inc.WhyLeft = Why;
      (Why.empty() ? Files : LeftAsWritten).insert(F);
      WhyLeft[F] = Why;
      DisplayName[F] = Inc.Path;
      IncludedIndex[F] = Result.Included.size();
      Result.Included.push_back(std::move(Inc));
    }
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    double ParseDone = cpuSeconds();
    Result.ParseSeconds = ParseDone - ParseStart;
    llvm::scope_exit Stop([&] { Result.AnalysisSeconds = cpuSeconds() - ParseDone; });
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Result.Parsed = true;
    const SourceManager &SM = Ctx.getSourceManager();
    Result.Original = SM.getBufferData(SM.getMainFileID()).str();
    Result.Report.File = Result.Path;
    Result.Report.TimersIgnored = !Options.TimerWaits;
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
      llvm::SmallString<256> Real;
      if (!llvm::sys::fs::real_path(Main->getName(), Real))
        Result.RealPath = std::string(Real);
    }

    std::optional<ImportScope> Imported;
    if (Options.Imports)
      Imported.emplace(Ctx, *Options.Imports);
    llvm::scope_exit ReportImports([&] {
      for (const auto &[F, I] : ImportScope::used(Ctx))
        Result.Report.ImportedSummaries.push_back(
            {F->getQualifiedNameAsString(), I->Source, I->Line, I->Conflict});
    });
    std::set<FileID> Files{SM.getMainFileID()}, LeftAsWritten;
    classifyIncludedFiles(Ctx, Files, LeftAsWritten);
    Survey S(Ctx, Files, LeftAsWritten);
    S.TraverseDecl(Ctx.getTranslationUnitDecl());
    // Another thread may run a lambda while this one runs the caller's
    // streams; lambda bodies then stay as written.
    std::string HostThreads = startsHostThreads(Ctx);
    if (!HostThreads.empty())
      S.leaveLambdasAsWritten();
    if (PP.isMacroDefined("CUDA_API_PER_THREAD_DEFAULT_STREAM"))
      S.Blockers.push_back("it is compiled with the per-thread default stream, and this version "
                           "relies on the legacy default stream's implicit ordering");
    for (llvm::StringRef Name : FileRewriter::definedNames())
      if (!Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name)).empty())
        S.Blockers.push_back("it already defines `" + Name.str() +
                             "` (was it transformed before?)");
    FileRewriter Rewriter(Ctx);
    FunctionSummaries Device;
    // Work on streams of the program's own, also what a callee leaves
    // running on them, must sit where CRA follows it (OwnStreams.h).
    auto LeavesWork = [&](const FunctionDecl *F) {
      const FunctionDecl *Def = nullptr;
      return F->hasBody(Def) && Def && Device.get(Def).LeavesOwnStreamWork;
    };
    for (const FunctionDecl *F : S.Functions) {
      if (std::string Why = whyOwnStreamsAreNotModelled(*F, Ctx, LeavesWork); !Why.empty())
        S.block(Why);
      if (LeavesWork(F))
        if (std::string Why = whyOwnStreamWorkEscapes(*F, Ctx); !Why.empty())
          S.block(Why);
    }
    Result.Report.FileBlockers = S.Blockers;
    llvm::raw_string_ostream Dump(Result.Dump);
    CallsDeviceReset = S.CallsDeviceReset;
    WhyNoGraphs = Options.Graphs ? whyNoLaunchGraphs(HostThreads) : "--cuda-graphs=off";
    QueriesMemory = S.QueriesMemory;
    if (dumps(DumpStage::Summaries))
      Device.print(Dump, Ctx);
    std::vector<TemplateInstances> Templates = findTemplateInstances(
        Ctx, [&](const FunctionDecl *F) { return isHostFunctionIn(F, SM, Files); });
    std::vector<const FunctionDecl *> WithAllocs = S.Functions;
    for (const TemplateInstances &T : Templates)
      llvm::append_range(WithAllocs, T.Instances);
    for (const FunctionDecl *F : WithAllocs)
      if (Options.StreamOrderedAlloc && S.Blockers.empty())
        AllocGroups[F] = allocGroups(*F, Ctx);
    keepAllocationsSynchronousBesideSynchronousOnes(WithAllocs, Ctx);
    // Per template pattern: why it is left unchanged ("" when rewritten).
    // A template left unchanged keeps its allocations synchronous, which may
    // keep others synchronous too (and so change other templates' trials).
    llvm::DenseMap<const FunctionDecl *, std::string> TemplateVerdicts;
    do {
      for (const TemplateInstances &T : Templates)
        TemplateVerdicts[T.Pattern->getCanonicalDecl()] =
            tryTemplate(T, Ctx, Device, S.Blockers, Files);
    } while (keepAllocationsOfUnchangedTemplatesSynchronous(Templates, TemplateVerdicts, WithAllocs,
                                                            Ctx));
    decidePageLockedParams(Ctx, Device, S.Functions, S.Blockers);
    decidePendingWork(Ctx, Device, S.Functions, S.Blockers);
    for (const FunctionDecl *F : S.Functions)
      runFunction(*F, Ctx, Device, Rewriter, S.Blockers, Dump);
    reportReturns(S.Functions, SM);
    if (std::string Why = checkPendingWork(); !Why.empty()) {
      Result.Error = "internal error: " + Why + "; the file is not written (please report it)";
      return;
    }
    for (const TemplateInstances &T : Templates)
      if (TemplateVerdicts[T.Pattern->getCanonicalDecl()].empty())
        rewriteTemplate(T, Ctx, Device, Rewriter, S.Blockers, Dump);
    reportTemplates(Templates, TemplateVerdicts, S.OpsInTemplates, SM);
    for (auto [Call, F] : S.OpsInTemplates) {
      std::string Why;
      if (isLambdaBody(F))
        Why = whyLambdaIsLeftAsWritten(*F, SM, Files, HostThreads);
      else if (!isHostFunctionIn(F, SM, Files))
        Why = "inside a template of an included file that is not rewritten";
      else if (!isLambdaBody(F)) {
        auto It = TemplateVerdicts.find(F->getCanonicalDecl());
        if (It != TemplateVerdicts.end() && It->second.empty())
          continue; // reported with its instantiation's analysis
        Why = "inside a template: " +
              std::string(It == TemplateVerdicts.end() ? NeverInstantiated : It->second);
      }
      OpReport R;
      R.Function = displayName(*F);
      R.File = displayNameOf(SM.getFileID(SM.getExpansionLoc(Call->getBeginLoc())));
      R.Line = SM.getSpellingLineNumber(SM.getFileLoc(Call->getBeginLoc()));
      R.Column = SM.getSpellingColumnNumber(SM.getFileLoc(Call->getBeginLoc()));
      R.Callee = Survey::spelledCallee(cast<CallExpr>(Call));
      if (R.Callee.empty())
        R.Callee = "kernel";
      R.Kind = isa<CUDAKernelCallExpr>(Call) ? "launch" : "copy";
      R.Reason = Why;
      Result.Report.Ops.push_back(std::move(R));
    }
    llvm::stable_sort(Result.Report.Ops, [](const OpReport &A, const OpReport &B) {
      return std::tie(A.File, A.Line, A.Column) < std::tie(B.File, B.Line, B.Column);
    });
    std::map<FileID, std::string> Outputs;
    if (!Rewriter.finishAll([&](FileID F) { return includeEndsOf(F, SM); }, Outputs, Result.Error))
      return;
    Result.Output = std::move(Outputs[SM.getMainFileID()]);
    for (auto &[F, Text] : Outputs)
      if (auto It = IncludedIndex.find(F); It != IncludedIndex.end())
        Result.Included[It->second].Output = std::move(Text);
    Result.Report.Streams = Rewriter.streamsUsed();
    Result.Report.Changed = Result.Output != Result.Original;
    if (llvm::is_contained(Options.Dumps, DumpStage::Edits)) {
      Dump << "edits for " << Result.Path << "\n";
      Rewriter.edits().print(Dump);
      for (auto &[F, Index] : IncludedIndex)
        if (Files.count(F) && !Rewriter.edits(F).empty()) {
          Dump << "edits for " << Result.Included[Index].Path << "\n";
          Rewriter.edits(F).print(Dump);
        }
    }
    // Per included file of the project's: rewritten, or why its ops are not.
    for (auto &[F, Index] : IncludedIndex) {
      const IncludedFile &Inc = Result.Included[Index];
      if (!Inc.Rewritable && !S.OpsLeftIn[F])
        continue;
      Result.Report.IncludedFiles.push_back(
          {Inc.Path, Inc.Output != Inc.Original, Inc.Rewritable ? "" : WhyLeft[F]});
    }
  }

  /// The top-level declaration (namespace, class, extern "C" block,
  /// function) whose text holds \p Include, if any.
  static const Decl *declAround(ASTContext &Ctx, SourceLocation Include) {
    const SourceManager &SM = Ctx.getSourceManager();
    FileID In = SM.getFileID(Include);
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      SourceLocation Begin = SM.getExpansionLoc(D->getBeginLoc());
      SourceLocation End = SM.getExpansionRange(D->getEndLoc()).getEnd();
      if (Begin.isValid() && End.isValid() && SM.getFileID(Begin) == In &&
          SM.isBeforeInTranslationUnit(Begin, Include) &&
          SM.isBeforeInTranslationUnit(Include, End))
        return D;
    }
    return nullptr;
  }

  /// Where the top-level #include lines of \p F end (for an include-guarded
  /// file, those inside its guard).
  std::vector<unsigned> includeEndsOf(FileID F, const SourceManager &SM) const {
    if (F == SM.getMainFileID())
      return Facts.IncludeEnds;
    std::vector<unsigned> Ends;
    auto It = Facts.IncludeEndsIn.find(F);
    if (It == Facts.IncludeEndsIn.end())
      return Ends;
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(F);
    unsigned TopDepth =
        Entry && PP.getHeaderSearchInfo().isFileMultipleIncludeGuarded(*Entry) ? 1 : 0;
    for (auto [End, Depth] : It->second)
      if (Depth <= TopDepth)
        Ends.push_back(End);
    return Ends;
  }

  /// An included file's name in the report; empty for the main file.
  std::string displayNameOf(FileID F) const {
    auto It = DisplayName.find(F);
    return It == DisplayName.end() ? std::string() : It->second;
  }

private:
  FileResult &Result;
  const PipelineOptions &Options;
  const PreprocessorFacts &Facts;
  std::vector<unsigned> InactiveCode;
  Preprocessor &PP;
  double ParseStart; ///< CPU seconds when Clang began with the file
  ProjectFiles Project;
  std::map<FileID, std::string> WhyLeft, DisplayName;
  std::map<FileID, size_t> IncludedIndex; ///< into Result.Included
  unsigned GraphClusters = 0;
  bool CallsDeviceReset = false;
  bool QueriesMemory = false;
  /// Why no loop of the file may run as a CUDA graph ("" if they may).
  std::string WhyNoGraphs;

  /// What the last analysis of a function found that decides which helpers
  /// return with work pending (decidePendingWork).
  struct CallOfPendingWork {
    const clang::FunctionDecl *Callee;
    bool Async;
    std::string WhyNotWorthIt; ///< empty: the caller overlaps the work
    unsigned Line;
  };
  struct Outcome {
    std::set<unsigned> LeftPendingStreams; ///< streams of CraResult::LeftPending
    std::vector<CallOfPendingWork> Calls;
    bool WaitsOnReturn = false; ///< a wait at a return or the body's end
  };
  llvm::DenseMap<const FunctionDecl *, Outcome> Outcomes;
  /// Helpers analysed as returning with work pending (canonical decls).
  llvm::DenseSet<const FunctionDecl *> ReturnsWithWork;
  /// Per helper with GPU ops: why it waits before returning ("" if it may not).
  llvm::DenseMap<const FunctionDecl *, std::string> WhyWaitsOnReturn;
  /// The helpers tried as returning with work pending (decidePendingWork).
  llvm::DenseSet<const FunctionDecl *> Considered;
  /// While decidePageLockedParams runs: what the calls of its candidates pass.
  std::optional<PageLockedParams> PassedToHelpers;
  /// Per helper (canonical decl): the pointer parameters every caller passes
  /// page-locked memory; the cost model counts their copies as such.
  ParamsOf PageLocked;

  bool dumps(DumpStage D) const { return llvm::is_contained(Options.Dumps, D); }

  /// The schedule's options; every dependency edge is listed only where a
  /// dump or the graph shows them.
  ScheduleOptions scheduleOptions() const {
    ScheduleOptions Schedule = Options.Schedule;
    Schedule.ListEdges |= Options.WantGraph || dumps(DumpStage::Schedule);
    return Schedule;
  }

  static constexpr const char *NeverInstantiated = "never instantiated in this file";
  /// The templates (canonical patterns) tryTemplate() accepted whose
  /// instantiations make different edits in `if constexpr` branches.
  llvm::DenseSet<const FunctionDecl *> BranchesDiffer;

  /// Analyses \p F into the rewriter \p Trial; its report, graph and dumps
  /// are dropped: only its edits and the analysis's findings count.
  void trialRun(const FunctionDecl &F, ASTContext &Ctx, FunctionSummaries &Device,
                FileRewriter &Trial, const std::vector<std::string> &FileBlockers) {
    FileReport Report = Result.Report;
    std::string Graph = Result.Graph;
    unsigned Clusters = GraphClusters;
    runFunction(F, Ctx, Device, Trial, FileBlockers, llvm::nulls());
    Result.Report = std::move(Report);
    Result.Graph = std::move(Graph);
    GraphClusters = Clusters;
  }

  /// Analyses every instantiation of \p T on its own, with a rewriter of its
  /// own. The template's text may be rewritten only when the instantiations
  /// ask for the same edits of the text they share: an instantiation has no
  /// code in the `if constexpr` branches it discards, so the edits another
  /// one makes there leave it as it was (and its own edits there are not
  /// compared). The text then gets every instantiation's edits (see
  /// rewriteTemplate()), right for each. Returns "" when it may, otherwise
  /// why the template is left unchanged.
  /// \p Files: the files the run rewrites (the template's is one of them).
  std::string tryTemplate(const TemplateInstances &T, ASTContext &Ctx, FunctionSummaries &Device,
                          const std::vector<std::string> &FileBlockers,
                          const std::set<FileID> &Files) {
    const SourceManager &SM = Ctx.getSourceManager();
    // The template's file: the main file or one of the included files rewritten.
    FileID File = SM.getFileID(SM.getExpansionLoc(T.Pattern->getLocation()));
    auto LineOf = [&](unsigned Offset) { return std::to_string(SM.getLineNumber(File, Offset)); };
    auto [Begin, End] = patternRange(*T.Pattern);
    std::vector<EditList> EditsOf;
    std::vector<TextRanges> Discarded;
    for (const FunctionDecl *Instance : T.Instances) {
      std::string Name = instanceName(*Instance);
      FileRewriter Trial(Ctx);
      trialRun(*Instance, Ctx, Device, Trial, FileBlockers);
      if (const Edit *E = Trial.edits(File).firstOutside(Begin, End))
        return "the rewrite of `" + Name + "` would edit line " + LineOf(E->Offset) +
               ", outside the template's text";
      for (FileID Other : Files)
        if (Other != File && !Trial.edits(Other).empty())
          return "the rewrite of `" + Name + "` would edit " + displayNameOf(Other) +
                 ", outside the template's file";
      EditsOf.push_back(Trial.edits(File)); // the function's, without the stream pool
      std::map<FileID, std::string> Outputs;
      std::string Error;
      if (!Trial.finishAll([&](FileID F) { return includeEndsOf(F, SM); }, Outputs, Error))
        return "the rewrite of `" + Name + "` fails: " + Error;
      Discarded.push_back(discardedBranches(*Instance));
    }
    bool Differ = false;
    BranchesDiffer.erase(T.Pattern->getCanonicalDecl());
    for (unsigned I = 0; I < EditsOf.size(); ++I)
      for (unsigned J = I + 1; J < EditsOf.size(); ++J) {
        EditList Mine =
            EditsOf[I].filtered([&](const Edit &E) { return !inAnyOf(Discarded[J], E); });
        EditList Theirs =
            EditsOf[J].filtered([&](const Edit &E) { return !inAnyOf(Discarded[I], E); });
        if (std::optional<unsigned> At = Mine.firstDifference(Theirs, /*IgnoringNotes=*/true))
          return "its instantiations `" + instanceName(*T.Instances[I]) + "` and `" +
                 instanceName(*T.Instances[J]) +
                 "` would be rewritten differently (first at line " + LineOf(*At) + ")";
        Differ |= EditsOf[I].size() != Mine.size() || EditsOf[J].size() != Theirs.size();
      }
    if (!Differ)
      return "";
    // Each instantiation adds its edits to the output; the stream pool's
    // releases are not filtered like edits.
    for (const FunctionDecl *Instance : T.Instances)
      if (Device.get(Instance).ResetsDevice)
        return "its instantiations are rewritten differently in `if constexpr` branches, and `" +
               instanceName(*Instance) + "` tears CUDA down";
    BranchesDiffer.insert(T.Pattern->getCanonicalDecl());
    return "";
  }

  /// Rewrites the text of \p T, which tryTemplate() accepted: the edits of its
  /// first instantiation, then those each other one makes where all the
  /// instantiations before it have no code (the `if constexpr` branches they
  /// discard). Every instantiation numbers its events from the same base, so
  /// the edits of the text they share are the same for each. Of an
  /// instantiation after the first, the report keeps what lies in those
  /// branches only.
  void rewriteTemplate(const TemplateInstances &T, ASTContext &Ctx, FunctionSummaries &Device,
                       FileRewriter &Rewriter, const std::vector<std::string> &FileBlockers,
                       llvm::raw_ostream &Dump) {
    const SourceManager &SM = Ctx.getSourceManager();
    FileID File = SM.getFileID(SM.getExpansionLoc(T.Pattern->getLocation()));
    unsigned Base = Rewriter.eventsUsed(File);
    runFunction(*T.Instances.front(), Ctx, Device, Rewriter, FileBlockers, Dump);
    unsigned Events = Rewriter.eventsUsed(File);
    // The branches every instantiation so far discards.
    TextRanges Shared = discardedBranches(*T.Instances.front());
    for (const FunctionDecl *Instance : llvm::drop_begin(T.Instances)) {
      if (!Shared.empty()) {
        Rewriter.setEventsUsed(File, Base);
        unsigned Count = Rewriter.editCount(File);
        ReportMark Mark(Result.Report);
        runFunction(*Instance, Ctx, Device, Rewriter, FileBlockers, Dump);
        Rewriter.keepEditsSince(File, Count, [&](const Edit &E) { return inAnyOf(Shared, E); });
        Events = std::max(Events, Rewriter.eventsUsed(File));
        std::vector<std::pair<unsigned, unsigned>> Lines;
        for (auto [B, E] : Shared)
          Lines.emplace_back(SM.getLineNumber(File, B), SM.getLineNumber(File, E));
        Mark.keepAddedOnLines(displayNameOf(File), Lines);
      }
      Shared = overlaps(Shared, discardedBranches(*Instance));
    }
    Rewriter.setEventsUsed(File, Events);
  }

  /// Keeps the allocation groups of the templates left unchanged synchronous
  /// (their text is not rewritten), then the groups that rule keeps
  /// synchronous beside them. Returns whether any group changed.
  bool keepAllocationsOfUnchangedTemplatesSynchronous(
      const std::vector<TemplateInstances> &Templates,
      const llvm::DenseMap<const FunctionDecl *, std::string> &Verdicts,
      llvm::ArrayRef<const FunctionDecl *> WithAllocs, ASTContext &Ctx) {
    bool Changed = false;
    for (const TemplateInstances &T : Templates) {
      const std::string &Why = Verdicts.find(T.Pattern->getCanonicalDecl())->second;
      if (Why.empty())
        continue;
      for (const FunctionDecl *I : T.Instances)
        if (auto It = AllocGroups.find(I); It != AllocGroups.end())
          for (AllocGroup &G : It->second)
            if (G.WhySync.empty()) {
              G.WhySync = "its template is left unchanged: " + Why;
              Changed = true;
            }
    }
    if (Changed)
      keepAllocationsSynchronousBesideSynchronousOnes(WithAllocs, Ctx);
    return Changed;
  }

  /// One line per template whose pattern has GPU ops: analysed, or why not.
  void
  reportTemplates(const std::vector<TemplateInstances> &Templates,
                  const llvm::DenseMap<const FunctionDecl *, std::string> &Verdicts,
                  const std::vector<std::pair<const Expr *, const FunctionDecl *>> &OpsInTemplates,
                  const SourceManager &SM) {
    std::vector<const FunctionDecl *> Patterns;
    for (auto [Call, F] : OpsInTemplates)
      if (!isLambdaBody(F) && !llvm::is_contained(Patterns, F->getCanonicalDecl()))
        Patterns.push_back(F->getCanonicalDecl());
    for (const FunctionDecl *P : Patterns) {
      TemplateReport R;
      auto T = llvm::find_if(Templates, [&](const TemplateInstances &T) {
        return T.Pattern->getCanonicalDecl() == P;
      });
      const FunctionDecl *Def = T != Templates.end() ? T->Pattern : P;
      R.Template = Def->getQualifiedNameAsString();
      R.File = displayNameOf(SM.getFileID(SM.getExpansionLoc(Def->getLocation())));
      R.Line = SM.getExpansionLineNumber(Def->getLocation());
      if (T != Templates.end())
        for (const FunctionDecl *I : T->Instances)
          R.Instances.push_back(instanceName(*I));
      auto It = Verdicts.find(P);
      R.Rewritten = It != Verdicts.end() && It->second.empty();
      R.BranchesDiffer = R.Rewritten && BranchesDiffer.count(P);
      R.Reason = It == Verdicts.end() ? NeverInstantiated : It->second;
      Result.Report.Templates.push_back(std::move(R));
    }
  }

  /// Per function, its groups of cudaMalloc/cudaFree calls, each with why it
  /// stays synchronous (empty: it may become stream-ordered), as far as the
  /// syntax, the file and the cost model decide before any analysis.
  llvm::DenseMap<const FunctionDecl *, std::vector<AllocGroup>> AllocGroups;

  std::vector<AllocGroup> allocGroups(const FunctionDecl &F, ASTContext &Ctx) const {
    std::vector<AllocGroup> Groups = findStreamOrderedAllocs(F, Ctx);
    for (AllocGroup &G : Groups) {
      if (!G.WhySync.empty())
        continue;
      if (CallsDeviceReset)
        G.WhySync = "the file calls " + apiOfKind(ApiKind::DeviceReset).Name.str() +
                    ", which destroys the stream-ordered memory pool";
      else if (QueriesMemory)
        G.WhySync = "the file queries free device memory (" +
                    apiWith(ApiCap::QueriesFreeMemory).Name.str() +
                    "), which memory kept by the stream-ordered pool would change";
      else if (Options.Profitability)
        G.WhySync = unprofitableAllocGroup(G, F.getQualifiedNameAsString(), Ctx);
    }
    return Groups;
  }

  /// With --profitability=on, once one group of the file stays synchronous
  /// (its first call: "`f`, line N"), every group does. Both allocators in one
  /// process cost: HeCBench's moe-align, whose helper calls cudaMalloc/cudaFree
  /// 30,000 times, ran 2.5x slower on the H200 once its main loop used
  /// cudaMallocAsync (docs/results.md, 2026-12-02).
  void
  keepAllocationsSynchronousBesideSynchronousOnes(llvm::ArrayRef<const FunctionDecl *> Functions,
                                                  ASTContext &Ctx) {
    if (!Options.Profitability)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Where;
    for (const FunctionDecl *F : Functions) {
      auto It = AllocGroups.find(F);
      if (It == AllocGroups.end())
        continue;
      for (const AllocGroup &G : It->second)
        if (!G.WhySync.empty() && Where.empty()) {
          const CallExpr *Call = G.Allocs.empty() ? G.Frees.front() : G.Allocs.front();
          Where = "`" + F->getQualifiedNameAsString() + "`, line " +
                  std::to_string(SM.getSpellingLineNumber(SM.getFileLoc(Call->getBeginLoc())));
        }
    }
    if (Where.empty())
      return;
    for (auto &[F, Groups] : AllocGroups)
      for (AllocGroup &G : Groups)
        if (G.WhySync.empty())
          G.WhySync = "not worth it: the file also calls " +
                      apiWith(ApiCap::StreamOrderableAlloc).Name.str() + "/" +
                      apiWith(ApiCap::StreamOrderableRelease).Name.str() + " synchronously (" +
                      Where +
                      "), and with both allocators in use a program was measured 2.5x slower "
                      "(docs/results.md)";
  }

  /// Marks every group with an allocation or release that cannot be
  /// stream-ordered (kept synchronous by the CRA or the rewrite, or a release
  /// that may free memory outside the group). Returns whether any was.
  static bool demoteAllocGroups(const FunctionAccesses &FA, const CraResult &Cra,
                                std::vector<AllocGroup> &Groups) {
    llvm::DenseMap<const Expr *, unsigned> OpOf;
    for (const GpuOp &Op : FA.ops())
      OpOf[Op.Call] = Op.Id;
    bool Demoted = false;
    for (AllocGroup &G : Groups) {
      if (!G.WhySync.empty())
        continue;
      std::set<ObjectId> Memory; // what the group's allocations create
      for (const CallExpr *Call : G.Allocs)
        if (auto It = OpOf.find(Call); It != OpOf.end())
          for (auto [Obj, Mode] : FA.ops()[It->second].Effects.entries())
            Memory.insert(Obj);
      auto Check = [&](const CallExpr *Call) -> std::string {
        auto It = OpOf.find(Call);
        if (It == OpOf.end())
          return "its call on line " +
                 std::to_string(
                     FA.function().getASTContext().getSourceManager().getSpellingLineNumber(
                         Call->getBeginLoc())) +
                 " is not an op of `" + FA.name() + "`";
        const GpuOp &Op = FA.ops()[It->second];
        std::string Where = Op.Callee + " on line " + std::to_string(Op.Line);
        if (!Cra.Ops[Op.Id].Async)
          return "its " + Where + " stays synchronous: " + Cra.Ops[Op.Id].WhySync;
        if (Op.Effects.touchesUnknown())
          return "what " + Where + " frees or creates is memory the analysis cannot name";
        for (auto [Obj, Mode] : Op.Effects.entries())
          if (!Memory.count(Obj))
            return Where + " may free memory that the group's allocations do not make (" +
                   FA.describe(Obj) + ")";
        return "";
      };
      for (const CallExpr *Call : G.Allocs)
        if (G.WhySync.empty())
          G.WhySync = Check(Call);
      for (const CallExpr *Call : G.Frees)
        if (G.WhySync.empty())
          G.WhySync = Check(Call);
      Demoted |= !G.WhySync.empty();
    }
    return Demoted;
  }

  /// The allocations and releases left synchronous, with the reason, in the
  /// report (the converted ones are reported as ops).
  void reportAllocGroups(const FunctionDecl &F, ASTContext &Ctx,
                         const std::vector<AllocGroup> &Groups) {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const AllocGroup &G : Groups) {
      if (G.WhySync.empty())
        continue;
      auto Add = [&](const CallExpr *Call, const char *Kind) {
        OpReport R;
        R.Function = displayName(F);
        R.Line = SM.getSpellingLineNumber(SM.getFileLoc(Call->getBeginLoc()));
        R.Column = SM.getSpellingColumnNumber(SM.getFileLoc(Call->getBeginLoc()));
        R.Callee = apiWith(Kind == llvm::StringRef("alloc") ? ApiCap::StreamOrderableAlloc
                                                            : ApiCap::StreamOrderableRelease)
                       .Name.str();
        R.Kind = Kind;
        R.Reason = "not stream-ordered: " + G.WhySync;
        Result.Report.Ops.push_back(std::move(R));
      };
      for (const CallExpr *Call : G.Allocs)
        Add(Call, "alloc");
      for (const CallExpr *Call : G.Frees)
        Add(Call, "free"); // not an API name
    }
  }

  /// Adds to \p Carried the ops of the analysis just made whose asynchrony
  /// cannot pay, with why; or, when every change of the function is of no
  /// gain, all its asynchronous ops. Returns whether any was added; \p Pins
  /// is the pinning plan of this analysis (the final one when none was).
  bool keepUnprofitableOpsSynchronous(const FunctionAccesses &FA, const CraResult &Cra,
                                      const StreamPlan &Plan, bool DropsSyncs,
                                      llvm::DenseMap<const Expr *, std::string> &Carried,
                                      std::optional<std::vector<PinDecision>> &Pins,
                                      std::vector<LaunchLoop> Loops) {
    Pins = planPinning(FA, Cra, Options.Pin, CallsDeviceReset, {}, Options.WholeProgram);
    std::vector<std::string> Why = unprofitableOps(FA, Cra, Plan, *Pins, pageLockedParams(FA));
    bool Added = false;
    // The work a call returns with stays pending: whether it pays decides
    // whether its callee returns first (decidePendingWork).
    for (const GpuOp &Op : FA.ops())
      if (!Why[Op.Id].empty() && Op.Kind != GpuOpKind::CallWork) {
        Carried[Op.Call] = Why[Op.Id];
        Added = true;
      }
    if (Added)
      return true;
    // A loop replayed as a graph gains even where nothing else does.
    decideLaunchLoops(Loops, FA, Cra, Plan);
    if (llvm::any_of(Loops, [](const LaunchLoop &L) { return L.WhyNot.empty(); }))
      return false;
    std::string Whole = unprofitableFunction(FA, Cra, Plan, DropsSyncs);
    if (Whole.empty())
      return false;
    for (const GpuOp &Op : FA.ops())
      if (Cra.Ops[Op.Id].Async && Op.Kind != GpuOpKind::CallWork)
        Carried[Op.Call] = Whole;
    return true;
  }

  void runFunction(const FunctionDecl &F, ASTContext &Ctx, FunctionSummaries &Device,
                   FileRewriter &Rewriter, const std::vector<std::string> &FileBlockers,
                   llvm::raw_ostream &Dump) {
    FileID File =
        Ctx.getSourceManager().getFileID(Ctx.getSourceManager().getExpansionLoc(F.getLocation()));
    InactiveCode = Facts.inactiveCode(File, Ctx.getSourceManager().getMainFileID());
    // What the report gets from this function names its file (if included).
    ReportMark Added(Result.Report);
    llvm::scope_exit NameFile([&, Name = displayNameOf(File)] { Added.stampFile(Name); });
    // Device buffers whose whole life is in view may get stream-ordered
    // allocations and releases: those calls are then GPU ops of their own.
    std::vector<AllocGroup> Groups;
    if (auto It = AllocGroups.find(&F); It != AllocGroups.end())
      Groups = It->second;
    // Ops made synchronous in an earlier round (by the call that makes them),
    // which survive the analysis being rebuilt with fewer stream-ordered calls.
    llvm::DenseMap<const Expr *, std::string> Carried;
    std::unique_ptr<FunctionAccesses> FAOwner;
    std::vector<std::string> Blocked;
    CraResult Cra;
    StreamPlan Plan;
    // The program's own device syncs: each is decided by running the analysis
    // again without it (RedundantSyncs.h); the output uses the run with the
    // dropped ones ignored, so the tool's own waits cover their ops.
    std::vector<ExplicitSync> Syncs;
    std::vector<SyncDecision> SyncDecisions;
    bool KeepsSyncs = true;
    // The pinning plan the profitability step made of the final analysis.
    std::optional<std::vector<PinDecision>> ProfitPins;
    // Loops whose body may run as a CUDA graph: their ops share a stream.
    std::vector<LaunchLoop> Loops;
    while (true) {
      ProfitPins.reset();
      // Phase "accesses": input the stream-ordered calls (the groups not
      // demoted); output FA, and Blocked (the ops that cannot be rewritten).
      std::vector<const Expr *> StreamOrdered;
      for (const AllocGroup &G : Groups)
        if (G.WhySync.empty()) {
          llvm::append_range(StreamOrdered, G.Allocs);
          llvm::append_range(StreamOrdered, G.Frees);
        }
      // Functions without GPU ops need no rewrite, unless they are main or
      // reset the device (the stream pool is released there): their summary
      // is all the analysis they need.
      if (!FunctionAccesses::hasOps(F, StreamOrdered, &Device) && !F.isMain() &&
          !Device.get(&F).ResetsDevice) {
        // It pins nothing, but may pass its own page-locked parameters on.
        if (PassedToHelpers && PassedToHelpers->callsCandidate(F))
          PassedToHelpers->recordCalls(FunctionAccesses(F, Ctx, Device, StreamOrdered), {});
        reportAllocGroups(F, Ctx, Groups);
        return;
      }
      FAOwner = std::make_unique<FunctionAccesses>(F, Ctx, Device, StreamOrdered,
                                                   ReturnsWithWork.count(F.getCanonicalDecl()));
      const FunctionAccesses &FA = *FAOwner;
      Blocked = Rewriter.rewritability(FA);
      assert(Blocked.size() == FA.ops().size() && "a rewritability verdict per op");
      for (const GpuOp &Op : FA.ops()) {
        if (Blocked[Op.Id].empty() && Op.UsesTemporary)
          Blocked[Op.Id] =
              "it uses a temporary object that is destroyed at the end of the statement";
        if (auto It = Carried.find(Op.Call); Blocked[Op.Id].empty() && It != Carried.end())
          Blocked[Op.Id] = It->second;
      }
      if (runsUnorderedByCallers(F) && !FileRewriter::canOrderAfterEarlierWork(F))
        for (std::string &Why : Blocked)
          if (Why.empty())
            Why = "inside a lambda passed to a function, whose `{` is spelled in a macro, where "
                  "the tool cannot order its work after its callers'";
      if (!FileBlockers.empty())
        for (std::string &Why : Blocked)
          Why = "the file is left unchanged: " + FileBlockers.front();
      // CRA decides which ops run asynchronously; DFSA puts them on streams;
      // CRA runs again with the plan, so that a wait synchronises only the
      // streams (or events) of the ops it must. A wait that the text would put
      // before an op it covers (both from one macro expansion) cannot be
      // placed: such ops stay synchronous and everything is planned again.
      // Runs (one per explicit sync) whose decisions agree share one plan.
      std::optional<std::pair<CraResult, StreamPlan>> PlanFor;
      Loops = findLaunchLoops(FA, WhyNoGraphs);
      ScheduleOptions Schedule = scheduleOptions();
      Schedule.OneStreamLoops = oneStreamLoops(Loops);
      auto Analyse = [&](llvm::ArrayRef<const Expr *> Ignored, StreamPlan &P) {
        CraResult C = runCra(FA, Blocked, InactiveCode, nullptr, Ignored, Options.TimerWaits);
        if (PlanFor && sameSchedulingInput(PlanFor->first, C)) {
          P = PlanFor->second;
          P.bindWaits(C);
        } else {
          P = planStreams(FA, C, Schedule);
          PlanFor.emplace(C, P);
        }
        if (P.NumStreams > 0) {
          C = runCra(FA, Blocked, InactiveCode, &P.StreamOf, Ignored, Options.TimerWaits);
          P.bindWaits(C);
        }
        return C;
      };
      while (true) {
        // Phase inputs: FA, Blocked. Outputs: Cra and Plan (with the dropped
        // syncs ignored), Syncs and SyncDecisions.
        PlanFor.reset();
        std::vector<const Expr *> Dropped;
        Cra = Analyse({}, Plan);
        // Survey() refuses files where an op on a stream of the program's own
        // sits where CRA does not follow it; should one slip through, the
        // function is left as written.
        if (!Cra.UnmodelledOwnStreamOps.empty() &&
            llvm::any_of(Blocked, [](const std::string &Why) { return Why.empty(); })) {
          unsigned Line = FA.ops()[Cra.UnmodelledOwnStreamOps.front()].Line;
          for (std::string &Why : Blocked)
            if (Why.empty())
              Why = "the op on a stream of the program's own on line " + std::to_string(Line) +
                    " is where the analysis does not follow it";
          continue;
        }
        if (FileBlockers.empty()) {
          Syncs = findExplicitSyncs(FA, Device, Cra);
          // Ignoring a sync moves no op to another stream (planStreams reads
          // which ops run asynchronously, not the syncs): the trial runs
          // need only the plan's streams.
          SyncDecisions = decideRedundantSyncs(
              Syncs, FA, [&](llvm::ArrayRef<const Expr *> Ignored, const BodyWalk &Walk) {
                return runCra(FA, Blocked, InactiveCode,
                              Plan.NumStreams > 0 ? &Plan.StreamOf : nullptr, Ignored,
                              Options.TimerWaits, Walk);
              });
          // Where nothing runs asynchronously the syncs cost what they did.
          KeepsSyncs = !Options.DropRedundantSyncs ||
                       llvm::none_of(Cra.Ops, [](const OpDecision &D) { return D.Async; });
          if (!KeepsSyncs)
            Dropped = droppedSyncCalls(Syncs, SyncDecisions);
        }
        if (!Dropped.empty())
          Cra = Analyse(Dropped, Plan);
        std::vector<unsigned> Misplaced = Rewriter.misplacedWaits(FA, Cra);
        for (unsigned Op : Misplaced) {
          Blocked[Op] = "the wait it needs would fall inside a macro expansion before it";
          Carried[FA.ops()[Op].Call] = Blocked[Op];
        }
        // The expansions of one macro argument share its text: they run
        // alike, or all stay synchronous.
        std::vector<std::pair<unsigned, std::string>> Unlike =
            Rewriter.expansionsRunningUnlike(FA, Blocked, Cra, Plan);
        for (auto &[Op, Why] : Unlike)
          Carried[FA.ops()[Op].Call] = Blocked[Op] = std::move(Why);
        if (Misplaced.empty() && Unlike.empty())
          break;
      }
      // A group is converted whole or not at all: an allocation or release
      // that stays synchronous (in a condition, a macro body, ...) keeps its
      // partners synchronous too, and the function is analysed again.
      if (demoteAllocGroups(FA, Cra, Groups))
        continue;
      // Changes that are safe but cannot pay stay out (Profitability.h); what
      // they leave synchronous changes the plan, so the function is analysed
      // again until nothing more is dropped.
      if (!Options.Profitability || !FileBlockers.empty() ||
          !keepUnprofitableOpsSynchronous(
              FA, Cra, Plan,
              !KeepsSyncs &&
                  llvm::any_of(SyncDecisions, [](const SyncDecision &D) { return D.Drop; }),
              Carried, ProfitPins, Loops))
        break;
    }
    // Phases "edits" and "report": from the final FA, Cra, Plan and sync
    // decisions.
    const FunctionAccesses &FA = *FAOwner;
    reportAllocGroups(F, Ctx, Groups);
    decideLaunchLoops(Loops, FA, Cra, Plan);
    const SourceManager &SMgr = Ctx.getSourceManager();
    for (LaunchLoop &L : Loops)
      if (L.WhyNot.empty() &&
          SMgr.getFileID(SMgr.getExpansionLoc(L.Loop->getBeginLoc())) != SMgr.getMainFileID())
        L.WhyNot = "it is in an included file; this version makes graphs in the main file only";
    if (FileBlockers.empty())
      recordAfterGraphLoops(Plan, Loops);
    std::vector<PinDecision> Pins =
        ProfitPins ? std::move(*ProfitPins)
                   : planPinning(FA, Cra, Options.Pin, CallsDeviceReset, {}, Options.WholeProgram);
    recordOutcome(FA, Cra, Plan, Pins);
    if (PassedToHelpers)
      PassedToHelpers->recordCalls(FA, Pins);
    // Callers analysed later may rely on this: its GPU work stays on the
    // legacy stream, in program order.
    bool NothingAsync = llvm::none_of(Cra.Ops, [](const OpDecision &D) { return D.Async; });
    if (NothingAsync && llvm::none_of(FA.ops(), [](const GpuOp &Op) { return Op.HasUserStream; }))
      Device.setLeftAsWritten(&F, callCompletesEarlierWork(FA));
    // And on this: a call of it completes the caller's work on the program's
    // own streams where the original's did (with nothing asynchronous, no
    // sync is removed either).
    if (NothingAsync) {
      StmtAccesses Body = FA.accessesOf(F.getBody());
      if (!Body.CalleesMayBlockDifferently && !Body.CallsUnseen)
        Device.setBlocksAsWritten(&F);
    }
    assert(Cra.Ops.size() == FA.ops().size() && Plan.StreamOf.size() == FA.ops().size() &&
           "the final analysis and plan are for this function's ops");
    assert(Plan.WaitStreams.size() == Cra.Waits.size() &&
           "the final plan is bound to the final analysis's waits");
    assert(SyncDecisions.size() == Syncs.size() && "a decision per explicit sync");
    std::vector<unsigned> WaitsNotWritten;
    if (FileBlockers.empty()) {
      // A device sync waits no longer than the plan's streams do when the
      // rest of the program's work is at most a copy's DMA tail.
      Plan.OnlyPlannedWork =
          llvm::all_of(untrackedGpuWork(FA, Device, Cra),
                       [](const UntrackedWork &W) { return W.HostToDeviceCopy; });
      WaitsNotWritten = Rewriter.addFunction(FA, Cra, Plan);
      if (runsUnorderedByCallers(F))
        Rewriter.orderAfterEarlierWork(FA, Plan);
      if (std::optional<unsigned> Stream = Device.pendingWorkStream(&F);
          Stream && ReturnsWithWork.count(F.getCanonicalDecl()))
        Rewriter.joinPendingWork(FA, Cra, Plan, *Stream);
      Rewriter.addPinning(Pins);
      Rewriter.addGraphLoops(Loops);
    }
    for (unsigned I = 0; I < Syncs.size(); ++I) {
      const ExplicitSync &S = Syncs[I];
      const SyncDecision &D = SyncDecisions[I];
      SyncReport R{FA.name(), S.Line,       S.Callee, D.Redundant, S.Removable,
                   false,     D.PendingOps, D.Reason, {}};
      R.Dropped = D.Drop && !KeepsSyncs && FileBlockers.empty();
      if (D.Drop && !Options.DropRedundantSyncs)
        R.Reason += "; kept: --keep-syncs";
      else if (D.Drop && KeepsSyncs)
        R.Reason += "; kept: no GPU op of " + FA.name() + " runs asynchronously";
      if (R.Dropped)
        Rewriter.dropStatement(S.Begin, S.End,
                               "removed a redundant " + S.Callee + "() (" + D.Short +
                                   "; see the report)");
      Result.Report.Syncs.push_back(std::move(R));
    }

    if (dumps(DumpStage::Accesses))
      FA.print(Dump);
    if (dumps(DumpStage::Pending))
      Cra.print(Dump, FA);
    if (dumps(DumpStage::Schedule))
      Plan.print(Dump, FA);
    if (Options.WantGraph && !FA.ops().empty()) {
      llvm::raw_string_ostream Graph(Result.Graph);
      Plan.printDot(Graph, FA, GraphClusters++);
    }

    for (const GpuOp &Op : FA.ops()) {
      const OpDecision &D = Cra.Ops[Op.Id];
      OpReport R;
      R.Function = FA.name();
      R.Line = Op.Line;
      R.Column = Op.Column;
      R.Callee = Op.Callee;
      R.Kind = opKindName(Op.Kind);
      R.Async = D.Async && FileBlockers.empty();
      R.Stream = Plan.StreamOf[Op.Id];
      if (D.WaitIndex)
        R.WaitLine = Cra.Waits[*D.WaitIndex].Line;
      R.PendingOnReturn = llvm::is_contained(Cra.LeftPending, Op.Id);
      R.Reason = D.WhySync;
      Result.Report.Ops.push_back(std::move(R));
    }
    for (const LaunchLoop &L : Loops) {
      LoopReport R;
      R.Function = FA.name();
      R.Line = L.Line;
      R.Graph = L.WhyNot.empty() && FileBlockers.empty();
      R.Ops = L.Ops.size();
      R.Stream = L.Stream;
      R.DirectIterations = L.DirectIterations;
      R.Reason = FileBlockers.empty() ? L.WhyNot : "the file is left unchanged";
      Result.Report.Loops.push_back(std::move(R));
    }
    if (!FileBlockers.empty())
      return;
    for (const PinDecision &D : Pins)
      if (!D.SiteOnly)
        Result.Report.Buffers.push_back(
            {FA.name(), D.Name, D.Line, pinActionName(D.Action).str(), D.Why, {}});
    auto opLines = [&](const std::vector<unsigned> &Ops) {
      std::vector<unsigned> Lines;
      for (unsigned Op : Ops)
        Lines.push_back(FA.ops()[Op].Line);
      return Lines;
    };
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<const Expr *> DroppedSyncs;
    if (!KeepsSyncs)
      DroppedSyncs = droppedSyncCalls(Syncs, SyncDecisions);
    for (unsigned I = 0; I < Cra.Waits.size(); ++I) {
      const Wait &W = Cra.Waits[I];
      WaitReport R;
      R.Function = FA.name();
      R.Line = W.Line;
      R.Cause = waitCauseName(W.Cause).str();
      R.Reason = describeWait(W, FA);
      R.OpLines = opLines(W.Covers);
      R.Cost = llvm::is_contained(WaitsNotWritten, I)
                   ? "the same place and calls as a wait above: written once"
                   : waitCost(W, Cra, FA, Plan.waitCalls(I), DroppedSyncs);
      Result.Report.Waits.push_back(std::move(R));
    }
    for (const ClockRead &C : Cra.ClockReads)
      Result.Report.ClockReads.push_back({FA.name(),
                                          C.Line,
                                          SM.getExpansionLineNumber(C.Statement->getEndLoc()),
                                          opLines(C.DoneInOriginal),
                                          opLines(C.PendingAtRead),
                                          {}});
    Result.Report.Functions.push_back({FA.name(),
                                       SM.getExpansionLineNumber(F.getBeginLoc()),
                                       SM.getExpansionLineNumber(F.getEndLoc()),
                                       {}});
  }

  /// What the analysis just made of \p FA decides, for decidePendingWork,
  /// where its work stays pending and what its calls of such helpers gain.
  void recordOutcome(const FunctionAccesses &FA, const CraResult &Cra, const StreamPlan &Plan,
                     const std::vector<PinDecision> &Pins) {
    Outcome O;
    for (unsigned Op : Cra.LeftPending)
      if (Plan.StreamOf[Op])
        O.LeftPendingStreams.insert(*Plan.StreamOf[Op]);
    O.WaitsOnReturn = llvm::any_of(Cra.Waits, [](const Wait &W) {
      return W.Cause == WaitCause::FunctionEnd || W.Cause == WaitCause::LeavesFunction;
    });
    std::vector<std::string> Why;
    for (const GpuOp &Op : FA.ops()) {
      if (Op.Kind != GpuOpKind::CallWork)
        continue;
      if (Why.empty() && Options.Profitability)
        Why = unprofitableOps(FA, Cra, Plan, Pins, pageLockedParams(FA));
      const FunctionDecl *Callee = cast<CallExpr>(Op.Call)->getDirectCallee();
      O.Calls.push_back({Callee->getCanonicalDecl(), Cra.Ops[Op.Id].Async,
                         Why.empty() ? std::string() : Why[Op.Id], Op.Line});
    }
    Outcomes[FA.function().getCanonicalDecl()] = std::move(O);
  }

  /// The report's lines on whether each helper with GPU ops returns with
  /// its work pending (after the final run, when every caller is known).
  void reportReturns(const std::vector<const FunctionDecl *> &Functions, const SourceManager &SM) {
    for (const FunctionDecl *Def : Functions) {
      const FunctionDecl *F = Def->getCanonicalDecl();
      auto Why = WhyWaitsOnReturn.find(F);
      auto O = Outcomes.find(F);
      if (Why == WhyWaitsOnReturn.end())
        continue;
      if (O == Outcomes.end()) // no analysis: nothing to say
        continue;
      ReturnReport R;
      R.Function = displayName(*Def);
      R.Line = SM.getExpansionLineNumber(Def->getLocation());
      R.File = displayNameOf(SM.getFileID(SM.getExpansionLoc(Def->getLocation())));
      if (ReturnsWithWork.count(F) && !O->second.LeftPendingStreams.empty()) {
        R.Pending = true;
        R.Stream = *O->second.LeftPendingStreams.begin();
        std::vector<std::string> Callers;
        for (auto &[Caller, CO] : Outcomes)
          for (const CallOfPendingWork &C : CO.Calls)
            if (C.Callee == F)
              Callers.push_back("`" + Caller->getQualifiedNameAsString() + "` line " +
                                std::to_string(C.Line));
        llvm::sort(Callers);
        R.Reason = "each caller waits for it before its first access that conflicts with it (" +
                   llvm::join(Callers, ", ") + ")";
      } else if ((O->second.WaitsOnReturn || Considered.count(F)) && !Why->second.empty()) {
        R.Reason = Why->second;
      } else {
        continue;
      }
      Result.Report.Returns.push_back(std::move(R));
    }
  }

  /// Decides which helpers return with their GPU work pending. A candidate
  /// (whyEachMustWaitOnReturn) does when, analysed that way, some of its work
  /// stays pending (on its first stream that holds any, where the others
  /// join it), every call of it is an asynchronous CallWork op
  /// of its caller, and some caller overlaps that work with its own. Trial
  /// analyses of every function (edits and report dropped, the driver's
  /// findings restored before each round) run until the set and the streams
  /// no longer change; the final run then repeats the last round exactly.
  void decidePendingWork(ASTContext &Ctx, FunctionSummaries &Device,
                         const std::vector<const FunctionDecl *> &Functions,
                         const std::vector<std::string> &FileBlockers) {
    WhyWaitsOnReturn = whyEachMustWaitOnReturn(Ctx, Functions, Device, Options.WholeProgram);
    std::map<const FunctionDecl *, unsigned> StreamOf; // the candidates left, by stream
    for (const FunctionDecl *F : Functions)
      if (auto It = WhyWaitsOnReturn.find(F->getCanonicalDecl());
          It != WhyWaitsOnReturn.end() && It->second.empty()) {
        StreamOf[F->getCanonicalDecl()] = 0;
        Considered.insert(F->getCanonicalDecl());
      }
    if (StreamOf.empty() || !FileBlockers.empty())
      return;
    const FunctionSummaries::Findings Start = Device.findings();
    auto Apply = [&] {
      Device.restore(Start);
      ReturnsWithWork.clear();
      for (auto [F, Stream] : StreamOf) {
        ReturnsWithWork.insert(F);
        Device.setPendingWorkStream(F, Stream);
      }
    };
    auto Reject = [&](const FunctionDecl *F, std::string Why) {
      WhyWaitsOnReturn[F] = std::move(Why);
      StreamOf.erase(F);
    };
    constexpr unsigned MaxRounds = 6;
    bool Settled = false;
    for (unsigned Round = 0; Round < MaxRounds && !Settled && !StreamOf.empty(); ++Round) {
      Apply();
      Outcomes.clear();
      for (const FunctionDecl *F : Functions) {
        // Only the candidates' and their callers' analyses decide anything.
        if (!StreamOf.count(F->getCanonicalDecl()) && !callsAnyOf(*F, StreamOf))
          continue;
        FileRewriter Trial(Ctx);
        trialRun(*F, Ctx, Device, Trial, FileBlockers);
      }
      Settled = true;
      for (auto [F, Guess] : std::map<const FunctionDecl *, unsigned>(StreamOf)) {
        const Outcome &O = Outcomes[F];
        std::vector<const CallOfPendingWork *> Calls;
        for (auto &[Caller, CO] : Outcomes)
          for (const CallOfPendingWork &C : CO.Calls)
            if (C.Callee == F)
              Calls.push_back(&C);
        bool AllAsync = llvm::all_of(Calls, [](const CallOfPendingWork *C) { return C->Async; });
        auto Gains = llvm::find_if(
            Calls, [](const CallOfPendingWork *C) { return C->WhyNotWorthIt.empty(); });
        if (O.LeftPendingStreams.empty())
          Reject(F, "none of its GPU work could stay pending: each op left running at a return "
                    "touches a local of it, memory it allocates, memory the analysis cannot "
                    "name or the program's output, or stays synchronous");
        else if (Calls.empty() || !AllAsync)
          Reject(F, "a call of it stays synchronous in its caller");
        else if (Gains == Calls.end())
          Reject(F, "no caller overlaps the work it would return with: " +
                        Calls.front()->WhyNotWorthIt + " (line " +
                        std::to_string(Calls.front()->Line) + ")");
        else if (*O.LeftPendingStreams.begin() != Guess)
          StreamOf[F] = *O.LeftPendingStreams.begin();
        else
          continue;
        Settled = false;
      }
    }
    if (!Settled)
      for (auto [F, Stream] : std::map<const FunctionDecl *, unsigned>(StreamOf))
        Reject(F, "the analyses of it and of its callers did not settle in " +
                      std::to_string(MaxRounds) + " rounds");
    Apply();
    Outcomes.clear();
  }

  /// The parameters of \p FA's function that every caller passes
  /// page-locked memory (decidePageLockedParams).
  llvm::ArrayRef<unsigned> pageLockedParams(const FunctionAccesses &FA) const {
    auto It = PageLocked.find(FA.function().getCanonicalDecl());
    return It == PageLocked.end() ? llvm::ArrayRef<unsigned>() : llvm::ArrayRef(It->second);
  }

  /// Decides which helpers' pointer parameters every caller passes
  /// page-locked memory (PageLockedParams.h): the callers of the candidates
  /// are analysed once, as trials, with the findings restored afterwards.
  /// Only the cost model reads the answer, so no later check is needed: a
  /// caller that ends up not pinning makes those copies slower, not wrong.
  void decidePageLockedParams(ASTContext &Ctx, FunctionSummaries &Device,
                              const std::vector<const FunctionDecl *> &Functions,
                              const std::vector<std::string> &FileBlockers) {
    if (!FileBlockers.empty() || !Options.Profitability || Options.Pin == PinMode::Off ||
        CallsDeviceReset)
      return;
    PassedToHelpers.emplace(Ctx, Functions, Options.WholeProgram);
    if (PassedToHelpers->empty()) {
      PassedToHelpers.reset();
      return;
    }
    const FunctionSummaries::Findings Start = Device.findings();
    for (const FunctionDecl *F : Functions)
      if (PassedToHelpers->callsCandidate(*F)) {
        FileRewriter Trial(Ctx);
        trialRun(*F, Ctx, Device, Trial, FileBlockers);
      }
    Device.restore(Start);
    Outcomes.clear();
    PageLocked = PassedToHelpers->decide();
    PassedToHelpers.reset();
  }

  /// Whether the body of \p F calls one of \p Callees directly.
  static bool callsAnyOf(const FunctionDecl &F,
                         const std::map<const FunctionDecl *, unsigned> &Callees) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const std::map<const FunctionDecl *, unsigned> &Callees;
      bool Found = false;
      explicit Finder(const std::map<const FunctionDecl *, unsigned> &C) : Callees(C) {}
      bool VisitCallExpr(CallExpr *Call) {
        if (const FunctionDecl *Callee = Call->getDirectCallee())
          Found |= Callees.count(Callee->getCanonicalDecl()) != 0;
        return !Found;
      }
    } Find(Callees);
    Find.TraverseStmt(F.getBody());
    return Find.Found;
  }

  /// After the final run: every call of a helper that returns with work
  /// pending was asynchronous, so that its caller waits for that work (the
  /// last trial round found the same; the helper joins its work into the
  /// stream the calls wait for). Otherwise the output would be wrong, and
  /// the file fails instead.
  std::string checkPendingWork() const {
    for (auto &[Caller, O] : Outcomes)
      for (const CallOfPendingWork &C : O.Calls)
        if (!C.Async)
          return "the call of `" + C.Callee->getQualifiedNameAsString() + "` on line " +
                 std::to_string(C.Line) + " stays synchronous, but its callee returns first";
    return "";
  }
};

class PipelineAction : public ASTFrontendAction {
public:
  PipelineAction(FileResult &Result, const PipelineOptions &Options)
      : Result(Result), Options(Options) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    // Called before Clang preprocesses and parses the file.
    double ParseStart = cpuSeconds();
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorTracker>(CI.getSourceManager(), Facts));
    // -I and -iquote folders (not -isystem, nor the ones Clang adds itself).
    std::vector<std::string> IncludeDirs;
    for (const HeaderSearchOptions::Entry &E : CI.getHeaderSearchOpts().UserEntries)
      if (!E.IsFramework && (E.Group == frontend::Quoted || E.Group == frontend::Angled))
        IncludeDirs.push_back(E.Path);
    std::string WorkingDir;
    if (llvm::ErrorOr<std::string> Cwd = CI.getVirtualFileSystem().getCurrentWorkingDirectory())
      WorkingDir = *Cwd;
    return std::make_unique<PipelineConsumer>(
        Result, Options, Facts, CI.getPreprocessor(), ParseStart,
        ProjectFiles(File, IncludeDirs, WorkingDir, Options.CudaPath));
  }

private:
  FileResult &Result;
  const PipelineOptions &Options;
  PreprocessorFacts Facts;
};

} // namespace

namespace {

FileResult runTranslationUnit(const tooling::CompilationDatabase &Db, const std::string &File,
                              const PipelineOptions &Options) {
  FileResult R;
  R.Path = File;
  tooling::ClangTool Tool(Db, {File});
  Tool.appendArgumentsAdjuster(cudaHostParseAdjuster(Options.CudaPath, Options.ResourceDir));
  Tool.mapVirtualFile(nvccPreludePath(), nvccPreludeText());
  FirstErrorRecorder Diagnostics;
  Tool.setDiagnosticConsumer(&Diagnostics);
  Tool.setPrintErrorMessage(false); // the tool says it once, with the first error
  struct Factory : tooling::FrontendActionFactory {
    FileResult &R;
    const PipelineOptions &O;
    bool Ran = false;
    Factory(FileResult &R, const PipelineOptions &O) : R(R), O(O) {}
    std::unique_ptr<FrontendAction> create() override {
      // A file listed twice in the database is transformed once.
      if (Ran)
        return std::make_unique<SyntaxOnlyAction>();
      Ran = true;
      return std::make_unique<PipelineAction>(R, O);
    }
  } F(R, Options);
  Tool.run(&F);
  R.FirstError = Diagnostics.firstError();
  // An error with a clean parse came from the driver: a flag it rejected.
  if (R.Parsed && !R.FirstError.empty()) {
    R.Parsed = false;
    R.CommandLineError = true;
  }
  return R;
}

/// The first line (from 1) on which two texts differ.
unsigned firstDifferentLine(llvm::StringRef A, llvm::StringRef B) {
  size_t At = 0;
  while (At < A.size() && At < B.size() && A[At] == B[At])
    ++At;
  return 1 + A.take_front(At).count('\n');
}

/// Included files that two translation units rewrite differently (real path
/// and why), among those not kept as written already.
std::map<std::string, std::string> disagreements(const std::vector<FileResult> &Results,
                                                 const PipelineOptions &Options) {
  std::map<std::string, std::string> Found;
  std::map<std::string, std::pair<const FileResult *, const IncludedFile *>> First;
  // A unit that cannot rewrite the file (it includes it twice) would include
  // the rewritten text without defining the pool it declares.
  std::map<std::string, std::string> LeftIn;
  for (const FileResult &R : Results)
    for (const IncludedFile &Inc : R.Included)
      if (!Inc.Rewritable && Options.RewriteIncluded && !LeftIn.count(Inc.RealPath))
        LeftIn[Inc.RealPath] = "it is left as written in " + R.Path + ": " + Inc.WhyLeft;
  for (const FileResult &R : Results)
    for (const IncludedFile &Inc : R.Included) {
      if (!Inc.Rewritable || Options.KeepIncluded.count(Inc.RealPath))
        continue;
      if (auto Left = LeftIn.find(Inc.RealPath);
          Left != LeftIn.end() && Inc.Output != Inc.Original) {
        Found.try_emplace(Inc.RealPath, Left->second);
        continue;
      }
      auto [It, New] = First.try_emplace(Inc.RealPath, &R, &Inc);
      if (New || It->second.second->Output == Inc.Output || Found.count(Inc.RealPath))
        continue;
      Found[Inc.RealPath] =
          "the translation units " + It->second.first->Path + " and " + R.Path +
          " would rewrite it differently (first on line " +
          std::to_string(firstDifferentLine(It->second.second->Output, Inc.Output)) +
          " of the rewritten text)";
    }
  return Found;
}

} // namespace

std::vector<FileResult> runPipeline(const tooling::CompilationDatabase &Db,
                                    const std::vector<std::string> &Files,
                                    const PipelineOptions &Options) {
  PipelineOptions Opts = Options;
  // A translation unit of the run is rewritten as one; another one that
  // includes it leaves it alone.
  for (const std::string &File : Files) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(File, Real))
      Opts.KeepIncluded.try_emplace(std::string(Real),
                                    "it is a translation unit of this run itself");
  }
  // Phase 1: what every unit of the program exports, for the others.
  SummaryImports Imports;
  auto RealPath = [](const std::string &F) {
    llvm::SmallString<256> Real;
    return llvm::sys::fs::real_path(F, Real) ? F : std::string(Real);
  };
  std::vector<std::string> Sources = Files;
  llvm::append_range(Sources, Opts.SummarySources);
  std::set<std::string> SeenSources;
  if (Files.size() == 1) // a single input needs only the others' summaries
    SeenSources.insert(RealPath(Files.front()));
  llvm::erase_if(Sources,
                 [&](const std::string &F) { return !SeenSources.insert(RealPath(F)).second; });
  if (Opts.CrossTu && !Sources.empty())
    Imports = summariseUnits(Db, Sources, Opts);
  if (!Imports.empty())
    Opts.Imports = &Imports;
  std::vector<FileResult> Results;
  for (const std::string &File : Files) {
    if (Opts.Verbose && Opts.Imports)
      llvm::errs() << "[" << Results.size() + 1 << "/" << Files.size() << "] transforming " << File
                   << "\n";
    Results.push_back(runTranslationUnit(Db, File, Opts));
  }
  // An included file is rewritten once for every translation unit that
  // includes it, so all of them must ask for the same text. Those that do not
  // are left as written, and the units that include them run again (which
  // may change what they ask for other files; the set only grows).
  while (Opts.RewriteIncluded) {
    std::map<std::string, std::string> Differ = disagreements(Results, Opts);
    if (Differ.empty())
      break;
    Opts.KeepIncluded.insert(Differ.begin(), Differ.end());
    for (FileResult &R : Results)
      if (llvm::any_of(R.Included, [&](const IncludedFile &Inc) {
            return Inc.Rewritable && Differ.count(Inc.RealPath);
          }))
        R = runTranslationUnit(Db, R.Path, Opts);
  }
  return Results;
}

} // namespace streamalloc
