//===- FileRewriter.h - Turns the analyses' results into source edits ------===//
//
// Rewrites GPU ops to their asynchronous forms on the planned streams,
// inserts each wait with a one-line reason, emits the stream pool once per
// file and releases it where the program tears CUDA down. Edits are made on
// spelling locations, so ops inside macro arguments (CHECK(cudaMemcpy(...)))
// are rewritten; an op spelled inside a macro body is left alone.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_TRANSFORM_FILEREWRITER_H
#define STREAMALLOC_TRANSFORM_FILEREWRITER_H

#include "streamalloc/Transform/EditList.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct CraResult;
struct StreamPlan;
struct InsertionPoint;
struct PinDecision;

class FileRewriter {
public:
  explicit FileRewriter(clang::ASTContext &Ctx);
  ~FileRewriter();

  /// Per op id: why the op cannot be rewritten in place (empty if it can).
  std::vector<std::string> rewritability(const FunctionAccesses &FA) const;

  /// Ops covered by a wait that the source text would put before them (a
  /// statement and an op from one macro expansion); they must stay synchronous.
  std::vector<unsigned> misplacedWaits(const FunctionAccesses &FA, const CraResult &Cra) const;

  /// Returns the waits (indices into Cra.Waits) it wrote nothing for: each
  /// lands on the place of an earlier one that makes the same calls (waits of
  /// two branches that must both go before the macro expansion holding them).
  std::vector<unsigned> addFunction(const FunctionAccesses &FA, const CraResult &Cra,
                                    const StreamPlan &Plan);

  /// Rewrites the allocations and releases of the buffers \p Decisions pin.
  void addPinning(const std::vector<PinDecision> &Decisions);

  /// Removes the statement at file offsets [\p Begin, \p End) (a redundant
  /// sync of the program), leaving a comment with \p Reason in its place.
  void dropStatement(unsigned Begin, unsigned End, const std::string &Reason);

  /// Adds the stream pool after the last of \p IncludeEnds (offsets just past
  /// top-level #include lines) that precedes the first edit, and applies all
  /// edits to the main file. Without any asynchronous op the output equals the
  /// input.
  bool finish(llvm::ArrayRef<unsigned> IncludeEnds, std::string &Output, std::string &Error);

  const EditList &edits() const;
  unsigned streamsUsed() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace streamalloc

#endif
