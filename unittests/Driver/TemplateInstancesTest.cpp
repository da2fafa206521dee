//===- TemplateInstancesTest.cpp ------------------------------------------===//
#include "streamalloc/Driver/TemplateInstances.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace streamalloc;
using namespace streamalloc::test;

namespace {
constexpr const char *Code = R"cu(
template <typename T> void copy(T *d, const T *h, int n) {
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
}
template <typename T> struct Box {
  T *d;
  void clear(int n) { cudaMemset(d, 0, n * sizeof(T)); }
};
template <typename T> void unused(T *d) { cudaFree(d); }
template <> void copy<char>(char *d, const char *h, int n) { cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); }
void use(float *f, double *g, char *c) {
  copy(f, f, 1);
  copy(g, g, 1);
  copy(g, g, 2); // the same instantiation again
  copy(c, c, 1); // the explicit specialization: a plain function
  Box<int> b;
  b.clear(4);
}
)cu";

/// Instantiations of templates written in the snippet (not in the headers).
bool inSnippet(const FunctionDecl *F) {
  const SourceManager &SM = F->getASTContext().getSourceManager();
  return SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation()));
}

/// "pattern: instance, instance" per template found.
std::string describe(const std::vector<TemplateInstances> &Found) {
  std::string Out;
  for (const TemplateInstances &T : Found) {
    Out += (Out.empty() ? "" : "; ") + T.Pattern->getQualifiedNameAsString() + ":";
    for (const FunctionDecl *I : T.Instances)
      Out += " " + instanceName(*I);
  }
  return Out;
}
} // namespace

TEST(TemplateInstances, GroupsInstantiationsByPatternOnce) {
  auto AST = parseCuda(Code);
  std::vector<TemplateInstances> Found = findTemplateInstances(AST->getASTContext(), inSnippet);
  EXPECT_EQ(describe(Found), "copy: copy<float> copy<double>; Box::clear: Box<int>::clear");
}

TEST(TemplateInstances, TheFilterSeesEachInstantiation) {
  auto AST = parseCuda(Code);
  std::vector<TemplateInstances> Found =
      findTemplateInstances(AST->getASTContext(), [](const FunctionDecl *F) {
        return inSnippet(F) && F->getTemplateSpecializationArgs() &&
               F->getTemplateSpecializationArgs()->get(0).getAsType()->isFloatingType();
      });
  EXPECT_EQ(describe(Found), "copy: copy<float> copy<double>");
}

TEST(TemplateInstances, AnInstantiationsStatementsLieInItsPatternsText) {
  auto AST = parseCuda(Code);
  ASTContext &Ctx = AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<TemplateInstances> Found = findTemplateInstances(Ctx, inSnippet);
  ASSERT_EQ(Found.size(), 2u);
  for (const TemplateInstances &T : Found) {
    auto [Begin, End] = patternRange(*T.Pattern);
    for (const FunctionDecl *I : T.Instances) {
      struct Calls : RecursiveASTVisitor<Calls> {
        std::vector<const CallExpr *> Found;
        bool VisitCallExpr(CallExpr *C) {
          Found.push_back(C);
          return true;
        }
      } C;
      C.TraverseStmt(I->getBody());
      ASSERT_FALSE(C.Found.empty()) << instanceName(*I);
      for (const CallExpr *Call : C.Found) {
        unsigned Offset = SM.getFileOffset(SM.getExpansionLoc(Call->getBeginLoc()));
        EXPECT_GE(Offset, Begin) << instanceName(*I);
        EXPECT_LT(Offset, End) << instanceName(*I);
      }
    }
  }
}

TEST(TemplateInstances, DiscardedBranchesAreTheIfConstexprBranchesAnInstantiationDrops) {
  // Lines 3-5 hold the `then` branch, 5-7 the `else` one (from its `if`).
  auto AST = parseCuda(R"cu(#include <type_traits>
template <typename T> void run(T *d, int n) {
  if constexpr (std::is_same_v<T, float>) {
    cudaMemset(d, 0, n * sizeof(T));
  } else if constexpr (sizeof(T) == 8) {
    cudaMemset(d, 1, n * sizeof(T));
  }
  cudaMemset(d, 2, n * sizeof(T));
}
void use(float *f, double *g) { run(f, 1); run(g, 1); }
)cu");
  ASTContext &Ctx = AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<TemplateInstances> Found = findTemplateInstances(Ctx, inSnippet);
  ASSERT_EQ(Found.size(), 1u);
  ASSERT_EQ(Found[0].Instances.size(), 2u);
  auto Lines = [&](const TextRanges &Ranges) {
    std::string Out;
    for (auto [Begin, End] : Ranges)
      Out += (Out.empty() ? "" : ", ") +
             std::to_string(SM.getLineNumber(SM.getMainFileID(), Begin)) + "-" +
             std::to_string(SM.getLineNumber(SM.getMainFileID(), End));
    return Out;
  };
  TextRanges Float = discardedBranches(*Found[0].Instances[0]);
  TextRanges Double = discardedBranches(*Found[0].Instances[1]);
  EXPECT_EQ(Lines(Float), "5-7");  // the whole `else if` chain
  EXPECT_EQ(Lines(Double), "3-5"); // the `then` branch; the inner `if` has no `else`
  EXPECT_EQ(Lines(overlaps(Float, Double)), "");
}

TEST(TemplateInstances, OverlapsAreTheTextsInBothSets) {
  TextRanges A = {{0, 10}, {20, 30}}, B = {{5, 25}, {40, 50}};
  EXPECT_EQ(overlaps(A, B), (TextRanges{{5, 10}, {20, 25}}));
  EXPECT_EQ(overlaps(A, {}), TextRanges{});
}
