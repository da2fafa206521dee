//===- PointerGroupTest.cpp - Where a group of buffers' pointers go ---------===//
#include "streamalloc/Transform/PointerGroup.h"
#include "streamalloc/Model/ApiModel.h"

#include "Support/ParseCuda.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace streamalloc;
using namespace streamalloc::test;

namespace {

/// A client that starts from `malloc` results stored in a local, accepts
/// `free` of a buffer's start in the allocating function as its release,
/// any other modelled call, and refuses kernels and delete.
class MallocPolicy : public PointerGroupPolicy {
public:
  bool site(PointerGroupTracer &T, const Expr *E) override {
    E = E->IgnoreParenCasts();
    if (!T.recordSite(E))
      return true;
    for (DynTypedNode P = T.parentOf(E);; P = T.parentOf(P.get<Expr>())) {
      if (const auto *V = P.get<VarDecl>())
        return T.addHolder(&T.home(), V);
      if (P.get<BinaryOperator>()) // assigned to a holder (the only other case here)
        return true;
      if (!P.get<CastExpr>() && !P.get<ParenExpr>())
        return T.fail("not stored in a local");
    }
  }
  bool otherSource(PointerGroupTracer &T, const Expr *E) override {
    return isa<CallExpr>(E) ? site(T, E) : T.fail("other source");
  }
  bool holderAddress(PointerGroupTracer &T, const FunctionDecl *, const Expr *,
                     const std::string &Name) override {
    return T.fail("address of " + Name);
  }
  bool modelledCall(PointerGroupTracer &T, const FunctionDecl *Fn, const CallExpr *Call,
                    const ApiFunction &Api, unsigned Index, bool Offset) override {
    if (Api.roleOf(Index) != ArgRole::Free)
      return true;
    if (Fn != &T.home())
      return T.fail("released in " + Fn->getNameAsString());
    if (Offset)
      return T.fail("offset release");
    T.recordRelease(Call);
    return true;
  }
  bool kernelArgument(PointerGroupTracer &T, const CallExpr *, const Expr *) override {
    return T.fail("kernel");
  }
  bool deleted(PointerGroupTracer &T, const FunctionDecl *, const CXXDeleteExpr *, bool) override {
    return T.fail("delete");
  }
  bool capturesBlock() const override { return Captures; }
  Wording wording() const override {
    return {"it is", [](const std::string &Name) { return "unfollowed " + Name; }, "unfollowed",
            "opaque"};
  }
  bool Captures = false;
};

struct Traced {
  bool Ok;
  std::string Why;
  unsigned Sites, Releases;
  std::vector<std::string> Holders;
};

std::unique_ptr<ASTUnit> parse(const std::string &Code) {
  return parseCuda("#include <cstdlib>\nfloat *g;\nvoid sink(float *);\n"
                   "__global__ void k(float *);\n" +
                   Code);
}

/// Traces the group of the buffer `h` of \p Function.
Traced trace(ASTUnit &AST, const std::string &Function, bool CapturesBlock = false) {
  const FunctionDecl *Run = findFunction(AST, Function);
  const auto *Decl = cast<DeclStmt>(findStmt(Run, "float *h"));
  const Expr *Site = cast<VarDecl>(Decl->getSingleDecl())->getInit();
  MallocPolicy Policy;
  Policy.Captures = CapturesBlock;
  VariableUses Uses;
  PointerGroupTracer T(AST.getASTContext(), *Run, Policy, Uses);
  Traced R;
  R.Ok = T.trace(Site);
  R.Why = T.Why;
  R.Sites = T.Sites.size();
  R.Releases = T.Releases.size();
  for (const VarDecl *V : T.HomeHolders)
    R.Holders.push_back(V->getNameAsString());
  return R;
}

/// Traces the group of `h` in `run`.
Traced trace(const std::string &Code, bool CapturesBlock = false) {
  return trace(*parse(Code), "run", CapturesBlock);
}

/// One function per release, `run0`, `run1`, ..., each allocating `h`.
std::string functionsReleasing(const std::vector<std::string> &Releases) {
  std::string Code;
  for (unsigned I = 0; I < Releases.size(); ++I)
    Code += "void run" + std::to_string(I) + "() {\n  float *h = (float *)malloc(64);\n  " +
            Releases[I] + "\n}\n";
  return Code;
}

TEST(PointerGroup, EverySpellingOfAReleaseOfTheStartIsARelease) {
  std::vector<std::string> Releases = {
      "free(h);",     "free((h));", "free(&(h[0]));",           "free(&h[0]);",
      "free(h + 0);", "free(&*h);", "free((float *)(void *)h);"};
  auto AST = parse(functionsReleasing(Releases));
  for (unsigned I = 0; I < Releases.size(); ++I) {
    Traced R = trace(*AST, "run" + std::to_string(I));
    EXPECT_TRUE(R.Ok) << Releases[I] << ": " << R.Why;
    EXPECT_EQ(R.Releases, 1u) << Releases[I];
  }
}

TEST(PointerGroup, ReleaseOfAPointerPastTheStartIsRefused) {
  std::vector<std::string> Releases = {"free(&(h[1]));", "free(h + 1);", "free(&h[0] + 2);"};
  auto AST = parse(functionsReleasing(Releases));
  for (unsigned I = 0; I < Releases.size(); ++I) {
    Traced R = trace(*AST, "run" + std::to_string(I));
    EXPECT_FALSE(R.Ok) << Releases[I];
    EXPECT_EQ(R.Why, "offset release") << Releases[I];
  }
}

TEST(PointerGroup, AddressOfAMemberOfAnElementIsFollowed) {
  // `&p[0].x` points into the buffer: freeing it must not go unseen.
  Traced R = trace(R"cu(struct P { float x, y; };
void run() {
  float *h = (float *)malloc(64);
  P *p = (P *)h;
  free(&p[0].y);
})cu");
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "offset release");
}

TEST(PointerGroup, DecayedArrayMemberOfAnElementIsFollowed) {
  Traced R = trace(R"cu(struct A { float v[4]; };
void run() {
  float *h = (float *)malloc(64);
  A *a = (A *)h;
  g = a[1].v;
})cu");
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "it is stored in `g`, which is not a local pointer of `run`");
}

TEST(PointerGroup, HoldersAreFollowedThroughLocalsAndHelpers) {
  Traced R = trace(R"cu(static void use(float *x) { x[0] = 1; float *y = x + 1; y[0] = 2; }
void run() {
  float *h = (float *)malloc(64);
  float *alias = (h);
  use(alias);
  free(alias);
})cu");
  EXPECT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.Holders, (std::vector<std::string>{"h", "alias"}));
  EXPECT_EQ(R.Releases, 1u);
}

TEST(PointerGroup, AnotherAllocationAssignedToAHolderJoinsTheGroup) {
  Traced R = trace(R"cu(void run(bool c) {
  float *h = (float *)malloc(64);
  if (c)
    h = (float *)malloc(128);
  free(h);
})cu");
  EXPECT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.Sites, 2u);
}

TEST(PointerGroup, ReleaseInAHelperIsThePolicysCall) {
  Traced R = trace(R"cu(static void drop(float *x) { free(x); }
void run() {
  float *h = (float *)malloc(64);
  drop(h);
})cu");
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "released in drop");
}

TEST(PointerGroup, CodeWithoutBodyAndGlobalsEndTheGroup) {
  EXPECT_EQ(trace("void run() {\n  float *h = (float *)malloc(64);\n  sink(h + 2);\n}").Why,
            "a pointer into it is passed to `sink`, whose body opaque (line 7)");
  EXPECT_EQ(trace("void run() {\n  float *h = (float *)malloc(64);\n  *&g = h;\n}").Why,
            "a pointer into it is stored outside a local variable (line 7)");
  EXPECT_EQ(trace("void run() {\n  float *h = (float *)malloc(64);\n  k<<<1, 1>>>(h);\n}").Why,
            "kernel");
}

TEST(PointerGroup, TheFirstReasonIsKeptAndTracingGoesOn) {
  Traced R = trace(R"cu(void run() {
  float *h = (float *)malloc(64);
  g = h;
  sink(h);
  free(h);
})cu");
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "it is stored in `g`, which is not a local pointer of `run`");
  EXPECT_EQ(R.Releases, 1u); // reached after the failure
}

TEST(PointerGroup, LambdaCaptureBlocksOnlyWhenThePolicySaysSo) {
  const char *Code = R"cu(void run() {
  float *h = (float *)malloc(64);
  auto f = [=] { return h[0]; };
  f();
  free(h);
})cu";
  EXPECT_TRUE(trace(Code).Ok);
  Traced R = trace(Code, /*CapturesBlock=*/true);
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "`h` is captured by a lambda (line 7)");
}

TEST(PointerGroup, AddressOfAHolderIsThePolicysCall) {
  Traced R = trace("void run() {\n  float *h = (float *)malloc(64);\n  float **p = &(h);\n}");
  EXPECT_FALSE(R.Ok);
  EXPECT_EQ(R.Why, "address of h");
}

} // namespace
