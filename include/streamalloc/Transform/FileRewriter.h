//===- FileRewriter.h - Turns the analyses' results into source edits ------===//
//
// Rewrites GPU ops to their asynchronous forms on the planned streams,
// inserts each wait with a one-line reason, emits the stream pool once per
// translation unit and releases it where the program tears CUDA down. Edits
// are made on spelling locations, so ops inside macro arguments
// (CHECK(cudaMemcpy(...))) are rewritten; an op spelled inside a macro body is
// left alone. Each function's edits go into the file that holds it: the main
// file or one of the project's included files (the pool is defined in the
// main file and declared in each included file that uses it).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_TRANSFORM_FILEREWRITER_H
#define STREAMALLOC_TRANSFORM_FILEREWRITER_H

#include "streamalloc/Transform/EditList.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct CraResult;
struct StreamPlan;
struct InsertionPoint;
struct PinDecision;
struct LaunchLoop;

class FileRewriter {
public:
  explicit FileRewriter(clang::ASTContext &Ctx);

  /// The names of the pool, helpers and types an output may define at file
  /// scope: a file that already defines one was transformed before.
  static llvm::ArrayRef<llvm::StringLiteral> definedNames();
  ~FileRewriter();

  /// Per op id: why the op cannot be rewritten in place (empty if it can).
  std::vector<std::string> rewritability(const FunctionAccesses &FA) const;

  /// Ops that are expansions of one spelling (a macro argument expanded more
  /// than once: `if (x != 0) report(x);`) share the one edit of that text, so
  /// they must agree on whether and on which stream they run asynchronously.
  /// Returns, for each op of a group that does not agree and is not already
  /// in \p Blocked, why it must stay synchronous.
  std::vector<std::pair<unsigned, std::string>>
  expansionsRunningUnlike(const FunctionAccesses &FA, const std::vector<std::string> &Blocked,
                          const CraResult &Cra, const StreamPlan &Plan) const;

  /// Ops covered by a wait that the source text would put before them (a
  /// statement and an op from one macro expansion); they must stay synchronous.
  std::vector<unsigned> misplacedWaits(const FunctionAccesses &FA, const CraResult &Cra) const;

  /// Returns the waits (indices into Cra.Waits) it wrote nothing for: each
  /// lands on the place of an earlier one that makes the same calls (waits of
  /// two branches that must both go before the macro expansion holding them).
  std::vector<unsigned> addFunction(const FunctionAccesses &FA, const CraResult &Cra,
                                    const StreamPlan &Plan);

  /// For a function that returns with work pending (CraResult::LeftAt): at
  /// each such return, the other streams that hold part of that work are
  /// joined into \p Stream, the one its callers wait for (an event recorded
  /// on each, waited for by \p Stream on the device; the host goes on).
  void joinPendingWork(const FunctionAccesses &FA, const CraResult &Cra, const StreamPlan &Plan,
                       unsigned Stream);

  /// For a function its callers cannot order (a lambda passed to an
  /// algorithm, see whyLambdaMayRunElsewhere()): at the start of its body, an
  /// event recorded on the legacy stream, which the blocking streams' earlier
  /// work precedes, and each stream of \p Plan waits for it, so the
  /// function's work runs after everything enqueued before the call, as the
  /// original's legacy-stream work did. Needs the body's `{` spelled in the
  /// file (canOrderAfterEarlierWork()).
  void orderAfterEarlierWork(const FunctionAccesses &FA, const StreamPlan &Plan);
  static bool canOrderAfterEarlierWork(const clang::FunctionDecl &F);

  /// Wraps the body of each loop of \p Loops that becomes a graph
  /// (LaunchGraphs.h) in the capture-and-replay loop of the pool's graph
  /// helpers. The helpers are the main file's: the driver makes graphs of
  /// its loops only.
  void addGraphLoops(const std::vector<LaunchLoop> &Loops);

  /// Rewrites the allocations and releases of the buffers \p Decisions pin.
  void addPinning(const std::vector<PinDecision> &Decisions);

  /// Removes the statement at file offsets [\p Begin, \p End) of the file of
  /// the function added last (a redundant sync of the program), leaving a
  /// comment with \p Reason in its place.
  void dropStatement(unsigned Begin, unsigned End, const std::string &Reason);

  /// Adds the stream pool after the last of \p IncludeEnds (offsets just past
  /// top-level #include lines) that precedes the first edit, and applies all
  /// edits to the main file. Without any asynchronous op the output equals the
  /// input.
  bool finish(llvm::ArrayRef<unsigned> IncludeEnds, std::string &Output, std::string &Error);

  /// Like finish(), for every file edited: the main file (always in \p
  /// Outputs) gets the pool's definitions, an included file with edits the
  /// declarations of what it uses, after the last of its \p IncludeEnds
  /// before its first edit.
  bool finishAll(llvm::function_ref<std::vector<unsigned>(clang::FileID)> IncludeEnds,
                 std::map<clang::FileID, std::string> &Outputs, std::string &Error);

  /// The main file's edits (a template trial's, without the stream pool).
  const EditList &edits() const;
  /// The edits of \p File (empty when it has none).
  const EditList &edits(clang::FileID File) const;
  unsigned streamsUsed() const;

  /// For the instantiations of a template whose `if constexpr` branches
  /// differ (the driver adds one after another): the events the functions of
  /// \p File use so far, and setting that count, so that each instantiation
  /// numbers its events from the same base as the first.
  unsigned eventsUsed(clang::FileID File) const;
  void setEventsUsed(clang::FileID File, unsigned Count);
  /// The number of edits made in \p File so far; keepEditsSince() removes
  /// those made after such a count that \p Keep rejects.
  unsigned editCount(clang::FileID File) const;
  void keepEditsSince(clang::FileID File, unsigned Count,
                      llvm::function_ref<bool(const Edit &)> Keep);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace streamalloc

#endif
