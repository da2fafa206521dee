//===- RedundantSyncs.cpp - Which of the program's device syncs protect nothing ===//
#include "streamalloc/CRA/RedundantSyncs.h"
#include "CutRun.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/LegacyStream.h"
#include "streamalloc/Model/ApiModel.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cassert>
#include <functional>

#include <map>
#include <set>
#include <tuple>

using namespace clang;

namespace streamalloc {

namespace {

/// The row of a function declared at file scope (a C or CUDA function; the
/// C++ library's are left to the library checks below).
const ApiFunction *globalApi(const FunctionDecl *F) {
  return F && F->getDeclContext()->getRedeclContext()->isTranslationUnit() ? modelledFunction(F)
                                                                           : nullptr;
}

/// The device-sync API a call names (cudaDeviceSynchronize,
/// cudaThreadSynchronize), if it is one.
const ApiFunction *deviceSyncApi(const FunctionDecl *F) {
  const ApiFunction *Api = globalApi(F);
  return Api && Api->Kind == ApiKind::DeviceSync ? Api : nullptr;
}

const ApiFunction *deviceSyncApi(const CallExpr *Call) {
  return deviceSyncApi(Call->getDirectCallee());
}

class SyncFinder {
public:
  SyncFinder(const FunctionAccesses &FA, FunctionSummaries &Device, const CraResult &Cra)
      : FA(FA), Device(Device), Cra(Cra), Ctx(FA.function().getASTContext()),
        SM(Ctx.getSourceManager()), Body(FA.function().getBody()), PM(const_cast<Stmt *>(Body)) {
    for (const GpuOp &Op : FA.ops())
      OpOfCall.try_emplace(Op.Call, &Op);
  }

  std::vector<ExplicitSync> run() {
    std::vector<ExplicitSync> Syncs;
    if (!Body)
      return Syncs;
    visit(Body);
    std::map<const Stmt *, unsigned> ByStatement;
    for (const CallExpr *Call : SyncCalls) {
      ExplicitSync S = describe(Call);
      auto [It, New] = ByStatement.insert({S.Statement, Syncs.size()});
      if (New)
        Syncs.push_back(std::move(S));
      else
        Syncs[It->second].Calls.push_back(Call);
    }
    llvm::stable_sort(
        Syncs, [](const ExplicitSync &A, const ExplicitSync &B) { return A.Offset < B.Offset; });
    for (ExplicitSync &S : Syncs) {
      S.Untracked = untrackedAt(S);
      const Stmt *Top = S.Statement;
      while (parentOf(Top) && parentOf(Top) != Body)
        Top = parentOf(Top);
      if (isa<CompoundStmt>(Body) && parentOf(Top) == Body)
        S.BodyStatement = Top;
      if (auto Loops = loopsAround(S.Statement); !Loops.empty())
        S.InnermostLoop = Loops.front();
    }
    return Syncs;
  }

  std::vector<UntrackedWork> untrackedWork() {
    if (Body)
      visit(Body);
    std::vector<UntrackedWork> Out;
    if (!FA.function().isMain())
      Out.push_back({0, false, callersWork()});
    llvm::append_range(Out, Sites);
    return Out;
  }

private:
  const FunctionAccesses &FA;
  FunctionSummaries &Device;
  const CraResult &Cra;
  ASTContext &Ctx;
  const SourceManager &SM;
  const Stmt *Body;
  ParentMap PM;
  std::vector<const CallExpr *> SyncCalls;
  std::vector<UntrackedWork> Sites; ///< Repeats: may run at any time (in a lambda, passed)
  llvm::SmallPtrSet<const DeclRefExpr *, 16> DirectCallees;
  llvm::DenseMap<const Expr *, const GpuOp *> OpOfCall; ///< the first op of each call
  unsigned InLambda = 0; ///< depth of lambda bodies around the statement visited
  bool HasGoto = false;  ///< a backward or computed goto

  unsigned offsetOf(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }
  unsigned lineOf(SourceLocation L) const { return SM.getExpansionLineNumber(L); }
  /// Offset just past the token that starts at file location \p L.
  unsigned tokenEnd(SourceLocation L) const {
    return SM.getFileOffset(Lexer::getLocForEndOfToken(L, 0, SM, Ctx.getLangOpts()));
  }
  /// The text of the file that holds the function (main or included).
  llvm::StringRef buffer() const {
    return SM.getBufferData(SM.getFileID(SM.getExpansionLoc(FA.function().getLocation())));
  }

  void visit(const Stmt *S) {
    if (!S)
      return;
    // A lambda's body runs whenever it is called, maybe on another thread:
    // its GPU work may reach any sync. Its own syncs are not this function's.
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      ++InLambda;
      for (const Expr *Init : L->capture_inits())
        visit(Init);
      visit(L->getBody());
      --InLambda;
      return;
    }
    // A jump back lets work enqueued after a sync reach it: every site may
    // precede every sync. (A forward goto adds no such path.)
    if (isa<IndirectGotoStmt>(S))
      HasGoto = true;
    if (const auto *Goto = dyn_cast<GotoStmt>(S))
      if (!Goto->getLabel()->getStmt() ||
          offsetOf(Goto->getLabel()->getStmt()->getBeginLoc()) <= offsetOf(Goto->getBeginLoc()))
        HasGoto = true;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const auto *Callee = dyn_cast_or_null<DeclRefExpr>(
              Call->getCallee() ? Call->getCallee()->IgnoreParenImpCasts() : nullptr))
        DirectCallees.insert(Callee);
      if (deviceSyncApi(Call)) {
        if (!InLambda)
          SyncCalls.push_back(Call);
      } else if (std::optional<std::string> Why = untrackedCall(Call)) {
        Sites.push_back({offsetOf(Call->getBeginLoc()), InLambda > 0, *Why});
        const GpuOp *Op = OpOfCall.lookup(Call);
        Sites.back().HostToDeviceCopy =
            Op && !Op->HasUserStream && copyDirectionOf(*Op) == CopyDirection::HostToDevice;
      }
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      // A function passed as a value (to std::thread, a callback) may run at
      // any time, maybe on another thread.
      const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
      const FunctionDecl *Def = nullptr;
      if (F && !DirectCallees.count(Ref) && !deviceSyncApi(F)) {
        bool Library =
            F->isInStdNamespace() || (SM.isInSystemHeader(F->getLocation()) && !cudaLibrary(F, SM));
        bool Gpu = F->hasBody(Def) && Def ? Device.get(Def).PerformsGpuOps : !Library;
        if (Gpu)
          Sites.push_back({offsetOf(Ref->getBeginLoc()), true,
                           "`" + F->getNameAsString() + "`, passed as a function on line " +
                               std::to_string(lineOf(Ref->getBeginLoc())) +
                               ", may enqueue GPU work at any time"});
      }
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      const FunctionDecl *Def = nullptr;
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (Ctor && Ctor->hasBody(Def) && Def && !SM.isInSystemHeader(Def->getLocation()) &&
          Device.get(Def).PerformsGpuOps)
        Sites.push_back({offsetOf(Construct->getBeginLoc()), InLambda > 0,
                         "the constructor of `" + Ctor->getParent()->getNameAsString() +
                             "` on line " + std::to_string(lineOf(Construct->getBeginLoc())) +
                             " enqueues GPU work"});
    }
    for (const Stmt *Child : S->children())
      visit(Child);
  }

  static bool cudaLibrary(const FunctionDecl *F, const SourceManager &SM) {
    return (F->getIdentifier() && hasNamePrefix(ApiNameGroup::GpuLibrary, F->getName())) ||
           isGpuLibraryHeader(SM.getFilename(SM.getExpansionLoc(F->getLocation())));
  }

  /// Why \p Call may leave GPU work the analysis does not track running on
  /// the legacy default stream, if it may.
  std::optional<std::string> untrackedCall(const CallExpr *Call) const {
    std::string At = " on line " + std::to_string(lineOf(Call->getBeginLoc()));
    if (const GpuOp *Op = OpOfCall.lookup(Call)) {
      if (Cra.Ops[Op->Id].Async || completesEarlierWork(*Op))
        return std::nullopt;
      if (Op->HasUserStream)
        return Op->Callee + At + " runs on a stream of the program's own";
      return (Op->Kind == GpuOpKind::Launch ? "kernel `" + Op->Callee + "`" : Op->Callee) + At +
             " stays on the legacy default stream, where the tool does not track it";
    }
    if (isa<CUDAKernelCallExpr>(Call))
      return "the kernel launch" + At + " is not analysed";
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F)
      return "the call through a pointer" + At + " may enqueue GPU work";
    std::string Name = F->getNameAsString();
    if (hasNamePrefix(ApiNameGroup::LaunchConfiguration, Name))
      return std::nullopt; // a launch's configuration (<<<...>>>), part of the launch
    if (const ApiFunction *Api = globalApi(F)) {
      if (Api->isGpuOp() || Api->Kind == ApiKind::UserStreams || Api->has(ApiCap::EnqueuesOnStream))
        return "`" + Name + "`" + At + " enqueues work on the legacy default stream";
      return std::nullopt;
    }
    const FunctionDecl *Def = nullptr;
    bool Library =
        F->isInStdNamespace() || (SM.isInSystemHeader(F->getLocation()) && !cudaLibrary(F, SM));
    if (F->hasBody(Def) && Def) {
      if (Library && SM.isInSystemHeader(Def->getLocation()))
        return std::nullopt;
      if (Device.get(Def).PerformsGpuOps)
        return "`" + Name + "`" + At + " enqueues GPU work that may still be running";
      return std::nullopt;
    }
    if (Library)
      return std::nullopt;
    return "`" + Name + "`" + At + " has no body or model and may enqueue GPU work";
  }

  const Stmt *parentOf(const Stmt *S) const { return PM.getParent(S); }

  /// How the value of \p Node is used by \p Parent, for a sync that stays.
  std::string useOf(const Stmt *Node, const Stmt *Parent) const {
    if (!Parent)
      return "it is not a statement of a block";
    if (const auto *DS = dyn_cast<DeclStmt>(Parent)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          return "its result is stored in `" + V->getNameAsString() + "`";
      return "its result is stored in a variable";
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
      return BO->isAssignmentOp() ? "its result is assigned" : "its result is checked";
    if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      if (const FunctionDecl *F = Call->getDirectCallee())
        return "its result is passed to `" + F->getNameAsString() + "`";
      return "its result is passed to a call";
    }
    if (isa<ReturnStmt>(Parent))
      return "its result is returned";
    auto IsCond = [&](const Expr *Cond) { return Cond && Cond->IgnoreParenImpCasts() == Node; };
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      return IsCond(If->getCond()) ? "its result is checked in a condition"
                                   : "it is the whole body of an `if` or `else`, not a statement "
                                     "in a block";
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(Parent)) {
      const Expr *Cond = nullptr;
      const Stmt *LoopBody = nullptr;
      if (const auto *For = dyn_cast<ForStmt>(Parent))
        Cond = For->getCond(), LoopBody = For->getBody();
      else if (const auto *While = dyn_cast<WhileStmt>(Parent))
        Cond = While->getCond(), LoopBody = While->getBody();
      else if (const auto *Do = dyn_cast<DoStmt>(Parent))
        Cond = Do->getCond(), LoopBody = Do->getBody();
      else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
        Cond = Switch->getCond(), LoopBody = Switch->getBody();
      else
        LoopBody = cast<CXXForRangeStmt>(Parent)->getBody();
      if (IsCond(Cond))
        return "its result is checked in a condition";
      return LoopBody == Node
                 ? "it is the whole body of a loop or switch, not a statement in a block"
                 : "it is part of a loop header";
    }
    if (isa<LabelStmt, SwitchCase, AttributedStmt>(Parent))
      return "it carries a label";
    return "it is part of a larger expression";
  }

  /// Whether \p S is produced by the macro invocation \p Inv as a whole.
  bool fromInvocation(const Stmt *S, CharSourceRange Inv) const {
    if (!S->getBeginLoc().isMacroID() || !S->getEndLoc().isMacroID())
      return false;
    return SM.getExpansionRange(S->getBeginLoc()).getBegin() == Inv.getBegin() &&
           SM.getExpansionRange(S->getEndLoc()).getEnd() == Inv.getEnd();
  }

  /// For a condition that tests an error code given by \p UsesResult:
  /// whether it is true on an error (`e != cudaSuccess`, `e`) or on success
  /// (`e == cudaSuccess`, `!e`); nullopt for anything else.
  static std::optional<bool> errorTest(const Expr *Cond,
                                       const std::function<bool(const Stmt *)> &UsesResult) {
    if (!Cond)
      return std::nullopt;
    Cond = Cond->IgnoreParenImpCasts();
    auto IsSuccess = [](const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
        return isApiSymbol(Ref->getDecl()->getName(), ApiSymbol::cudaSuccess);
      if (const auto *Lit = dyn_cast<IntegerLiteral>(E))
        return Lit->getValue() == 0;
      return false;
    };
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
        BO && (BO->getOpcode() == BO_NE || BO->getOpcode() == BO_EQ)) {
      const Expr *Other = IsSuccess(BO->getRHS())   ? BO->getLHS()
                          : IsSuccess(BO->getLHS()) ? BO->getRHS()
                                                    : nullptr;
      if (!Other || !UsesResult(Other))
        return std::nullopt;
      return BO->getOpcode() == BO_NE;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot) {
      std::optional<bool> Inner = errorTest(UO->getSubExpr(), UsesResult);
      return Inner ? std::optional<bool>(!*Inner) : std::nullopt;
    }
    const auto *Call = dyn_cast<CallExpr>(Cond);
    if ((isa<DeclRefExpr>(Cond) || (Call && deviceSyncApi(Call))) && UsesResult(Cond))
      return true;
    return std::nullopt;
  }

  /// Whether the code of \p Top (a macro's expansion) other than \p Call
  /// only checks Call's result: its conditions test the result (or a variable
  /// holding it), what runs unconditionally are queries that touch nothing
  /// or calls that are given the result (an error-check function).
  bool onlyChecks(const Stmt *Top, const CallExpr *Call) const {
    llvm::SmallPtrSet<const VarDecl *, 2> Holders;
    std::function<bool(const Stmt *)> UsesResult = [&](const Stmt *S) {
      if (!S)
        return false;
      if (S == Call)
        return true;
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
        if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()); V && Holders.count(V))
          return true;
      return llvm::any_of(S->children(), UsesResult);
    };
    std::function<bool(const Stmt *)> Ok = [&](const Stmt *S) -> bool {
      if (!S || S == Call)
        return true;
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D)) {
            if (!V->getInit() || !UsesResult(V->getInit()) || !Ok(V->getInit()))
              return false;
            Holders.insert(V);
          }
        return true;
      }
      if (const auto *If = dyn_cast<IfStmt>(S)) {
        // The branch taken on an error may do anything (print, exit); the
        // one taken on success must only check too.
        std::optional<bool> ThenOnError = errorTest(If->getCond(), UsesResult);
        if (If->getInit() || If->getConditionVariable() || !ThenOnError || !Ok(If->getCond()))
          return false;
        return Ok(*ThenOnError ? If->getElse() : If->getThen());
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && (BO->isAssignmentOp() || BO->isCompoundAssignmentOp()))
        return false;
      if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
        return false;
      if (const auto *C = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *F = C->getDirectCallee();
        const ApiFunction *Api = globalApi(F);
        bool Query = Api && Api->Kind == ApiKind::Pure;
        bool GivenResult = llvm::any_of(C->arguments(), UsesResult);
        if (!Query && !GivenResult)
          return false;
      } else if (isa<CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, GCCAsmStmt, MSAsmStmt,
                     CXXThrowExpr, ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S)) {
        return false;
      }
      return llvm::all_of(S->children(), Ok);
    };
    return Ok(Top);
  }

  ExplicitSync describe(const CallExpr *Call) const {
    ExplicitSync S;
    S.Calls = {Call};
    S.Callee = deviceSyncApi(Call)->Name.str();
    const Stmt *Top = Call;
    std::optional<std::string> Kept;
    SourceLocation Begin = Call->getBeginLoc();
    unsigned BeginOffset = 0, EndOffset = 0;
    if (Begin.isMacroID()) {
      CharSourceRange Inv = SM.getExpansionRange(Begin);
      BeginOffset = SM.getFileOffset(Inv.getBegin());
      EndOffset = tokenEnd(Inv.getEnd());
      std::string Macro = Lexer::getImmediateMacroName(Begin, SM, Ctx.getLangOpts()).str();
      SourceLocation SpellBegin = SM.getSpellingLoc(Begin);
      SourceLocation SpellEnd = SM.getSpellingLoc(Call->getEndLoc());
      if (!SM.isMacroArgExpansion(Begin) ||
          SM.getFileID(SpellBegin) !=
              SM.getFileID(SM.getExpansionLoc(FA.function().getLocation())) ||
          SM.getFileID(SpellBegin) != SM.getFileID(Inv.getBegin())) {
        Kept = "it is written in the body of macro `" + Macro + "`";
      } else {
        // The invocation must be NAME(<the call>), the call its only argument.
        llvm::StringRef Text = buffer().slice(BeginOffset, EndOffset);
        llvm::StringRef CallText = buffer().slice(SM.getFileOffset(SpellBegin), tokenEnd(SpellEnd));
        llvm::StringRef Args =
            Text.drop_while([](char C) { return isalnum(C) || C == '_'; }).trim();
        bool Only = Args.consume_front("(") && Args.consume_back(")");
        Args = Args.trim();
        while (Only && Args != CallText && Args.starts_with("(") && Args.ends_with(")"))
          Args = Args.drop_front().drop_back().trim();
        if (!Only || Args != CallText)
          Kept = "it is not the only thing in the macro invocation around it";
      }
      while (const Stmt *P = parentOf(Top)) {
        if (!fromInvocation(P, Inv))
          break;
        Top = P;
      }
    } else {
      while (const Stmt *P = parentOf(Top)) {
        const auto *Cast = dyn_cast<CStyleCastExpr>(P);
        if (!isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups, ConstantExpr>(P) &&
            !(Cast && Cast->getType()->isVoidType()))
          break;
        Top = P;
      }
      BeginOffset = offsetOf(Top->getBeginLoc());
      EndOffset = tokenEnd(SM.getExpansionLoc(Top->getEndLoc()));
    }
    const Stmt *Parent = parentOf(Top);
    S.Statement = Top;
    S.Line = lineOf(Top->getBeginLoc());
    S.Offset = BeginOffset;
    S.TopLevel = Parent == Body;
    if (!Kept && !isa_and_nonnull<CompoundStmt>(Parent))
      Kept = useOf(Top, Parent);
    if (!Kept && isa<DeclStmt>(Top))
      Kept = "the macro around it declares a variable";
    if (!Kept && Top != Call && !onlyChecks(Top, Call))
      Kept = "the macro around it does more than check its result";
    if (!Kept && !FA.accessesOf(Top).Ops.empty())
      Kept = "the statement also enqueues GPU work";
    if (Kept) {
      S.WhyKept = *Kept;
      return S;
    }
    // The `;` that ends the statement goes with it.
    llvm::StringRef Buffer = buffer();
    size_t Semi = Buffer.find_first_not_of(" \t", EndOffset);
    if (Semi != llvm::StringRef::npos && Buffer[Semi] == ';')
      EndOffset = Semi + 1;
    S.Removable = true;
    S.Begin = BeginOffset;
    S.End = EndOffset;
    return S;
  }

  /// File offset ranges of the loops around \p S, innermost first.
  std::vector<std::pair<unsigned, unsigned>> loopsAround(const Stmt *S) const {
    std::vector<std::pair<unsigned, unsigned>> Loops;
    for (const Stmt *P = parentOf(S); P; P = parentOf(P)) {
      if (isRepeatingLoop(P, Ctx))
        Loops.push_back({offsetOf(P->getBeginLoc()), tokenEnd(SM.getExpansionLoc(P->getEndLoc()))});
    }
    return Loops;
  }

  std::string callersWork() const {
    return "work the callers of `" + FA.name() +
           "` left on the legacy default stream may be running (the tool decides this only in "
           "`main`)";
  }

  /// The work the analysis does not track that may be running at \p S.
  std::vector<UntrackedWork> untrackedAt(const ExplicitSync &S) const {
    std::vector<std::pair<unsigned, unsigned>> Loops = loopsAround(S.Statement);
    std::vector<UntrackedWork> Out;
    if (!FA.function().isMain())
      Out.push_back({0, false, callersWork()});
    for (const UntrackedWork &W : Sites) {
      bool InLoop = llvm::any_of(
          Loops, [&](auto Range) { return Range.first <= W.Offset && W.Offset < Range.second; });
      if (W.Repeats || InLoop || HasGoto)
        Out.push_back({W.Offset, true, W.Why});
      else if (W.Offset < S.Offset)
        Out.push_back(W);
    }
    return Out;
  }
};

using Position = std::tuple<int, const Stmt *, unsigned>;

Position positionOf(const Wait &W) { return {W.Where.K, W.Where.Anchor, W.Where.Offset}; }

/// Whether the wait \p W is placed inside the file offset range \p Range.
bool insideRange(const FunctionAccesses &FA, const Wait &W, std::pair<unsigned, unsigned> Range) {
  const SourceManager &SM = FA.function().getASTContext().getSourceManager();
  unsigned At = W.Where.Offset;
  if (W.Where.Anchor) {
    const auto *Block = dyn_cast<CompoundStmt>(W.Where.Anchor);
    SourceLocation L = W.Where.K == InsertionPoint::BlockEnd && Block
                           ? Block->getRBracLoc()
                           : W.Where.Anchor->getBeginLoc();
    At = SM.getFileOffset(SM.getExpansionLoc(L));
  }
  return Range.first <= At && At < Range.second;
}

std::string opLines(const FunctionAccesses &FA, const std::vector<unsigned> &Ops) {
  std::set<unsigned> Lines;
  for (unsigned Op : Ops)
    Lines.insert(FA.ops()[Op].Line);
  std::string Text;
  for (unsigned Line : Lines)
    Text += (Text.empty() ? "" : ", ") + std::to_string(Line);
  return (Lines.size() > 1 ? "lines " : "line ") + Text;
}

} // namespace

std::vector<UntrackedWork> untrackedGpuWork(const FunctionAccesses &FA, FunctionSummaries &Device,
                                            const CraResult &Cra) {
  return SyncFinder(FA, Device, Cra).untrackedWork();
}

std::vector<ExplicitSync> findExplicitSyncs(const FunctionAccesses &FA, FunctionSummaries &Device,
                                            const CraResult &Cra) {
  return SyncFinder(FA, Device, Cra).run();
}

std::vector<SyncDecision> decideRedundantSyncs(const std::vector<ExplicitSync> &Syncs,
                                               const FunctionAccesses &FA, CraRunner Run) {
  std::vector<SyncDecision> Decisions;
  std::vector<const Expr *> Ignored;
  CutRun Base = runWhole(Run, Ignored);
  // Where each statement of the body is in the walk (its point's index).
  llvm::DenseMap<const Stmt *, unsigned> PointOf;
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(FA.function().getBody()))
    for (const Stmt *Child : Body->body())
      PointOf.try_emplace(Child, PointOf.size());
  for (const ExplicitSync &S : Syncs) {
    SyncDecision D;
    // Untracked work is completed by a sync that stays and runs on every
    // path before this one: the latest such at the top level of the body.
    std::optional<unsigned> Fence;
    for (unsigned I = 0; I < Decisions.size(); ++I)
      if (Syncs[I].TopLevel && !Decisions[I].Drop && Syncs[I].Offset < S.Offset)
        Fence = Syncs[I].Offset;
    std::vector<unsigned> Pending;
    bool Counted = false;
    for (const std::vector<SyncPoint> &Stretch : Base.Syncs)
      for (const SyncPoint &P : Stretch)
        if (llvm::any_of(P.Calls, [&](const Expr *C) { return llvm::is_contained(S.Calls, C); })) {
          Counted = true;
          for (unsigned Op : P.Pending)
            if (!llvm::is_contained(Pending, Op))
              Pending.push_back(Op);
        }
    D.PendingOps = Pending.size();
    const UntrackedWork *Running = nullptr;
    for (const UntrackedWork &W : S.Untracked)
      if (!Running && (W.Repeats || !Fence || W.Offset >= *Fence))
        Running = &W;
    if (Running) {
      D.Reason = "GPU work the tool does not track may be running here (" + Running->Why + ")";
      Decisions.push_back(std::move(D));
      continue;
    }
    std::vector<const Expr *> Without = Ignored;
    llvm::append_range(Without, S.Calls);
    // The trial differs from Base only in its stretch: a wait there can
    // only stand where a wait of Base's same stretch stands (it is placed at
    // a statement of that stretch, or at the body's end).
    auto At = PointOf.find(S.BodyStatement);
    CutRun Trial =
        At != PointOf.end() ? runFrom(Run, Without, Base, At->second) : runWhole(Run, Without);
    std::set<Position> Had;
    Base.forEachWait(Trial.Start, Trial.End, [&](const Wait &W) { Had.insert(positionOf(W)); });
    const Wait *New = nullptr;
    Trial.forEachWait(Trial.Start, Trial.End, [&](const Wait &W) {
      if (!New && W.Cause == WaitCause::Conflict && !Had.count(positionOf(W)))
        New = &W;
    });
    if (New) {
      D.Reason = "without it the tool would wait before line " + std::to_string(New->Line) + ": " +
                 describeWait(*New, FA);
      Decisions.push_back(std::move(D));
      continue;
    }
    D.Redundant = true;
    // A clock read that the ops pending here now reach (--timers=keep waits
    // there for them): when it runs as often as the sync, the sync stays
    // (the original's code, measuring the same work); when the sync is in a
    // loop the clock read is outside of, the single wait before the clock
    // read stands in for the sync of every iteration.
    const Wait *Timer = nullptr;
    auto FindTimer = [&](const Wait &W) {
      if (!Timer && W.Cause == WaitCause::Timer &&
          llvm::any_of(W.Covers, [&](unsigned Op) { return llvm::is_contained(Pending, Op); }))
        Timer = &W;
    };
    Base.forEachWait(Base.Start, Trial.Start, FindTimer); // the trial's waits, in order
    Trial.forEachWait(Trial.Start, Trial.End, FindTimer);
    Base.forEachWait(Trial.End, Base.End, FindTimer);
    bool TimerInLoop = Timer && (!S.InnermostLoop || insideRange(FA, *Timer, *S.InnermostLoop));
    D.Short = !Counted ? "no wait of the tool relies on it"
              : Pending.empty()
                  ? "no GPU op is pending here"
                  : "the tool's own waits cover the " + std::to_string(Pending.size()) + " op" +
                        (Pending.size() > 1 ? "s" : "") + " pending here";
    if (!Counted)
      D.Reason = "no wait of the tool relies on it (it is not a statement of its own that always "
                 "runs)";
    else if (Pending.empty())
      D.Reason = "no GPU op is pending here";
    else
      D.Reason = "no host access before the next sync conflicts with the " +
                 std::to_string(Pending.size()) + " op" + (Pending.size() > 1 ? "s" : "") +
                 " pending here (" + opLines(FA, Pending) + "); the tool's own waits cover them";
    if (Timer && TimerInLoop) {
      D.Reason += "; kept: the clock is read on line " + std::to_string(Timer->Line) +
                  " before the next sync, so the printed time keeps measuring this work";
      D.KeptForTimer = true;
    } else if (Timer) {
      D.Reason += "; the wait before the clock read on line " + std::to_string(Timer->Line) +
                  " stands in for it";
    }
    if (S.Removable && !D.KeptForTimer) {
      D.Drop = true;
      Ignored = std::move(Without);
      splice(Base, std::move(Trial));
    } else if (!S.Removable) {
      D.Reason += "; kept: " + S.WhyKept;
    }
    Decisions.push_back(std::move(D));
  }
  return Decisions;
}

std::vector<const Expr *> droppedSyncCalls(const std::vector<ExplicitSync> &Syncs,
                                           const std::vector<SyncDecision> &Decisions) {
  std::vector<const Expr *> Calls;
  for (unsigned I = 0; I < Syncs.size() && I < Decisions.size(); ++I)
    if (Decisions[I].Drop)
      llvm::append_range(Calls, Syncs[I].Calls);
  return Calls;
}

} // namespace streamalloc
