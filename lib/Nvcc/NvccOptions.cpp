//===- NvccOptions.cpp ----------------------------------------------------===//
#include "streamalloc/Nvcc/NvccOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

namespace streamalloc::nvcc {

namespace {

constexpr bool Value = true, Flag = false;
constexpr bool Keep = true, Drop = false;
constexpr bool Output = true, Pass = false;

const NvccOption Options[] = {
#define NVCC_OPTION(Short, Long, Shape, Clang, Tool) {Short, Long, Shape, Clang, Tool},
#include "streamalloc/Nvcc/NvccOptions.def"
};

const llvm::StringRef DroppedFamilies[] = {
#define NVCC_OPTION(Short, Long, Shape, Clang, Tool)
#define NVCC_OPTION_FAMILY(Prefix) Prefix,
#include "streamalloc/Nvcc/NvccOptions.def"
};

const llvm::StringMap<const NvccOption *> &bySpelling() {
  static const llvm::StringMap<const NvccOption *> Map = [] {
    llvm::StringMap<const NvccOption *> M;
    for (const NvccOption &O : Options)
      for (llvm::StringRef Spelling : {O.Short, O.Long})
        if (!Spelling.empty())
          M[Spelling] = &O;
    return M;
  }();
  return Map;
}

} // namespace

const NvccOption *findOption(llvm::StringRef Name) { return bySpelling().lookup(Name); }

llvm::StringRef optionName(llvm::StringRef Arg) { return Arg.split('=').first; }

bool takesSeparateValue(llvm::StringRef Arg) {
  const NvccOption *O = findOption(Arg);
  return O && O->TakesValue;
}

bool droppedForClang(llvm::StringRef Arg) {
  if (llvm::any_of(DroppedFamilies, [&](llvm::StringRef P) { return Arg.starts_with(P); }))
    return true;
  const NvccOption *O = findOption(Arg);
  if (!O && Arg.contains('='))
    if (const NvccOption *Named = findOption(optionName(Arg)); Named && Named->TakesValue)
      O = Named;
  return O && !O->KeptForClang;
}

} // namespace streamalloc::nvcc
