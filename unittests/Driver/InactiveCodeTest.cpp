//===- InactiveCodeTest.cpp -----------------------------------------------===//
#include "streamalloc/Driver/InactiveCode.h"

#include "gtest/gtest.h"

#include <string>

using namespace streamalloc;

namespace {
/// The groups of the whole of \p Text, as "line:code|none" items.
std::string groupsOf(const std::string &Text) {
  std::string Out;
  for (const InactiveGroup &G : inactiveGroups(Text, 0, Text.size()))
    Out += (Out.empty() ? "" : " ") + std::to_string(G.Line) + (G.HasCode ? ":code" : ":none");
  return Out;
}
} // namespace

TEST(InactiveCode, GroupWithAStatementHoldsCode) {
  EXPECT_EQ(groupsOf("#ifdef DEBUG\n  printf(\"%d\", h[0]);\n#endif\n"), "2:code");
}

TEST(InactiveCode, DirectivesAndCommentsAreNoCode) {
  EXPECT_EQ(groupsOf("#ifdef DEBUG\n#define LOG 1\n// note\n/* a\n   b */\n#undef X\n#endif\n"),
            "2:none");
}

TEST(InactiveCode, IncludeAndPragmaBringCode) {
  EXPECT_EQ(groupsOf("#ifdef A\n#include \"body.inc\"\n#endif\n"), "2:code");
  EXPECT_EQ(groupsOf("#ifdef A\n#pragma omp parallel for\n#endif\n"), "2:code");
}

TEST(InactiveCode, EachAlternativeOfASkippedChainIsAGroup) {
  // Skipped from the #elif after a taken #if: the #elif and #else groups
  // are compiled in different configurations.
  EXPECT_EQ(groupsOf("#elif defined(B)\n  f();\n#else\n#define C\n#endif\n"), "2:code 4:none");
}

TEST(InactiveCode, NestedChainsStayInTheirGroup) {
  EXPECT_EQ(groupsOf("#ifdef A\n#ifdef B\n  f();\n#else\n  g();\n#endif\n#else\n#endif\n"),
            "2:code 8:none");
}

TEST(InactiveCode, IfZeroIsNeverCompiled) {
  EXPECT_EQ(groupsOf("#if 0\n  f();\n#elif X\n  g();\n#endif\n"), "2:none 4:code");
}

TEST(InactiveCode, GroupStartsAfterCommentOpenedOnTheDirectiveLine) {
  EXPECT_EQ(groupsOf("#ifdef A /* long\n   comment */\n  f();\n#endif\n"), "3:code");
}

TEST(InactiveCode, DirectiveWordsInLiteralsAndContinuationsAreNotDirectives) {
  EXPECT_EQ(groupsOf("#ifdef A\n  puts(\"#endif\");\n#define M(x) \\\n  x\n#endif\n"), "2:code");
  EXPECT_EQ(groupsOf("#ifdef A\n#define M(x) \\\n  f(x)\n#endif\n"), "2:none");
}

TEST(InactiveCode, SkippedTextEndingAtTheActiveElseStopsThere) {
  std::string Text = "#ifdef A\n  f();\n#else\n  g();\n#endif\n";
  auto Groups = inactiveGroups(Text, 0, Text.find("#else") + 5);
  ASSERT_EQ(Groups.size(), 1u);
  EXPECT_TRUE(Groups[0].HasCode);
}
