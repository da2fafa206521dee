# lit configuration for StreamAlloc's golden tests.
import os

import lit.formats

config.name = "StreamAlloc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "tools", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.streamalloc_obj_root, "test")
# The tool, like clang-tidy, takes flags from a compile_commands.json above its
# input; the build tree's own (the tool's C++ flags: -DNDEBUG, -Werror, ...)
# must not reach the test inputs, so the outputs folder has an empty one, and
# a file it has no command for is parsed with no extra flags.
os.makedirs(config.test_exec_root, exist_ok=True)
with open(os.path.join(config.test_exec_root, "compile_commands.json"), "w") as f:
    f.write("[]\n")

llvm_bin = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join(
    [config.streamalloc_bin_dir, llvm_bin, config.environment.get("PATH", os.environ["PATH"])]
)
for var in ("CUDA_PATH", "STREAMALLOC_RESOURCE_DIR"):
    config.environment.pop(var, None)

strip = os.path.join(config.test_source_root, "tools", "strip-checks.py")
config.substitutions.append(("%strip", f"{config.python_executable} {strip}"))
# Longest first: %streamalloc is a prefix of %streamalloc-nvcc.
config.substitutions.append(
    ("%streamalloc-nvcc", os.path.join(config.streamalloc_bin_dir, "streamalloc-nvcc"))
)
config.substitutions.append(("%streamalloc", os.path.join(config.streamalloc_bin_dir, "streamalloc")))
config.substitutions.append(("%FileCheck", os.path.join(llvm_bin, "FileCheck") + " --match-full-lines"))
config.substitutions.append(("%not", os.path.join(llvm_bin, "not")))
# Every transformed output must still compile with nvcc.
config.substitutions.append(
    ("%nvcc", f"{config.nvcc} -arch=sm_90 -std=c++17 -c -o /dev/null -x cu")
)
# Builds an output for the CPU emulation of CUDA (fuzz/emu) under AddressSanitizer and
# UndefinedBehaviorSanitizer, which also checks that every registered range is the program's.
emu_nvcc = os.path.join(os.path.dirname(config.test_source_root), "fuzz", "emu-nvcc")
config.substitutions.append(("%emu-nvcc", f"env SA_EMU_SANITIZE=1 {config.python_executable} {emu_nvcc}"))
config.substitutions.append(("%cuda_path", config.cuda_path))
# The real nvcc, for the wrapper's tests.
config.substitutions.append(("%cuda_nvcc", config.nvcc))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%examples", os.path.join(os.path.dirname(config.test_source_root), "examples")))
for var in ("STREAMALLOC_NVCC", "STREAMALLOC", "STREAMALLOC_NVCC_OPTIONS", "STREAMALLOC_NVCC_REPORT",
            "STREAMALLOC_NVCC_STRICT", "STREAMALLOC_NVCC_DISABLE", "STREAMALLOC_NVCC_VERBOSE",
            "STREAMALLOC_NVCC_ACTIVE"):
    config.environment.pop(var, None)
check_api_names = os.path.join(os.path.dirname(config.test_source_root), "scripts", "check-api-names")
config.substitutions.append(("%check-api-names", f"{config.python_executable} {check_api_names}"))
