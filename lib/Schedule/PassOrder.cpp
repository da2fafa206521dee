//===- PassOrder.cpp ------------------------------------------------------===//
#include "PassOrder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace streamalloc {

namespace {

bool holdsLabel(const Stmt *S) {
  if (!S)
    return false;
  if (isa<LabelStmt>(S))
    return true;
  return llvm::any_of(S->children(), holdsLabel);
}

/// Whether \p S holds a case label of a switch outside \p S: control can
/// jump into the middle of S from its switch head.
bool holdsForeignCase(const Stmt *S, bool InsideSwitch = false) {
  if (!S)
    return false;
  if (isa<SwitchCase>(S) && !InsideSwitch)
    return true;
  bool Inside = InsideSwitch || isa<SwitchStmt>(S);
  return llvm::any_of(S->children(),
                      [&](const Stmt *Child) { return holdsForeignCase(Child, Inside); });
}

} // namespace

PassOrder::PassOrder(const FunctionDecl &F)
    : Ctx(F.getASTContext()), HasLabels(holdsLabel(F.getBody())) {}

const Stmt *PassOrder::parentOf(const Stmt *S) const {
  auto Parents = Ctx.getParents(*S);
  return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
}

const Stmt *PassOrder::outermostLabel(const Stmt *S) const {
  while (const Stmt *Parent = parentOf(S)) {
    if (!isa<LabelStmt, SwitchCase, AttributedStmt>(Parent))
      break;
    S = Parent;
  }
  return S;
}

const Stmt *PassOrder::childHolding(const CompoundStmt *Block, const Stmt *S) const {
  while (S) {
    const Stmt *Parent = parentOf(S);
    if (Parent == Block)
      return S;
    S = Parent;
  }
  return nullptr;
}

bool PassOrder::inBlock(const Stmt *S) const { return isa_and_nonnull<CompoundStmt>(parentOf(S)); }

std::optional<std::pair<unsigned, unsigned>> PassOrder::extent(const Stmt *S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(S->getBeginLoc());
  SourceLocation End = SM.getExpansionRange(S->getEndLoc()).getEnd();
  if (SM.getFileID(Begin) != SM.getFileID(End))
    return std::nullopt;
  return std::make_pair(SM.getFileOffset(Begin), SM.getFileOffset(End));
}

bool PassOrder::runsBefore(const Stmt *Earlier, const Stmt *Later) const {
  if (Earlier == Later)
    return true;
  if (HasLabels)
    return false;
  const Stmt *Start = outermostLabel(Earlier);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(parentOf(Start));
  const Stmt *Holder = Block ? childHolding(Block, Later) : nullptr;
  if (!Holder)
    return false;
  if (Holder == Start) // Later is inside Earlier (a loop that a wait goes before)
    return !holdsForeignCase(Earlier);
  const Stmt *const *From = llvm::find(Block->body(), Start);
  const Stmt *const *To = llvm::find(Block->body(), Holder);
  if (From >= To)
    return false;
  // Nothing after Earlier, up to the statement holding Later, is a place the
  // switch head can jump to past Earlier.
  return std::none_of(From + 1, To + 1, [](const Stmt *S) { return holdsForeignCase(S); });
}

bool PassOrder::mayRunBetween(const Stmt *P, const Stmt *Earlier, const Stmt *Later) const {
  const Stmt *Start = outermostLabel(Earlier);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(parentOf(Start));
  const Stmt *Holder = Block ? childHolding(Block, Later) : nullptr;
  if (!Holder && Earlier != Later)
    return true;
  std::optional<std::pair<unsigned, unsigned>> From = extent(Start),
                                               To = extent(Holder ? Holder : Start), At = extent(P);
  if (!From || !To || !At)
    return true;
  return From->first <= At->first && At->first <= To->second;
}

} // namespace streamalloc
