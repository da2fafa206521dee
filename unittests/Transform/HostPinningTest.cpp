//===- HostPinningTest.cpp - Which host buffers are pinned, and why --------===//
#include "streamalloc/Transform/HostPinning.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/Access/FunctionSummary.h"
#include "streamalloc/CRA/Cra.h"

#include "Support/ParseCuda.h"

#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

std::vector<PinDecision> pin(const std::string &Code, PinMode Mode = PinMode::Auto) {
  auto AST = parseCuda("#include <cstdlib>\nfloat *g;\nvoid sink(float *);\n" + Code);
  FunctionSummaries Device;
  FunctionAccesses FA(*findFunction(*AST, "run"), AST->getASTContext(), Device);
  CraResult Cra = runCra(FA, std::vector<std::string>(FA.ops().size()));
  std::vector<PinDecision> D = planPinning(FA, Cra, Mode, false);
  for (PinDecision &P : D) { // the AST dies here
    P.Site = nullptr, P.Releases.clear();
    if (P.RegisterAfter)
      P.Line = AST->getSourceManager().getExpansionLineNumber(P.RegisterAfter->getEndLoc());
    P.Vector = nullptr, P.RegisterAfter = nullptr;
  }
  return D;
}

/// The code's line numbers in pin()'s input: it is preceded by 3 lines.
constexpr unsigned FirstLine = 4;

TEST(HostPinning, BufferFreedWhereItIsAllocatedIsPinned) {
  auto D = pin(R"cu(void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Name, "h");
  EXPECT_EQ(D[0].Action, PinAction::Register); // measured: cheaper than allocating
}

TEST(HostPinning, AllocModeAllocatesPageLocked) {
  auto D = pin(R"cu(void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
})cu",
               PinMode::Alloc);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::AllocPinned);
}

TEST(HostPinning, BufferOnlyAHelperCopiesIsPinnedForTheHelpersCopies) {
  auto D = pin(R"cu(static void up(float *d, const float *h) {
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
}
void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  float *notes = (float *)malloc(64);
  up(d, h);
  notes[0] = h[0];
  free(h);
  free(notes);
})cu");
  ASSERT_EQ(D.size(), 1u); // notes: no copy uses it
  EXPECT_EQ(D[0].Name, "h");
  EXPECT_EQ(D[0].Action, PinAction::Register);
  EXPECT_NE(D[0].Why.find("all in `up`"), std::string::npos) << D[0].Why;
}

TEST(HostPinning, BufferStoredInAGlobalStaysPageable) {
  auto D = pin(R"cu(void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  g = h;
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("`g`"), std::string::npos) << D[0].Why;
}

TEST(HostPinning, BufferPassedToCodeWithoutBodyStaysPageable) {
  auto D = pin(R"cu(void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  sink(h + 4);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("`sink`"), std::string::npos) << D[0].Why;
}

TEST(HostPinning, ElementAddressHeldInALocalIsFollowedLikeTheBuffer) {
  // `&h[16]` kept in a local and copied from: traced like any holder.
  auto D = pin(R"cu(void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  float *tail = &h[16];
  cudaMemcpy(d, tail, 1 << 25, cudaMemcpyHostToDevice);
  free(h);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_NE(D[0].Action, PinAction::Pageable) << D[0].Why;
}

TEST(HostPinning, ElementAddressStoredInAGlobalStaysPageable) {
  auto D = pin(R"cu(void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  g = &h[16];
  free(h);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("`g`"), std::string::npos) << D[0].Why;
}

TEST(HostPinning, PointerPassedOnThroughACommaIsFollowed) {
  // `(0, h + 0)` has the value of `h + 0`: q holds the buffer (and takes it
  // to `sink`), so the buffer may not be pinned.
  auto D = pin(R"cu(void run(float *d) {
  float *h = (float *)malloc(1 << 26);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  float *q = (0, h + 0);
  sink(q);
  free(h);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable) << D[0].Why;
}

TEST(HostPinning, VariableThatAlsoHoldsAnotherPointerStaysPageable) {
  auto D = pin(R"cu(void run(float *d, float *other, int c) {
  float *h = (float *)malloc(1 << 26);
  if (c)
    h = other;
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
}

const char *const OwningClass = R"cu(
struct Image {
  float *px;
  explicit Image(int n) { px = (float *)malloc(n * sizeof(float)); }
  ~Image() { free(px); }
  float *data() { return px; }
  float &at(int i) { return px[i]; }
};
)cu";

TEST(HostPinning, BufferAClassAllocatesAndReleasesIsPinnedInTheClass) {
  auto D = pin(std::string(OwningClass) + R"cu(void run(float *d) {
  Image a(1 << 24), b(1 << 24);
  cudaMemcpy(d, a.data(), 1 << 26, cudaMemcpyHostToDevice);
  cudaMemcpy(&b.at(0), d, 1 << 26, cudaMemcpyDeviceToHost);
})cu");
  ASSERT_EQ(D.size(), 2u);
  for (const PinDecision &P : D) {
    EXPECT_NE(P.Action, PinAction::Pageable) << P.Why;
    EXPECT_NE(P.Why.find("`Image`'s constructor"), std::string::npos) << P.Why;
  }
}

TEST(HostPinning, ClassBufferReleasedOutsideTheClassStaysPageable) {
  auto D = pin(std::string(OwningClass) + R"cu(void run(float *d) {
  Image a(1 << 24);
  cudaMemcpy(d, a.data(), 1 << 26, cudaMemcpyHostToDevice);
  free(a.data());
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("released in `run`"), std::string::npos) << D[0].Why;
}

TEST(HostPinning, ClassBufferWhoseElementReachesCodeWithoutBodyStaysPageable) {
  // A reference returned by a member function is followed into its caller.
  auto D = pin(std::string(OwningClass) + R"cu(void run(float *d) {
  Image a(1 << 24);
  cudaMemcpy(d, a.data(), 1 << 26, cudaMemcpyHostToDevice);
  sink(&a.at(3));
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("`sink`"), std::string::npos) << D[0].Why;
}

TEST(HostPinning, ClassBufferAMemberMayPointElsewhereStaysPageable) {
  // adopt() is never called here; it still lets px hold other memory.
  auto D = pin(R"cu(
struct Frame {
  float *px;
  explicit Frame(int n) { px = (float *)malloc(n * sizeof(float)); }
  ~Frame() { free(px); }
  float *data() { return px; }
  void adopt(float *p) { px = p; }
};
void run(float *d) {
  Frame a(1 << 24);
  cudaMemcpy(d, a.data(), 1 << 26, cudaMemcpyHostToDevice);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("held by `Frame::px`"), std::string::npos) << D[0].Why;
}

TEST(HostPinning, CostModelWeighsCopiedBytesAgainstPinningCost) {
  CostModel M;
  BufferTraffic Small{256, 0, 256, 1};
  EXPECT_LT(M.pinSaving(Small, true), 0);
  BufferTraffic Big{1e9, 1e9, 0, 1};
  EXPECT_GT(M.pinSaving(Big, true), 0);
  EXPECT_GT(M.pinSaving(Big, true), M.pinSaving(Big, false));
}

TEST(HostPinning, VectorElementsAreRegisteredAfterTheLoopThatGrowsThem) {
  auto D = pin(R"cu(#include <vector>
void run(float *d) {
  std::vector<float> v;
  for (int i = 0; i < (1 << 24); i++)
    v.push_back(i);
  float *h = v.data();
  cudaMemcpy(d, h, v.size() * sizeof(float), cudaMemcpyHostToDevice);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Name, "v");
  EXPECT_EQ(D[0].Action, PinAction::Register) << D[0].Why;
  EXPECT_EQ(D[0].Line, FirstLine + 4); // the loop's end: the guard goes after it
}

TEST(HostPinning, VectorCopiedBeforeItGrowsStaysPageable) {
  auto D = pin(R"cu(#include <vector>
void run(float *d) {
  std::vector<float> v(1 << 24);
  cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice);
  v.resize(1 << 25);
  v[0] = 1;
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_EQ(D[0].Why, "its GPU copy (line 7) does not come after the last statement that may "
                      "reallocate `v` (line 8)");
}

TEST(HostPinning, VectorAHelperOnlyReadsThroughAReferenceIsRegisteredWhereDeclared) {
  auto D = pin(R"cu(#include <vector>
static void up(float *d, std::vector<float> &v) {
  cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice);
}
void run(float *d) {
  std::vector<float> v(1 << 24, 1.0f);
  up(d, v);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Register) << D[0].Why;
  EXPECT_EQ(D[0].Line, FirstLine + 5);
}

TEST(HostPinning, VectorWhoseIteratorAnAlgorithmReturnsStaysPageable) {
  auto D = pin(R"cu(#include <algorithm>
#include <vector>
void run(float *d) {
  std::vector<float> v(1 << 24, 1.0f);
  cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice);
  auto top = std::max_element(v.begin(), v.end());
  sink(&*top);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_EQ(D[0].Why, "an iterator into `v` is used in a way the pinning analysis does not "
                      "follow (line 9)");
}

TEST(HostPinning, BufferAnExternalHelperReturnsIsRegisteredWithItsBytesInTheCallersTerms) {
  auto D = pin(R"cu(float *make(size_t n) {
  size_t bytes = n * sizeof(float) + 64;
  float *p = (float *)malloc(bytes);
  return p;
}
void run(float *d) {
  int rows = 64, cols = 1 << 18;
  float *h = make(rows * cols);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Register) << D[0].Why;
  EXPECT_EQ(D[0].RegisteredBytes, "(((unsigned long)(rows * cols) * 4ul) + 64ul)");
}

TEST(HostPinning, CallocHelperRegistersTheProductOfItsArguments) {
  auto D = pin(R"cu(double *zeros(int n) { return (double *)calloc(n, sizeof(double)); }
void run(float *d) {
  int n = 1 << 23;
  double *h = zeros(n);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Register) << D[0].Why;
  EXPECT_EQ(D[0].RegisteredBytes, "(unsigned long)(int)(n) * 8ul");
}

TEST(HostPinning, StaticHelperOnlyThisFunctionCallsIsRewrittenNotRegisteredAtTheCall) {
  auto D = pin(R"cu(static float *make(size_t n) { return (float *)malloc(n * sizeof(float)); }
void run(float *d) {
  float *h = make(1 << 24);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
})cu",
               PinMode::Alloc);
  ASSERT_FALSE(D.empty());
  EXPECT_EQ(D[0].Action, PinAction::AllocPinned) << D[0].Why;
  EXPECT_EQ(D[0].RegisteredBytes, "");
}

TEST(HostPinning, HelperResultSizedByALocalOthersMayChangeStaysPageable) {
  auto D = pin(R"cu(float *make(size_t n) { return (float *)malloc(n * sizeof(float)); }
void run(float *d) {
  size_t n = 1 << 24;
  size_t *where = &n;
  float *h = make(n);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
  sink((float *)where);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("depends on `n` (line 8), which is not a local integer of `run` that "
                          "nothing else can change before the call returns"),
            std::string::npos)
      << D[0].Why;
}

TEST(HostPinning, HelperResultSizedByALocalWhoseAddressLeavesOnlyAfterTheCallIsRegistered) {
  auto D = pin(R"cu(float *make(size_t n) { return (float *)malloc(n * sizeof(float)); }
void keep(size_t &n);
void run(float *d) {
  size_t n = 1 << 24;
  float *h = make(n);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
  free(h);
  keep(n);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Register) << D[0].Why;
  EXPECT_EQ(D[0].RegisteredBytes, "(unsigned long)(n) * 4ul");
}

TEST(HostPinning, HelperResultSizedByALocalWhoseAddressLeavesInTheSameLoopStaysPageable) {
  auto D = pin(R"cu(float *make(size_t n) { return (float *)malloc(n * sizeof(float)); }
void keep(size_t &n);
void run(float *d) {
  size_t n = 1 << 24;
  for (int i = 0; i < 2; ++i) {
    float *h = make(n);
    cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
    free(h);
    keep(n);
  }
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable) << D[0].Why;
}

TEST(HostPinning, HelperThatMayReturnItsBufferShiftedStaysPageable) {
  auto D = pin(R"cu(float *make(size_t n) {
  float *p = (float *)malloc((n + 1) * sizeof(float));
  p++;
  return p;
}
void run(float *d) {
  float *h = make(1 << 24);
  cudaMemcpy(d, h, 1 << 26, cudaMemcpyHostToDevice);
})cu");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Action, PinAction::Pageable);
  EXPECT_NE(D[0].Why.find("it may return a pointer past the start of its allocation"),
            std::string::npos)
      << D[0].Why;
}

TEST(HostPinning, HelperWhoseOtherCallIsReleasedElsewhereLeavesEveryCallPageable) {
  // Each call of `make` is a buffer of one group: `b` cannot be pinned
  // through `make` while `a` is released where the rewrite cannot follow.
  auto D = pin(R"cu(static float *make(size_t n) { return (float *)malloc(n * sizeof(float)); }
static void release(float *p) { free(p); }
void run(float *d) {
  float *a = make(1 << 24);
  cudaMemcpy(a, d, 1 << 26, cudaMemcpyDeviceToHost);
  release(a);
  float *b = make(1 << 24);
  cudaMemcpy(d, b, 1 << 26, cudaMemcpyHostToDevice);
  free(b);
})cu");
  ASSERT_EQ(D.size(), 2u);
  for (const PinDecision &P : D) {
    EXPECT_EQ(P.Action, PinAction::Pageable) << P.Name;
    EXPECT_NE(P.Why.find("released in `release`"), std::string::npos) << P.Why;
  }
}

/// returnedAllocationBytes of \p Name in \p Code, each hole written `$N`.
std::string exportedBytes(const std::string &Code, llvm::StringRef Name, std::string &Why) {
  auto AST = parseCuda("#include <cstdio>\n#include <cstdlib>\nfloat *g;\n" + Code);
  ArgumentFormula F = returnedAllocationBytes(*findFunction(*AST, Name), Why);
  std::string Text;
  for (const ArgumentFormula::Piece &P : F.Pieces)
    Text += P.Arg < 0 ? P.Text : "$" + std::to_string(P.Arg);
  return Text;
}

TEST(HostPinning, HelperExportsTheBytesItReturnsAsAFormulaOverItsArguments) {
  std::string Why;
  EXPECT_EQ(exportedBytes(R"cu(float *get(const char *name, int size) {
  float *p = (float *)malloc(size * 4);
  if (!p) {
    printf("bad malloc %s\n", name);
    exit(0);
  }
  return p;
})cu",
                          "get", Why),
            "(unsigned long)((int)$1 * 4)");
  EXPECT_EQ(Why, "");
  EXPECT_EQ(exportedBytes(R"cu(double *zeros(long n, int k) {
  return (double *)calloc(n * k, sizeof(double));
})cu",
                          "zeros", Why),
            "(unsigned long)((long)$0 * (long)(int)$1) * 8ul");
  EXPECT_EQ(Why, "");
}

TEST(HostPinning, HelperThatKeepsWhatItReturnsExportsWhyNot) {
  std::string Why;
  EXPECT_EQ(
      exportedBytes("float *keep(int n) { g = (float *)malloc(n * 4); return g; }", "keep", Why),
      "");
  EXPECT_NE(Why, "");
}

} // namespace
