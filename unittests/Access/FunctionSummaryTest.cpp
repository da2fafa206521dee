//===- FunctionSummaryTest.cpp - Summaries of kernels and functions -----------===//
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/Access/MemoryObjects.h"

#include "Support/ParseCuda.h"

#include "clang/AST/Decl.h"
#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

/// A function's summary, and its facts as short strings.
struct Summarised {
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionSummaries Summaries;
  const clang::FunctionDecl *F = nullptr;
  const FunctionSummary *S = nullptr;

  Summarised(const std::string &Code, llvm::StringRef Function) {
    AST = parseCuda(Code);
    F = findFunction(*AST, Function);
    if (F)
      S = &Summaries.get(F);
  }
  /// "host R", "device RW", "host W, device R" or "-" for the object \p Name.
  std::string access(llvm::StringRef Name) const {
    for (const SummaryAccess &A : S->Accesses) {
      std::string ObjName = A.Object.Kind == SummaryRef::Global ? A.Object.Var->getNameAsString()
                                                                : A.Object.P.str(*F);
      if (A.Object.Kind != SummaryRef::Path && A.Object.Kind != SummaryRef::Global)
        continue;
      if (ObjName != Name)
        continue;
      auto Mode = [](uint8_t M) {
        return std::string(M & ReadAccess ? "R" : "") + (M & WriteAccess ? "W" : "");
      };
      std::string Out;
      if (A.Host)
        Out += "host " + Mode(A.Host);
      if (A.Device)
        Out += (Out.empty() ? "" : ", ") + std::string("device ") + Mode(A.Device);
      return Out;
    }
    return "-";
  }
  /// The whole summary as --dump=summaries prints it.
  std::string text() const {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    S->print(OS, *F);
    return Out;
  }
};

TEST(FunctionSummary, ReadOnlyAndWrittenParametersAreTold) {
  Summarised K(R"cu(
__global__ void k(const float *in, float *out, float *both, int n) {
  int i = threadIdx.x;
  out[i] = in[i];
  both[i] += 1.0f;
})cu",
               "k");
  EXPECT_EQ(K.access("*in"), "device R");
  EXPECT_EQ(K.access("*out"), "device W");
  EXPECT_EQ(K.access("*both"), "device RW");
  EXPECT_EQ(K.S->paramMode(3), NoAccess);
  EXPECT_EQ(K.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, DeviceFunctionCalleesArePropagated) {
  Summarised K(R"cu(
__device__ void store(float *p, float v) { *p = v; }
__global__ void k(float *a, const float *b) { store(a + threadIdx.x, b[0]); })cu",
               "k");
  EXPECT_EQ(K.access("*a"), "device W");
  EXPECT_EQ(K.access("*b"), "device R");
}

TEST(FunctionSummary, GlobalsAndSharedMemory) {
  Summarised K(R"cu(
__device__ int counter;
__global__ void k(int *out) {
  __shared__ int tile[32];
  tile[threadIdx.x] = counter;
  out[threadIdx.x] = tile[0];
})cu",
               "k");
  EXPECT_EQ(K.access("counter"), "device R");
  EXPECT_EQ(K.access("tile"), "-"); // shared memory is private to the block
  EXPECT_EQ(K.access("*out"), "device W");
  EXPECT_EQ(K.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, AtomicsReadAndWrite) {
  Summarised K(R"cu(
__global__ void k(int *sum, const int *v) { atomicAdd(sum, v[threadIdx.x]); })cu",
               "k");
  EXPECT_EQ(K.access("*sum"), "device RW");
  EXPECT_EQ(K.access("*v"), "device R");
}

TEST(FunctionSummary, PointersLoadedFromParameterMemoryAreSymbolic) {
  Summarised K(R"cu(
__global__ void k(float **table) { table[0][threadIdx.x] = 1.0f; })cu",
               "k");
  EXPECT_EQ(K.access("*table"), "device R");
  EXPECT_EQ(K.access("**table"), "device W");
  EXPECT_EQ(K.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, PointerFieldsOfAStructParameterArePaths) {
  Summarised K(R"cu(
struct Work { float *in; float *out; int n; };
__global__ void k(Work w) { w.out[threadIdx.x] = w.in[threadIdx.x]; }
__global__ void r(const Work *w) { w->out[threadIdx.x] = 2.0f * w->n; })cu",
               "k");
  EXPECT_EQ(K.access("*w.in"), "device R");
  EXPECT_EQ(K.access("*w.out"), "device W");
  const FunctionSummary &R = K.Summaries.get(findFunction(*K.AST, "r"));
  EXPECT_EQ(R.paramMode(0), ReadAccess);
  EXPECT_EQ(R.unknownMode(), NoAccess);
}

TEST(FunctionSummary, RecursionIsSolvedToAFixpoint) {
  Summarised K(R"cu(
__device__ void walk(int *p, int n) { if (n) { p[n] = 0; walk(p, n - 1); } }
__global__ void k(int *p) { walk(p, 4); })cu",
               "k");
  EXPECT_EQ(K.access("*p"), "device W");
  EXPECT_EQ(K.S->unknownMode(), NoAccess);
  const FunctionSummary &Walk = K.Summaries.get(findFunction(*K.AST, "walk"));
  EXPECT_TRUE(Walk.Recursive);
}

TEST(FunctionSummary, MutuallyRecursivePairSharesOneFixpoint) {
  Summarised K(R"cu(
void odd(float *a, float *b, int n);
void even(float *a, float *b, int n) { if (n) { a[n] = 1; odd(b, a, n - 1); } }
void odd(float *a, float *b, int n) { if (n) { b[n] += a[n]; even(a, b, n - 1); } })cu",
               "even");
  // even writes *a; odd(b, a) reads its a (= even's b) and updates its b
  // (= even's a); the fixpoint has all of it.
  EXPECT_EQ(K.access("*a"), "host RW");
  EXPECT_EQ(K.access("*b"), "host RW");
  EXPECT_EQ(K.S->unknownMode(), NoAccess);
  EXPECT_TRUE(K.S->Recursive);
}

TEST(FunctionSummary, TrivialStructAssignmentIsAPlainStore) {
  Summarised K(R"cu(
__global__ void k(const float4 *in, float4 *out) {
  float4 v = in[threadIdx.x];
  v.x += 1.0f;
  out[threadIdx.x] = v;
})cu",
               "k");
  EXPECT_EQ(K.access("*in"), "device R");
  EXPECT_EQ(K.access("*out"), "device W");
  EXPECT_EQ(K.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, HostHelperThroughTheApiModel) {
  Summarised H(R"cu(
#include <cstring>
void copy_back(float *dst, const float *dev, float *scratch, int n) {
  cudaMemcpy(scratch, dev, n * 4, cudaMemcpyDeviceToHost);
  memcpy(dst, scratch, n * 4);
})cu",
               "copy_back");
  EXPECT_EQ(H.access("*dst"), "host W");
  EXPECT_EQ(H.access("*dev"), "device R");
  EXPECT_EQ(H.access("*scratch"), "host R, device W");
  EXPECT_TRUE(H.S->PerformsGpuOps);
  EXPECT_EQ(H.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, OutParameterAllocationIsAStoreTheCallerSees) {
  Summarised H(R"cu(
struct Buffers { float *d_in; float *d_out; };
static void setup(Buffers &b, int n) {
  cudaMalloc(&b.d_in, n * sizeof(float));
  cudaMalloc(&b.d_out, n * sizeof(float));
})cu",
               "setup");
  EXPECT_EQ(H.access("b"), "host W");
  EXPECT_NE(H.text().find("stores: b.d_in = new b.d_in (device-alloc)"), std::string::npos)
      << H.text();
  EXPECT_NE(H.text().find("stores: b.d_out = new b.d_out (device-alloc)"), std::string::npos)
      << H.text();
  EXPECT_FALSE(H.S->StoresUnknown);
}

TEST(FunctionSummary, ReturnedAllocationIsFresh) {
  Summarised H(R"cu(
#include <cstdlib>
static float *make(int n) { float *p = (float *)malloc(n * sizeof(float)); p[0] = 0; return p; })cu",
               "make");
  ASSERT_EQ(H.S->Returns.size(), 1u);
  EXPECT_EQ(H.S->Returns[0].Kind, SummaryRef::Fresh);
  EXPECT_EQ(H.S->FreshObjects[H.S->Returns[0].FreshIndex].Kind, ObjectKind::HostAllocation);
  EXPECT_TRUE(H.S->Accesses.empty()); // writing its own new buffer is nobody else's business
}

TEST(FunctionSummary, HostHelperCallingUnknownCodeIsUnknown) {
  Summarised H(R"cu(
void external(float *);
void helper(float *p) { external(p); })cu",
               "helper");
  EXPECT_EQ(H.S->unknownMode(), ReadWriteAccess);
  EXPECT_NE(H.S->UnknownWhy.find("external"), std::string::npos);
  EXPECT_TRUE(H.S->StoresUnknown);
  ASSERT_EQ(H.S->Escapes.size(), 1u); // the caller's buffer is now reachable by unknown code
  EXPECT_EQ(H.S->Escapes[0].P.str(*H.F), "*p");
}

TEST(FunctionSummary, MemberFunctionsSeeTheirObjectThroughThis) {
  Summarised H(R"cu(
struct Grid {
  float *cells; int n;
  void clear() { for (int i = 0; i < n; ++i) cells[i] = 0; }
};)cu",
               "clear");
  EXPECT_EQ(H.access("*this"), "host R");
  EXPECT_EQ(H.access("*this->cells"), "host W");
  EXPECT_EQ(H.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, VectorElementsAreTheContainersStorage) {
  Summarised H(R"cu(
#include <vector>
static void scale(std::vector<float> &v, float f) {
  for (size_t i = 0; i < v.size(); ++i) v[i] *= f;
})cu",
               "scale");
  EXPECT_EQ(H.access("*v.data()"), "host RW");
  EXPECT_EQ(H.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, RegisterOnlyInlineAssemblyTouchesNoMemory) {
  Summarised K(R"cu(
__device__ long long now() { long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ void fence() { asm volatile("membar.gl;" ::: "memory"); }
__device__ float load(const float *p) { float v; asm("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p)); return v; }
__global__ void k(float *out) { out[0] = (float)now(); }
__global__ void f(float *out) { fence(); out[0] = 1.0f; }
__global__ void g(const float *in, float *out) { out[0] = load(in); })cu",
               "k");
  EXPECT_EQ(K.access("*out"), "device W");
  EXPECT_EQ(K.S->unknownMode(), NoAccess);
  const FunctionSummary &F = K.Summaries.get(findFunction(*K.AST, "f"));
  EXPECT_EQ(F.unknownMode(), ReadWriteAccess); // a memory clobber may touch anything
  const FunctionSummary &G = K.Summaries.get(findFunction(*K.AST, "g"));
  EXPECT_EQ(G.unknownMode(), ReadWriteAccess); // an address operand: a load through a register
}

TEST(FunctionSummary, ConstructorStoresIntoItsObject) {
  Summarised H(R"cu(
struct View {
  float *p;
  int n;
  View(float *q, int m) : p(q), n(m) {}
};
static float first(float *q) { View v(q, 4); return v.p[0]; })cu",
               "first");
  EXPECT_EQ(H.access("*q"), "host R");
  EXPECT_EQ(H.S->unknownMode(), NoAccess);
}

TEST(FunctionSummary, ObjectItAllocatesAndReturnsHoldsWhatWasCopiedIntoIt) {
  // The returned device struct holds the device pointers of *c: a caller's
  // kernel given the struct reaches the buffers they point to.
  Summarised H(R"cu(
struct Bufs { float *a; float *b; };
Bufs *setup(Bufs *c, int n) {
  cudaMalloc(&c->a, n * sizeof(float));
  cudaMalloc(&c->b, n * sizeof(float));
  Bufs *d;
  cudaMalloc(&d, sizeof(Bufs));
  cudaMemcpy(d, c, sizeof(Bufs), cudaMemcpyHostToDevice);
  return d;
})cu",
               "setup");
  ASSERT_TRUE(H.S);
  ASSERT_EQ(H.S->Returns.size(), 1u);
  ASSERT_EQ(H.S->Returns[0].Kind, SummaryRef::Fresh);
  unsigned Returned = H.S->Returns[0].FreshIndex;
  unsigned IntoReturned = 0;
  for (const SummaryStore &St : H.S->Stores)
    if (St.Target.Kind == SummaryRef::Fresh && St.Target.FreshIndex == Returned &&
        St.Value.Kind == SummaryRef::Fresh && St.Value.FreshIndex != Returned)
      ++IntoReturned;
  EXPECT_EQ(IntoReturned, 2u) << H.text();
}

} // namespace
