//===- PointerGroup.h - Every place a group of buffers' pointers may go ----===//
//
// Pinning a host buffer and making a device buffer stream-ordered both
// rewrite an allocation together with every release of its memory, so both
// must see the buffer's whole life: the variables that hold it (in the
// function that allocates it and in the helpers it is passed to) and every
// expression its pointers flow through. This tracer follows one group of
// allocations that way and fails, with the first reason, as soon as a
// pointer goes somewhere it cannot see. What counts as an allocation, a
// release, and what a kernel launch or a modelled call may do with the
// pointer differs per client: that is the client's PointerGroupPolicy.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_TRANSFORM_POINTERGROUP_H
#define STREAMALLOC_TRANSFORM_POINTERGROUP_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <string>
#include <vector>

namespace streamalloc {

struct ApiFunction;
class PointerGroupTracer;

/// Every mention of each variable, per function body (lambda bodies and
/// local classes included); shared by the traces of one function.
class VariableUses {
public:
  const std::vector<const clang::DeclRefExpr *> &of(const clang::FunctionDecl *Fn,
                                                    const clang::VarDecl *V);

private:
  using PerVariable =
      llvm::DenseMap<const clang::VarDecl *, std::vector<const clang::DeclRefExpr *>>;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<PerVariable>> Bodies;
};

/// What one client accepts in a group. Each hook gets the tracer, records
/// what it accepts (sites, holders, releases) and returns false after
/// T.fail(reason) for what it does not.
class PointerGroupPolicy {
public:
  virtual ~PointerGroupPolicy() = default;

  /// An allocation the group starts from, or that a holder may also hold.
  virtual bool site(PointerGroupTracer &T, const clang::Expr *Site) = 0;
  /// A value assigned to a holder of the allocating function that is not
  /// null, a holder, `p + k`, `c ? p : q` or `&p[i]`.
  virtual bool otherSource(PointerGroupTracer &T, const clang::Expr *E) = 0;
  /// `&holder`.
  virtual bool holderAddress(PointerGroupTracer &T, const clang::FunctionDecl *Fn,
                             const clang::Expr *AddrOf, const std::string &Name) = 0;
  /// A pointer into the group passed as argument \p Index of \p Api.
  /// \p Offset: it may point past the start of an allocation.
  virtual bool modelledCall(PointerGroupTracer &T, const clang::FunctionDecl *Fn,
                            const clang::CallExpr *Call, const ApiFunction &Api, unsigned Index,
                            bool Offset) = 0;
  /// A pointer into the group passed to a kernel as \p Arg.
  virtual bool kernelArgument(PointerGroupTracer &T, const clang::CallExpr *Launch,
                              const clang::Expr *Arg) = 0;
  /// A pointer into the group deleted.
  virtual bool deleted(PointerGroupTracer &T, const clang::FunctionDecl *Fn,
                       const clang::CXXDeleteExpr *Delete, bool Offset) = 0;
  /// A pointer into the group returned from \p Fn, or (\p Val an element of
  /// it) a reference to its memory.
  virtual bool returned(PointerGroupTracer &T, const clang::FunctionDecl *Fn,
                        const clang::Expr *Val);
  /// \p Value stored into the field a group is traced from (traceField), in
  /// \p Fn: by the assignment \p Store, or by a constructor's initialiser
  /// (\p Store null).
  virtual bool fieldStore(PointerGroupTracer &T, const clang::FunctionDecl *Fn,
                          const clang::BinaryOperator *Store, const clang::Expr *Value);
  /// Whether a helper's body may be followed into (the tracer already
  /// checked that it has one, outside the system headers). An instantiated
  /// template's body is followed like any other: it is a body of its own,
  /// and each instantiation is traced with the arguments it was made for.
  virtual bool followsInto(const clang::CallExpr *Call, const clang::FunctionDecl *Def) const {
    return true;
  }
  /// Whether a pointer passed to a function of another translation unit
  /// may stay in the group when that unit's exported summary lists the
  /// parameter as plain (SummaryExchange.h, computed with this policy).
  virtual bool trustsPlainImportedParams() const { return false; }
  /// A holder mentioned inside a lambda blocks the group.
  virtual bool capturesBlock() const { return false; }

  /// The report's words, which differ between the clients' reports.
  struct Wording {
    const char *Holder; ///< "it is" / "its pointer is" (stored in `v`, ...)
    std::string (*UnfollowedUse)(const std::string &Holder); ///< a holder used otherwise
    const char *UnfollowedValue; ///< after "a pointer into it is used in a way "
    const char *OpaqueCallee;    ///< after "`f`, whose body "
    /// After "`f`, ": a callee with a body that followsInto() refuses.
    const char *UnfollowedCallee = "which the analysis does not follow into";
  };
  virtual Wording wording() const = 0;
};

/// Follows one group: call trace() with its first allocation.
class PointerGroupTracer {
public:
  PointerGroupTracer(clang::ASTContext &Ctx, const clang::FunctionDecl &Home,
                     PointerGroupPolicy &Policy, VariableUses &Uses)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Home(Home), Policy(Policy), Uses(Uses) {}

  std::vector<const clang::Expr *> Sites;
  std::vector<const clang::Expr *> Releases;
  std::vector<const clang::VarDecl *> HomeHolders; ///< in the order they were reached
  /// GPU copies of the group's memory outside the home function, in the
  /// helpers it was followed into (recorded by policies that weigh them).
  std::vector<const clang::CallExpr *> HelperCopies;
  std::string Why; ///< the first reason the group fails

  /// Traces the group of \p Site to its end (also after a failure, so that
  /// the group still holds every allocation and release it reaches).
  bool trace(const clang::Expr *Site);
  /// Traces the group from the holder \p V of \p Fn (not the home), as if a
  /// pointer into it were passed there.
  bool traceHolder(const clang::FunctionDecl *Fn, const clang::VarDecl *V);
  /// Traces the group of what the home function returns: \p Value, the
  /// expression of one of its return statements, must be group memory.
  bool traceReturnedValue(const clang::Expr *Value);
  /// Traces the group held by the pointer field \p F of every object of its
  /// class: each mention of F in the unit, and the default initialiser and
  /// constructor initialisers that store into it.
  bool traceField(const clang::FieldDecl *F);
  /// Follows the result of \p Call in \p Caller: a pointer into the group,
  /// or (\p Element) a reference to its memory; also the holders it reaches.
  bool traceCallResult(const clang::FunctionDecl *Caller, const clang::CallExpr *Call,
                       bool Element);

  // For the policies.
  clang::ASTContext &context() const { return Ctx; }
  const clang::FunctionDecl &home() const { return Home; }
  /// Records \p Site; false when it was already part of the group.
  bool recordSite(const clang::Expr *Site);
  void recordRelease(const clang::Expr *Release);
  bool addHolder(const clang::FunctionDecl *Fn, const clang::VarDecl *V);
  bool fail(const std::string &Reason);
  unsigned lineOf(const clang::Stmt *S) const;
  std::string at(const clang::Stmt *S) const; ///< " (line N)"
  /// Spelled in the allocating function's file itself, not through a macro.
  bool writtenDirectly(clang::SourceLocation L) const;
  /// The one parent of \p E (none when it has several, e.g. in a template).
  clang::DynTypedNode parentOf(const clang::Expr *E) const;
  /// Whether \p E sits in a lambda's body (else in an OpenMP region, for a capture).
  bool insideLambda(const clang::Expr *E) const;

private:
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const clang::FunctionDecl &Home;
  PointerGroupPolicy &Policy;
  VariableUses &Uses;
  llvm::SmallVector<std::pair<const clang::FunctionDecl *, const clang::VarDecl *>, 8> Work;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Seen;

  void checkHolder(const clang::FunctionDecl *Fn, const clang::VarDecl *V);
  void drainWork();
  bool checkFieldUse(const clang::FunctionDecl *Fn, const clang::MemberExpr *Use);
  bool checkSource(const clang::Expr *E);
  bool checkUse(const clang::FunctionDecl *Fn, const clang::DeclRefExpr *Use);
  bool traceValue(const clang::FunctionDecl *Fn, const clang::Expr *Val, bool Offset);
  bool elementAccess(const clang::FunctionDecl *Fn, const clang::Expr *Element, bool Offset);
  bool passedToCall(const clang::FunctionDecl *Fn, const clang::CallExpr *Call,
                    const clang::Expr *Val, bool Offset);
};

} // namespace streamalloc

#endif
