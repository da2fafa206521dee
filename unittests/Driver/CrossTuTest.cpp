//===- CrossTuTest.cpp - The summary cache's file format -------------------===//
#include "streamalloc/Driver/CrossTu.h"

#include "gtest/gtest.h"

using namespace streamalloc;

namespace {

TEST(SummaryCache, WrittenTextReadsBack) {
  CachedSummaries C;
  C.Key = "abc";
  C.Files = {{"/src/verify.cu", "0123"}, {"/src/util.h", "4567"}};
  PortableSummary P;
  P.Usr = "c:@F@verify#*1f#I#";
  P.Name = "verify";
  P.Signature = "_Bool (const float *, int)";
  P.Source = "src/verify.cu";
  P.Line = 3;
  P.PlainParams = {0};
  PortableRef Param;
  Param.Kind = SummaryRef::Path;
  P.Accesses.push_back({Param, ReadAccess, NoAccess});
  P.WritesOutput = true;
  C.Exports.push_back(P);
  CachedSummaries Read;
  std::string Why;
  ASSERT_TRUE(readCache(cacheText(C), Read, Why)) << Why;
  EXPECT_EQ(Read.Key, "abc");
  EXPECT_EQ(Read.Files, C.Files);
  ASSERT_EQ(Read.Exports.size(), 1u);
  EXPECT_EQ(Read.Exports[0].Usr, P.Usr);
  EXPECT_EQ(Read.Exports[0].PlainParams, P.PlainParams);
  EXPECT_EQ(Read.Exports[0].Accesses, P.Accesses);
  EXPECT_TRUE(Read.Exports[0].WritesOutput);
}

TEST(SummaryCache, CorruptOrForeignTextIsRejected) {
  CachedSummaries C;
  std::string Why;
  EXPECT_FALSE(readCache("{\"format\": \"streamalloc-summaries-2\", \"key\": ", C, Why));
  EXPECT_EQ(Why.rfind("not JSON", 0), 0u) << Why;
  EXPECT_FALSE(readCache("{\"format\": \"other\"}", C, Why));
  EXPECT_EQ(Why, "not a summary cache of this tool");
  // The format before summaries carried the bytes a function returns.
  EXPECT_FALSE(readCache("{\"format\": \"streamalloc-summaries-1\"}", C, Why));
  EXPECT_EQ(Why, "not a summary cache of this tool");
  EXPECT_FALSE(readCache("{\"format\": \"streamalloc-summaries-2\", \"key\": \"k\", \"files\": [], "
                         "\"functions\": [{\"usr\": 1}]}",
                         C, Why));
  EXPECT_EQ(Why, "a malformed summary");
}

} // namespace
