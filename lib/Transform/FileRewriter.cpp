//===- FileRewriter.cpp ---------------------------------------------------===//
#include "streamalloc/Transform/FileRewriter.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Model/ApiModel.h"
#include "streamalloc/Schedule/LaunchGraphs.h"
#include "streamalloc/Schedule/StreamPlan.h"
#include "streamalloc/Transform/HostPinning.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <cassert>
#include <map>
#include <optional>
#include <set>
#include <tuple>

using namespace clang;

namespace streamalloc {

namespace {
constexpr llvm::StringLiteral Accessor = "sa_stream";
constexpr llvm::StringLiteral PoolArray = "sa_streams_";
constexpr llvm::StringLiteral Release = "sa_release_streams";
constexpr llvm::StringLiteral EventAccessor = "sa_event";
constexpr llvm::StringLiteral EventArray = "sa_events_";
constexpr llvm::StringLiteral FreeAsync = "sa_free_async";
constexpr llvm::StringLiteral ReturnGuard = "sa_wait_on_return";
constexpr llvm::StringLiteral GraphSlots = "sa_graphs_";
constexpr llvm::StringLiteral GraphBegin = "sa_graph_begin";
constexpr llvm::StringLiteral GraphEnd = "sa_graph_end";
constexpr llvm::StringLiteral VectorGuard = "sa_registered_scope";
constexpr llvm::StringLiteral ResultRegistration = "sa_registered_result";

/// Every name the output defines at file scope.
constexpr llvm::StringLiteral DefinedNames[] = {Accessor,
                                                PoolArray,
                                                Release,
                                                EventAccessor,
                                                EventArray,
                                                "sa_is_page_locked",
                                                "sa_pinned_malloc",
                                                "sa_pinned_calloc",
                                                "sa_pinned_free",
                                                "sa_register",
                                                "sa_registered_malloc",
                                                "sa_registered_calloc",
                                                "sa_registered_aligned_alloc",
                                                "sa_registered_posix_memalign",
                                                "sa_registered_free",
                                                VectorGuard,
                                                ResultRegistration,
                                                FreeAsync,
                                                ReturnGuard,
                                                "sa_graph_slot",
                                                GraphSlots,
                                                GraphBegin,
                                                GraphEnd};

std::string streamExpr(unsigned Stream) {
  return (Accessor + "(" + llvm::Twine(Stream) + ")").str();
}
/// `f(a, b);` for the table's function \p Id.
std::string callStatement(ApiId Id, llvm::ArrayRef<std::string> Args) {
  return (apiName(Id) + "(" + llvm::join(Args, ", ") + ");").str();
}

/// The type of the guard that waits when a statement is left by a return.
/// Guarded by a macro when several files of one translation unit define it.
std::string returnGuardDefinition(bool Guarded) {
  std::string Macro = "STREAMALLOC_" + ReturnGuard.upper() + "_DEFINED";
  std::string Text;
  if (Guarded)
    Text += "#ifndef " + Macro + "\n#define " + Macro + "\n";
  Text += ("// streamalloc: waits when control leaves a statement by a return (an error-check\n"
           "// macro that may return), not when the statement completes.\n"
           "struct " +
           ReturnGuard + " {\n" + "  void (*wait)();\n" + "  bool armed;\n" + "  ~" + ReturnGuard +
           "() {\n" + "    if (armed)\n" + "      wait();\n" + "  }\n" + "};\n")
              .str();
  if (Guarded)
    Text += "#endif\n";
  return Text;
}

/// The graph slots and the two calls a loop replayed as a graph makes
/// (Schedule/LaunchGraphs.h): sa_graph_begin says how the body runs this
/// pass (2: directly; 1: captured), sa_graph_end ends a capture and launches
/// the graph (0: done; 2: it failed, run the body directly).
std::string graphHelpers(unsigned Slots) {
  auto Fn = [](ApiId Id) { return apiName(Id).str(); };
  auto Sym = [](ApiSymbol S) { return apiSymbol(S).str(); };
  std::string Ok = " == " + Sym(ApiSymbol::cudaSuccess),
              Failed = " != " + Sym(ApiSymbol::cudaSuccess);
  std::string Clear = "(void)" + Fn(ApiId::cudaGetLastError) + "();";
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "// streamalloc: loops whose body is only GPU work run each iteration as one CUDA\n"
     << "// graph: captured on its stream, then launched once (an update of the graph made\n"
     << "// from an earlier capture). The first iterations run directly, until they have\n"
     << "// saved what the first graph costs to set up; if a capture or launch fails, the\n"
     << "// body runs directly from then on and reports its own errors.\n"
     << "struct sa_graph_slot {\n"
     << "  " << Sym(ApiSymbol::cudaGraphExec_t) << " exec;\n"
     << "  unsigned direct; // iterations run directly so far\n"
     << "  bool failed;\n"
     << "};\n"
     << "static sa_graph_slot " << GraphSlots << "[" << Slots << "];\n"
     << "static inline int " << GraphBegin << "(int i, unsigned direct, "
     << Sym(ApiSymbol::cudaStream_t) << " s) {\n"
     << "  sa_graph_slot &g = " << GraphSlots << "[i];\n"
     << "  // An error still to be reported stays the program's: no capture now.\n"
     << "  if (g.failed || g.direct < direct || " << Fn(ApiId::cudaPeekAtLastError) << "()"
     << Failed << ") {\n"
     << "    if (g.direct < direct)\n"
     << "      ++g.direct;\n"
     << "    return 2;\n"
     << "  }\n"
     << "  if (" << Fn(ApiId::cudaStreamBeginCapture) << "(s, "
     << Sym(ApiSymbol::cudaStreamCaptureModeThreadLocal) << ")" << Failed << ") {\n"
     << "    " << Clear << "\n"
     << "    g.failed = true;\n"
     << "    return 2;\n"
     << "  }\n"
     << "  return 1;\n"
     << "}\n"
     << "static inline int " << GraphEnd << "(int i, " << Sym(ApiSymbol::cudaStream_t)
     << " s, int pass) {\n"
     << "  if (pass != 1)\n"
     << "    return 0;\n"
     << "  sa_graph_slot &g = " << GraphSlots << "[i];\n"
     << "  " << Sym(ApiSymbol::cudaGraph_t) << " graph = nullptr;\n"
     << "  bool ok = " << Fn(ApiId::cudaStreamEndCapture) << "(s, &graph)" << Ok << ";\n"
     << "  if (ok && g.exec) {\n"
     << "    " << Sym(ApiSymbol::cudaGraphExecUpdateResultInfo) << " info;\n"
     << "    if (" << Fn(ApiId::cudaGraphExecUpdate) << "(g.exec, graph, &info)" << Failed
     << ") {\n"
     << "      " << Clear << "\n"
     << "      " << Fn(ApiId::cudaGraphExecDestroy) << "(g.exec);\n"
     << "      g.exec = nullptr;\n"
     << "    }\n"
     << "  }\n"
     << "  if (ok && !g.exec)\n"
     << "    ok = " << Fn(ApiId::cudaGraphInstantiate) << "(&g.exec, graph, 0)" << Ok << ";\n"
     << "  if (graph)\n"
     << "    " << Fn(ApiId::cudaGraphDestroy) << "(graph);\n"
     << "  if (ok && " << Fn(ApiId::cudaGraphLaunch) << "(g.exec, s)" << Ok << ")\n"
     << "    return 0;\n"
     << "  " << Clear << "\n"
     << "  g.failed = true;\n"
     << "  return 2;\n"
     << "}\n";
  return Text;
}

} // namespace

struct FileRewriter::Impl {
  ASTContext &Ctx;
  const SourceManager &SM;
  llvm::StringRef Buffer;
  EditList Edits;
  std::optional<unsigned> LastStream;
  unsigned NumEvents = 0; ///< events of the file used by the functions added so far
  unsigned NumGraphs = 0; ///< loops of the main file replayed as graphs
  /// The page-locking helpers the edits call (sa_pinned_malloc, ...): only
  /// those are emitted, so the output has no unused function.
  llvm::StringSet<> HelpersCalled;
  llvm::SmallPtrSet<const Expr *, 8> PinnedSites; ///< allocations already rewritten (all files)
  bool FreeHelper = false;                        ///< a stream-ordered cudaFree was rewritten
  bool ReturnGuards = false;                      ///< a statement waits only when it returns
  std::vector<std::pair<FileID, InsertionPoint>> Releases;
  /// Single-statement bodies put in braces.
  llvm::DenseSet<const Stmt *> WrappedBodies;
  /// The file being edited (Buffer is its text; Edits, HelpersCalled,
  /// FreeHelper and ReturnGuards are its state), and the state of the others.
  FileID File;
  struct FileState {
    EditList Edits;
    llvm::StringSet<> HelpersCalled;
    bool FreeHelper = false, ReturnGuards = false;
    unsigned NumEvents = 0;
  };
  std::map<FileID, FileState> Others;
  /// Per included file, the name part of its event accessor (its file name).
  std::map<FileID, std::string> Tags;

  explicit Impl(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Buffer(SM.getBufferData(SM.getMainFileID())),
        File(SM.getMainFileID()) {}

  /// Makes \p F the file being edited.
  void select(FileID F) {
    if (F == File || F.isInvalid())
      return;
    Others[File] = {std::move(Edits), std::move(HelpersCalled), FreeHelper, ReturnGuards,
                    NumEvents};
    FileState In = std::move(Others[F]);
    Others.erase(F);
    Edits = std::move(In.Edits);
    HelpersCalled = std::move(In.HelpersCalled);
    FreeHelper = In.FreeHelper;
    ReturnGuards = In.ReturnGuards;
    NumEvents = In.NumEvents;
    File = F;
    Buffer = SM.getBufferData(F);
  }
  /// Makes the file that holds \p L (at its outermost expansion) the one edited.
  void selectFileOf(SourceLocation L) { select(SM.getFileID(SM.getExpansionLoc(L))); }
  bool inFile(SourceLocation FileLoc) const { return SM.getFileID(FileLoc) == File; }

  /// The event accessor of \p F: the main file's `sa_event`, or one per
  /// included file, `sa_event_<its file name>`, whose events are numbered on
  /// their own: a header's text then does not depend on which other files a
  /// translation unit includes before it.
  std::string eventAccessor(FileID F) {
    if (F == SM.getMainFileID())
      return EventAccessor.str();
    auto [It, New] = Tags.try_emplace(F);
    if (New) {
      std::string Name;
      if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(F))
        Name = llvm::sys::path::filename(Entry->getName()).str();
      for (char &C : Name)
        if (!llvm::isAlnum(C))
          C = '_';
      std::string Tag = Name;
      for (unsigned I = 2; llvm::any_of(Tags, [&](const auto &T) { return T.second == Tag; }); ++I)
        Tag = Name + "_" + std::to_string(I);
      It->second = Tag;
    }
    return EventAccessor.str() + "_" + It->second;
  }
  std::string eventExpr(unsigned Event) {
    return eventAccessor(File) + "(" + std::to_string(Event) + ")";
  }

  /// File offset where the token at \p L is spelled in the main file, if it
  /// is spelled there directly or through macro arguments only. Otherwise the
  /// reason, in words.
  std::optional<unsigned> spelledOffset(SourceLocation L, std::string *Why) const {
    while (L.isMacroID()) {
      if (!SM.isMacroArgExpansion(L)) {
        if (Why)
          *Why = "spelled inside the body of macro `" +
                 Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts()).str() + "`";
        return std::nullopt;
      }
      L = SM.getImmediateSpellingLoc(L);
    }
    if (!inFile(L)) {
      if (Why)
        *Why = "spelled in another file than its function";
      return std::nullopt;
    }
    return SM.getFileOffset(L);
  }

  /// Offset of the start of a statement or brace, at the outermost macro
  /// expansion (a wait never goes between a macro's tokens).
  std::optional<unsigned> expansionOffset(SourceLocation L) const {
    L = SM.getExpansionLoc(L);
    if (!inFile(L))
      return std::nullopt;
    return SM.getFileOffset(L);
  }

  /// For a statement \p S of a macro expansion that may return: the file
  /// range [begin, end) of the invocation and the `;` after it, when the
  /// invocation is one whole statement of a block (so that braces around it
  /// hide no declaration and leave the control flow as it is).
  std::optional<std::pair<unsigned, unsigned>> guardRange(const Stmt *S) const {
    if (!S->getBeginLoc().isMacroID() || !canInsertAfter(S))
      return std::nullopt;
    const Stmt *Whole = Wrapped(S);
    if (isa<DeclStmt>(Whole))
      return std::nullopt;
    CharSourceRange Invocation = SM.getExpansionRange(S->getBeginLoc());
    if (!inFile(Invocation.getBegin()))
      return std::nullopt;
    unsigned Begin = SM.getFileOffset(Invocation.getBegin());
    if (expansionOffset(Whole->getEndLoc()) != Begin)
      return std::nullopt; // the statement goes on after the invocation (an `else`)
    auto Parents = Ctx.getParents(*Whole);
    if (const auto *Block = Parents.size() == 1 ? Parents[0].get<CompoundStmt>() : nullptr) {
      unsigned Statements = 0;
      for (const Stmt *Child : Block->body())
        Statements += expansionOffset(Child->getBeginLoc()) == Begin;
      if (Statements != 1)
        return std::nullopt; // the macro expands to several statements
    }
    unsigned End =
        SM.getFileOffset(Lexer::getLocForEndOfToken(Invocation.getEnd(), 0, SM, Ctx.getLangOpts()));
    size_t Semi = Buffer.find_first_not_of(" \t", End);
    if (Semi != llvm::StringRef::npos && Buffer[Semi] == ';')
      End = Semi + 1;
    return std::make_pair(Begin, End);
  }

  /// Runs \p Code when control leaves the statement at \p Range by a return
  /// (or any other jump), not when it completes: `{ guard; stmt; disarm; }`.
  void guardReturns(std::pair<unsigned, unsigned> Range, const std::string &Code,
                    const std::string &Reason) {
    ReturnGuards = true;
    llvm::StringRef Macro =
        Buffer.substr(Range.first).take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
    Edits.insert(Range.first, "{ " + ReturnGuard.str() + " sa_on_return{[] { " + Code +
                                  " }, true}; /* streamalloc: only if " + Macro.str() +
                                  " exits early: " + Reason + " */ ");
    Edits.insert(Range.second, " sa_on_return.armed = false; }");
  }

  std::optional<unsigned> insertionOffset(const InsertionPoint &Where) const {
    assert((Where.K == InsertionPoint::InInactiveCode || Where.Anchor) &&
           "an insertion point names its statement");
    if (Where.K == InsertionPoint::InInactiveCode)
      return Where.Offset;
    if (Where.K == InsertionPoint::BlockEnd)
      return expansionOffset(cast<CompoundStmt>(Where.Anchor)->getRBracLoc());
    if (Where.K == InsertionPoint::BodyEnd)
      return bodyEndOffset(Where.Anchor, Ctx);
    return expansionOffset(Where.Anchor->getBeginLoc());
  }

  unsigned lineStart(unsigned Offset) const {
    assert(Offset <= Buffer.size() && "an offset inside the file being edited");
    size_t NL = Buffer.rfind('\n', Offset); // looks at the bytes before Offset
    return NL == llvm::StringRef::npos ? 0 : NL + 1;
  }
  bool onlyBlanksBefore(unsigned Offset) const {
    return Buffer.slice(lineStart(Offset), Offset).find_first_not_of(" \t") ==
           llvm::StringRef::npos;
  }
  std::string indentOf(unsigned Offset) const {
    llvm::StringRef Line = Buffer.substr(lineStart(Offset));
    return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
  }

  /// Inserts \p Code with \p Reason at \p Where: on a line of its own when
  /// the anchor starts its line, otherwise inline.
  void insertAt(const InsertionPoint &Where, const std::string &Code, const std::string &Reason) {
    std::optional<unsigned> Offset = insertionOffset(Where);
    if (!Offset)
      return; // misplacedWaits() has kept the ops this wait would cover synchronous
    // After a wrapped body, before its `}`: on the body's last line (the `}`
    // may be on the next line, before the code that follows the body).
    if (Where.K == InsertionPoint::BodyEnd) {
      Edits.insert(*Offset, " " + Code + " /* streamalloc: " + Reason + " */");
      return;
    }
    if (!onlyBlanksBefore(*Offset)) {
      Edits.insert(*Offset, Code + " /* streamalloc: " + Reason + " */ ");
      return;
    }
    std::string Indent = indentOf(*Offset);
    if (Where.K == InsertionPoint::BlockEnd) {
      const auto *Block = cast<CompoundStmt>(Where.Anchor);
      std::optional<unsigned> Last =
          Block->body_empty() ? std::nullopt : expansionOffset(Block->body_back()->getBeginLoc());
      Indent = (Last && onlyBlanksBefore(*Last) && *Last > lineStart(*Offset) - 1) ? indentOf(*Last)
                                                                                   : Indent + "  ";
    }
    unsigned Line = lineStart(*Offset);
    if (Where.K == InsertionPoint::BeforeStmt)
      Line = abovePragmas(Line);
    Edits.insert(Line, Indent + Code + "  // streamalloc: " + Reason + "\n");
  }

  /// The start of the `#pragma` lines (with their `\` continuations) right
  /// above the line starting at \p Line, or \p Line: a pragma applies to the
  /// statement after it (`#pragma omp parallel for`, `#pragma unroll`), so
  /// code inserted before the statement goes above its pragmas. (A file
  /// parsed without -fopenmp has its OpenMP pragmas only as text.)
  unsigned abovePragmas(unsigned Line) const {
    while (Line > 0) {
      // The line above, and the lines it continues.
      unsigned Top = lineStart(Line - 1);
      while (Top > 0 && Buffer.slice(lineStart(Top - 1), Top - 1).rtrim(" \t\r").ends_with("\\"))
        Top = lineStart(Top - 1);
      if (!Buffer.slice(Top, Line).ltrim(" \t").starts_with("#pragma"))
        break;
      Line = Top;
    }
    return Line;
  }

  /// Whether code can go after \p S: the outermost statement of the macro
  /// expansion S comes from (S itself without one) sits directly in a block.
  /// (After a single-statement body it would run on every path, and before
  /// an `else` it would not compile.)
  bool canInsertAfter(const Stmt *S) const {
    unsigned Key = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
    while (true) {
      if (WrappedBodies.contains(S))
        return true;
      auto Parents = Ctx.getParents(*S);
      const Stmt *Parent = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
      if (!Parent)
        return false;
      if (SM.getFileOffset(SM.getExpansionLoc(Parent->getBeginLoc())) != Key)
        return isa<CompoundStmt>(Parent);
      S = Parent;
    }
  }

  /// Inserts \p Code after statement \p S (after its `;`, outside any macro
  /// expansion it ends in): on a line of its own when only a comment follows
  /// on S's line, otherwise inline.
  void insertAfter(const Stmt *S, const std::string &Code, const std::string &Reason) {
    CharSourceRange Range = SM.getExpansionRange(S->getEndLoc());
    if (!inFile(Range.getBegin()))
      return;
    unsigned End =
        SM.getFileOffset(Lexer::getLocForEndOfToken(Range.getEnd(), 0, SM, Ctx.getLangOpts()));
    size_t Semi = Buffer.find_first_not_of(" \t", End);
    if (Semi != llvm::StringRef::npos && Buffer[Semi] == ';')
      End = Semi + 1;
    size_t NL = Buffer.find('\n', End);
    llvm::StringRef Rest = Buffer.slice(End, NL).trim();
    if (NL != llvm::StringRef::npos && (Rest.empty() || Rest.starts_with("//")) &&
        !WrappedBodies.contains(Wrapped(S))) {
      unsigned Begin = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
      Edits.insert(NL + 1, indentOf(Begin) + Code + "  // streamalloc: " + Reason + "\n");
      return;
    }
    Edits.insert(End, " " + Code + " /* streamalloc: " + Reason + " */");
  }

  /// The outermost statement of the macro expansion \p S comes from (S
  /// itself without one).
  const Stmt *Wrapped(const Stmt *S) const {
    unsigned Key = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
    while (true) {
      auto Parents = Ctx.getParents(*S);
      const Stmt *Parent = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
      if (!Parent || SM.getFileOffset(SM.getExpansionLoc(Parent->getBeginLoc())) != Key)
        return S;
      S = Parent;
    }
  }

  /// Puts the bodies in \p Bodies in braces. The `{` goes after the `)`,
  /// `else` or `do` before the body; the `}` after the body's `;`, preceded
  /// by the waits at the body's end (\p EndWaits: code and reason per body).
  /// Nested bodies closing at one offset close innermost first, each after
  /// its own end waits. On a line of its own when nothing but a comment
  /// follows the body there (inserted now, so that code inserted later before
  /// the next line's statement follows it); otherwise on the same line
  /// (appended to \p Inline, to be inserted after every other edit there).
  void wrapBodies(llvm::ArrayRef<std::pair<const Stmt *, const Stmt *>> Bodies,
                  const llvm::DenseMap<const Stmt *,
                                       std::vector<std::pair<std::string, std::string>>> &EndWaits,
                  std::vector<std::pair<unsigned, std::string>> &Inline) {
    for (auto [Owner, Body] : Bodies) {
      assert(bodyOpenOffset(Owner, Body, Ctx) && bodyEndOffset(Body, Ctx) &&
             "CRA wraps only bodies that braces can go around");
      WrappedBodies.insert(Body);
      Edits.insert(*bodyOpenOffset(Owner, Body, Ctx), " {");
    }
    for (auto [Owner, Body] : llvm::reverse(Bodies)) {
      unsigned Open = *bodyOpenOffset(Owner, Body, Ctx);
      unsigned End = *bodyEndOffset(Body, Ctx);
      size_t NL = Buffer.find('\n', End);
      llvm::StringRef Rest = Buffer.slice(End, NL).trim();
      bool OwnLine = NL != llvm::StringRef::npos && (Rest.empty() || Rest.starts_with("//"));
      auto It = EndWaits.find(Body);
      if (It != EndWaits.end())
        for (const auto &[Code, Reason] : It->second) {
          if (OwnLine)
            Edits.insert(NL + 1, indentOf(*expansionOffset(Body->getBeginLoc())) + Code +
                                     "  // streamalloc: " + Reason + "\n");
          else
            Inline.push_back({End, " " + Code + " /* streamalloc: " + Reason + " */"});
        }
      if (OwnLine)
        Edits.insert(NL + 1, indentOf(Open) + "}\n");
      else
        Inline.push_back({End, " }"});
    }
  }

  std::optional<unsigned> opEnd(const GpuOp &Op) const {
    SourceLocation End = cast<CallExpr>(Op.Call)->getRParenLoc();
    return spelledOffset(End, nullptr);
  }

  /// For an included file: declarations of the pool and helpers its edits
  /// call (the main file defines them); empty when it calls none.
  std::string poolDeclarations(bool UsesStreams) {
    auto Sym = [](ApiSymbol S) { return apiSymbol(S).str(); };
    auto Mentions = [&](llvm::StringRef Name) {
      for (const Edit &E : Edits.all())
        if (llvm::StringRef(E.Text).contains((Name + "(").str()))
          return true;
      return false;
    };
    std::string Decls;
    auto Declare = [&](llvm::StringRef Name, const std::string &Declaration) {
      // A page-locking helper replaces a call's name (the `(` is the program's).
      if (Mentions(Name) || HelpersCalled.contains(Name))
        Decls += "static inline " + Declaration + ";\n";
    };
    if (UsesStreams) {
      Declare(Accessor, Sym(ApiSymbol::cudaStream_t) + " " + Accessor.str() + "(int i)");
      std::string Events = eventAccessor(File);
      Declare(Events, Sym(ApiSymbol::cudaEvent_t) + " " + Events + "(int i)");
      Declare(Release, "void " + Release.str() + "()");
    }
    // A stream-ordered release replaces the call's name, like the page-locking helpers.
    if (FreeHelper)
      Decls += "static inline " + Sym(ApiSymbol::cudaError_t) + " " + FreeAsync.str() +
               "(void *p, " + Sym(ApiSymbol::cudaStream_t) + " s);\n";
    for (llvm::StringRef Name : {"sa_pinned_malloc", "sa_registered_malloc"})
      if (HelpersCalled.contains(Name))
        Declare(Name, "void *" + Name.str() + "(size_t bytes)");
    for (llvm::StringRef Name : {"sa_pinned_calloc", "sa_registered_calloc"})
      if (HelpersCalled.contains(Name))
        Declare(Name, "void *" + Name.str() + "(size_t count, size_t size)");
    if (HelpersCalled.contains("sa_registered_aligned_alloc"))
      Declare("sa_registered_aligned_alloc",
              "void *sa_registered_aligned_alloc(size_t alignment, size_t bytes)");
    if (HelpersCalled.contains("sa_registered_posix_memalign"))
      Declare("sa_registered_posix_memalign",
              "int sa_registered_posix_memalign(void **p, size_t alignment, size_t bytes)");
    for (llvm::StringRef Name : {"sa_pinned_free", "sa_registered_free"})
      if (HelpersCalled.contains(Name))
        Declare(Name, "void " + Name.str() + "(void *p)");
    if (HelpersCalled.contains(ResultRegistration))
      Decls += "template <class T> static inline T *" + ResultRegistration.str() +
               "(T *p, size_t bytes);\n";
    std::string Text;
    if (!Decls.empty())
      Text = "\n// streamalloc: the stream pool and helpers the code below uses, defined once per\n"
             "// translation unit by its main file (after its #include lines).\n" +
             Decls;
    if (ReturnGuards)
      Text += (Text.empty() ? "\n" : "") + returnGuardDefinition(true);
    return Text;
  }

  std::string whyNotRewritable(const GpuOp &Op) const;
  void rewriteOp(const GpuOp &Op, unsigned Stream);
};

std::string FileRewriter::Impl::whyNotRewritable(const GpuOp &Op) const {
  std::string Why;
  if (Op.Kind == GpuOpKind::CallWork)
    return ""; // the call stays as written; its callee puts the work on the stream
  if (Op.HasUserStream && !Op.Api && !isa<CUDAKernelCallExpr>(Op.Call))
    return "the call may return with work running on a stream of the program's own; that "
           "work is ordered with the rest, the call left as written";
  if (Op.HasUserStream)
    return "it already runs on a stream of the program's own";
  if (!spelledOffset(cast<CallExpr>(Op.Call)->getRParenLoc(), &Why))
    return Why;
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Op.Call)) {
    std::optional<unsigned> Close = spelledOffset(Launch->getConfig()->getRParenLoc(), &Why);
    if (!Close)
      return "its `>>>` is " + Why;
    if (!Buffer.substr(*Close).starts_with(">>>"))
      return "its launch configuration is not written as `<<<...>>>`";
    return "";
  }
  const auto *Callee =
      dyn_cast<DeclRefExpr>(cast<CallExpr>(Op.Call)->getCallee()->IgnoreImpCasts());
  if (!Callee)
    return "the callee is not a plain function name";
  std::optional<unsigned> Name = spelledOffset(Callee->getLocation(), &Why);
  if (!Name)
    return Why;
  if (!Buffer.substr(*Name).starts_with(Op.Api->Name))
    return "the callee is spelled through another name";
  if (Op.Api->AsyncName.empty())
    return "it has no asynchronous form";
  return "";
}

void FileRewriter::Impl::rewriteOp(const GpuOp &Op, unsigned Stream) {
  LastStream = std::max(LastStream.value_or(0), Stream);
  if (Op.Kind == GpuOpKind::CallWork)
    return;
  const auto *Call = cast<CallExpr>(Op.Call);
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
    const CallExpr *Config = Launch->getConfig();
    unsigned Explicit = 0;
    for (const Expr *Arg : Config->arguments())
      Explicit += !isa<CXXDefaultArgExpr>(Arg);
    assert(spelledOffset(Config->getRParenLoc(), nullptr) && "rewritability() checked the `>>>`");
    unsigned Close = *spelledOffset(Config->getRParenLoc(), nullptr);
    if (Explicit >= 4) {
      // An explicit null stream: replace it.
      CharSourceRange Range = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Config->getArg(3)->getSourceRange()), SM,
          Ctx.getLangOpts());
      unsigned Begin = SM.getFileOffset(Range.getBegin());
      Edits.replace(Begin, SM.getFileOffset(Range.getEnd()) - Begin, streamExpr(Stream));
      return;
    }
    Edits.insert(Close, std::string(Explicit == 2 ? ", 0, " : ", ") + streamExpr(Stream));
    return;
  }
  const auto *Callee = cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
  assert(spelledOffset(Callee->getLocation(), nullptr) &&
         spelledOffset(Call->getRParenLoc(), nullptr) &&
         "rewritability() checked the callee's and the `)`'s spelling");
  unsigned Name = *spelledOffset(Callee->getLocation(), nullptr);
  // A stream-ordered release keeps cudaFree's documented meaning for a null
  // pointer (nothing happens), which cudaFreeAsync does not document.
  bool Free = Op.Kind == GpuOpKind::Free;
  FreeHelper |= Free;
  Edits.replace(Name, Op.Api->Name.size(), Free ? FreeAsync.str() : Op.Api->AsyncName.str());
  unsigned Explicit = 0;
  for (const Expr *Arg : Call->arguments())
    Explicit += !isa<CXXDefaultArgExpr>(Arg);
  std::string Tail;
  llvm::SmallVector<llvm::StringRef, 4> Defaults;
  Op.Api->Defaults.split(Defaults, ',', -1, false);
  assert((Explicit >= Op.Api->StreamArgIndex ||
          (Explicit >= Op.Api->FirstDefaultedArg &&
           Op.Api->StreamArgIndex - Op.Api->FirstDefaultedArg <= Defaults.size())) &&
         "the API table gives a default for every argument left out before the stream");
  for (unsigned I = Explicit; I < Op.Api->StreamArgIndex; ++I)
    Tail += ", " + Defaults[I - Op.Api->FirstDefaultedArg].trim().str();
  Edits.insert(*spelledOffset(Call->getRParenLoc(), nullptr), Tail + ", " + streamExpr(Stream));
}

void FileRewriter::addPinning(const std::vector<PinDecision> &Decisions) {
  auto &SM = P->SM;
  const LangOptions &LO = P->Ctx.getLangOpts();
  auto Text = [&](const Expr *E) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO).str();
  };
  auto TokenEnd = [&](SourceLocation L) {
    return SM.getFileOffset(Lexer::getLocForEndOfToken(L, 0, SM, LO));
  };
  for (const PinDecision &D : Decisions) {
    // A buffer a class owns is rewritten once, in the class, for all the
    // functions whose objects pin it.
    if (D.Action == PinAction::Pageable || !D.Site || !P->PinnedSites.insert(D.Site).second)
      continue;
    P->selectFileOf(D.Site->getBeginLoc());
    if (D.Vector) {
      // A guard declared after the vector ends before it, on every path.
      assert(D.RegisterAfter && P->canInsertAfter(D.RegisterAfter) &&
             "a vector's elements are registered after a statement of its block");
      std::string V = D.Vector->getNameAsString();
      P->HelpersCalled.insert(std::string(VectorGuard));
      P->insertAfter(D.RegisterAfter,
                     VectorGuard.str() + " sa_registered_" + V + "(" + V + ".data(), " + V +
                         ".size() * sizeof(*" + V + ".data()));",
                     "`" + V + "`'s elements page-locked while it lives");
      continue;
    }
    std::string Kind = D.Action == PinAction::Register ? "sa_registered_" : "sa_pinned_";
    const auto *Call = dyn_cast<CallExpr>(D.Site);
    const ApiFunction *Api = Call ? modelledCallee(Call) : nullptr;
    if (Call && Api && (Api->has(ApiCap::PinnableAlloc) || Api->has(ApiCap::RegistrableAlloc))) {
      assert((Api->has(ApiCap::PinnableAlloc) || D.Action == PinAction::Register) &&
             "an allocation that keeps its alignment is registered, not replaced");
      const auto *Callee = cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
      std::string Name = Callee->getDecl()->getName().str();
      P->HelpersCalled.insert(Kind + Name);
      P->Edits.replace(SM.getFileOffset(Callee->getLocation()), Name.size(), Kind + Name);
    } else if (Call && !D.RegisteredBytes.empty()) {
      // A helper left as written: its result is registered as it returns.
      P->HelpersCalled.insert(std::string(ResultRegistration));
      P->Edits.insert(SM.getFileOffset(Call->getBeginLoc()), ResultRegistration.str() + "(");
      P->Edits.insert(TokenEnd(Call->getRParenLoc()), ", " + D.RegisteredBytes + ")");
    } else if (Call) {
      // The call of a helper that allocates: the helper's own allocation is
      // a site of the group too, rewritten as such.
    } else if (const auto *New = dyn_cast<CXXNewExpr>(D.Site)) {
      std::string Type = New->getAllocatedType().getAsString(P->Ctx.getPrintingPolicy());
      std::string Count = Text(*New->getArraySize());
      std::string Helper =
          Kind + apiName(New->hasInitializer() ? ApiId::calloc : ApiId::malloc).str();
      P->HelpersCalled.insert(Helper);
      std::string Call = New->hasInitializer()
                             ? Helper + "(" + Count + ", sizeof(" + Type + "))"
                             : Helper + "(sizeof(" + Type + ") * (" + Count + "))";
      unsigned Begin = SM.getFileOffset(New->getBeginLoc());
      unsigned End = TokenEnd(New->getEndLoc());
      // In a template instantiation Clang's range of `new T[n]` ends before
      // `[n]`: the expression goes on to the `]` after the size.
      if (std::optional<Token> Close =
              Lexer::findNextToken(SM.getExpansionLoc((*New->getArraySize())->getEndLoc()), SM, LO);
          Close && Close->is(tok::r_square))
        End = std::max(End, TokenEnd(Close->getLocation()));
      P->Edits.replace(Begin, End - Begin, "static_cast<" + Type + " *>(" + Call + ")");
    }
    llvm::StringRef Free = apiWith(ApiCap::PinnableRelease).Name;
    if (!D.Releases.empty())
      P->HelpersCalled.insert(Kind + Free.str());
    for (const Expr *R : D.Releases) {
      if (const auto *Call = dyn_cast<CallExpr>(R)) {
        const auto *Callee = cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
        P->Edits.replace(SM.getFileOffset(Callee->getLocation()), Free.size(), Kind + Free.str());
      } else if (const auto *Delete = dyn_cast<CXXDeleteExpr>(R)) {
        const Expr *Arg = Delete->getArgument()->IgnoreImpCasts();
        unsigned Begin = SM.getFileOffset(Delete->getBeginLoc());
        unsigned ArgBegin = SM.getFileOffset(SM.getExpansionLoc(Arg->getBeginLoc()));
        P->Edits.replace(Begin, ArgBegin - Begin, Kind + Free.str() + "(");
        P->Edits.insert(TokenEnd(SM.getExpansionLoc(Arg->getEndLoc())), ")");
      }
    }
  }
}

FileRewriter::FileRewriter(ASTContext &Ctx) : P(std::make_unique<Impl>(Ctx)) {}

llvm::ArrayRef<llvm::StringLiteral> FileRewriter::definedNames() { return DefinedNames; }
FileRewriter::~FileRewriter() = default;

std::vector<std::string> FileRewriter::rewritability(const FunctionAccesses &FA) const {
  P->selectFileOf(FA.function().getLocation());
  std::vector<std::string> Why(FA.ops().size());
  for (const GpuOp &Op : FA.ops())
    Why[Op.Id] = P->whyNotRewritable(Op);
  return Why;
}

std::vector<std::pair<unsigned, std::string>>
FileRewriter::expansionsRunningUnlike(const FunctionAccesses &FA,
                                      const std::vector<std::string> &Blocked, const CraResult &Cra,
                                      const StreamPlan &Plan) const {
  P->selectFileOf(FA.function().getLocation());
  std::map<unsigned, std::vector<unsigned>> ByEnd;
  for (const GpuOp &Op : FA.ops())
    if (std::optional<unsigned> End = P->opEnd(Op))
      ByEnd[*End].push_back(Op.Id);
  std::vector<std::pair<unsigned, std::string>> Unlike;
  for (const auto &[End, Ops] : ByEnd) {
    auto RunsLikeFirst = [&, First = Ops.front()](unsigned Op) {
      return Cra.Ops[Op].Async == Cra.Ops[First].Async && Plan.StreamOf[Op] == Plan.StreamOf[First];
    };
    if (llvm::all_of(Ops, RunsLikeFirst))
      continue;
    // The reason one expansion stays synchronous explains the others.
    std::string Why = "it is spelled in a macro argument that is expanded more than once, and "
                      "its expansions would not run alike";
    for (unsigned Op : Ops)
      if (!Cra.Ops[Op].Async) {
        const std::string &Its = Blocked[Op].empty() ? Cra.Ops[Op].WhySync : Blocked[Op];
        Why += " (the one on line " + std::to_string(FA.ops()[Op].Line) +
               " stays synchronous: " + Its + ")";
        break;
      }
    for (unsigned Op : Ops)
      if (Blocked[Op].empty())
        Unlike.push_back({Op, Why});
  }
  return Unlike;
}

std::vector<unsigned> FileRewriter::misplacedWaits(const FunctionAccesses &FA,
                                                   const CraResult &Cra) const {
  // A wait lands at the start of the outermost macro expansion its statement
  // comes from; if the op it covers comes from that same expansion, the wait
  // would run before the op. (A wait textually before an op of the same loop
  // body is fine: it covers the op of the previous iteration; only the ops
  // enqueued in the same pass through the block are checked.)
  P->selectFileOf(FA.function().getLocation());
  std::vector<unsigned> Misplaced;
  for (const Wait &W : Cra.Waits) {
    // A guard's wait runs after everything in its statement.
    if (W.Where.K == InsertionPoint::OnReturnFrom && P->guardRange(W.Where.Anchor))
      continue;
    std::optional<unsigned> At = P->insertionOffset(W.Where);
    for (unsigned Op : W.EnqueuedHere) {
      clang::SourceLocation Begin = FA.ops()[Op].Call->getBeginLoc();
      bool InsideExpansion = false;
      if (At && Begin.isMacroID()) {
        clang::CharSourceRange Range = P->SM.getExpansionRange(Begin);
        InsideExpansion = P->SM.getFileOffset(Range.getBegin()) <= *At &&
                          *At <= P->SM.getFileOffset(Range.getEnd());
      }
      if (!At || InsideExpansion)
        Misplaced.push_back(Op);
    }
  }
  return Misplaced;
}

std::vector<unsigned> FileRewriter::addFunction(const FunctionAccesses &FA, const CraResult &Cra,
                                                const StreamPlan &Plan) {
  P->selectFileOf(FA.function().getLocation());
  assert(Cra.Ops.size() == FA.ops().size() && Plan.StreamOf.size() == FA.ops().size() &&
         "the analysis, the plan and the function agree on the ops");
  assert(Plan.WaitStreams.size() == Cra.Waits.size() &&
         Plan.WaitEvents.size() == Cra.Waits.size() && "the plan binds every CRA wait");
  assert(Plan.Records.size() == Plan.NumEvents && "one record per event");
  // The bodies about to be wrapped in braces can be followed by code.
  for (auto [Owner, Body] : Cra.Wrapped)
    P->WrappedBodies.insert(Body);
  unsigned Base = P->NumEvents;
  // An event whose producer statement cannot be followed by code is
  // recorded right before each wait for it instead (the wait then also
  // covers what was queued on the producer's stream in between).
  std::vector<bool> RecordAtWait(Plan.NumEvents);
  for (const EventRecord &R : Plan.Records)
    RecordAtWait[R.Event] = !P->canInsertAfter(R.Statement);
  // One call per line: each stream or event a host wait needs.
  auto WaitCalls = [&](unsigned I) {
    // A host wait for an event that cannot be recorded after its statement
    // synchronises the whole stream instead (more than needed, never less).
    std::vector<unsigned> Streams = Plan.WaitStreams[I], Events;
    for (unsigned E : Plan.WaitEvents[I]) {
      assert(E < Plan.NumEvents && "a host wait is for an event of the plan");
      if (!RecordAtWait[E])
        Events.push_back(E);
      else if (!llvm::is_contained(Streams, Plan.Records[E].Stream))
        Streams.push_back(Plan.Records[E].Stream);
    }
    llvm::sort(Streams);
    std::vector<std::string> Calls;
    if (Plan.WaitsForDevice[I] || Plan.waitIsOneDeviceSync(Streams.size(), Events.size()))
      return std::vector<std::string>{callStatement(ApiId::cudaDeviceSynchronize, {})};
    for (unsigned Stream : Streams)
      Calls.push_back(callStatement(ApiId::cudaStreamSynchronize, {streamExpr(Stream)}));
    for (unsigned E : Events)
      Calls.push_back(callStatement(ApiId::cudaEventSynchronize, {P->eventExpr(Base + E)}));
    return Calls;
  };
  // Waits at the end of a wrapped body go with its `}`.
  llvm::DenseMap<const Stmt *, std::vector<std::pair<std::string, std::string>>> EndWaits;
  for (unsigned I = 0; I < Cra.Waits.size(); ++I)
    if (Cra.Waits[I].Where.K == InsertionPoint::BodyEnd)
      for (std::string &Call : WaitCalls(I))
        EndWaits[Cra.Waits[I].Where.Anchor].push_back(
            {std::move(Call), describeWait(Cra.Waits[I], FA)});
  std::vector<std::pair<unsigned, std::string>> InlineCloses;
  P->wrapBodies(Cra.Wrapped, EndWaits, InlineCloses);
  // The expansions of one spelling agree on the stream
  // (expansionsRunningUnlike()): the text is edited once.
  std::set<unsigned> RewrittenEnds;
  for (const GpuOp &Op : FA.ops()) {
    std::optional<unsigned> End = P->opEnd(Op);
    if (Plan.StreamOf[Op.Id] && (!End || RewrittenEnds.insert(*End).second))
      P->rewriteOp(Op, *Plan.StreamOf[Op.Id]);
  }
  // Records first: at an offset shared with a wait, the record must come
  // before the wait (the wait may be for that very event).
  for (const EventRecord &R : Plan.Records)
    if (!RecordAtWait[R.Event])
      P->insertAfter(R.Statement,
                     callStatement(ApiId::cudaEventRecord,
                                   {P->eventExpr(Base + R.Event), streamExpr(R.Stream)}),
                     "marks the end of " + FA.ops()[R.Op].Callee +
                         (R.Event < Plan.NumEdgeEvents ? " for another stream" : " for the host"));
  std::set<std::pair<unsigned, std::string>> PlacedWaits; // (offset, call)
  std::vector<unsigned> NotWritten;
  // The waits for returns out of one macro invocation share its guard.
  std::map<std::pair<unsigned, unsigned>, std::pair<std::vector<std::string>, std::string>> Guards;
  for (unsigned I = 0; I < Cra.Waits.size(); ++I) {
    if (Cra.Waits[I].Where.K == InsertionPoint::BodyEnd)
      continue; // with the body's `}` above
    std::vector<std::string> Calls = WaitCalls(I);
    if (Calls.empty())
      continue;
    if (Cra.Waits[I].Where.K == InsertionPoint::OnReturnFrom) {
      if (std::optional<std::pair<unsigned, unsigned>> Range =
              P->guardRange(Cra.Waits[I].Where.Anchor)) {
        auto &[Codes, Reason] = Guards[*Range];
        for (std::string &Call : Calls)
          if (!llvm::is_contained(Codes, Call))
            Codes.push_back(std::move(Call));
        Reason = describeWait(Cra.Waits[I], FA);
        continue;
      }
    }
    std::optional<unsigned> At = P->insertionOffset(Cra.Waits[I].Where);
    bool Wrote = false;
    for (const std::string &Call : Calls)
      // Waits of two branches land on one place when both must go before
      // the macro expansion that holds them: the second would find nothing
      // left to wait for.
      if (!At || PlacedWaits.insert({*At, Call}).second) {
        P->insertAt(Cra.Waits[I].Where, Call, describeWait(Cra.Waits[I], FA));
        Wrote = true;
      }
    if (!Wrote)
      NotWritten.push_back(I);
  }
  for (auto &[Range, Guard] : Guards)
    P->guardReturns(Range, llvm::join(Guard.first, " "), Guard.second);
  for (const EventWait &W : Plan.EventWaits)
    for (unsigned E : W.Events) {
      const GpuOp &From = FA.ops()[Plan.Records[E].Op];
      std::string Producer = From.Callee + " on line " + std::to_string(From.Line);
      if (RecordAtWait[E])
        P->insertAt({InsertionPoint::BeforeStmt, W.At},
                    callStatement(ApiId::cudaEventRecord,
                                  {P->eventExpr(Base + E), streamExpr(Plan.Records[E].Stream)}),
                    "marks the end of " + Producer + " for another stream");
      P->insertAt({InsertionPoint::BeforeStmt, W.At},
                  callStatement(ApiId::cudaStreamWaitEvent,
                                {streamExpr(W.Waiter), P->eventExpr(Base + E), "0"}),
                  "order after " + Producer + " (another stream)");
    }
  for (auto &[End, Text] : InlineCloses)
    P->Edits.insert(End, Text);
  P->NumEvents += Plan.NumEvents;
  for (const InsertionPoint &Where : Cra.Releases)
    P->Releases.push_back({P->File, Where});
  return NotWritten;
}

void FileRewriter::joinPendingWork(const FunctionAccesses &FA, const CraResult &Cra,
                                   const StreamPlan &Plan, unsigned Stream) {
  P->selectFileOf(FA.function().getLocation());
  for (const CraResult::ReturnPoint &Return : Cra.LeftAt) {
    std::set<unsigned> Others;
    for (unsigned Op : Return.Pending)
      if (std::optional<unsigned> S = Plan.StreamOf[Op]; S && *S != Stream)
        Others.insert(*S);
    for (unsigned Other : Others) {
      std::string Event = P->eventExpr(P->NumEvents++);
      std::string Reason =
          FA.name() + " returns with this work pending; its callers wait for " + streamExpr(Stream);
      P->insertAt(Return.Where, callStatement(ApiId::cudaEventRecord, {Event, streamExpr(Other)}),
                  Reason);
      P->insertAt(Return.Where,
                  callStatement(ApiId::cudaStreamWaitEvent, {streamExpr(Stream), Event, "0"}),
                  Reason);
    }
  }
}

bool FileRewriter::canOrderAfterEarlierWork(const FunctionDecl &F) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F.getBody());
  return Body && Body->getLBracLoc().isFileID();
}

void FileRewriter::orderAfterEarlierWork(const FunctionAccesses &FA, const StreamPlan &Plan) {
  assert(canOrderAfterEarlierWork(FA.function()) && "the body's `{` is spelled in the file");
  std::set<unsigned> Streams;
  for (const std::optional<unsigned> &S : Plan.StreamOf)
    if (S)
      Streams.insert(*S);
  if (Streams.empty())
    return;
  P->selectFileOf(FA.function().getLocation());
  const auto *Body = cast<CompoundStmt>(FA.function().getBody());
  std::string Event = P->eventExpr(P->NumEvents++);
  std::string Reason = FA.name() + " runs where its callers cannot order it: its work goes after "
                                   "all work enqueued before it, as on the legacy stream";
  std::vector<std::string> Calls = {callStatement(ApiId::cudaEventRecord, {Event, "0"})};
  for (unsigned S : Streams)
    Calls.push_back(callStatement(ApiId::cudaStreamWaitEvent, {streamExpr(S), Event, "0"}));
  InsertionPoint First{InsertionPoint::BeforeStmt,
                       Body->body_empty() ? nullptr : Body->body_front()};
  if (First.Anchor && P->insertionOffset(First)) {
    for (const std::string &Call : Calls)
      P->insertAt(First, Call, Reason);
    return;
  }
  unsigned Open = P->SM.getFileOffset(Body->getLBracLoc()) + 1;
  for (const std::string &Call : Calls)
    P->Edits.insert(Open, " " + Call + " /* streamalloc: " + Reason + " */");
}

void FileRewriter::addGraphLoops(const std::vector<LaunchLoop> &Loops) {
  for (const LaunchLoop &L : Loops) {
    if (!L.WhyNot.empty())
      continue;
    P->selectFileOf(L.Loop->getBeginLoc());
    assert(P->File == P->SM.getMainFileID() && "graphs are made of the main file's loops only");
    std::string Slot = std::to_string(P->NumGraphs++), Stream = streamExpr(L.Stream);
    // 1: this pass captures the body; 2: it runs the body directly; 0: done.
    std::string Pass = "sa_capture_" + Slot;
    P->insertAt({InsertionPoint::BeforeStmt, L.First},
                "for (int " + Pass + " = " + GraphBegin.str() + "(" + Slot + ", " +
                    std::to_string(L.DirectIterations) + "u, " + Stream + "); " + Pass + "; " +
                    Pass + " = " + GraphEnd.str() + "(" + Slot + ", " + Stream + ", " + Pass +
                    ")) {",
                "each iteration's " + std::to_string(L.Ops.size()) +
                    " GPU ops run as one CUDA graph (captured, then launched once)");
    P->insertAfter(L.Last, "}", "end of the ops captured into the graph");
  }
}

void FileRewriter::dropStatement(unsigned Begin, unsigned End, const std::string &Reason) {
  assert(Begin <= End && End <= P->Buffer.size() && "a statement inside the file being edited");
  size_t NL = P->Buffer.find('\n', End);
  llvm::StringRef Rest = P->Buffer.slice(End, NL).trim();
  bool OwnLine = P->onlyBlanksBefore(Begin) && (Rest.empty() || Rest.starts_with("//"));
  P->Edits.replace(Begin, End - Begin,
                   OwnLine ? "// streamalloc: " + Reason : "/* streamalloc: " + Reason + " */");
}

bool FileRewriter::finish(llvm::ArrayRef<unsigned> IncludeEnds, std::string &Output,
                          std::string &Error) {
  std::map<FileID, std::string> Outputs;
  FileID Main = P->SM.getMainFileID();
  if (!finishAll([&](FileID F) { return F == Main ? IncludeEnds.vec() : std::vector<unsigned>(); },
                 Outputs, Error))
    return false;
  Output = std::move(Outputs[Main]);
  return true;
}

bool FileRewriter::finishAll(llvm::function_ref<std::vector<unsigned>(FileID)> IncludeEnds,
                             std::map<FileID, std::string> &Outputs, std::string &Error) {
  FileID Main = P->SM.getMainFileID();
  // The stream pool comes with the first stream; page-locked memory alone
  // (synchronous copies made faster) brings only its helpers.
  bool UsesStreams = P->LastStream.has_value();
  bool Releases = UsesStreams && !P->Releases.empty();
  if (UsesStreams)
    for (const auto &[File, Where] : P->Releases) {
      P->select(File);
      P->insertAt(Where, (Release + "();").str(), "release the streams before CUDA shuts down");
    }
  // What the files of the translation unit call: the main file defines it all.
  P->select(Main);
  llvm::StringSet<> HelpersCalled = P->HelpersCalled;
  bool FreeHelper = P->FreeHelper, ReturnGuards = P->ReturnGuards, GuardsElsewhere = false;
  for (auto &[File, State] : P->Others) {
    for (const auto &Name : State.HelpersCalled.keys())
      HelpersCalled.insert(Name);
    FreeHelper |= State.FreeHelper;
    ReturnGuards |= State.ReturnGuards;
    GuardsElsewhere |= State.ReturnGuards;
  }
  // After the last top-level #include before the file's first edit, so the
  // pool precedes every use.
  auto InsertPool = [&](FileID File, const std::string &Pool) {
    unsigned FirstEdit = P->Edits.firstOffset();
    unsigned At = 0;
    for (unsigned End : IncludeEnds(File))
      if (End <= FirstEdit)
        At = std::max(At, End);
    P->Edits.insert(At, At == 0 ? Pool.substr(1) + "\n" : Pool);
  };
  std::vector<FileID> Included;
  for (auto &[File, State] : P->Others)
    if (!State.Edits.empty())
      Included.push_back(File);
  for (FileID File : Included) {
    P->select(File);
    std::string Decls = P->poolDeclarations(UsesStreams);
    if (!Decls.empty())
      InsertPool(File, Decls);
    std::string Text;
    if (!P->Edits.apply(P->Buffer, Text, Error))
      return false;
    Outputs[File] = std::move(Text);
  }
  P->select(Main);
  auto CallsHelperOf = [&](llvm::StringRef Prefix) {
    return llvm::any_of(HelpersCalled.keys(),
                        [&](llvm::StringRef Name) { return Name.starts_with(Prefix); });
  };
  bool PinnedHelpers = CallsHelperOf("sa_pinned_"),
       RegisteredHelpers = CallsHelperOf("sa_registered_");
  if (UsesStreams || PinnedHelpers || RegisteredHelpers) {
    std::string Pool;
    llvm::raw_string_ostream OS(Pool);
    auto Fn = [](ApiId Id) { return apiName(Id).str(); };
    auto Sym = [](ApiSymbol S) { return apiSymbol(S).str(); };
    // Created on first use by whichever host thread gets there first (a
    // compare-and-swap, so two threads never end up on different streams);
    // released before CUDA is torn down, after which they are made afresh.
    OS << "\n";
    if (UsesStreams)
      OS << "#include <atomic>\n";
    if (PinnedHelpers || RegisteredHelpers)
      OS << "#include <cstdlib>\n#include <cstring>\n";
    // One lazily created, thread-safe handle array: `Type Array[Size]` with
    // accessor `Type Accessor(int)`, made by `Create` (a statement on `fresh`).
    auto LazyHandles = [&](llvm::StringRef Type, llvm::StringRef Array, llvm::StringRef Accessor,
                           unsigned Size, llvm::StringRef Create, llvm::StringRef Destroy) {
      OS << "static std::atomic<" << Type << "> " << Array << "[" << Size << "];\n"
         << "static inline " << Type << " " << Accessor << "(int i) {\n"
         << "  " << Type << " h = " << Array << "[i].load();\n"
         << "  if (!h) {\n"
         << "    " << Type << " fresh = nullptr;\n"
         << "    " << Create << ";\n"
         << "    if (" << Array << "[i].compare_exchange_strong(h, fresh))\n"
         << "      h = fresh;\n"
         << "    else\n"
         << "      " << Destroy << "(fresh);\n"
         << "  }\n"
         << "  return h;\n"
         << "}\n";
    };
    if (UsesStreams) {
      OS << "// streamalloc: blocking CUDA streams for the work made asynchronous below, "
            "created\n"
         << "// on first use. Work left on the legacy default stream still orders with them.\n";
      LazyHandles(Sym(ApiSymbol::cudaStream_t), PoolArray, Accessor, *P->LastStream + 1,
                  Fn(ApiId::cudaStreamCreate) + "(&fresh)", Sym(ApiSymbol::cudaStreamDestroy));
      // Events per file: (array, accessor, count); the main file's first.
      std::vector<std::tuple<std::string, std::string, unsigned>> Events;
      if (P->NumEvents)
        Events.emplace_back(EventArray.str(), EventAccessor.str(), P->NumEvents);
      for (auto &[File, State] : P->Others)
        if (State.NumEvents) {
          std::string Name = P->eventAccessor(File);
          Events.emplace_back(EventArray.str() + Name.substr(EventAccessor.size() + 1) + "_", Name,
                              State.NumEvents);
        }
      if (!Events.empty())
        OS << "// streamalloc: events that order work on one stream after work on another.\n";
      for (const auto &[Array, Name, Count] : Events)
        LazyHandles(Sym(ApiSymbol::cudaEvent_t), Array, Name, Count,
                    Fn(ApiId::cudaEventCreateWithFlags) + "(&fresh, " +
                        Sym(ApiSymbol::cudaEventDisableTiming) + ")",
                    Fn(ApiId::cudaEventDestroy));
      if (P->NumGraphs)
        OS << graphHelpers(P->NumGraphs);
      // Only where it is called: an unused static function is an nvcc warning.
      if (Releases) {
        OS << "static inline void " << Release << "() {\n";
        if (P->NumGraphs)
          OS << "  for (sa_graph_slot &g : " << GraphSlots << ")\n"
             << "    if (g.exec) {\n"
             << "      " << Fn(ApiId::cudaGraphExecDestroy) << "(g.exec);\n"
             << "      g.exec = nullptr;\n"
             << "    }\n";
        OS << "  for (std::atomic<" << Sym(ApiSymbol::cudaStream_t) << "> &slot : " << PoolArray
           << ")\n"
           << "    if (" << Sym(ApiSymbol::cudaStream_t) << " s = slot.exchange(nullptr))\n"
           << "      " << Sym(ApiSymbol::cudaStreamDestroy) << "(s);\n";
        for (const auto &[Array, Name, Count] : Events)
          OS << "  for (std::atomic<" << Sym(ApiSymbol::cudaEvent_t) << "> &slot : " << Array
             << ")\n"
             << "    if (" << Sym(ApiSymbol::cudaEvent_t) << " e = slot.exchange(nullptr))\n"
             << "      " << Fn(ApiId::cudaEventDestroy) << "(e);\n";
        OS << "}\n";
      }
    }
    if (ReturnGuards)
      OS << returnGuardDefinition(GuardsElsewhere);
    if (FreeHelper)
      OS << "// streamalloc: " << Fn(ApiId::cudaFree) << " made stream-ordered; like "
         << Fn(ApiId::cudaFree) << ", it does nothing for null.\n"
         << "static inline " << Sym(ApiSymbol::cudaError_t) << " " << FreeAsync << "(void *p, "
         << Sym(ApiSymbol::cudaStream_t) << " s) {\n"
         << "  return p ? " << apiRow(ApiId::cudaFree).AsyncName
         << "(p, s) : " << Sym(ApiSymbol::cudaSuccess) << ";\n"
         << "}\n";
    auto Called = [&](llvm::StringRef Name) { return HelpersCalled.contains(Name); };
    if (Called("sa_pinned_free") || Called("sa_registered_free") || Called(VectorGuard))
      OS << "// streamalloc: a failed CUDA call here is handled (pageable memory is used), so\n"
         << "// its error is cleared rather than reported by a later call.\n"
         << "static inline bool sa_is_page_locked(void *p) {\n"
         << "  " << Sym(ApiSymbol::cudaPointerAttributes) << " a;\n"
         << "  return p && " << Fn(ApiId::cudaPointerGetAttributes)
         << "(&a, p) == " << Sym(ApiSymbol::cudaSuccess) << " &&\n"
         << "         a.type == " << Sym(ApiSymbol::cudaMemoryTypeHost) << ";\n"
         << "}\n";
    if (PinnedHelpers)
      OS << "// streamalloc: page-locked memory for host buffers that GPU copies use (copies\n"
         << "// from pageable memory block the host); pageable memory if CUDA has none.\n";
    if (Called("sa_pinned_malloc") || Called("sa_pinned_calloc"))
      OS << "static inline void *sa_pinned_malloc(size_t bytes) {\n"
         << "  void *p = nullptr;\n"
         << "  if (" << Fn(ApiId::cudaMallocHost)
         << "(&p, bytes) == " << Sym(ApiSymbol::cudaSuccess) << ")\n"
         << "    return p;\n"
         << "  (void)" << Fn(ApiId::cudaGetLastError) << "();\n"
         << "  return " << Fn(ApiId::malloc) << "(bytes);\n"
         << "}\n";
    if (Called("sa_pinned_calloc"))
      OS << "static inline void *sa_pinned_calloc(size_t count, size_t size) {\n"
         << "  if (size && count > (size_t)-1 / size)\n"
         << "    return nullptr;\n"
         << "  void *p = sa_pinned_malloc(count * size);\n"
         << "  if (p)\n"
         << "    " << Fn(ApiId::memset) << "(p, 0, count * size);\n"
         << "  return p;\n"
         << "}\n";
    // Page-locking is per page: a pageable fallback buffer that shares a page
    // with page-locked memory looks page-locked too; CUDA then refuses to
    // release it, and it is freed as what it is.
    if (Called("sa_pinned_free"))
      OS << "static inline void sa_pinned_free(void *p) {\n"
         << "  if (!sa_is_page_locked(p)) {\n"
         << "    " << Fn(ApiId::free) << "(p);\n"
         << "  } else if (" << Fn(ApiId::cudaFreeHost) << "(p) != " << Sym(ApiSymbol::cudaSuccess)
         << ") {\n"
         << "    (void)" << Fn(ApiId::cudaGetLastError) << "();\n"
         << "    " << Fn(ApiId::free) << "(p);\n"
         << "  }\n"
         << "}\n";
    if (RegisteredHelpers)
      OS << "// streamalloc: host buffers that GPU copies use, registered with CUDA (page-locked)\n"
         << "// for their lifetime; left pageable if registration fails.\n"
         << "static inline void *sa_register(void *p, size_t bytes) {\n"
         << "  if (p && bytes && " << Fn(ApiId::cudaHostRegister) << "(p, bytes, "
         << Sym(ApiSymbol::cudaHostRegisterDefault) << ") != " << Sym(ApiSymbol::cudaSuccess)
         << ")\n"
         << "    (void)" << Fn(ApiId::cudaGetLastError) << "();\n"
         << "  return p;\n"
         << "}\n";
    if (Called("sa_registered_malloc"))
      OS << "static inline void *sa_registered_malloc(size_t bytes) {\n"
         << "  return sa_register(" << Fn(ApiId::malloc) << "(bytes), bytes);\n"
         << "}\n";
    if (Called("sa_registered_calloc"))
      OS << "static inline void *sa_registered_calloc(size_t count, size_t size) {\n"
         << "  return sa_register(" << Fn(ApiId::calloc) << "(count, size), count * size);\n"
         << "}\n";
    if (Called("sa_registered_aligned_alloc"))
      OS << "static inline void *sa_registered_aligned_alloc(size_t alignment, size_t bytes) {\n"
         << "  return sa_register(" << Fn(ApiId::aligned_alloc) << "(alignment, bytes), bytes);\n"
         << "}\n";
    if (Called("sa_registered_posix_memalign"))
      OS << "static inline int sa_registered_posix_memalign(void **p, size_t alignment, "
            "size_t bytes) {\n"
         << "  int r = " << Fn(ApiId::posix_memalign) << "(p, alignment, bytes);\n"
         << "  if (r == 0)\n"
         << "    sa_register(*p, bytes);\n"
         << "  return r;\n"
         << "}\n";
    if (Called("sa_registered_free"))
      OS << "static inline void sa_registered_free(void *p) {\n"
         << "  if (sa_is_page_locked(p) && " << Fn(ApiId::cudaHostUnregister)
         << "(p) != " << Sym(ApiSymbol::cudaSuccess) << ")\n"
         << "    (void)" << Fn(ApiId::cudaGetLastError) << "();\n"
         << "  " << Fn(ApiId::free) << "(p);\n"
         << "}\n";
    if (Called(ResultRegistration))
      OS << "// streamalloc: the buffer a helper returns, registered as it returns.\n"
         << "template <class T> static inline T *" << ResultRegistration
         << "(T *p, size_t bytes) {\n"
         << "  sa_register((void *)p, bytes);\n"
         << "  return p;\n"
         << "}\n";
    if (Called(VectorGuard))
      OS << "// streamalloc: a std::vector's elements registered while the guard lives; it is\n"
         << "// declared after the vector, so it ends first.\n"
         << "struct " << VectorGuard << " {\n"
         << "  void *p;\n"
         << "  " << VectorGuard
         << "(const void *q, size_t bytes) : p(sa_register(const_cast<void *>(q), bytes)) {}\n"
         << "  ~" << VectorGuard << "() {\n"
         << "    if (sa_is_page_locked(p) && " << Fn(ApiId::cudaHostUnregister)
         << "(p) != " << Sym(ApiSymbol::cudaSuccess) << ")\n"
         << "      (void)" << Fn(ApiId::cudaGetLastError) << "();\n"
         << "  }\n"
         << "  " << VectorGuard << "(const " << VectorGuard << " &) = delete;\n"
         << "  " << VectorGuard << " &operator=(const " << VectorGuard << " &) = delete;\n"
         << "};\n";
    InsertPool(Main, Pool);
  }
  std::string Text;
  if (!P->Edits.apply(P->Buffer, Text, Error))
    return false;
  Outputs[Main] = std::move(Text);
  return true;
}

const EditList &FileRewriter::edits() const {
  P->select(P->SM.getMainFileID());
  return P->Edits;
}
const EditList &FileRewriter::edits(FileID File) const {
  P->select(File);
  return P->Edits;
}
unsigned FileRewriter::streamsUsed() const { return P->LastStream ? *P->LastStream + 1 : 0; }

unsigned FileRewriter::eventsUsed(FileID File) const {
  P->select(File);
  return P->NumEvents;
}
void FileRewriter::setEventsUsed(FileID File, unsigned Count) {
  P->select(File);
  P->NumEvents = Count;
}
unsigned FileRewriter::editCount(FileID File) const {
  P->select(File);
  return P->Edits.size();
}
void FileRewriter::keepEditsSince(FileID File, unsigned Count,
                                  llvm::function_ref<bool(const Edit &)> Keep) {
  P->select(File);
  P->Edits.removeAddedSince(Count, Keep);
}

} // namespace streamalloc
