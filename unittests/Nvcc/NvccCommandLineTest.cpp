//===- NvccCommandLineTest.cpp --------------------------------------------===//
#include "streamalloc/Nvcc/NvccCommandLine.h"

#include "gtest/gtest.h"

using namespace streamalloc::nvcc;

namespace {
using Args = std::vector<std::string>;
}

TEST(NvccCommandLine, CMakeCompileIsACompileOfOneCudaSource) {
  Args A = {"-forward-unknown-to-host-compiler",
            "-I/src/include",
            "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
            "-std=c++17",
            "-MD",
            "-MT",
            "obj/main.cu.o",
            "-MF",
            "obj/main.cu.o.d",
            "-x",
            "cu",
            "-c",
            "/src/main.cu",
            "-o",
            "obj/main.cu.o"};
  NvccCommand C = parseNvccCommand(A);
  EXPECT_TRUE(C.Compiles);
  EXPECT_TRUE(C.CompileOnly);
  EXPECT_EQ(C.CudaInputs, std::vector<size_t>{12});
  EXPECT_TRUE(C.OtherInputs.empty());
  EXPECT_EQ(C.Output, "obj/main.cu.o");
  EXPECT_TRUE(C.WritesDepFile);
  EXPECT_EQ(C.DepFile, "obj/main.cu.o.d");
}

TEST(NvccCommandLine, ParseFlagsLeaveOutInputsOutputsAndDepfileOptions) {
  Args A = {"-I",  "inc", "-DX=1", "-MD", "-MT", "t.o",        "-MF",
            "t.d", "-c",  "a.cu",  "-o",  "t.o", "-Xcompiler", "-fopenmp"};
  Args Expected = {"-I", "inc", "-DX=1", "-c", "-Xcompiler", "-fopenmp"};
  EXPECT_EQ(parseFlags(parseNvccCommand(A)), Expected);
}

TEST(NvccCommandLine, ValuesOfOptionsAreNotInputs) {
  // `-o x.cu` names the output and `-include h.cu` a header, not sources.
  NvccCommand C = parseNvccCommand(Args{"-include", "pre.cu", "-c", "a.cu", "-o", "x.cu"});
  EXPECT_EQ(C.CudaInputs, std::vector<size_t>{3});
  C = parseNvccCommand(Args{"--output-file=x.cu", "-c", "a.cu"});
  EXPECT_EQ(C.CudaInputs, std::vector<size_t>{2});
  EXPECT_EQ(C.Output, "x.cu");
}

TEST(NvccCommandLine, CompileAndLinkCompilesAndKeepsOtherInputs) {
  NvccCommand C = parseNvccCommand(Args{"a.cu", "b.o", "-lcublas", "-o", "app"});
  EXPECT_TRUE(C.Compiles);
  EXPECT_FALSE(C.CompileOnly);
  EXPECT_EQ(C.CudaInputs, std::vector<size_t>{0});
  EXPECT_EQ(C.OtherInputs, std::vector<size_t>{1});
}

TEST(NvccCommandLine, OtherPhasesAreNotCompiles) {
  for (const char *Phase : {"-E", "-M", "-MM", "-ptx", "-cubin", "-fatbin", "-lib", "-dlink",
                            "-run", "--version", "--help", "-dryrun"})
    EXPECT_FALSE(parseNvccCommand(Args{Phase, "a.cu"}).Compiles) << Phase;
  EXPECT_TRUE(parseNvccCommand(Args{"-dc", "a.cu"}).CompileOnly);
}

TEST(NvccCommandLine, LanguageOptionDecidesWhatIsCuda) {
  EXPECT_TRUE(parseNvccCommand(Args{"-x", "c++", "-c", "a.cu"}).CudaInputs.empty());
  EXPECT_EQ(parseNvccCommand(Args{"-x", "cu", "-c", "a.cpp"}).CudaInputs, std::vector<size_t>{3});
  EXPECT_TRUE(parseNvccCommand(Args{"-c", "a.cpp"}).CudaInputs.empty());
}
