//===- ApiModel.cpp - The API table ----------------------------------------===//
#include "streamalloc/Model/ApiModel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

namespace streamalloc {

namespace {
// constexpr: constant-initialised, so help texts built at start-up can read it.
constexpr ApiFunction Rows[] = {
#define API_ROW(Id, Name, Kind, Roles, Space, Returns, Async, StreamArg, FirstDefault, Defaults,   \
                KindArg, Output, Runtime, Cap)                                                     \
  {ApiId::Id, Name,   ApiKind::Kind, Roles,        MemorySpace::Space,                             \
   Returns,   Async,  StreamArg,     FirstDefault, Defaults,                                       \
   KindArg,   Output, Runtime,       ApiCap::Cap},
#include "streamalloc/Model/ApiModel.def"
};

constexpr llvm::StringRef Symbols[] = {
#define API_SYMBOL(Name) #Name,
#include "streamalloc/Model/ApiModel.def"
};

struct NamePrefix {
  ApiNameGroup Group;
  llvm::StringRef Prefix;
};
const NamePrefix Prefixes[] = {
#define API_NAME_PREFIX(Group, Prefix) {ApiNameGroup::Group, Prefix},
#include "streamalloc/Model/ApiModel.def"
};

const llvm::StringRef GpuLibraryHeaders[] = {
#define API_GPU_LIBRARY_HEADER(Fragment) Fragment,
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

const ApiFunction &apiRow(ApiId Id) { return Rows[static_cast<unsigned>(Id)]; }

const ApiFunction &apiWith(ApiCap C) {
  for (const ApiFunction &Row : Rows)
    if (Row.has(C))
      return Row;
  llvm_unreachable("no row of ApiModel.def has this capability");
}

const ApiFunction *synchronousFormOf(const ApiFunction &Async) {
  for (const ApiFunction &Row : Rows)
    if (Row.isGpuOp() && Row.AsyncName == Async.Name)
      return &Row;
  return nullptr;
}

const ApiFunction &apiOfKind(ApiKind K) {
  for (const ApiFunction &Row : Rows)
    if (Row.Kind == K)
      return Row;
  llvm_unreachable("no row of ApiModel.def has this kind");
}

llvm::StringRef apiSymbol(ApiSymbol S) { return Symbols[static_cast<unsigned>(S)]; }

bool isApiSymbol(llvm::StringRef Name, ApiSymbol S) { return Name == apiSymbol(S); }

bool hasNamePrefix(ApiNameGroup Group, llvm::StringRef Name) {
  for (const NamePrefix &P : Prefixes)
    if (P.Group == Group && Name.starts_with(P.Prefix))
      return true;
  return false;
}

bool isGpuLibraryHeader(llvm::StringRef Path) {
  std::string Lower = Path.lower();
  for (llvm::StringRef Fragment : GpuLibraryHeaders)
    if (llvm::StringRef(Lower).contains(Fragment))
      return true;
  return false;
}

} // namespace streamalloc
