//===- ApiModel.cpp - The API table ----------------------------------------===//
#include "streamalloc/Model/ApiModel.h"

#include "llvm/ADT/StringMap.h"

namespace streamalloc {

namespace {
enum class OutputFlag { NoOutput, Output };
const ApiFunction Rows[] = {
#define API(Name, Kind, Roles, Space, Returns, Async, StreamArg, FirstDefault, Defaults, IO)       \
  {#Name, ApiKind::Kind, Roles,        MemorySpace::Space, Returns,                                \
   Async, StreamArg,     FirstDefault, Defaults,           OutputFlag::IO == OutputFlag::Output},
#include "streamalloc/Model/ApiModel.def"
};

const llvm::StringMap<const ApiFunction *> &index() {
  static const llvm::StringMap<const ApiFunction *> Index = [] {
    llvm::StringMap<const ApiFunction *> M;
    for (const ApiFunction &Row : Rows)
      M[Row.Name] = &Row;
    return M;
  }();
  return Index;
}
} // namespace

ArgRole ApiFunction::roleOf(unsigned ArgIndex) const {
  for (unsigned I = 0; I < Roles.size() && I <= ArgIndex; ++I) {
    if (Roles[I] == static_cast<char>(ArgRole::VariadicRead))
      return ArgRole::Read;
    if (Roles[I] == static_cast<char>(ArgRole::VariadicWrite))
      return ArgRole::Write;
  }
  if (ArgIndex >= Roles.size())
    return ArgRole::None;
  return static_cast<ArgRole>(Roles[ArgIndex]);
}

const ApiFunction *lookupApi(llvm::StringRef Name) {
  auto It = index().find(Name);
  return It == index().end() ? nullptr : It->second;
}

unsigned apiModelSize() { return sizeof(Rows) / sizeof(Rows[0]); }
const ApiFunction &apiModelRow(unsigned Index) { return Rows[Index]; }

} // namespace streamalloc
