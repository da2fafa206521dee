//===- PageLockedParams.h - Helpers whose callers pass page-locked memory ---===//
//
// A helper that copies a buffer its caller allocated sees only "what the
// parameter points to": it cannot tell whether that memory is page-locked,
// so its cost model takes it to be pageable and keeps the copies
// synchronous. Yet the caller may pin the buffer (for the helper's copies,
// HostPinning.h) or allocate it page-locked. This file finds the pointer
// parameters for which every call of the helper passes page-locked memory:
// the driver analyses the callers once (a trial), records what each call
// passes given that caller's pinning plan, and decides.
//
// Only the cost model uses the answer: an asynchronous copy of memory that
// turns out pageable is still correct (the runtime stages it), only slower.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_DRIVER_PAGELOCKEDPARAMS_H
#define STREAMALLOC_DRIVER_PAGELOCKEDPARAMS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct PinDecision;

/// Parameter indices per function (by canonical declaration).
using ParamsOf = llvm::DenseMap<const clang::FunctionDecl *, std::vector<unsigned>>;

class PageLockedParams {
public:
  /// The candidates among \p Analysed: plain functions (not `main`, a member,
  /// a lambda or a template instance) that only this unit calls (internal
  /// linkage, or \p WholeProgram), whose address is not taken, whose every
  /// call sits in a function of \p Analysed, and that pass one of their
  /// pointer parameters to a GPU copy, or on to such a parameter of another
  /// candidate.
  PageLockedParams(clang::ASTContext &Ctx, llvm::ArrayRef<const clang::FunctionDecl *> Analysed,
                   bool WholeProgram);

  bool empty() const { return Candidates.empty(); }
  /// Whether \p F calls a candidate outside its lambdas (its analysis is
  /// needed to decide; a call in a lambda leaves the parameter pageable).
  bool callsCandidate(const clang::FunctionDecl &F) const;

  /// Records what each call of a candidate in the body of \p FA's function
  /// passes, given \p Pins, the final pinning plan of that analysis.
  void recordCalls(const FunctionAccesses &FA, const std::vector<PinDecision> &Pins);

  /// The candidates' parameters that every call passes page-locked memory:
  /// allocated page-locked or managed, pinned by the caller, or a parameter
  /// of the caller that is itself such a parameter. Calls not recorded count
  /// as pageable.
  ParamsOf decide() const;

private:
  /// What one call passes for one parameter: page-locked memory, provided
  /// the caller's parameters in IfCallerParams are page-locked too.
  struct Passed {
    const clang::FunctionDecl *Caller;
    bool PageLocked;
    std::vector<unsigned> IfCallerParams;
  };
  clang::ASTContext &Ctx;
  ParamsOf Candidates;
  /// The calls of candidates in \p F's body, its lambdas left out.
  std::vector<const clang::CallExpr *> candidateCallsIn(const clang::FunctionDecl &F) const;
  llvm::DenseMap<const clang::CallExpr *, std::vector<Passed>> Calls; ///< one per parameter
};

} // namespace streamalloc

#endif
