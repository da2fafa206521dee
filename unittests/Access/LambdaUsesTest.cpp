//===- LambdaUsesTest.cpp - Where a lambda may run --------------------------===//
#include "streamalloc/Access/FunctionAccesses.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

/// whyLambdaMayRunElsewhere() for the first lambda written in `run`.
std::string whyFirstLambdaOfRun(const std::string &Code) {
  std::unique_ptr<clang::ASTUnit> AST = parseCuda(Code);
  const clang::FunctionDecl *Run = findFunction(*AST, "run");
  if (!Run)
    return "no function `run`";
  struct FirstLambda : clang::RecursiveASTVisitor<FirstLambda> {
    const clang::LambdaExpr *Found = nullptr;
    bool VisitLambdaExpr(clang::LambdaExpr *L) {
      Found = Found ? Found : L;
      return true;
    }
  } Finder;
  Finder.TraverseStmt(Run->getBody());
  if (!Finder.Found)
    return "no lambda";
  return whyLambdaMayRunElsewhere(*Finder.Found->getCallOperator(), AST->getASTContext());
}

const char *Prelude = R"cu(
#include <algorithm>
#include <execution>
#include <functional>
#include <thread>
#include <vector>
template <typename F> static void each(int n, F f) {
  for (int i = 0; i < n; ++i)
    f(i);
}
)cu";

TEST(LambdaUses, CalledOnlyThroughItsVariableRunsWhereItsCallersSee) {
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d) {
  auto f = [d](int i) { cudaMemset(d + i, 0, 4); };
  f(0);
  f(1);
}
)cu"),
            "");
}

TEST(LambdaUses, PassedToASequentialAlgorithmOrAFunctionOfTheUnitRunsOnTheCallersThread) {
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d, std::vector<int> &v) {
  auto f = [d](int i) { cudaMemset(d + i, 0, 4); };
  std::for_each(v.begin(), v.end(), f);
  std::for_each(std::execution::seq, v.begin(), v.end(), f);
  each(2, f);
  f(3);
}
)cu"),
            "");
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d, std::vector<int> &v) {
  std::for_each(v.begin(), v.end(), [d](int i) { cudaMemset(d + i, 0, 4); });
}
)cu"),
            "");
}

TEST(LambdaUses, GivenAParallelPolicyItMayRunOnOtherThreads) {
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d, std::vector<int> &v) {
  std::for_each(std::execution::par, v.begin(), v.end(),
                [d](int i) { cudaMemset(d + i, 0, 4); });
}
)cu"),
            "it is passed to `std::for_each` with an execution policy, which may run it on other "
            "threads (line 14)");
}

TEST(LambdaUses, GivenToAThreadItRunsOnAnotherThread) {
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d) {
  std::thread t([d] { cudaMemset(d, 0, 4); });
  t.join();
}
)cu"),
            "it is passed to a constructor of `std::thread`, which may keep it or run it on "
            "another thread (line 13)");
}

TEST(LambdaUses, StoredConvertedCapturedOrGivenToAnUnknownFunctionItMayRunAnywhere) {
  EXPECT_EQ(
      whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d) {
  std::function<void(int)> f = [d](int i) { cudaMemset(d + i, 0, 4); };
  f(0);
}
)cu"),
      "it is passed to a constructor of `std::function<void (int)>`, which may keep it or run "
      "it on another thread (line 13)");
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d) {
  auto f = [d](int i) { cudaMemset(d + i, 0, 4); };
  auto g = [f](int i) { f(i); };
  g(0);
}
)cu"),
            "it is captured by another lambda (line 14)");
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d) {
  auto f = [d](int i) { cudaMemset(d + i, 0, 4); };
  std::bind(f, 1)();
}
)cu"),
            "it is passed to `std::bind`, which is not known to run it only before it returns, on "
            "the caller's thread (line 14)");
  EXPECT_EQ(whyFirstLambdaOfRun(std::string(Prelude) + R"cu(
void run(int *d) {
  auto f = [d](int i) { cudaMemset(d + i, 0, 4); };
  auto copy = f;
  copy(0);
}
)cu"),
            "it is stored, copied, converted or captured (line 14)");
}

} // namespace
