//===- LineMarkersTest.cpp ------------------------------------------------===//
#include "streamalloc/Nvcc/LineMarkers.h"

#include "gtest/gtest.h"

using namespace streamalloc::nvcc;

TEST(LineMarkers, TheFileIsNamedFromItsFirstLine) {
  EXPECT_EQ(withLineMarkers("a\nb\n", "a\nb\n", "src/x.cu"), "#line 1 \"src/x.cu\"\na\nb\n");
}

TEST(LineMarkers, InsertedLinesAreFollowedByTheNextOriginalNumber) {
  std::string Original = "int a;\nint b;\nint c;\n";
  std::string Transformed = "int a;\nwait(); // inserted\nint b;\nint c;\n";
  EXPECT_EQ(withLineMarkers(Original, Transformed, "x.cu"),
            "#line 1 \"x.cu\"\nint a;\nwait(); // inserted\n#line 2 \"x.cu\"\nint b;\nint c;\n");
}

TEST(LineMarkers, EditedLinesKeepTheNumbering) {
  std::string Original = "a\ncopy(x);\nb\nc\n";
  std::string Transformed = "a\ncopy_async(x, s);\nb\nc\n";
  EXPECT_EQ(withLineMarkers(Original, Transformed, "x.cu"), "#line 1 \"x.cu\"\n" + Transformed);
}

TEST(LineMarkers, RemovedLinesAreFollowedByTheNextOriginalNumber) {
  std::string Original = "a\nb\nsync(\n  );\nc\nd\n";
  std::string Transformed = "a\nb\n// removed\nc\nd\n";
  EXPECT_EQ(withLineMarkers(Original, Transformed, "x.cu"),
            "#line 1 \"x.cu\"\na\nb\n// removed\n#line 5 \"x.cu\"\nc\nd\n");
}

TEST(LineMarkers, MarkersWaitForAMacroToEndAndStayOutOfFilesWithRawStrings) {
  std::string Original = "#define M(x) \\\n  x\nint a;\n";
  // A line inserted into a macro: the marker waits for the macro's end.
  std::string Inserted = "#define M(x) \\\n  extra \\\n  x\nint a;\n";
  EXPECT_EQ(withLineMarkers(Original, Inserted, "x.cu"),
            "#line 1 \"x.cu\"\n#define M(x) \\\n  extra \\\n  x\n#line 3 \"x.cu\"\nint a;\n");
  std::string Raw = "auto s = R\"(a)\";\nnew();\nint a;\n";
  EXPECT_EQ(withLineMarkers("auto s = R\"(a)\";\nint a;\n", Raw, "x.cu"),
            "#line 1 \"x.cu\"\n" + Raw);
}

TEST(LineMarkers, QuotesAndBackslashesInTheNameAreEscaped) {
  EXPECT_EQ(withLineMarkers("a\n", "a\n", "we\"ird\\x.cu"), "#line 1 \"we\\\"ird\\\\x.cu\"\na\n");
}
