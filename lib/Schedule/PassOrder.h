//===- PassOrder.h - Which statements run before which, in one pass -----===//
//
// Questions the event planner asks about the host's order of execution
// inside one function, answered from the structure of its blocks:
//
// - runsBefore(A, B): on every path that reaches B, A ran earlier in the same
//   pass through A's block (A's block encloses B, A comes first in it, and
//   no jump target lies between them). A function with goto labels gets
//   "no" for any two different statements.
// - mayRunBetween(P, A, B): whether P can run after A and before B in that
//   pass, taken from the text: P lies in the part of A's block from A to the
//   end of the statement that holds B (loops inside it may repeat any of it).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_SCHEDULE_PASSORDER_H
#define STREAMALLOC_SCHEDULE_PASSORDER_H

#include <optional>
#include <utility>

namespace clang {
class ASTContext;
class CompoundStmt;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace streamalloc {

class PassOrder {
public:
  explicit PassOrder(const clang::FunctionDecl &F);

  bool runsBefore(const clang::Stmt *Earlier, const clang::Stmt *Later) const;
  bool mayRunBetween(const clang::Stmt *P, const clang::Stmt *Earlier,
                     const clang::Stmt *Later) const;
  /// Whether code can go right before \p S: S sits directly in a block.
  bool inBlock(const clang::Stmt *S) const;
  /// File offsets of the first and last character of \p S (its outermost
  /// macro expansion), if it is written in the main file.
  std::optional<std::pair<unsigned, unsigned>> extent(const clang::Stmt *S) const;

private:
  const clang::Stmt *parentOf(const clang::Stmt *S) const;
  /// \p S, or the label/case/attribute statements wrapped around it.
  const clang::Stmt *outermostLabel(const clang::Stmt *S) const;
  /// The child of \p Block that is or holds \p S.
  const clang::Stmt *childHolding(const clang::CompoundStmt *Block, const clang::Stmt *S) const;

  clang::ASTContext &Ctx;
  bool HasLabels = false;
};

} // namespace streamalloc

#endif
