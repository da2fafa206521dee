//===- PointerUse.cpp -------------------------------------------------------===//
#include "PointerUse.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace streamalloc {

static bool isZeroLiteral(const Expr *E) {
  const auto *Literal = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
  return Literal && Literal->getValue().isZero();
}

bool isZeroElement(const Expr *Element) {
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Element))
    return isZeroLiteral(Sub->getIdx());
  const auto *UO = dyn_cast<UnaryOperator>(Element);
  return UO && UO->getOpcode() == UO_Deref;
}

PointerUse classifyPointerUse(const DynTypedNode &Parent, const Expr *Val) {
  auto Passes = [](const Expr *Next, bool Offset = false) {
    PointerUse U{PointerUse::PassesOn};
    U.Next = Next;
    U.AddsOffset = Offset;
    return U;
  };
  if (const auto *E = Parent.get<Expr>()) {
    if (isa<ParenExpr>(E))
      return Passes(E);
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getCastKind() == CK_PointerToBoolean || Cast->getCastKind() == CK_ToVoid)
        return {PointerUse::Harmless};
      if (!Cast->getType()->isPointerType()) {
        PointerUse U{PointerUse::Converted};
        U.TypeName = Cast->getType().getAsString();
        return U;
      }
      return Passes(E);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isComparisonOp() || BO->isLogicalOp())
        return {PointerUse::Harmless};
      if (BO->isAdditiveOp())
        return BO->getType()->isPointerType()
                   ? Passes(E, /*Offset=*/!isZeroLiteral(BO->getLHS() == Val ? BO->getRHS()
                                                                             : BO->getLHS()))
                   : PointerUse{PointerUse::Harmless}; // p - q
      if (BO->getOpcode() == BO_Assign && BO->getRHS() == Val) {
        if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
            PointerUse U{PointerUse::StoredInVar};
            U.Var = V;
            return U;
          }
        return {PointerUse::StoredElsewhere};
      }
      // `(x, p)` has p's value; `(p, x)` discards it.
      if (BO->getOpcode() == BO_Comma)
        return BO->getLHS() == Val ? PointerUse{PointerUse::Harmless} : Passes(E);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_LNot)
        return {PointerUse::Harmless};
      if (UO->getOpcode() == UO_Deref) {
        PointerUse U{PointerUse::Element};
        U.Next = UO;
        return U;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return CO->getCond() == Val ? PointerUse{PointerUse::Harmless} : Passes(E);
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E); Sub && Sub->getBase() == Val) {
      PointerUse U{PointerUse::Element};
      U.Next = Sub;
      return U;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E); Member && Member->isArrow()) {
      PointerUse U{PointerUse::Element};
      U.Next = Member;
      return U;
    }
    if (const auto *Delete = dyn_cast<CXXDeleteExpr>(E)) {
      PointerUse U{PointerUse::Deleted};
      U.Delete = Delete;
      return U;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      PointerUse U{PointerUse::Argument};
      U.Call = Call;
      return U;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return {PointerUse::Harmless};
    return {PointerUse::Unfollowed};
  }
  if (const auto *V = Parent.get<VarDecl>()) {
    PointerUse U{PointerUse::StoredInVar};
    U.Var = V;
    return U;
  }
  if (Parent.get<ReturnStmt>())
    return {PointerUse::Returned};
  if (Parent.get<IfStmt>() || Parent.get<WhileStmt>() || Parent.get<ForStmt>() ||
      Parent.get<DoStmt>() || Parent.get<SwitchStmt>())
    return {PointerUse::Condition};
  return {PointerUse::Unfollowed};
}

const CallExpr *callGivenAddressFirst(const Expr *AddrOf, ASTContext &Ctx) {
  const Expr *E = AddrOf;
  while (true) {
    auto Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *Up = Parents[0].get<Expr>(); Up && isa<ParenExpr, CastExpr>(Up)) {
      E = Up;
      continue;
    }
    const auto *Call = Parents[0].get<CallExpr>();
    return Call && Call->getNumArgs() > 0 && Call->getArg(0) == E ? Call : nullptr;
  }
}

const VarDecl *variableGivenAddressFirst(const CallExpr &Call) {
  const Expr *Out = Call.getNumArgs() ? Call.getArg(0)->IgnoreParenCasts() : nullptr;
  const auto *Addr = dyn_cast_or_null<UnaryOperator>(Out);
  const auto *Ref = Addr && Addr->getOpcode() == UO_AddrOf
                        ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens())
                        : nullptr;
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

} // namespace streamalloc
