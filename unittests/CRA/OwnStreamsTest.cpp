//===- OwnStreamsTest.cpp - Ops on the program's own streams ----------------===//
#include "streamalloc/CRA/OwnStreams.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

const char *Prelude = R"cu(
__global__ void k(float *p) { p[threadIdx.x] = 1; }
)cu";

/// The stream keys of the launches in `run`, in source order.
std::vector<std::string> launchKeys(const std::string &Body) {
  auto AST =
      parseCuda(std::string(Prelude) + "void run(float *d, cudaStream_t p) {\n" + Body + "\n}\n");
  const clang::FunctionDecl *F = findFunction(*AST, "run");
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::vector<const clang::CUDAKernelCallExpr *> Launches;
    bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *L) {
      Launches.push_back(L);
      return true;
    }
  } Find;
  Find.TraverseDecl(const_cast<clang::FunctionDecl *>(F));
  std::vector<std::string> Keys;
  for (const clang::CUDAKernelCallExpr *L : Find.Launches) {
    const clang::Expr *Stream = ownStreamOf(L, AST->getASTContext());
    Keys.push_back(Stream ? ownStreamKey(Stream, *F, AST->getASTContext()) : "<legacy>");
  }
  return Keys;
}

TEST(OwnStreams, StreamCreatedBeforeItsUsesHasOneNameForEverySpelling) {
  std::vector<std::string> Keys = launchKeys(R"cu(cudaStream_t s[2];
for (int i = 0; i < 2; ++i)
  cudaStreamCreate(&s[i]);
k<<<1, 32, 0, s[1]>>>(d);
k<<<1, 32, 0, (s[1])>>>(d);
k<<<1, 32, 0, s[0]>>>(d);
k<<<1, 32, 0, p>>>(d);
k<<<1, 32>>>(d);
)cu");
  ASSERT_EQ(Keys.size(), 5u);
  EXPECT_FALSE(Keys[0].empty());
  EXPECT_EQ(Keys[0], Keys[1]);
  EXPECT_NE(Keys[0], Keys[2]);
  EXPECT_FALSE(Keys[3].empty()); // a parameter the function only reads
  EXPECT_EQ(Keys[4], "<legacy>");
}

TEST(OwnStreams, StreamThatMayChangeBetweenUsesHasNoName) {
  std::vector<std::string> Keys = launchKeys(R"cu(cudaStream_t s, t[2], u;
cudaStreamCreate(&s);
cudaStreamCreate(&t[0]);
cudaStreamCreate(&u);
int i = 1;
k<<<1, 32, 0, t[i - 1]>>>(d);
k<<<1, 32, 0, s>>>(d);
s = p;
for (int r = 0; r < 2; ++r) {
  cudaStreamCreate(&u);
  k<<<1, 32, 0, u>>>(d);
}
)cu");
  ASSERT_EQ(Keys.size(), 3u);
  EXPECT_EQ(Keys[0], ""); // an index that is not a constant
  EXPECT_EQ(Keys[1], ""); // assigned later
  EXPECT_EQ(Keys[2], ""); // created again in the loop that uses it
}

} // namespace
