//===- SummaryExchangeTest.cpp - Summaries exported to another unit --------===//
#include "streamalloc/Access/SummaryExchange.h"
#include "streamalloc/Access/ImportedSummaries.h"

#include "Support/ParseCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace streamalloc;
using namespace streamalloc::test;

namespace {

/// The first declaration of \p Name in \p AST (with or without a body).
const clang::FunctionDecl *declarationOf(clang::ASTUnit &AST, llvm::StringRef Name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    const clang::FunctionDecl *Found = nullptr;
    bool VisitFunctionDecl(clang::FunctionDecl *F) {
      if (!Found && F->getIdentifier() && F->getName() == Name)
        Found = F;
      return true;
    }
  } F;
  F.Name = Name;
  F.TraverseDecl(AST.getASTContext().getTranslationUnitDecl());
  return F.Found;
}

std::string printed(const FunctionSummary &S, const clang::FunctionDecl &F) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  S.print(OS, F);
  return Out;
}

/// Summarises \p Function in \p Definer, exports it through JSON text and
/// imports it into \p Caller (which declares the function).
struct RoundTrip {
  std::unique_ptr<clang::ASTUnit> Def, Use;
  FunctionSummaries Summaries;
  const clang::FunctionDecl *Defined = nullptr, *Declared = nullptr;
  PortableSummary Exported, Read;
  std::string Original, Imported;

  RoundTrip(const std::string &Definer, const std::string &Caller, llvm::StringRef Function) {
    Def = parseCuda(Definer);
    Use = parseCuda(Caller);
    Defined = findFunction(*Def, Function);
    Declared = declarationOf(*Use, Function);
    if (!Defined || !Declared)
      return;
    const FunctionSummary &S = Summaries.get(Defined);
    Original = printed(S, *Defined);
    Exported = exportSummary(*Defined, S);
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    OS << toJSON(Exported);
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
    llvm::json::Path::Root Root;
    if (!V || !fromJSON(*V, Read, Root))
      return;
    DeclIndex Index(Use->getASTContext());
    Imported = printed(importSummary(Read, Index), *Declared);
  }
};

TEST(SummaryExchange, PathsThroughFieldsResolveByUsr) {
  const char *Types = R"cu(
struct Grid { float *cells; int n; };
)cu";
  RoundTrip T(std::string(Types) + R"cu(
void smooth(Grid g, Grid *out) {
  for (int i = 0; i < g.n; ++i)
    out->cells[i] = g.cells[i];
}
)cu",
              std::string(Types) + "void smooth(Grid g, Grid *out);\n", "smooth");
  ASSERT_NE(T.Declared, nullptr);
  EXPECT_EQ(T.Read.Usr, T.Exported.Usr);
  EXPECT_NE(T.Original.find("*g.cells"), std::string::npos) << T.Original;
  EXPECT_NE(T.Original.find("*out->cells"), std::string::npos) << T.Original;
  EXPECT_EQ(T.Imported, T.Original);
}

TEST(SummaryExchange, GlobalsResolveByUsr) {
  RoundTrip T(R"cu(
float table[64];
void reset() { for (int i = 0; i < 64; ++i) table[i] = 0; }
)cu",
              "extern float table[64];\nvoid reset();\n", "reset");
  ASSERT_NE(T.Declared, nullptr);
  EXPECT_EQ(T.Original, "  host writes: table\n");
  EXPECT_EQ(T.Imported, T.Original);
}

TEST(SummaryExchange, FreshObjectsAndUnknownStayAsTheyAre) {
  RoundTrip T(R"cu(
#include <cstdlib>
void opaque(float *p);
float *make(float *p) { opaque(p); return (float *)malloc(64); }
)cu",
              "float *make(float *p);\n", "make");
  ASSERT_NE(T.Declared, nullptr);
  EXPECT_NE(T.Original.find("returns: new"), std::string::npos) << T.Original;
  EXPECT_NE(T.Original.find("unknown: host RW"), std::string::npos) << T.Original;
  EXPECT_EQ(T.Imported, T.Original);
}

TEST(SummaryExchange, ClockReadAfterADeviceSyncStaysSo) {
  RoundTrip T(R"cu(
#include <chrono>
double timed() {
  cudaDeviceSynchronize();
  auto t = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}
)cu",
              "double timed();\n", "timed");
  ASSERT_NE(T.Declared, nullptr);
  EXPECT_NE(T.Original.find("reads a timer after a device sync"), std::string::npos) << T.Original;
  EXPECT_EQ(T.Imported, T.Original);
}

TEST(SummaryExchange, ContainerElementsResolveByTheirClass) {
  RoundTrip T(R"cu(
#include <vector>
void zero(std::vector<float> &v) { for (float &x : v) x = 0; }
)cu",
              "#include <vector>\nvoid zero(std::vector<float> &v);\n", "zero");
  ASSERT_NE(T.Declared, nullptr);
  EXPECT_NE(T.Original.find("v.data()"), std::string::npos) << T.Original;
  EXPECT_EQ(T.Imported, T.Original);
}

TEST(SummaryExchange, FieldTheCallerCannotSeeBecomesUnknown) {
  RoundTrip T(R"cu(
struct Hidden { float *data; };
float peek(Hidden *h) { return h->data[0]; }
)cu",
              "struct Hidden;\nfloat peek(Hidden *h);\n", "peek");
  ASSERT_NE(T.Declared, nullptr);
  EXPECT_NE(T.Original.find("host reads: *h, *h->data"), std::string::npos) << T.Original;
  // *h still resolves; *h->data does not, so the read is of Unknown.
  EXPECT_NE(T.Imported.find("host reads: *h\n"), std::string::npos) << T.Imported;
  EXPECT_NE(T.Imported.find("unknown: host R ("), std::string::npos) << T.Imported;
}

TEST(SummaryExchange, GlobalTheCallerCannotSeeBecomesUnknown) {
  RoundTrip T(R"cu(
static float hidden[8];
void bump() { hidden[0] += 1; }
)cu",
              "void bump();\n", "bump");
  ASSERT_NE(T.Declared, nullptr);
  EXPECT_EQ(T.Original, "  host reads: hidden\n  host writes: hidden\n");
  EXPECT_NE(T.Imported.find("unknown: host RW ("), std::string::npos) << T.Imported;
  EXPECT_EQ(T.Imported.find("hidden"), std::string::npos) << T.Imported;
}

TEST(SummaryExchange, OnlyExternalNonInlineHostFunctionsAreExported) {
  auto AST = parseCuda(R"cu(
void external(float *p) { p[0] = 1; }
static void internal(float *p) { p[0] = 1; }
namespace { void anonymous(float *p) { p[0] = 1; } }
inline void inlined(float *p) { p[0] = 1; }
__global__ void kernel(float *p) { p[0] = 1; }
)cu");
  EXPECT_TRUE(isExportable(*findFunction(*AST, "external")));
  EXPECT_FALSE(isExportable(*findFunction(*AST, "internal")));
  EXPECT_FALSE(isExportable(*findFunction(*AST, "anonymous")));
  EXPECT_FALSE(isExportable(*findFunction(*AST, "inlined")));
  EXPECT_FALSE(isExportable(*findFunction(*AST, "kernel")));
}

TEST(SummaryExchange, ReturnedBytesKeepTheirArgumentHoles) {
  PortableSummary P;
  P.Usr = "c:@F@make#I#";
  P.ReturnedBytes = ArgumentFormula::text("(int)");
  P.ReturnedBytes += ArgumentFormula::argument(1);
  P.ReturnedBytes += " * 4";
  P.ReturnedBytesWhy = "";
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << toJSON(P);
  EXPECT_NE(Text.find(R"j("returnedBytes":["(int)",1," * 4"])j"), std::string::npos) << Text;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  ASSERT_TRUE(bool(V));
  PortableSummary Read;
  llvm::json::Path::Root Root;
  ASSERT_TRUE(fromJSON(*V, Read, Root));
  EXPECT_EQ(Read.ReturnedBytes, P.ReturnedBytes);
  // A negative hole is malformed.
  (*V->getAsObject())["returnedBytes"] = llvm::json::Array{"(int)", -1};
  PortableSummary Bad;
  EXPECT_FALSE(fromJSON(*V, Bad, Root));
}

TEST(SummaryExchange, MalformedJsonIsRejected) {
  PortableSummary P;
  llvm::json::Path::Root Root;
  EXPECT_FALSE(fromJSON(llvm::json::Object{{"usr", "c:@F@f"}}, P, Root));
  EXPECT_FALSE(fromJSON(llvm::json::Value(3), P, Root));
}

TEST(SummaryImports, TwoDefinitionsOfOneFunctionAreAConflict) {
  PortableSummary P;
  P.Usr = "c:@F@verify#*1f#";
  P.Source = "a.cu";
  SummaryImports Imports;
  Imports.add("/src/a.cu", {P});
  ASSERT_NE(Imports.find(P.Usr), nullptr);
  EXPECT_TRUE(Imports.find(P.Usr)->OtherSource.empty());
  Imports.add("/src/a.cu", {P}); // the same unit again: no conflict
  EXPECT_TRUE(Imports.find(P.Usr)->OtherSource.empty());
  P.Source = "b.cu";
  Imports.add("/src/b.cu", {P});
  EXPECT_EQ(Imports.find(P.Usr)->OtherSource, "b.cu");
}

} // namespace
