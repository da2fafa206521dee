//===- ProjectFilesTest.cpp -----------------------------------------------===//
#include "streamalloc/Driver/ProjectFiles.h"

#include "gtest/gtest.h"

using namespace streamalloc;

// Paths that do not exist are compared as written (absolute, dots removed).

TEST(ProjectFiles, FilesBesideAndBelowTheMainFileAreTheProjects) {
  ProjectFiles P("/p/src/main.cu", {}, "/p/build", "/usr/local/cuda");
  EXPECT_TRUE(P.contains("/p/src/kernels.cuh"));
  EXPECT_TRUE(P.contains("/p/src/detail/copy.cu"));
  EXPECT_TRUE(P.contains("/p/src/./detail/../util.h"));
  EXPECT_FALSE(P.contains("/p/include/util.h"));
  EXPECT_FALSE(P.contains("/p/srcx/other.h")); // a prefix of the name is no folder
}

TEST(ProjectFiles, IncludeFolderUnderTheBuildsFolderIsTheProjects) {
  // -I../include from the compile command's folder /p/src: /p/include is not
  // under it, nor under the main file's folder.
  ProjectFiles Outside("/p/src/main.cu", {"../include"}, "/p/src", "/usr/local/cuda");
  EXPECT_FALSE(Outside.contains("/p/include/util.h"));
  // Compiled from the project's top folder (compile_commands.json there).
  ProjectFiles Inside("src/main.cu", {"include"}, "/p", "/usr/local/cuda");
  EXPECT_TRUE(Inside.contains("/p/include/util.h"));
  EXPECT_TRUE(Inside.contains("/p/src/kernels.cuh"));
  ASSERT_EQ(Inside.roots().size(), 2u);
  EXPECT_EQ(Inside.roots()[0], "/p/src");
  EXPECT_EQ(Inside.roots()[1], "/p/include");
}

TEST(ProjectFiles, IncludeFolderElsewhereIsNot) {
  ProjectFiles P("/p/src/main.cu", {"/opt/lib/include"}, "/p", "/usr/local/cuda");
  EXPECT_FALSE(P.contains("/opt/lib/include/lib.h"));
}

TEST(ProjectFiles, CudaInstallationIsNeverTheProjects) {
  // A toolkit unpacked inside the project is still the toolkit.
  ProjectFiles P("/p/main.cu", {"/p/cuda/include"}, "/p", "/p/cuda");
  EXPECT_FALSE(P.contains("/p/cuda/include/cuda_runtime.h"));
  EXPECT_TRUE(P.contains("/p/helpers.cuh"));
}

TEST(IsUnderFolder, ComparesWholeFolderNames) {
  EXPECT_TRUE(isUnderFolder("/a/b/c.h", "/a/b"));
  EXPECT_TRUE(isUnderFolder("/a/b", "/a/b"));
  EXPECT_FALSE(isUnderFolder("/a/bc/d.h", "/a/b"));
  EXPECT_TRUE(isUnderFolder("/a/b.h", "/"));
  EXPECT_FALSE(isUnderFolder("/a/b.h", ""));
}
