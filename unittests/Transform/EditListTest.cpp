//===- EditListTest.cpp ---------------------------------------------------===//
#include "streamalloc/Transform/EditList.h"

#include "gtest/gtest.h"

using namespace streamalloc;

TEST(EditList, AppliesReplacementsAndInsertionsInOnePass) {
  EditList E;
  E.replace(0, 10, "cudaMemcpyAsync");
  E.insert(15, ", s");
  std::string Out, Error;
  ASSERT_TRUE(E.apply("cudaMemcpy(a, b)", Out, Error)) << Error;
  EXPECT_EQ(Out, "cudaMemcpyAsync(a, b, s)");
}

TEST(EditList, InsertionsAtOneOffsetKeepTheirOrder) {
  EditList E;
  E.insert(2, "1");
  E.insert(2, "2");
  E.insert(2, "3");
  std::string Out, Error;
  ASSERT_TRUE(E.apply("ab", Out, Error));
  EXPECT_EQ(Out, "ab123");
}

TEST(EditList, OverlappingReplacementsAreRefused) {
  EditList E;
  E.replace(0, 4, "x");
  E.replace(2, 4, "y");
  std::string Out, Error;
  EXPECT_FALSE(E.apply("abcdefgh", Out, Error));
  EXPECT_NE(Error.find("overlapping"), std::string::npos);
}

TEST(EditList, EditsOutsideTheTextAreRefused) {
  EditList E;
  E.insert(10, "x");
  std::string Out, Error;
  EXPECT_FALSE(E.apply("short", Out, Error));
}

TEST(EditList, NoEditsLeaveTheTextByteForByte) {
  std::string Text = "line 1\r\nline 2\n\tno newline at end";
  std::string Out, Error;
  ASSERT_TRUE(EditList().apply(Text, Out, Error));
  EXPECT_EQ(Out, Text);
}

TEST(EditList, FirstOutsideFindsAnEditBeyondTheText) {
  EditList E;
  E.insert(4, "a");     // inside [4, 10)
  E.replace(6, 4, "b"); // ends at 10: inside
  EXPECT_EQ(E.firstOutside(4, 10), nullptr);
  E.insert(10, "c"); // after the text
  ASSERT_NE(E.firstOutside(4, 10), nullptr);
  EXPECT_EQ(E.firstOutside(4, 10)->Text, "c");
  EXPECT_EQ(E.firstOutside(0, 20), nullptr);
  EXPECT_EQ(E.firstOutside(5, 20)->Text, "a");
}

TEST(EditList, FirstDifferenceIsWhereTwoListsEditDifferently) {
  EditList A, B;
  A.insert(3, "x");
  A.replace(8, 2, "y");
  B.replace(8, 2, "y"); // same edits, added in another order
  B.insert(3, "x");
  EXPECT_EQ(A.firstDifference(B), std::nullopt);
  B.insert(12, "z");
  EXPECT_EQ(A.firstDifference(B), 12u);
  A.insert(5, "w");
  EXPECT_EQ(A.firstDifference(B), 5u);
}

TEST(EditList, FilteredKeepsTheAcceptedEditsInTheirOrder) {
  EditList E;
  E.insert(10, "c");
  E.insert(2, "a");
  E.replace(5, 3, "b");
  EditList Inside = E.filtered([](const Edit &X) { return X.inside(0, 10); });
  ASSERT_EQ(Inside.size(), 2u);
  EXPECT_EQ(Inside.all()[0].Text, "a");
  EXPECT_EQ(Inside.all()[1].Text, "b");
}

TEST(EditList, RemoveAddedSinceLeavesEarlierEditsAlone) {
  EditList E;
  E.insert(1, "early, outside");
  unsigned Mark = E.size();
  E.insert(4, "kept");
  E.insert(40, "dropped");
  E.removeAddedSince(Mark, [](const Edit &X) { return X.inside(0, 10); });
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(E.all()[0].Text, "early, outside");
  EXPECT_EQ(E.all()[1].Text, "kept");
}

TEST(EditList, FirstDifferenceIgnoringNotesComparesTheCodeOnly) {
  EditList A, B;
  A.insert(3, "  wait(0);  // streamalloc: x is read below (written on line 12)\n");
  B.insert(3, "  wait(0);  // streamalloc: x is read below (written on line 15)\n");
  A.insert(9, " f(); /* streamalloc: one */");
  B.insert(9, " f(); /* streamalloc: two */");
  EXPECT_EQ(A.firstDifference(B), 3u);
  EXPECT_EQ(A.firstDifference(B, /*IgnoringNotes=*/true), std::nullopt);
  B.insert(20, "  wait(1);  // streamalloc: y\n");
  A.insert(20, "  wait(2);  // streamalloc: y\n");
  EXPECT_EQ(A.firstDifference(B, /*IgnoringNotes=*/true), 20u);
}
