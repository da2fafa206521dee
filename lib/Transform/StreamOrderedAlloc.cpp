//===- StreamOrderedAlloc.cpp ---------------------------------------------===//
#include "streamalloc/Transform/StreamOrderedAlloc.h"
#include "PointerUse.h"
#include "streamalloc/Model/ApiModel.h"

#include "../Access/AstUtil.h"
#include "streamalloc/Transform/PointerGroup.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

using namespace clang;

namespace streamalloc {

namespace {

bool isApiCall(const CallExpr *Call, ApiCap Cap) {
  const ApiFunction *Api = modelledCallee(Call);
  return Api && Api->has(Cap);
}

/// The cudaMalloc/cudaFree calls of one function body (a lambda body or a
/// local class's member function is another function).
class AllocCalls : public RecursiveASTVisitor<AllocCalls> {
public:
  std::vector<const CallExpr *> Mallocs, Frees;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool VisitCallExpr(const CallExpr *Call) {
    if (isApiCall(Call, ApiCap::StreamOrderableAlloc))
      Mallocs.push_back(Call);
    else if (isApiCall(Call, ApiCap::StreamOrderableRelease))
      Frees.push_back(Call);
    return true;
  }
};

/// What stream-ordered allocation accepts in a group: `cudaMalloc(&p, n)`
/// into local pointers of the allocating function, released only by its
/// cudaFree calls, passed to kernels (their summaries say what they do), to
/// copies, fills and host calls that neither keep nor release it, and to
/// helpers of this file whose bodies can be followed.
class DeviceBufferPolicy : public PointerGroupPolicy {
public:
  bool site(PointerGroupTracer &T, const Expr *E) override {
    const auto *Call = cast<CallExpr>(E);
    if (!T.recordSite(Call))
      return true;
    const VarDecl *V = variableGivenAddressFirst(*Call);
    if (!V)
      return T.fail("the allocation" + T.at(Call) +
                    " is not stored straight into a local pointer (`" +
                    apiWith(ApiCap::StreamOrderableAlloc).Name.str() + "(&p, n)`)");
    return T.addHolder(&T.home(), V);
  }

  bool otherSource(PointerGroupTracer &T, const Expr *E) override {
    return T.fail("its pointer variable may also hold the value of the expression" + T.at(E));
  }

  /// `&p`: only as the out-parameter of a cudaMalloc in the allocating
  /// function (another allocation into the same pointer joins the group).
  bool holderAddress(PointerGroupTracer &T, const FunctionDecl *Fn, const Expr *AddrOf,
                     const std::string &Name) override {
    const CallExpr *Call = callGivenAddressFirst(AddrOf, T.context());
    if (Fn == &T.home() && Call && isApiCall(Call, ApiCap::StreamOrderableAlloc))
      return site(T, Call);
    return T.fail("the address of `" + Name + "` is taken" + T.at(AddrOf));
  }

  bool modelledCall(PointerGroupTracer &T, const FunctionDecl *Fn, const CallExpr *Call,
                    const ApiFunction &Api, unsigned Index, bool Offset) override {
    std::string Here = T.at(Call->getArg(Index));
    ArgRole Role = Api.roleOf(Index);
    if (Role == ArgRole::Free) {
      if (!Api.has(ApiCap::StreamOrderableRelease))
        return T.fail("it is released by `" + Api.Name.str() + "`" + Here);
      if (Fn != &T.home())
        return T.fail("it is released in `" + Fn->getNameAsString() + "`" + Here);
      if (Offset)
        return T.fail("a pointer into it, not its start, is passed to " + Api.Name.str() + Here);
      T.recordRelease(Call);
      return true;
    }
    bool PlainRole = Role == ArgRole::None || Role == ArgRole::Read || Role == ArgRole::Write ||
                     Role == ArgRole::ReadWrite || Role == ArgRole::VariadicRead;
    bool PlainKind = Api.Kind == ApiKind::GpuCopy || Api.Kind == ApiKind::GpuSet ||
                     Api.Kind == ApiKind::Host || Api.Kind == ApiKind::Pure ||
                     Api.Kind == ApiKind::Timer;
    if (PlainRole && PlainKind && !Api.isMember())
      return true;
    return T.fail("a pointer into it is passed to `" + Api.Name.str() + "`" + Here);
  }

  bool kernelArgument(PointerGroupTracer &, const CallExpr *, const Expr *) override {
    return true; // the kernel's summary says what it does with the buffer
  }

  bool deleted(PointerGroupTracer &T, const FunctionDecl *, const CXXDeleteExpr *Delete,
               bool) override {
    return T.fail(std::string("a pointer into it is used in a way ") + wording().UnfollowedValue +
                  T.at(Delete->getArgument()));
  }

  bool followsInto(const CallExpr *Call, const FunctionDecl *Def) const override {
    const auto *Method = dyn_cast<CXXMethodDecl>(Def);
    return !isa<CXXOperatorCallExpr>(Call) && !(Method && Method->isVirtual()) &&
           !Def->isDependentContext();
  }

  bool capturesBlock() const override { return true; }

  Wording wording() const override {
    return {"its pointer is",
            [](const std::string &Name) {
              return "`" + Name + "` is used in a way the analysis does not follow";
            },
            "the analysis does not follow", "the analysis cannot follow",
            "an operator (a lambda's or a functor's call), a virtual function or a template's "
            "pattern, which stream-ordered allocation does not follow into"};
  }
};

unsigned lineOf(const SourceManager &SM, const Stmt *S) {
  return SM.getSpellingLineNumber(SM.getFileLoc(S->getBeginLoc()));
}

} // namespace

std::vector<AllocGroup> findStreamOrderedAllocs(const FunctionDecl &F, ASTContext &Ctx) {
  std::vector<AllocGroup> Groups;
  if (!F.getBody())
    return Groups;
  const SourceManager &SM = Ctx.getSourceManager();
  AllocCalls Calls;
  Calls.TraverseStmt(F.getBody());
  VariableUses Uses;
  DeviceBufferPolicy Policy;

  llvm::SmallPtrSet<const CallExpr *, 8> Grouped;
  auto AsCalls = [](const std::vector<const Expr *> &Exprs) {
    std::vector<const CallExpr *> Result;
    for (const Expr *E : Exprs)
      Result.push_back(cast<CallExpr>(E));
    return Result;
  };
  for (const CallExpr *Site : Calls.Mallocs) {
    if (Grouped.count(Site))
      continue;
    PointerGroupTracer Tracer(Ctx, F, Policy, Uses);
    Tracer.trace(Site);
    AllocGroup G;
    G.Allocs = AsCalls(Tracer.Sites);
    G.Frees = AsCalls(Tracer.Releases);
    G.WhySync = Tracer.Why;
    G.Name = Tracer.HomeHolders.empty() ? "device buffer"
                                        : Tracer.HomeHolders.front()->getNameAsString();
    G.Line = lineOf(SM, Site);
    // Groups that share a call (a failed trace stops early, so two traces may
    // overlap) are one group.
    for (AllocGroup &Other : Groups) {
      bool Shares =
          llvm::any_of(G.Allocs, [&](auto *C) { return llvm::is_contained(Other.Allocs, C); }) ||
          llvm::any_of(G.Frees, [&](auto *C) { return llvm::is_contained(Other.Frees, C); });
      if (!Shares)
        continue;
      for (const CallExpr *C : Other.Allocs)
        if (!llvm::is_contained(G.Allocs, C))
          G.Allocs.push_back(C);
      for (const CallExpr *C : Other.Frees)
        if (!llvm::is_contained(G.Frees, C))
          G.Frees.push_back(C);
      if (G.WhySync.empty())
        G.WhySync = Other.WhySync;
      Other.Allocs.clear();
      Other.Frees.clear();
    }
    llvm::erase_if(Groups, [](const AllocGroup &O) { return O.Allocs.empty() && O.Frees.empty(); });
    for (const CallExpr *C : G.Allocs)
      Grouped.insert(C);
    for (const CallExpr *C : G.Frees)
      Grouped.insert(C);
    Groups.push_back(std::move(G));
  }
  // A cudaFree whose pointer no group reached releases memory allocated
  // elsewhere (or not by cudaMalloc): it stays synchronous.
  for (const CallExpr *Free : Calls.Frees) {
    if (Grouped.count(Free))
      continue;
    AllocGroup G;
    G.Frees.push_back(Free);
    G.Line = lineOf(SM, Free);
    G.WhySync = "it releases memory that is not allocated by a " +
                apiWith(ApiCap::StreamOrderableAlloc).Name.str() + " of `" + F.getNameAsString() +
                "` held only by its local pointers";
    Groups.push_back(std::move(G));
  }
  return Groups;
}

} // namespace streamalloc
