//===- OwnStreams.cpp - Where ops on the program's own streams are modelled ===//
#include "streamalloc/CRA/OwnStreams.h"
#include "streamalloc/Model/ApiModel.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

using namespace clang;

namespace streamalloc {

namespace {

/// Whether \p E puts work on a stream of the program's own: an op given such
/// a stream, or a call of a function that may return before such work is done.
bool enqueuesOnOwnStream(const Expr *E, ASTContext &Ctx,
                         llvm::function_ref<bool(const FunctionDecl *)> LeavesWork) {
  if (ownStreamArgument(E, Ctx))
    return true;
  const auto *Call = dyn_cast<CallExpr>(E);
  return Call && !isa<CUDAKernelCallExpr>(Call) && Call->getDirectCallee() &&
         LeavesWork(Call->getDirectCallee());
}

/// The statement of a block that holds \p E, or why there is none the
/// analysis follows \p E in.
const Stmt *blockStatementOf(const Expr *E, ASTContext &Ctx, std::string &Why) {
  DynTypedNode Node = DynTypedNode::create(*E);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty()) {
      Why = "is not inside a function body";
      return nullptr;
    }
    const Stmt *Parent = Parents[0].get<Stmt>();
    const Stmt *Here = Node.get<Stmt>();
    if (!Parent && Parents[0].get<VarDecl>()) {
      Node = Parents[0]; // the initializer of a local: its DeclStmt comes next
      continue;
    }
    if (!Parent) {
      Why = "is not a statement of a block";
      return nullptr;
    }
    if (isa<CXXTryStmt, CXXCatchStmt, SwitchStmt, CaseStmt, DefaultStmt, LambdaExpr, StmtExpr,
            OMPExecutableDirective>(Parent)) {
      Why = "sits in a try block, a switch, a lambda, a statement expression or an OpenMP region";
      return nullptr;
    }
    if (isa<CompoundStmt>(Parent)) {
      if (!isa<Expr, DeclStmt>(Here)) {
        Why = "sits in a condition, a loop header, a jump or a single-statement body";
        return nullptr;
      }
      return Here;
    }
    Node = Parents[0];
  }
}

} // namespace

std::string ownStreamKey(const Expr *Stream, const FunctionDecl &F, ASTContext &Ctx) {
  return streamKey(Stream, F, Ctx);
}

bool namesLegacyStream(const Expr *Stream, ASTContext &Ctx) { return isLegacyStream(Stream, Ctx); }

const Expr *ownStreamOf(const Expr *Op, ASTContext &Ctx) { return ownStreamArgument(Op, Ctx); }

std::string whyOwnStreamsAreNotModelled(const FunctionDecl &F, ASTContext &Ctx,
                                        llvm::function_ref<bool(const FunctionDecl *)> LeavesWork) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F.getBody());
  if (!Body)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Why;
  std::function<bool(const Stmt *)> Check = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return true;
    if (const auto *E = dyn_cast<Expr>(S); E && enqueuesOnOwnStream(E, Ctx, LeavesWork)) {
      std::string Where;
      if (!blockStatementOf(E, Ctx, Where)) {
        bool Op = ownStreamArgument(E, Ctx);
        Why = (Op ? "the op on a stream of the program's own on line " : "the call on line ") +
              std::to_string(SM.getExpansionLineNumber(E->getBeginLoc())) +
              (Op ? "" : ", which may leave work running on a stream of the program's own,") + " " +
              Where;
        return false;
      }
    }
    for (const Stmt *Child : S->children())
      if (!Check(Child))
        return false;
    return true;
  };
  Check(Body);
  return Why;
}

std::string whyOwnStreamWorkEscapes(const FunctionDecl &F, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (isa<CXXConstructorDecl, CXXDestructorDecl>(F) || F.isOverloadedOperator() ||
      (isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F).isVirtual()))
    return "`" + F.getNameAsString() +
           "` may return while work it put on a stream of the program's own is still running, "
           "and is called where the analysis does not model that work";
  // Every use must be the callee of a direct call.
  if (SourceLocation Use = escapingUseOf(F, Ctx); Use.isValid())
    return "`" + F.getNameAsString() +
           "` may return while work it put on a stream of the program's own is still "
           "running, and its address is taken on line " +
           std::to_string(SM.getExpansionLineNumber(Use));
  return "";
}

} // namespace streamalloc
