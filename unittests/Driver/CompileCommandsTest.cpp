//===- CompileCommandsTest.cpp - nvcc command translation -------------------===//
#include "streamalloc/Driver/CompileCommands.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace streamalloc;

TEST(CompileCommands, NvccFlagsBecomeClangFlags) {
  std::vector<std::string> In = {"/usr/local/cuda/bin/nvcc",
                                 "-forward-unknown-to-host-compiler",
                                 "-DN=4",
                                 "-I/inc",
                                 "-isystem",
                                 "/sys",
                                 "-O3",
                                 "-std=c++17",
                                 "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                                 "-arch",
                                 "sm_90",
                                 "--expt-relaxed-constexpr",
                                 "-Xcompiler",
                                 "-fPIC",
                                 "-x",
                                 "cu",
                                 "-c",
                                 "a.cu",
                                 "-o",
                                 "a.o"};
  std::vector<std::string> Expected = {"clang++", "-DN=4",      "-I/inc", "-isystem", "/sys",
                                       "-O3",     "-std=c++17", "-x",     "cuda",     "-c",
                                       "a.cu",    "-o",         "a.o"};
  EXPECT_EQ(translateNvccCommand(In), Expected);
}

TEST(CompileCommands, PerThreadDefaultStreamBecomesItsMacro) {
  std::vector<std::string> In = {"nvcc", "--default-stream", "per-thread", "a.cu"};
  std::vector<std::string> Expected = {"clang++", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", "a.cu"};
  EXPECT_EQ(translateNvccCommand(In), Expected);
}

TEST(CompileCommands, NvccLongOptionsWithSeparateValues) {
  std::vector<std::string> In = {"nvcc", "--include-path", "/x",    "--define-macro",
                                 "A=1",  "-std",           "c++20", "a.cu"};
  std::vector<std::string> Expected = {"clang++", "-I", "/x", "-D", "A=1", "-std=c++20", "a.cu"};
  EXPECT_EQ(translateNvccCommand(In), Expected);
}

TEST(CompileCommands, NvccOnlyOptionsWithSeparateValuesDropTheValueToo) {
  std::vector<std::string> In = {
      "nvcc",     "-cudart",       "shared",       "--keep-dir", "tmp",
      "-Xfatbin", "-compress-all", "--diag-error", "20012",      "--dependency-output",
      "a.d",      "-save-temps",   "a.cu"};
  std::vector<std::string> Expected = {"clang++", "a.cu"};
  EXPECT_EQ(translateNvccCommand(In), Expected);
}

TEST(CompileCommands, HostCompilerOpenMpIsKept) {
  std::vector<std::string> In = {
      "nvcc",  "-Xcompiler", "-fopenmp", "-Xcompiler=-O2,-fopenmp", "--compiler-options",
      "-Wall", "a.cu"};
  std::vector<std::string> Expected = {"clang++", "-fopenmp", "-fopenmp", "a.cu"};
  EXPECT_EQ(translateNvccCommand(In), Expected);
}

TEST(CompileCommands, DialectArgumentsIncludeCcclWhenItExists) {
  std::vector<std::string> Args = nvccDialectArguments("/definitely/not/cuda");
  EXPECT_EQ(std::count(Args.begin(), Args.end(), "-isystem"), 0);
  EXPECT_EQ(std::count(Args.begin(), Args.end(), "-Wno-register"), 1);
  EXPECT_EQ(std::count(Args.begin(), Args.end(), "-include"), 1);
}

TEST(CompileCommands, OtherCompilersAreLeftAlone) {
  std::vector<std::string> In = {"/usr/bin/clang++", "-arch", "x86_64", "a.cu"};
  EXPECT_EQ(translateNvccCommand(In), In);
}

TEST(CompileCommands, MissingCudaInstallationSaysWhereItLooked) {
  llvm::Expected<std::string> Path = findCudaInstallation("/definitely/not/cuda");
  ASSERT_FALSE(static_cast<bool>(Path));
  std::string Message = llvm::toString(Path.takeError());
  EXPECT_NE(Message.find("/definitely/not/cuda"), std::string::npos);
  EXPECT_NE(Message.find("--cuda-path"), std::string::npos);
}
