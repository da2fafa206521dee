//===- RestateInCaller.cpp ------------------------------------------------===//
#include "RestateInCaller.h"

#include "../Access/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>

using namespace clang;

namespace streamalloc {

namespace {

/// Whether \p S contains a goto (a jump back may run any statement again).
bool hasGoto(const Stmt *S) {
  if (!S)
    return false;
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    return true;
  return llvm::any_of(S->children(), hasGoto);
}

/// Whether \p Use, in \p Fn, can only run after \p After has: it comes later
/// in the function, outside every loop around \p After, and \p Fn has no goto.
bool onlyRunsAfter(const Expr *Use, const Expr *After, const FunctionDecl &Fn) {
  ASTContext &Ctx = Fn.getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!After || !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(After->getEndLoc()),
                                              SM.getExpansionLoc(Use->getBeginLoc())))
    return false;
  std::vector<const Stmt *> Loops = loopsAround(After, Ctx);
  return llvm::none_of(loopsAround(Use, Ctx),
                       [&](const Stmt *L) { return llvm::is_contained(Loops, L); }) &&
         !hasGoto(Fn.getBody());
}

/// Whether every mention of \p V in \p Fn only reads its value, assigns or
/// steps it (\p Writes), or asks for its size: its address never leaves, so
/// no other function can change it. A mention that can only run after
/// \p After (its address taken there, say) cannot change it before.
bool onlyReadOrWritten(const FunctionDecl &Fn, const VarDecl *V, VariableUses &Uses, bool Writes,
                       const Expr *After = nullptr) {
  ASTContext &Ctx = Fn.getASTContext();
  for (const DeclRefExpr *Use : Uses.of(&Fn, V)) {
    if (onlyRunsAfter(Use, After, Fn))
      continue;
    if (Use->refersToEnclosingVariableOrCapture())
      return false;
    const Expr *E = Use;
    DynTypedNode P;
    while (true) {
      auto Parents = Ctx.getParents(*E);
      if (Parents.size() != 1)
        return false;
      P = Parents[0];
      if (const auto *Paren = P.get<ParenExpr>()) {
        E = Paren;
        continue;
      }
      break;
    }
    if (const auto *Cast = P.get<ImplicitCastExpr>();
        Cast && Cast->getCastKind() == CK_LValueToRValue)
      continue;
    if (P.get<UnaryExprOrTypeTraitExpr>())
      continue;
    if (!Writes)
      return false;
    if (const auto *BO = P.get<BinaryOperator>(); BO && BO->isAssignmentOp() && BO->getLHS() == E)
      continue;
    if (const auto *UO = P.get<UnaryOperator>(); UO && UO->isIncrementDecrementOp())
      continue;
    return false;
  }
  return true;
}

/// A plain integer variable: the only kind whose value the restatement
/// copies.
bool isPlainInteger(const VarDecl *V) {
  QualType T = V->getType();
  return !T->isReferenceType() && T->isIntegerType() && !T.isVolatileQualified();
}

/// The canonical name of an integer type (`unsigned long` for size_t):
/// builtin names mean the same in every scope and every unit.
std::optional<std::string> integerType(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (!T->isIntegerType() || T->isEnumeralType())
    return std::nullopt;
  return T.getAsString(Ctx.getPrintingPolicy());
}

/// \p E's value as a literal of its type, when it is a constant.
std::optional<std::string> constantText(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->getType()->isIntegerType() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  llvm::APSInt V = R.Val.getInt();
  QualType T = E->getType().getCanonicalType();
  const auto *Builtin = T->getAs<BuiltinType>();
  llvm::StringRef Suffix;
  switch (Builtin ? Builtin->getKind() : BuiltinType::Void) {
  case BuiltinType::Int:
    break;
  case BuiltinType::UInt:
    Suffix = "u";
    break;
  case BuiltinType::Long:
    Suffix = "l";
    break;
  case BuiltinType::ULong:
    Suffix = "ul";
    break;
  case BuiltinType::LongLong:
    Suffix = "ll";
    break;
  case BuiltinType::ULongLong:
    Suffix = "ull";
    break;
  default: {
    std::optional<std::string> Type = integerType(T, Ctx);
    if (!Type)
      return std::nullopt;
    return "(" + *Type + ")" + toString(V, 10);
  }
  }
  std::string Text = toString(V, 10) + Suffix.str();
  return V.isNegative() ? "(" + Text + ")" : Text;
}

/// The first reason a side of the restatement gave up, for the report.
struct FirstReason {
  std::string Why;
  std::nullopt_t fail(const std::string &Reason) {
    if (Why.empty())
      Why = Reason;
    return std::nullopt;
  }
};

/// The callee's side: its expression as a formula over its arguments.
class CalleeSide : public FirstReason {
public:
  CalleeSide(const FunctionDecl &Callee, VariableUses &Uses)
      : Ctx(Callee.getASTContext()), Callee(Callee), Uses(Uses) {}

  std::optional<ArgumentFormula> formula(const Expr *E, unsigned Depth = 0) {
    if (Depth > 16)
      return fail("is computed through too many steps");
    E = E->IgnoreParens();
    if (std::optional<std::string> Constant = constantText(E, Ctx))
      return ArgumentFormula::text(*Constant);
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return formula(Cast->getSubExpr(), Depth + 1);
      if (Cast->getCastKind() != CK_IntegralCast && Cast->getCastKind() != CK_NoOp)
        return fail("converts a value that is not an integer");
      // `(size_t)n` is a no-op cast around the conversion: one is enough.
      if (Cast->getCastKind() == CK_NoOp)
        return formula(Cast->getSubExpr(), Depth + 1);
      std::optional<std::string> Type = type(Cast->getType());
      std::optional<ArgumentFormula> Sub = formula(Cast->getSubExpr(), Depth + 1);
      if (!Type || !Sub)
        return std::nullopt;
      return ArgumentFormula::text("(" + *Type + ")") += *Sub;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->isCommaOp() || BO->isLogicalOp() || BO->isComparisonOp() ||
          BO->isPtrMemOp())
        return fail("uses `" + BO->getOpcodeStr().str() + "`");
      std::optional<ArgumentFormula> L = formula(BO->getLHS(), Depth + 1);
      std::optional<ArgumentFormula> R = L ? formula(BO->getRHS(), Depth + 1) : std::nullopt;
      if (!R)
        return std::nullopt;
      // The outermost needs no parentheses.
      ArgumentFormula F = ArgumentFormula::text(Depth == 0 ? "" : "(");
      ((F += *L) += " " + BO->getOpcodeStr().str() + " ") += *R;
      return F += Depth == 0 ? "" : ")";
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || !isPlainInteger(V))
        return fail("reads `" + Ref->getNameInfo().getAsString() +
                    "`, which is not an integer variable");
      std::string Name = "`" + V->getNameAsString() + "`";
      if (!onlyReadOrWritten(Callee, V, Uses, /*Writes=*/false))
        return fail("reads " + Name + ", which `" + Callee.getNameAsString() +
                    "` may change before it allocates");
      if (const auto *Param = dyn_cast<ParmVarDecl>(V);
          Param && Param->getDeclContext() == &Callee) {
        // The argument, converted to the parameter's type.
        std::optional<std::string> Type = type(Param->getType());
        if (!Type)
          return std::nullopt;
        return ArgumentFormula::text("(" + *Type + ")") +=
               ArgumentFormula::argument(Param->getFunctionScopeIndex());
      }
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->hasInit())
        return formula(V->getInit(), Depth + 1);
      return fail("reads " + Name + ", which is neither a parameter nor a local of `" +
                  Callee.getNameAsString() + "`");
    }
    return fail("is not arithmetic on the helper's parameters");
  }

private:
  ASTContext &Ctx;
  const FunctionDecl &Callee;
  VariableUses &Uses;

  std::optional<std::string> type(QualType T) {
    if (std::optional<std::string> Name = integerType(T, Ctx))
      return Name;
    return fail("has a value that is not a plain integer");
  }
};

/// The caller's side: the arguments the formula's holes stand for.
class CallerSide : public FirstReason {
public:
  CallerSide(const CallExpr &Call, const FunctionDecl &Caller, VariableUses &Uses)
      : Ctx(Caller.getASTContext()), Call(Call), Caller(Caller), Uses(Uses) {}

  /// The call's argument \p Index, parenthesised, or its value.
  std::optional<std::string> argument(unsigned Index) {
    if (Index >= Call.getNumArgs())
      return fail("reads a parameter the call does not pass");
    const Expr *Arg = Call.getArg(Index);
    const SourceManager &SM = Ctx.getSourceManager();
    // The argument as written, where it can be evaluated again; else its
    // value, where it is a constant.
    std::string Saved = Why;
    // As written in the file: macros in it expand the same way again.
    CharSourceRange Written = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Arg->getSourceRange()), SM, Ctx.getLangOpts());
    if (!isa<CXXDefaultArgExpr>(Arg) && Written.isValid() && reevaluable(Arg))
      return "(" + Lexer::getSourceText(Written, SM, Ctx.getLangOpts()).str() + ")";
    std::string NotReevaluable = Why;
    Why = Saved;
    if (std::optional<std::string> Constant = constantText(Arg, Ctx))
      return Constant;
    if (isa<CXXDefaultArgExpr>(Arg))
      return fail("reads a parameter left to a default that is not a constant");
    if (!NotReevaluable.empty())
      return fail(NotReevaluable);
    return fail("depends on an argument spelled in a macro (line " +
                std::to_string(SM.getSpellingLineNumber(Arg->getBeginLoc())) + ")");
  }

private:
  ASTContext &Ctx;
  const CallExpr &Call;
  const FunctionDecl &Caller;
  VariableUses &Uses;

  bool refuse(const std::string &Reason) {
    fail(Reason);
    return false;
  }

  /// Whether the caller's argument \p E gives the same value again right
  /// after the call: no side effects, and only constants and local integer
  /// variables that nothing outside the caller can reach.
  bool reevaluable(const Expr *E) {
    E = E->IgnoreParens();
    if (constantText(E, Ctx))
      return true;
    std::string Line =
        std::to_string(Ctx.getSourceManager().getSpellingLineNumber(E->getBeginLoc()));
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      CastKind K = Cast->getCastKind();
      if (K != CK_LValueToRValue && K != CK_IntegralCast && K != CK_NoOp)
        return refuse("depends on an argument that converts a value (line " + Line + ")");
      return reevaluable(Cast->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->isCommaOp())
        return refuse("depends on an argument with a side effect (line " + Line + ")");
      return reevaluable(BO->getLHS()) && reevaluable(BO->getRHS());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf ||
          UO->getOpcode() == UO_Deref)
        return refuse("depends on an argument that is not a plain value (line " + Line + ")");
      return reevaluable(UO->getSubExpr());
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return reevaluable(CO->getCond()) && reevaluable(CO->getTrueExpr()) &&
             reevaluable(CO->getFalseExpr());
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (V && isPlainInteger(V) && V->hasLocalStorage() &&
          V->getParentFunctionOrMethod() == &Caller &&
          onlyReadOrWritten(Caller, V, Uses, /*Writes=*/true, &Call))
        return true;
      return refuse("depends on `" + Ref->getNameInfo().getAsString() + "` (line " + Line +
                    "), which is not a local integer of `" + Caller.getNameAsString() +
                    "` that nothing else can change before the call returns");
    }
    return refuse("depends on an argument the analysis cannot evaluate again (line " + Line + ")");
  }
};

} // namespace

FormulaOrWhy formulaForCallers(const Expr &E, const FunctionDecl &Callee, VariableUses &Uses,
                               bool Operand) {
  CalleeSide Side(Callee, Uses);
  std::optional<ArgumentFormula> F = Side.formula(&E, Operand ? 1 : 0);
  if (!F)
    return {{}, Side.Why};
  return {*F, ""};
}

RestatedExpr restateAt(const ArgumentFormula &F, const CallExpr &Call, const FunctionDecl &Caller,
                       VariableUses &Uses) {
  CallerSide Side(Call, Caller, Uses);
  std::string Text;
  for (const ArgumentFormula::Piece &P : F.Pieces) {
    if (P.Arg < 0) {
      Text += P.Text;
      continue;
    }
    std::optional<std::string> Arg = Side.argument((unsigned)P.Arg);
    if (!Arg)
      return {"", Side.Why};
    Text += *Arg;
  }
  return {Text, ""};
}

} // namespace streamalloc
