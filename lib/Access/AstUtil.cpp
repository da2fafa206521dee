//===- AstUtil.cpp --------------------------------------------------------===//
#include "AstUtil.h"

#include "streamalloc/Model/ApiModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

using namespace clang;

namespace streamalloc {

namespace {
bool inStd(const Decl *D) { return D->getDeclContext()->getRedeclContext()->isStdNamespace(); }

/// "std::chrono::steady_clock" for a class of the C++ library (inline
/// namespaces such as libstdc++'s `_V2` left out); empty for any other.
std::string stdQualifiedName(const CXXRecordDecl *RD) {
  if (!RD->getIdentifier())
    return "";
  std::string Name = RD->getName().str();
  for (const DeclContext *DC = RD->getDeclContext(); !DC->isTranslationUnit();
       DC = DC->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    if (!NS || !NS->getIdentifier())
      return "";
    if (!NS->isInline())
      Name = NS->getName().str() + "::" + Name;
  }
  return llvm::StringRef(Name).starts_with("std::") ? Name : "";
}
} // namespace

const ApiFunction *modelledFunction(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  std::string Name = F->getNameAsString();
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isStatic())
    return lookupApi(stdQualifiedName(M->getParent()) + "::" + Name);
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && !M->isStatic()) {
    const CXXRecordDecl *RD = M->getParent();
    if (!RD->getIdentifier() || !inStd(RD))
      return nullptr;
    return lookupApi("std::" + RD->getName().str() + "::" + Name);
  }
  const DeclContext *DC = F->getDeclContext()->getRedeclContext();
  if (DC->isStdNamespace()) {
    if (const ApiFunction *Row = lookupApi("std::" + Name))
      return Row;
  } else if (!DC->isTranslationUnit()) {
    return nullptr;
  }
  if (!F->getIdentifier())
    return nullptr; // operators and conversions: only as std:: rows
  return lookupApi(Name);
}

const ApiFunction *modelledCallee(const CallExpr *Call) {
  return modelledFunction(Call->getDirectCallee());
}

const ApiFunction *modelledClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() || !inStd(RD))
    return nullptr;
  return lookupApi("std::" + RD->getName().str());
}

bool touchesMemory(const GCCAsmStmt &Asm, bool Device) {
  // Only device (PTX) code is trusted not to touch memory, and only when no
  // instruction has an address operand (`[...]`: ld, st, atom, tex, suld, ...)
  // and nothing is called.
  if (!Device)
    return true;
  std::string Text = Asm.getAsmString();
  if (Text.find('[') != std::string::npos || Text.find("call") != std::string::npos)
    return true;
  for (unsigned I = 0; I < Asm.getNumClobbers(); ++I)
    if (Asm.getClobber(I) == "memory")
      return true;
  auto RegisterOnly = [](llvm::StringRef Constraint) {
    // Modifiers, matching operands, immediates, and NVPTX register classes.
    return Constraint.find_first_not_of("=+&%0123456789nihrlfd") == llvm::StringRef::npos;
  };
  for (unsigned I = 0; I < Asm.getNumOutputs(); ++I)
    if (!RegisterOnly(Asm.getOutputConstraint(I)))
      return true;
  for (unsigned I = 0; I < Asm.getNumInputs(); ++I)
    if (!RegisterOnly(Asm.getInputConstraint(I)))
      return true;
  return false;
}

bool isDeviceFunction(const FunctionDecl &F) {
  return F.hasAttr<CUDAGlobalAttr>() || (F.hasAttr<CUDADeviceAttr>() && !F.hasAttr<CUDAHostAttr>());
}

std::string calleeName(const CallExpr *Call) {
  if (const FunctionDecl *F = Call->getDirectCallee())
    return F->getQualifiedNameAsString();
  return "a function pointer";
}

bool isTrivialAssignment(const CallExpr *Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  const auto *M = Op ? dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()) : nullptr;
  return M && M->isTrivial() && Op->getNumArgs() == 2 &&
         (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator());
}

bool mayBeSkipped(const Stmt *Parent, const Stmt *Child) {
  if (!Child)
    return false;
  if (const auto *CO = dyn_cast<ConditionalOperator>(Parent))
    return Child != CO->getCond();
  if (const auto *BCO = dyn_cast<BinaryConditionalOperator>(Parent))
    return Child == BCO->getFalseExpr();
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
    return BO->isLogicalOp() && Child == BO->getRHS();
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse();
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return Child == For->getBody() || Child == For->getInc();
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return Child == While->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Parent))
    return Child == Range->getBody();
  if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
    return Child == Switch->getBody();
  return isa<StmtExpr>(Parent);
}

bool isNullConstant(const Expr *E, ASTContext &Ctx) {
  return E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

bool containsJump(const Stmt *S, bool LoopJumps) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S) ||
      (LoopJumps && isa<BreakStmt, ContinueStmt>(S)))
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *Child) { return containsJump(Child, LoopJumps); });
}

const Expr *outermostValue(const Expr *E, ASTContext &Ctx) {
  while (true) {
    auto Parents = Ctx.getParents(*E);
    const Expr *Parent = Parents.size() == 1 ? Parents[0].get<Expr>() : nullptr;
    if (!Parent)
      return E;
    if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr,
            ExprWithCleanups>(Parent)) {
      E = Parent;
      continue;
    }
    // A copy or move of the value (into a by-value parameter, say).
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent);
        Construct && Construct->getNumArgs() == 1 &&
        Construct->getConstructor()->isCopyOrMoveConstructor()) {
      E = Parent;
      continue;
    }
    return E;
  }
}

const LambdaExpr *closureInit(const VarDecl *V) {
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getType()->isReferenceType() ||
      !V->getInit())
    return nullptr;
  // Past the copy or move of the closure, and cleanups, that C++14 spells out.
  const auto *L = dyn_cast<LambdaExpr>(V->getInit()->IgnoreUnlessSpelledInSource());
  if (!L || V->getType()->getAsCXXRecordDecl() != L->getLambdaClass())
    return nullptr;
  return L;
}

namespace {

/// The variable a call's object argument names, for `f(args)` on a lambda.
const VarDecl *calledClosureVar(const CallExpr *Call) {
  const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Call);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
    return nullptr;
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  if (!M || !M->getParent()->isLambda())
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || V->getType()->getAsCXXRecordDecl() != M->getParent())
    return nullptr;
  return V;
}

/// Per translation unit: the direct calls of each function, and the
/// functions used other than as the callee of a direct call (address taken).
struct CallIndex {
  const ASTContext *Ctx = nullptr;
  const TranslationUnitDecl *TU = nullptr;
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> Calls;
  llvm::DenseMap<const FunctionDecl *, SourceLocation> Escaping; ///< its first such use
  /// Per variable holding a closure: its mentions (a capture counts), and how
  /// many of them are the object of a call.
  llvm::DenseMap<const VarDecl *, unsigned> ClosureMentions, ClosureCalls;
  llvm::DenseMap<const FieldDecl *, std::vector<FieldMention>> FieldMentions;
};

const CallIndex &callIndexOf(ASTContext &Ctx) {
  static CallIndex Index;
  if (Index.Ctx == &Ctx && Index.TU == Ctx.getTranslationUnitDecl())
    return Index;
  Index = CallIndex();
  Index.Ctx = &Ctx;
  Index.TU = Ctx.getTranslationUnitDecl();
  // Forgotten with the unit: the next unit's AST may reuse its addresses.
  Ctx.AddDeallocation([](void *I) { *static_cast<CallIndex *>(I) = CallIndex(); }, &Index);
  struct Visitor : RecursiveASTVisitor<Visitor> {
    CallIndex &I;
    llvm::DenseSet<const Expr *> Callees;
    /// The functions being traversed, innermost last (a lambda's body counts
    /// as its enclosing function's).
    std::vector<const FunctionDecl *> Functions;
    explicit Visitor(CallIndex &I) : I(I) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool TraverseDecl(Decl *D) {
      const auto *F = dyn_cast_or_null<FunctionDecl>(D);
      if (F)
        Functions.push_back(F);
      bool Continue = RecursiveASTVisitor::TraverseDecl(D);
      if (F)
        Functions.pop_back();
      return Continue;
    }
    bool VisitCallExpr(CallExpr *C) {
      if (const FunctionDecl *F = C->getDirectCallee()) {
        I.Calls[F->getCanonicalDecl()].push_back(C);
        Callees.insert(C->getCallee()->IgnoreParenImpCasts());
      }
      if (const VarDecl *V = calledClosureVar(C))
        ++I.ClosureCalls[V];
      return true;
    }
    static bool holdsClosure(const ValueDecl *D) {
      const auto *RD = D ? D->getType()->getAsCXXRecordDecl() : nullptr;
      return RD && RD->isLambda() && isa<VarDecl>(D);
    }
    bool VisitLambdaExpr(LambdaExpr *L) {
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && holdsClosure(C.getCapturedVar()))
          ++I.ClosureMentions[cast<VarDecl>(C.getCapturedVar())];
      return true;
    }
    void use(const Expr *E, const ValueDecl *D) {
      if (const auto *F = dyn_cast_or_null<FunctionDecl>(D); F && !Callees.count(E))
        I.Escaping.try_emplace(F->getCanonicalDecl(), E->getBeginLoc());
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      use(E, E->getDecl());
      if (holdsClosure(E->getDecl()))
        ++I.ClosureMentions[cast<VarDecl>(E->getDecl())];
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      use(E, E->getMemberDecl());
      if (const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl()))
        I.FieldMentions[F].push_back({E, Functions.empty() ? nullptr : Functions.back()});
      return true;
    }
  } V(Index);
  // Calls are visited before their callee expressions (pre-order).
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Index;
}

/// Whether every mention of \p V in \p Body reads it (or an element of it),
/// except, where \p MayCreate, the creations of its streams (`&V`, `&V[i]` as
/// the first argument of a stream-creating call), which all come before the
/// first read.
bool onlyRead(const VarDecl *V, const Stmt *Body, ASTContext &Ctx, bool MayCreate) {
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
        // A lambda's capture of it: by copy, a read where the lambda is
        // made; by reference, every use is in the lambda's body, walked too.
        if ((Cast && Cast->getCastKind() == CK_LValueToRValue) || isa_and_nonnull<LambdaExpr>(P)) {
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
          Stable &= MayCreate && Creates;
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
    // A generic lambda's body above is its pattern; its uses are those of
    // the instantiations.
    if (const auto *L = dyn_cast<LambdaExpr>(S))
      if (const FunctionTemplateDecl *Operator = L->getDependentCallOperator())
        for (const FunctionDecl *Instance : Operator->specializations())
          Walk(Instance->getBody());
  };
  Walk(Body);
  for (auto [Begin, End] : CreateLoops)
    for (unsigned At : Reads)
      if (Begin <= At && At <= End)
        return false;
  return Stable && LastCreate < FirstRead;
}

/// Whether \p Stream is a parameter that its function only reads and that
/// every call of the function in the unit leaves to a null default, passes a
/// null, or passes such a parameter of its own: the legacy stream wherever
/// the function runs. A function whose address is taken, or a virtual one,
/// may be called from elsewhere. Without a default the parameter must also
/// be out of other units' reach: the function has internal linkage, or is
/// an implicit instantiation (the template is in the file that uses it).
bool isLegacyStreamParameter(const ParmVarDecl *P, ASTContext &Ctx,
                             llvm::SmallPtrSetImpl<const ParmVarDecl *> &Visiting);

/// A function template's own parameter: the legacy stream when it is in
/// each of the template's instantiations (all implicit, made here).
bool isLegacyStreamInEveryInstance(const ParmVarDecl *P, const FunctionTemplateDecl &Template,
                                   ASTContext &Ctx,
                                   llvm::SmallPtrSetImpl<const ParmVarDecl *> &Visiting) {
  const FunctionDecl *Pattern = Template.getTemplatedDecl();
  unsigned I = P->getFunctionScopeIndex();
  for (unsigned Before = 0; Before <= I; ++Before)
    if (Pattern->getParamDecl(Before)->isParameterPack())
      return false; // its index differs between instantiations
  for (const FunctionDecl *Instance : Template.specializations())
    if (Instance->getTemplateSpecializationKind() != TSK_ImplicitInstantiation ||
        I >= Instance->getNumParams() ||
        !isLegacyStreamParameter(Instance->getParamDecl(I), Ctx, Visiting))
      return false;
  return true;
}

bool isLegacyStreamParameter(const ParmVarDecl *P, ASTContext &Ctx,
                             llvm::SmallPtrSetImpl<const ParmVarDecl *> &Visiting) {
  const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!F || !F->getBody() || P->getType()->isReferenceType())
    return false;
  if (const FunctionTemplateDecl *Template = F->getDescribedFunctionTemplate())
    return isLegacyStreamInEveryInstance(P, *Template, Ctx, Visiting);
  bool NullDefault = P->hasDefaultArg() && !P->hasUnparsedDefaultArg() &&
                     !P->hasUninstantiatedDefaultArg() && isNullConstant(P->getDefaultArg(), Ctx);
  bool OnlyThisUnit =
      !F->isExternallyVisible() || F->getTemplateSpecializationKind() == TSK_ImplicitInstantiation;
  if (!NullDefault && (!OnlyThisUnit || P->hasDefaultArg()))
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual())
    return false;
  const CallIndex &Index = callIndexOf(Ctx);
  if (Index.Escaping.count(F->getCanonicalDecl()))
    return false;
  auto It = Index.Calls.find(F->getCanonicalDecl());
  // Without a default, the calls must be in view: a function never called
  // directly may be called in a way the unit does not show (a captureless
  // lambda converted to a function pointer calls its operator unseen).
  if (!NullDefault) {
    if (It == Index.Calls.end() || It->second.empty())
      return false;
    if (const auto *M = dyn_cast<CXXMethodDecl>(F);
        M && M->getParent()->isLambda() && M->getParent()->captures().empty())
      return false;
  }
  // A parameter passed on to itself (recursion) adds no other stream.
  if (!Visiting.insert(P).second)
    return true;
  unsigned I = P->getFunctionScopeIndex();
  if (It != Index.Calls.end())
    for (const CallExpr *C : It->second) {
      if (I >= C->getNumArgs())
        return false;
      const Expr *Arg = C->getArg(I);
      const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
      const auto *Passed = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
      if (!isa<CXXDefaultArgExpr>(Arg) && !isNullConstant(Arg, Ctx) &&
          !(Passed && isLegacyStreamParameter(Passed, Ctx, Visiting)))
        return false;
    }
  // Never written in the function: every mention is a read of its value.
  return onlyRead(P, F->getBody(), Ctx, /*MayCreate=*/false);
}

} // namespace

bool isZeroInteger(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().isZero();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *F = V ? dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()) : nullptr;
  if (!F || !F->getBody() || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      !V->getType()->isIntegerType() || V->getType().isVolatileQualified() || !V->getInit() ||
      !isZeroInteger(V->getInit(), Ctx))
    return false;
  return onlyRead(V, F->getBody(), Ctx, /*MayCreate=*/false);
}

std::string streamKey(const Expr *Stream, const FunctionDecl &F, ASTContext &Ctx) {
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
      !onlyRead(V, F.getBody(), Ctx, /*MayCreate=*/true))
    return "";
  return V->getNameAsString() + "@" + std::to_string(V->getID()) + Index;
}

const LambdaExpr *onlyCalledClosure(const VarDecl *V) {
  const LambdaExpr *L = closureInit(V);
  if (!L)
    return nullptr;
  const CallIndex &Index = callIndexOf(V->getASTContext());
  return Index.ClosureMentions.lookup(V) == Index.ClosureCalls.lookup(V) ? L : nullptr;
}

ClosureFields closureFields(const CXXRecordDecl &Closure) {
  ClosureFields Fields;
  Closure.getCaptureFields(Fields.Vars, Fields.This);
  return Fields;
}

const LambdaExpr *lambdaOfDirectCall(const CallExpr *Call) {
  return onlyCalledClosure(calledClosureVar(Call));
}

bool onlyCalledDirectly(const CXXMethodDecl &Body, ASTContext &Ctx) {
  const std::vector<const CallExpr *> &Calls = directCallsOf(Body, Ctx);
  return !Calls.empty() && llvm::all_of(Calls, [&](const CallExpr *Call) {
    const LambdaExpr *L = lambdaOfDirectCall(Call);
    return L && L->getLambdaClass() == Body.getParent();
  });
}

SourceLocation escapingUseOf(const FunctionDecl &F, ASTContext &Ctx) {
  return callIndexOf(Ctx).Escaping.lookup(F.getCanonicalDecl());
}

const std::vector<const CallExpr *> &directCallsOf(const FunctionDecl &F, ASTContext &Ctx) {
  static const std::vector<const CallExpr *> None;
  const CallIndex &Index = callIndexOf(Ctx);
  auto It = Index.Calls.find(F.getCanonicalDecl());
  return It == Index.Calls.end() ? None : It->second;
}

const std::vector<FieldMention> &mentionsOf(const FieldDecl &F, ASTContext &Ctx) {
  static const std::vector<FieldMention> None;
  const CallIndex &Index = callIndexOf(Ctx);
  auto It = Index.FieldMentions.find(&F);
  return It == Index.FieldMentions.end() ? None : It->second;
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  for (auto Parents = Ctx.getParents(*S); !Parents.empty(); Parents = Ctx.getParents(Parents[0]))
    if (const auto *F = Parents[0].get<FunctionDecl>())
      return F;
  return nullptr;
}

bool isLegacyStream(const Expr *Stream, ASTContext &Ctx) {
  if (isa<CXXDefaultArgExpr>(Stream) || isNullConstant(Stream, Ctx))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(Stream->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Visiting;
  return P && isLegacyStreamParameter(P, Ctx, Visiting);
}

const ApiFunction *ownStreamOpApi(const CallExpr *Call) {
  const ApiFunction *Api = modelledCallee(Call);
  if (!Api || !Api->has(ApiCap::EnqueuesOnStream))
    return nullptr;
  const ApiFunction *Sync = synchronousFormOf(*Api);
  if (!Sync || Sync->StreamArgIndex >= Call->getNumArgs())
    return nullptr;
  if (isLegacyStream(Call->getArg(Sync->StreamArgIndex), Call->getDirectCallee()->getASTContext()))
    return nullptr;
  return Sync;
}

const ApiFunction *gpuOpApi(const CallExpr *Call) {
  if (const ApiFunction *Api = modelledCallee(Call); Api && Api->isGpuOp())
    return Api;
  return ownStreamOpApi(Call);
}

const Expr *ownStreamArgument(const Expr *Op, ASTContext &Ctx) {
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Op))
    return launchNamesStream(*Launch, Ctx) && !isLegacyStream(Launch->getConfig()->getArg(3), Ctx)
               ? Launch->getConfig()->getArg(3)
               : nullptr;
  const auto *Call = dyn_cast<CallExpr>(Op);
  const ApiFunction *Sync = Call ? ownStreamOpApi(Call) : nullptr;
  return Sync ? Call->getArg(Sync->StreamArgIndex) : nullptr;
}

bool launchNamesStream(const CUDAKernelCallExpr &Launch, ASTContext &Ctx) {
  const CallExpr *Config = Launch.getConfig();
  return Config && Config->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Config->getArg(3)) &&
         !isNullConstant(Config->getArg(3), Ctx);
}

bool isRepeatingLoop(const Stmt *S, const ASTContext &Ctx) {
  if (isa<ForStmt, WhileStmt, CXXForRangeStmt>(S))
    return true;
  const auto *Do = dyn_cast<DoStmt>(S);
  if (!Do)
    return false;
  Expr::EvalResult Value;
  return !(Do->getCond()->EvaluateAsInt(Value, Ctx) && Value.Val.getInt().isZero());
}

llvm::SmallVector<const Stmt *, 2> loopHeader(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return {For->getCond(), For->getInc()};
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return {While->getCond()};
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return {Do->getCond()};
  return {};
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getBody();
  return nullptr;
}

std::vector<const Stmt *> loopsAround(const Stmt *S, ASTContext &Ctx) {
  std::vector<const Stmt *> Loops;
  for (auto Parents = Ctx.getParents(*S); Parents.size() == 1;
       Parents = Ctx.getParents(Parents[0])) {
    if (const Stmt *P = Parents[0].get<Stmt>()) {
      if (isRepeatingLoop(P, Ctx))
        Loops.push_back(P);
    } else if (!Parents[0].get<VarDecl>()) {
      break; // the function is reached (a variable's initialiser goes on to its DeclStmt)
    }
  }
  return Loops;
}

} // namespace streamalloc
