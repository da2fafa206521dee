//===- PageLockedParamsTest.cpp - Helpers whose callers pass pinned memory ===//
#include "streamalloc/Driver/PageLockedParams.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/Cra.h"
#include "streamalloc/Transform/HostPinning.h"

#include "Support/ParseCuda.h"

#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

/// "helper:params" per helper whose parameters every call passes page-locked
/// memory, after recording the calls of each function named in \p Callers
/// with its own pinning plan.
std::string decide(const std::string &Code, std::vector<llvm::StringRef> Functions,
                   std::vector<llvm::StringRef> Callers, bool WholeProgram = false) {
  auto AST = parseCuda("#include <cstdlib>\n" + Code);
  std::vector<const clang::FunctionDecl *> Analysed;
  for (llvm::StringRef Name : Functions)
    Analysed.push_back(findFunction(*AST, Name));
  PageLockedParams Locked(AST->getASTContext(), Analysed, WholeProgram);
  FunctionSummaries Device;
  for (llvm::StringRef Name : Callers) {
    FunctionAccesses FA(*findFunction(*AST, Name), AST->getASTContext(), Device);
    CraResult Cra = runCra(FA, std::vector<std::string>(FA.ops().size()));
    Locked.recordCalls(FA, planPinning(FA, Cra, PinMode::Auto, false));
  }
  std::string Out;
  for (llvm::StringRef Name : Functions) {
    ParamsOf Decided = Locked.decide();
    auto It = Decided.find(findFunction(*AST, Name)->getCanonicalDecl());
    if (It == Decided.end())
      continue;
    Out += (Out.empty() ? "" : " ") + Name.str() + ":";
    for (unsigned P : It->second)
      Out += std::to_string(P);
  }
  return Out;
}

constexpr const char *Helper = R"cu(
static void upload(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}
)cu";

TEST(PageLockedParams, ParameterEveryCallerPinsIsPageLocked) {
  std::string Code = std::string(Helper) + R"cu(
int main() {
  float *h = (float *)malloc(1 << 26), *d;
  cudaMalloc(&d, 1 << 26);
  upload(d, h, 1 << 24);
  free(h);
  return 0;
})cu";
  EXPECT_EQ(decide(Code, {"upload", "main"}, {"main"}), "upload:1");
}

TEST(PageLockedParams, ParameterOneCallPassesAStackArrayIsNot) {
  std::string Code = std::string(Helper) + R"cu(
int main() {
  float *h = (float *)malloc(1 << 26), *d, small[4] = {};
  cudaMalloc(&d, 1 << 26);
  upload(d, h, 1 << 24);
  upload(d, small, 4);
  free(h);
  return 0;
})cu";
  EXPECT_EQ(decide(Code, {"upload", "main"}, {"main"}), "");
}

TEST(PageLockedParams, ParameterPassedOnFollowsItsCallersParameter) {
  auto Code = [](const char *SecondArgument) {
    return std::string(Helper) + R"cu(
static void stage(float *d, float *h, int n) { upload(d, h, n); }
int main() {
  float *h = (float *)malloc(1 << 26), *p, *d, small[4] = {};
  cudaMalloc(&d, 1 << 26);
  cudaMallocHost(&p, 1 << 26);
  stage(d, h, 1 << 24);
  stage(d, )cu" +
           std::string(SecondArgument) + R"cu(, 4);
  upload(d, p, 1 << 24);
  free(h);
  cudaFreeHost(p);
  return 0;
})cu";
  };
  // stage copies nothing itself but passes its parameter on to upload's:
  // both are page-locked where main passes stage buffers it pins or
  // allocates page-locked, neither where it also passes a stack array.
  EXPECT_EQ(decide(Code("p"), {"upload", "stage", "main"}, {"main", "stage"}), "upload:1 stage:1");
  EXPECT_EQ(decide(Code("small"), {"upload", "stage", "main"}, {"main", "stage"}), "");
}

TEST(PageLockedParams, CallersNotRecordedCountAsPageable) {
  std::string Code = std::string(Helper) + R"cu(
int main() {
  float *p, *d;
  cudaMalloc(&d, 1 << 26);
  cudaMallocHost(&p, 1 << 26);
  upload(d, p, 1 << 24);
  cudaFreeHost(p);
  return 0;
})cu";
  EXPECT_EQ(decide(Code, {"upload", "main"}, {"main"}), "upload:1");
  EXPECT_EQ(decide(Code, {"upload", "main"}, {}), "");
}

TEST(PageLockedParams, HelperOtherFilesMayCallIsNoCandidate) {
  std::string Code = R"cu(
void upload(float *d, const float *h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}
int main() {
  float *p, *d;
  cudaMalloc(&d, 1 << 26);
  cudaMallocHost(&p, 1 << 26);
  upload(d, p, 1 << 24);
  return 0;
})cu";
  EXPECT_EQ(decide(Code, {"upload", "main"}, {"main"}), "");
  EXPECT_EQ(decide(Code, {"upload", "main"}, {"main"}, /*WholeProgram=*/true), "upload:1");
}

} // namespace
