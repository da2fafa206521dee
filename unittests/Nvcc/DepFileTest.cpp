//===- DepFileTest.cpp ----------------------------------------------------===//
#include "streamalloc/Nvcc/DepFile.h"

#include "gtest/gtest.h"

using namespace streamalloc::nvcc;

TEST(DepFile, EscapesLikeMake) { EXPECT_EQ(escapeForMake("a b#$c"), "a\\ b\\#$$c"); }

TEST(DepFile, TemporaryBecomesTheSourceInTargetAndPrerequisites) {
  std::string Text = ".x.streamalloc-ab12cd.o : src/.x.streamalloc-ab12cd.cu \\\n  src/x.h\n";
  EXPECT_EQ(renameInDepFile(Text, ".x.streamalloc-ab12cd", "x"), "x.o : src/x.cu \\\n  src/x.h\n");
}

TEST(DepFile, EscapedNamesAreRenamedToo) {
  std::string Text = "o : my\\ dir/.a\\ b.streamalloc-000000.cu\n";
  EXPECT_EQ(renameInDepFile(Text, ".a b.streamalloc-000000", "a b"), "o : my\\ dir/a\\ b.cu\n");
}
