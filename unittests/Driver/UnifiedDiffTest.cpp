//===- UnifiedDiffTest.cpp ------------------------------------------------===//
#include "streamalloc/Driver/UnifiedDiff.h"

#include "gtest/gtest.h"

using namespace streamalloc;

TEST(UnifiedDiff, EqualTextsGiveNoDiff) {
  EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "x", "y"), "");
}

TEST(UnifiedDiff, OneChangedLineWithContext) {
  std::string D = unifiedDiff("1\n2\n3\n4\n5\n", "1\n2\nthree\n4\n5\n", "a/f", "b/f", 1);
  EXPECT_EQ(D, "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n");
}

TEST(UnifiedDiff, DistantChangesMakeSeparateHunks) {
  std::string Before, After;
  for (int I = 1; I <= 20; ++I) {
    Before += std::to_string(I) + "\n";
    After += (I == 2 || I == 18 ? "x" : std::to_string(I)) + "\n";
  }
  std::string D = unifiedDiff(Before, After, "a", "b", 1);
  EXPECT_EQ(
      D, "--- a\n+++ b\n@@ -1,3 +1,3 @@\n 1\n-2\n+x\n 3\n@@ -17,3 +17,3 @@\n 17\n-18\n+x\n 19\n");
}

TEST(UnifiedDiff, InsertionOnly) {
  std::string D = unifiedDiff("a\nb\n", "a\nnew\nb\n", "x", "y");
  EXPECT_EQ(D, "--- x\n+++ y\n@@ -1,2 +1,3 @@\n a\n+new\n b\n");
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  std::string D = unifiedDiff("a", "b", "x", "y");
  EXPECT_EQ(D, "--- x\n+++ y\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline "
               "at end of file\n");
}
