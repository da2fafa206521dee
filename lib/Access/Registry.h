//===- Registry.h - Summaries, call graph order and alias contexts ---------===//
//
// FunctionSummaries' state: summaries computed bottom-up over the call graph
// (Tarjan's strongly connected components, each cycle iterated to a
// fixpoint), and for each host function the alias policy its call sites
// imply (top-down: a caller's own points-to facts answer whether two of the
// callee's symbolic objects may be the same memory).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_LIB_ACCESS_REGISTRY_H
#define STREAMALLOC_LIB_ACCESS_REGISTRY_H

#include "PointsTo.h"
#include "streamalloc/Access/FunctionSummary.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>

namespace streamalloc {

struct FunctionSummaries::Impl : CalleeSummaries {
  const FunctionSummary &get(const clang::FunctionDecl *F);
  const FunctionSummary &summaryOf(const clang::FunctionDecl *Def) override;
  bool inCycle(const clang::FunctionDecl *Def) override;
  bool leftAsWritten(const clang::FunctionDecl *Def) const override {
    return LeftAsWritten.count(Def->getCanonicalDecl());
  }
  bool blocksAsWritten(const clang::FunctionDecl *Def) const override {
    return BlocksAsWritten.contains(Def->getCanonicalDecl());
  }
  bool completesEarlierWork(const clang::FunctionDecl *Def) const override {
    auto It = LeftAsWritten.find(Def->getCanonicalDecl());
    return It != LeftAsWritten.end() && It->second;
  }
  std::optional<unsigned> pendingWorkStream(const clang::FunctionDecl *Def) const override {
    auto It = PendingWork.find(Def->getCanonicalDecl());
    return It == PendingWork.end() ? std::nullopt : std::optional<unsigned>(It->second);
  }
  /// Functions left as written, and whether a call completes earlier work.
  llvm::DenseMap<const clang::FunctionDecl *, bool> LeftAsWritten;
  /// Functions whose output blocks the host where the original does.
  llvm::DenseSet<const clang::FunctionDecl *> BlocksAsWritten;
  /// Functions that return with work pending, and its stream.
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> PendingWork;

  /// Whether \p F's symbolic objects and globals may be the same memory.
  AliasPolicy aliasPolicy(const clang::FunctionDecl *F);

private:
  // --- summaries -------------------------------------------------------
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionSummary>> Done;
  llvm::DenseMap<const clang::FunctionDecl *, FunctionSummary> Working; ///< an open cycle
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> Index, Low;
  std::vector<const clang::FunctionDecl *> Stack;
  llvm::DenseSet<const clang::FunctionDecl *> OnStack;
  unsigned Counter = 0;
  unsigned Solving = 0; ///< nesting of solve(): callees not found by the scan get Top
  std::vector<std::unique_ptr<FunctionSummary>> Tops;

  void solve(const clang::FunctionDecl *Def);
  void strongConnect(const clang::FunctionDecl *Def);
  void solveCycle(const std::vector<const clang::FunctionDecl *> &Members, bool Recursive);
  FunctionSummary compute(const clang::FunctionDecl *Def);
  std::vector<const clang::FunctionDecl *> calleesOf(const clang::FunctionDecl *Def);
  const FunctionSummary &top(const clang::FunctionDecl *Def, std::string Why);

  // --- alias policies --------------------------------------------------
  struct Model {
    ObjectTable Objects;
    std::unique_ptr<PointsTo> Pts;
  };
  struct Uses {
    unsigned References = 0; ///< every mention of the function
    std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>> Calls;
  };
  llvm::DenseMap<const clang::FunctionDecl *, AliasPolicy> Policies;
  llvm::DenseSet<const clang::FunctionDecl *> PolicyInProgress;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Model>> Models;
  llvm::DenseMap<const clang::FunctionDecl *, Uses> UseIndex;
  bool Indexed = false;

  Model &model(const clang::FunctionDecl *Def);
  void buildIndex(clang::ASTContext &Ctx);
  /// Why the callers of \p Def cannot all be seen (empty when they can).
  std::string unknownContext(const clang::FunctionDecl *Def);
};

using Registry = FunctionSummaries::Impl;

/// The definition of \p F (the declaration with its body), or null.
const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *F);

} // namespace streamalloc

#endif
