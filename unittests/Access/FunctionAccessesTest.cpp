//===- FunctionAccessesTest.cpp - Points-to and read/write sets -------------===//
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

/// "name:RW, ..." for an access set, objects sorted by id.
std::string show(const AccessSet &Set, const ObjectTable &Objects) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Set.print(OS, Objects);
  return S;
}

struct Analysed {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Device;
  std::unique_ptr<FunctionAccesses> FA;
  const clang::FunctionDecl *F = nullptr;

  explicit Analysed(const std::string &Code, llvm::StringRef Function = "run") {
    AST = parseCuda(Code);
    F = findFunction(*AST, Function);
    if (F)
      FA = std::make_unique<FunctionAccesses>(*F, AST->getASTContext(), Device);
  }
  std::string effects(unsigned Op) const { return show(FA->ops()[Op].Effects, FA->objects()); }
  std::string hostSide(unsigned Op) const {
    return show(FA->ops()[Op].HostSideEffects, FA->objects());
  }
  std::string host(llvm::StringRef StmtPrefix) const {
    return show(FA->accessesOf(findStmt(F, StmtPrefix)).Host, FA->objects());
  }
};

const char *Kernels = R"cu(
#include <cstdio>
#include <cstdlib>
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
)cu";

TEST(FunctionAccesses, CopiesReadTheirSourceAndWriteTheirDestination) {
  Analysed A(std::string(Kernels) + R"cu(
void run(int n) {
  float *h = (float *)malloc(n * 4);
  float *d;
  cudaMalloc(&d, n * 4);
  cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost);
})cu");
  ASSERT_TRUE(A.FA);
  ASSERT_EQ(A.FA->ops().size(), 2u);
  EXPECT_EQ(A.effects(0), "h:R, d:W");
  EXPECT_EQ(A.effects(1), "h:W, d:R");
}

TEST(FunctionAccesses, HostSideOfAnOpIsTheSourceOfACopyToTheDeviceOnly) {
  Analysed A(std::string(Kernels) + R"cu(
void run(int n, float *p, cudaMemcpyKind k) {
  float *h = (float *)malloc(n * 4);
  float *d, *e;
  cudaMalloc(&d, n * 4);
  cudaMalloc(&e, n * 4);
  cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(e, d, n * 4, cudaMemcpyDeviceToDevice);
  cudaMemcpy(e, h, n * 4, k);
  cudaMemset(d, 0, n * 4);
  cudaMemset(p, 0, n * 4);
  fill<<<1, 16>>>(h, 1.0f);
})cu");
  ASSERT_TRUE(A.FA);
  ASSERT_EQ(A.FA->ops().size(), 7u);
  EXPECT_EQ(A.hostSide(0), "h:R");
  EXPECT_EQ(A.hostSide(1), "-"); // written once the copy has run
  EXPECT_EQ(A.hostSide(2), "-");
  // A direction the text does not name may be any: everything but the
  // device allocation, which only the device can touch.
  EXPECT_EQ(A.hostSide(3), "h:R");
  EXPECT_EQ(A.hostSide(4), "-");
  // What a parameter points to may be host memory.
  EXPECT_NE(A.hostSide(5), "-");
  // A launch runs on the device, whatever it touches.
  EXPECT_EQ(A.hostSide(6), "-");
}

TEST(FunctionAccesses, StdSwapOfTwoPointersKeepsWhatEachMayPointTo) {
  Analysed A(std::string(Kernels) + R"cu(
#include <utility>
void run(int n) {
  float *a, *b;
  cudaMalloc(&a, n * 4);
  cudaMalloc(&b, n * 4);
  std::swap(a, b);
  fill<<<1, 16>>>(a, 1.0f);
})cu");
  ASSERT_TRUE(A.FA);
  ASSERT_EQ(A.FA->ops().size(), 1u);
  EXPECT_EQ(A.effects(0), "a:W, b:W");
}

TEST(FunctionAccesses, LaunchInstantiatesTheKernelSummary) {
  Analysed A(std::string(Kernels) + R"cu(
void run(int n) {
  float *x, *y, *z;
  cudaMalloc(&x, n * 4);
  cudaMalloc(&y, n * 4);
  cudaMalloc(&z, n * 4);
  add<<<1, 32>>>(x, y, z, n);
})cu");
  ASSERT_EQ(A.FA->ops().size(), 1u);
  EXPECT_EQ(A.effects(0), "x:R, y:R, z:W");
}

TEST(FunctionAccesses, PointerArithmeticStaysInTheSameObject) {
  Analysed A(std::string(Kernels) + R"cu(
void run(int n) {
  float *d;
  cudaMalloc(&d, 2 * n * 4);
  float *second = d + n;
  fill<<<1, 32>>>(second, 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "d:W");
}

TEST(FunctionAccesses, ParametersPointToSymbolicObjects) {
  Analysed A(std::string(Kernels) + R"cu(
void run(float *d) { fill<<<1, 32>>>(d, 1.0f); })cu");
  EXPECT_EQ(A.effects(0), "*d:W");
  EXPECT_TRUE(A.FA->ops()[0].UnknownWhy.empty());
}

TEST(FunctionAccesses, AddressPassedToAnUnknownCallMakesThePointerUnknown) {
  Analysed A(std::string(Kernels) + R"cu(
void allocate(float **p);
void run() {
  float *d;
  allocate(&d);
  fill<<<1, 32>>>(d, 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "<unknown>:W");
}

TEST(FunctionAccesses, ScalarReadBackThroughItsAddressIsAnObject) {
  Analysed A(R"cu(
#include <cstdio>
#include <cstdlib>
void run(const float *d) {
  float sum;
  cudaMemcpy(&sum, d, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", sum);
})cu");
  EXPECT_EQ(A.effects(0), "sum:W, *d:R");
  EXPECT_EQ(A.host("printf"), "the program's output:W, sum:R");
}

TEST(FunctionAccesses, UntrackedLocalsAreInvisibleToOtherCode) {
  Analysed A(R"cu(
#include <cstdio>
#include <cstdlib>
void run(float *h, int n) {
  int count = 0;
  for (int i = 0; i < n; ++i) count += 1;
})cu");
  EXPECT_EQ(A.host("for"), "-");
}

TEST(FunctionAccesses, CallWithoutModelTouchesUnknown) {
  Analysed A(R"cu(
void helper();
void run() { helper(); })cu");
  StmtAccesses S = A.FA->accessesOf(findStmt(A.F, "helper"));
  EXPECT_TRUE(S.Host.touchesUnknown());
  EXPECT_NE(S.UnknownWhy.find("`helper`"), std::string::npos);
}

TEST(FunctionAccesses, ExitOnAnErrorPathDoesNotTouchMemory) {
  Analysed A(R"cu(
#include <cstdio>
#include <cstdlib>
void run(int bad) {
  if (bad) exit(1);
  exit(0);
})cu");
  EXPECT_EQ(A.host("if"), "the program's output:W");
  EXPECT_EQ(A.host("exit(0)"), "<unknown>:RW");
}

TEST(FunctionAccesses, DeviceSynchronizeIsASyncOnlyWhenItAlwaysRuns) {
  Analysed A(R"cu(
#include <cstdio>
#include <cstdlib>
void run(int c) {
  cudaDeviceSynchronize();
  c ? cudaDeviceSynchronize() : cudaSuccess;
})cu");
  EXPECT_TRUE(A.FA->accessesOf(findStmt(A.F, "cudaDeviceSynchronize")).SyncsDevice);
  EXPECT_FALSE(A.FA->accessesOf(findStmt(A.F, "c ?")).SyncsDevice);
}

TEST(FunctionAccesses, SymbolCopiesTouchTheSymbol) {
  Analysed A(R"cu(
__device__ float table[16];
void run() {
  float h[16] = {0};
  cudaMemcpyToSymbol(table, h, sizeof(h));
})cu");
  EXPECT_EQ(A.effects(0), "h:R, table:W");
}

TEST(FunctionAccesses, ConstObjectsNeverConflict) {
  Analysed A(std::string(Kernels) + R"cu(
const int N = 32;
const float Table[4] = {1, 2, 3, 4};
void run() {
  float *d;
  cudaMalloc(&d, N * 4);
  fill<<<1, N>>>(d, Table[N % 4]);
})cu");
  EXPECT_EQ(A.effects(0), "d:W");
  EXPECT_EQ(A.host("fill"), "-");
}

TEST(FunctionAccesses, PointerArrayElementsPointToTheirAllocations) {
  Analysed A(std::string(Kernels) + R"cu(
void run() {
  float *d[2];
  for (int i = 0; i < 2; ++i)
    cudaMalloc(&d[i], 64);
  fill<<<1, 16>>>(d[1], 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "d:W");
}

TEST(FunctionAccesses, PointerArrayWhoseAddressEscapesIsUnknown) {
  Analysed A(std::string(Kernels) + R"cu(
void fill_all(float **p);
void run() {
  float *d[2];
  fill_all(d);
  fill<<<1, 16>>>(d[1], 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "<unknown>:W");
}

TEST(FunctionAccesses, SystemHeaderGlobalsAreNotProgramData) {
  Analysed A(R"cu(
#include <cstdio>
void run() { fprintf(stderr, "x\n"); })cu");
  EXPECT_EQ(A.host("fprintf"), "the program's output:W");
}

TEST(FunctionAccesses, HelperSummaryStandsForTheCall) {
  Analysed A(R"cu(
static void scale(float *p, int n) { for (int i = 0; i < n; ++i) p[i] *= 2; }
void run() {
  float *h = (float *)malloc(64), *g = (float *)malloc(64);
  scale(g, 16);
})cu");
  EXPECT_EQ(A.host("scale"), "g:RW");
}

TEST(FunctionAccesses, PointersInStructFieldsAreFollowedFieldByField) {
  Analysed A(std::string(Kernels) + R"cu(
struct Pair { float *in; float *out; };
void run() {
  Pair p;
  cudaMalloc(&p.in, 64);
  cudaMalloc(&p.out, 64);
  fill<<<1, 16>>>(p.out, 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "p.out:W");
}

TEST(FunctionAccesses, HelperOutParameterStoresAFreshObject) {
  Analysed A(std::string(Kernels) + R"cu(
static void make(float **out, int n) { cudaMalloc(out, n); }
void run() {
  float *a, *b;
  make(&a, 64);
  make(&b, 64);
  fill<<<1, 16>>>(a, 1.0f);
})cu");
  // Both calls make an object of their own; the launch touches a's only.
  EXPECT_EQ(A.effects(0), "out (allocated in `make`):W");
}

TEST(FunctionAccesses, PointerCopiedByMemcpyIsFollowed) {
  Analysed A(std::string(Kernels) + R"cu(
#include <cstring>
void run() {
  float *d, *e;
  cudaMalloc(&d, 64);
  memcpy(&e, &d, sizeof d);
  fill<<<1, 16>>>(e, 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "d:W");
}

TEST(FunctionAccesses, ExportedFunctionParametersStandForEachOther) {
  Analysed A(std::string(Kernels) + R"cu(
void run(float *a, float *b) { fill<<<1, 16>>>(a, 1.0f); b[0] = 2.0f; })cu");
  const GpuOp &Op = A.FA->ops()[0];
  EXPECT_EQ(A.effects(0), "*b:W, *a:W");
  ObjectId B = 0;
  for (ObjectId O = 0; O < A.FA->objects().size(); ++O)
    if (A.FA->objects().get(O).Name == "*b")
      B = O;
  ASSERT_NE(B, 0u);
  EXPECT_TRUE(Op.Effects.isAliasOnly(B));
  EXPECT_TRUE(Op.Effects.conflictWith(A.FA->accessesOf(findStmt(A.F, "b[0]")).Host));
}

TEST(FunctionAccesses, StaticFunctionParametersAreDistinctWhenEveryCallAgrees) {
  Analysed A(std::string(Kernels) + R"cu(
static void run(float *a, float *b) { fill<<<1, 16>>>(a, 1.0f); b[0] = 2.0f; }
void caller(float *x) {
  float *d;
  cudaMalloc(&d, 64);
  run(d, x);
})cu");
  EXPECT_EQ(A.effects(0), "*a:W");
  EXPECT_FALSE(A.FA->ops()[0].Effects.conflictWith(A.FA->accessesOf(findStmt(A.F, "b[0]")).Host));
}

TEST(FunctionAccesses, StaticFunctionParametersMayAliasWhenACallPassesOneBufferTwice) {
  Analysed A(std::string(Kernels) + R"cu(
static void run(float *a, float *b) { fill<<<1, 16>>>(a, 1.0f); b[0] = 2.0f; }
void caller() {
  float *d;
  cudaMalloc(&d, 64);
  run(d, d);
})cu");
  EXPECT_TRUE(A.FA->ops()[0].Effects.conflictWith(A.FA->accessesOf(findStmt(A.F, "b[0]")).Host));
}

TEST(FunctionAccesses, VectorElementsAreOneObjectPerVector) {
  Analysed A(std::string(Kernels) + R"cu(
#include <vector>
void run() {
  std::vector<float> v(16), w(16);
  float *d;
  cudaMalloc(&d, 64);
  cudaMemcpy(v.data(), d, 64, cudaMemcpyDeviceToHost);
  w[0] = v.size();
  v[1] = 2.0f;
})cu");
  EXPECT_EQ(A.effects(0), "v:W, d:R");
  EXPECT_EQ(A.host("w[0]"), "w:W");
  EXPECT_EQ(A.host("v[1]"), "v:W");
}

TEST(FunctionAccesses, WhatAnEscapedStructHoldsIsUnknown) {
  Analysed A(std::string(Kernels) + R"cu(
struct Buf { float *dev; };
void keep(Buf *b);
void run() {
  Buf b;
  cudaMalloc(&b.dev, 64);
  keep(&b);
  fill<<<1, 16>>>(b.dev, 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "<unknown>:W");
}

TEST(FunctionAccesses, UnknownCodeMayChangeWhatParametersHold) {
  Analysed A(std::string(Kernels) + R"cu(
void external();
static void run(float **slot) {
  float *mine;
  cudaMalloc(&mine, 64);
  *slot = mine;
  external();
  fill<<<1, 16>>>(*slot, 1.0f);
}
void caller() { float *p; run(&p); })cu");
  // external() may reach *slot through its caller and store anything there.
  EXPECT_EQ(A.effects(0), "<unknown>:W");
}

TEST(FunctionAccesses, ReallocKeepsThePointersTheOldBufferHeld) {
  Analysed A(std::string(Kernels) + R"cu(
#include <cstdlib>
void run() {
  float **table = (float **)malloc(2 * sizeof(float *));
  cudaMalloc(&table[0], 64);
  table = (float **)realloc(table, 4 * sizeof(float *));
  fill<<<1, 16>>>(table[0], 1.0f);
})cu");
  EXPECT_EQ(A.effects(0), "table:W");
}

TEST(FunctionAccesses, DestructorOfAVectorFreesOnlyItsElements) {
  Analysed A(R"cu(
#include <vector>
#include <string>
struct Owner { float *p; ~Owner() { p[0] = 0; } };
void run(float *q) {
  std::vector<float> v(16);
  std::string s("x");
  Owner o{q};
  int plain = 0;
})cu");
  auto Destroy = [&](llvm::StringRef Name) {
    const clang::VarDecl *V = nullptr;
    for (const clang::Stmt *S : llvm::cast<clang::CompoundStmt>(A.F->getBody())->body())
      if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
        for (const clang::Decl *D : DS->decls())
          if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D); VD && VD->getName() == Name)
            V = VD;
    return show(A.FA->destructorAccesses(V).Host, A.FA->objects());
  };
  EXPECT_EQ(Destroy("v"), "v:W");
  EXPECT_EQ(Destroy("o"), "o:R, *q:W"); // Owner's destructor writes through o.p
  EXPECT_EQ(Destroy("plain"), "-");
  EXPECT_NE(Destroy("s").find("<unknown>"), std::string::npos);
}

TEST(FunctionAccesses, CheckingMacroEvaluatingItsOpAgainBeforeItExitsHasOneOp) {
  const char *Check = R"cu(
#define CHECK(status)                                                  \
  if (status != cudaSuccess) {                                         \
    fprintf(stderr, "%d %s\n", status, cudaGetErrorString(status));    \
    EXIT;                                                              \
  }
)cu";
  auto Run = [](const char *Exit) {
    return std::string("#define EXIT ") + Exit + "\n" + R"cu(
void run(int n) {
  float *h = (float *)malloc(n * 4), *d;
  cudaMalloc(&d, n * 4);
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
}
)cu";
  };
  // The error path ends the program: the expansions in the branch are not ops
  // and touch nothing.
  Analysed Exits(std::string(Kernels) + Check + Run("exit(1)"));
  ASSERT_TRUE(Exits.FA);
  ASSERT_EQ(Exits.FA->ops().size(), 1u);
  EXPECT_EQ(Exits.effects(0), "h:R, d:W");
  // It goes on: every expansion is an op.
  Analysed GoesOn(std::string(Kernels) + Check + Run("(void)0"));
  ASSERT_TRUE(GoesOn.FA);
  EXPECT_EQ(GoesOn.FA->ops().size(), 3u);
}

TEST(FunctionAccesses, HasOpsAgreesWithTheAnalysisWithoutRunningIt) {
  Analysed A(std::string(Kernels) + R"cu(
void none(float *h) { h[0] = 1; auto f = [&] { fill<<<1, 1>>>(h, 0); }; f(); }
void launch(float *d) { if (d) fill<<<1, 1>>>(d, 1); }
void copy(float *d, float *h) { cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); }
void run(float **d) { cudaMalloc((void **)d, 4); })cu");
  auto Has = [&](llvm::StringRef Name, llvm::ArrayRef<const clang::Expr *> StreamOrdered = {}) {
    const clang::FunctionDecl *F = findFunction(*A.AST, Name);
    bool Syntax = FunctionAccesses::hasOps(*F, StreamOrdered);
    FunctionAccesses FA(*F, A.AST->getASTContext(), A.Device, StreamOrdered);
    EXPECT_EQ(Syntax, !FA.ops().empty()) << Name.str();
    return Syntax;
  };
  EXPECT_FALSE(Has("none")); // a lambda body is a function of its own
  EXPECT_TRUE(Has("launch"));
  EXPECT_TRUE(Has("copy"));
  EXPECT_FALSE(Has("run"));
  const auto *Alloc = llvm::cast<clang::Expr>(findStmt(A.F, "cudaMalloc"));
  EXPECT_TRUE(Has("run", {Alloc})); // a stream-ordered allocation is an op
}

TEST(AccessSetTest, MergingKeepsThePossibleAliasWriteOfAnObjectAlsoReadDirectly) {
  // A direct read of #2 plus a write through a pointer that may be #2: the
  // merged set must still conflict with a read of #2 (the write is real).
  const ObjectId Buffer = OutputObject + 1;
  AccessSet Op;
  Op.add(Buffer, ReadAccess);
  Op.addAlias(Buffer, WriteAccess);
  AccessSet Merged;
  Merged.addAll(Op);
  EXPECT_EQ(Merged.modeOf(Buffer), ReadWriteAccess);
  EXPECT_EQ(Merged.directModeOf(Buffer), ReadAccess);
  EXPECT_FALSE(Merged.isAliasOnly(Buffer));
  AccessSet Reader;
  Reader.add(Buffer, ReadAccess);
  EXPECT_EQ(Merged.conflictWith(Reader), std::optional<ObjectId>(Buffer));
  EXPECT_EQ(Reader.conflictWith(Merged), std::optional<ObjectId>(Buffer));
}

} // namespace
