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

/// Whether every mention of \p V in \p Body reads it (or an element of it),
/// except the creations of its streams (`&V`, `&V[i]` as the first argument
/// of a stream-creating call), which all come before the first read.
bool onlyReadAfterCreation(const VarDecl *V, const Stmt *Body, ASTContext &Ctx) {
  bool Stable = true;
  unsigned FirstRead = ~0u, LastCreate = 0;
  std::vector<unsigned> Reads;
  std::vector<std::pair<unsigned, unsigned>> CreateLoops;
  const SourceManager &SM = Ctx.getSourceManager();
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Stable)
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == V) {
      unsigned At = SM.getFileOffset(SM.getExpansionLoc(Ref->getBeginLoc()));
      // Climb over subscripts, decays and parentheses to the use.
      DynTypedNode Node = DynTypedNode::create(*Ref);
      while (true) {
        DynTypedNodeList Parents = Ctx.getParents(Node);
        const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
        const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
        if (Cast && Cast->getCastKind() == CK_LValueToRValue) {
          FirstRead = std::min(FirstRead, At);
          Reads.push_back(At);
          return;
        }
        if (const auto *Addr = dyn_cast_or_null<UnaryOperator>(P);
            Addr && Addr->getOpcode() == UO_AddrOf) {
          DynTypedNodeList Up = Ctx.getParents(*Addr);
          const auto *Call = Up.empty() ? nullptr : Up[0].get<CallExpr>();
          const ApiFunction *Api = Call ? modelledCallee(Call) : nullptr;
          bool Creates =
              Api && Call->getNumArgs() > 0 && Call->getArg(0) == Addr &&
              (Api->Id == ApiId::cudaStreamCreate || Api->Id == ApiId::cudaStreamCreateWithFlags ||
               Api->Id == ApiId::cudaStreamCreateWithPriority);
          Stable &= Creates;
          LastCreate = std::max(LastCreate, At);
          // A loop around the creation may create it again after a use.
          for (DynTypedNode Up = DynTypedNode::create(*Addr);;) {
            DynTypedNodeList Ps = Ctx.getParents(Up);
            if (Ps.empty())
              break;
            if (const Stmt *L = Ps[0].get<Stmt>();
                L && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(L))
              CreateLoops.push_back({SM.getFileOffset(SM.getExpansionLoc(L->getBeginLoc())),
                                     SM.getFileOffset(SM.getExpansionLoc(L->getEndLoc()))});
            Up = Ps[0];
          }
          return;
        }
        if (P && (isa<ParenExpr>(P) || (Cast && Cast->getCastKind() == CK_ArrayToPointerDecay) ||
                  (isa<ArraySubscriptExpr>(P) &&
                   cast<ArraySubscriptExpr>(P)->getBase()->IgnoreParenImpCasts() ==
                       Node.get<Expr>()->IgnoreParenImpCasts()))) {
          Node = Parents[0];
          continue;
        }
        Stable = false; // assigned, passed by reference, its address kept, ...
        return;
      }
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Body);
  for (auto [Begin, End] : CreateLoops)
    for (unsigned At : Reads)
      if (Begin <= At && At <= End)
        return false;
  return Stable && LastCreate < FirstRead;
}

} // namespace

std::string ownStreamKey(const Expr *Stream, const FunctionDecl &F, ASTContext &Ctx) {
  const Expr *E = Stream->IgnoreParenImpCasts();
  std::string Index;
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Lit = dyn_cast<IntegerLiteral>(Sub->getIdx()->IgnoreParenImpCasts());
    if (!Lit)
      return "";
    Index = "[" + std::to_string(Lit->getValue().getZExtValue()) + "]";
    E = Sub->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDeclOrParm() || !F.getBody() ||
      !onlyReadAfterCreation(V, F.getBody(), Ctx))
    return "";
  return V->getNameAsString() + "@" + std::to_string(V->getID()) + Index;
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
  std::string Why;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Why.empty())
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
        Ref && Ref->getDecl()->getCanonicalDecl() == F.getCanonicalDecl()) {
      DynTypedNodeList Parents = Ctx.getParents(*Ref);
      const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
      const auto *Call = dyn_cast_or_null<CallExpr>(
          Cast ? (Ctx.getParents(*Cast).empty() ? nullptr : Ctx.getParents(*Cast)[0].get<Stmt>())
               : P);
      if (!Call || Call->getCallee()->IgnoreParenImpCasts() != Ref)
        Why = "`" + F.getNameAsString() +
              "` may return while work it put on a stream of the program's own is still "
              "running, and its address is taken on line " +
              std::to_string(SM.getExpansionLineNumber(Ref->getBeginLoc()));
      return;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *G = dyn_cast<FunctionDecl>(D); G && G->hasBody())
      Walk(G->getBody());
  return Why;
}

} // namespace streamalloc
