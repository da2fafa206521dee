//===- WaitCost.cpp - What an inserted host wait costs, for the report -------===//
#include "streamalloc/Driver/WaitCost.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/Cra.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>
#include <vector>

using namespace clang;

namespace streamalloc {

namespace {

/// The file offset of \p L's expansion in the file of \p FA's function.
unsigned offsetIn(const FunctionAccesses &FA, SourceLocation L) {
  const SourceManager &SM = FA.function().getASTContext().getSourceManager();
  return SM.getFileOffset(SM.getExpansionLoc(L));
}

/// A wait in a loop for work queued on earlier passes, among it a copy (after
/// the wait in the loop's text) that blocked the host in the original: where
/// that copy blocked, this wait does instead; on a pass before any such copy
/// it finds nothing pending (or only work queued before the loop).
std::optional<std::string> inPlaceOfEarlierBlockingCopy(const Wait &W, const CraResult &Cra,
                                                        const FunctionAccesses &FA) {
  // Only a wait before a statement: at a block's or body's end, the ops
  // before it in the text are this pass's.
  if (!W.InnermostLoop || W.Covers.empty() || !W.Where.Anchor ||
      W.Where.K != InsertionPoint::BeforeStmt)
    return std::nullopt;
  auto OffsetOf = [&](SourceLocation L) { return offsetIn(FA, L); };
  unsigned At = OffsetOf(W.Where.Anchor->getBeginLoc());
  const GpuOp *Copy = nullptr;
  bool BeforeTheLoop = false; // some of the work was queued before the loop
  for (unsigned Op : W.Covers) {
    if (!llvm::is_contained(Cra.Ops[Op].Loops, W.InnermostLoop)) {
      BeforeTheLoop = true;
      continue;
    }
    CopyDirection D = copyDirectionOf(FA.ops()[Op]);
    // After the wait in the loop's text: queued on an earlier pass.
    if (!Copy && FA.ops()[Op].Kind == GpuOpKind::Copy &&
        (D == CopyDirection::HostToDevice || D == CopyDirection::DeviceToHost) &&
        OffsetOf(FA.ops()[Op].Call->getBeginLoc()) > At)
      Copy = &FA.ops()[Op];
  }
  if (!Copy)
    return std::nullopt;
  return "it waits for work queued on earlier passes of its loop, which the original "
         "completed with its blocking " +
         Copy->Callee + " on line " + std::to_string(Copy->Line) +
         ": where that copy blocked the host, this wait does instead, and on a pass before "
         "any such copy it " +
         (BeforeTheLoop ? "waits only for work queued before the loop"
                        : "finds nothing pending and returns at once");
}

/// A wait after a loop whose body syncs the device on every pass (a kept
/// device sync at its top level, before anything that may jump), for work
/// queued before the loop: that work is complete whenever the loop ran a
/// pass; the wait is for the case it runs none.
std::optional<std::string> forALoopThatRunsNoPass(const Wait &W, const CraResult &Cra,
                                                  const FunctionAccesses &FA,
                                                  llvm::ArrayRef<const Expr *> Dropped) {
  if (W.Covers.empty() || !W.Where.Anchor || W.Where.K != InsertionPoint::BeforeStmt)
    return std::nullopt;
  const SourceManager &SM = FA.function().getASTContext().getSourceManager();
  auto OffsetOf = [&](SourceLocation L) { return offsetIn(FA, L); };
  unsigned LastOp = 0;
  for (unsigned Op : W.Covers)
    LastOp = std::max(LastOp, OffsetOf(FA.ops()[Op].Call->getEndLoc()));
  unsigned At = OffsetOf(W.Where.Anchor->getBeginLoc());
  std::optional<std::string> Note;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Note || isa<LambdaExpr>(S))
      return;
    // A do-while runs its body at least once: no case without a pass.
    const Stmt *Body = isa<DoStmt>(S) ? nullptr : loopBody(S);
    if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
      Body = Range->getBody();
    const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
    if (Block && OffsetOf(S->getBeginLoc()) > LastOp && OffsetOf(S->getEndLoc()) < At) {
      for (const Stmt *Part : Block->body()) {
        StmtAccesses A = FA.accessesOf(Part);
        bool Kept = llvm::any_of(
            A.SyncCalls, [&](const Expr *Call) { return !llvm::is_contained(Dropped, Call); });
        if (A.SyncsDevice && Kept) {
          Note = "the loop on line " + std::to_string(SM.getExpansionLineNumber(S->getBeginLoc())) +
                 " syncs the device on every pass, so the ops it covers are complete here "
                 "whenever that loop ran a pass and it returns at once; it waits for the case "
                 "the loop runs none";
          return;
        }
        if (containsJump(Part))
          break;
      }
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(FA.function().getBody());
  return Note;
}

} // namespace

std::string waitCost(const Wait &W, const CraResult &Cra, const FunctionAccesses &FA, size_t Calls,
                     llvm::ArrayRef<const Expr *> DroppedSyncs) {
  std::vector<std::string> Notes;
  if (Calls > 1)
    Notes.push_back(std::to_string(Calls) +
                    " sync calls, one per stream or event: the ops it covers ran side by side");
  if (waitsOnlyForWorkBeforeItsLoop(W, Cra))
    Notes.push_back("it runs on each pass through its loop that reaches it, but the ops it "
                    "covers were queued before the loop, so only the first such pass finds "
                    "them pending (the others return at once); here, the host work before it "
                    "in that pass overlaps them");
  else if (std::optional<std::string> Note = inPlaceOfEarlierBlockingCopy(W, Cra, FA))
    Notes.push_back(std::move(*Note));
  if (std::optional<std::string> Note = forALoopThatRunsNoPass(W, Cra, FA, DroppedSyncs))
    Notes.push_back(std::move(*Note));
  // The original's cudaFree synchronised the device where it ran; made
  // stream-ordered it does not, and this wait is the one sync left for it.
  for (unsigned Op : W.Covers)
    if (FA.ops()[Op].Kind == GpuOpKind::Free && Cra.Ops[Op].Async) {
      Notes.push_back("it stands in for the device-wide sync of the " + FA.ops()[Op].Callee +
                      " on line " + std::to_string(FA.ops()[Op].Line) +
                      ", which is stream-ordered now and no longer blocks where it runs");
      break;
    }
  return llvm::join(Notes, "; ");
}

} // namespace streamalloc
