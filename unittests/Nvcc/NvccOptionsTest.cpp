//===- NvccOptionsTest.cpp - the nvcc option table ------------------------===//
#include "streamalloc/Nvcc/NvccOptions.h"

#include "gtest/gtest.h"

using namespace streamalloc::nvcc;

TEST(NvccOptions, EverySpellingOfAnOptionNamesOneRow) {
  const NvccOption *Short = findOption("-gencode"), *Long = findOption("--generate-code");
  ASSERT_NE(Short, nullptr);
  EXPECT_EQ(Short, Long);
  EXPECT_TRUE(Short->TakesValue);
  EXPECT_FALSE(Short->KeptForClang);
  EXPECT_EQ(findOption("--gencode"), nullptr);
}

TEST(NvccOptions, DroppedForClangCoversValueFormsAndFamilies) {
  EXPECT_TRUE(droppedForClang("-arch=sm_90"));
  EXPECT_TRUE(droppedForClang("--expt-relaxed-constexpr"));
  EXPECT_TRUE(droppedForClang("-lineinfo"));
  EXPECT_FALSE(droppedForClang("-I/inc"));
  EXPECT_FALSE(droppedForClang("-std=c++17"));
  EXPECT_FALSE(droppedForClang("-O3"));
  EXPECT_FALSE(droppedForClang("-fno-exceptions")); // not an nvcc option: Clang gets it
}
