//===- SummaryExchange.h - Summaries another translation unit can read -----===//
//
// A FunctionSummary names objects through the AST of the translation unit
// it was computed in. To use the summary of a function defined in another
// translation unit, it is exported with names that unit and the caller's
// unit agree on (Clang's USRs): the function, globals, fields and container
// classes by USR, parameters by index; fresh objects and Unknown as they
// are. Importing resolves every name in the caller's AST. A name that does
// not resolve (a field or global the caller cannot see) makes that effect
// Unknown, never "touches nothing".
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_SUMMARYEXCHANGE_H
#define STREAMALLOC_ACCESS_SUMMARYEXCHANGE_H

#include "streamalloc/Access/ArgumentFormula.h"
#include "streamalloc/Access/FunctionSummary.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

/// A SummaryRef with names instead of declarations.
struct PortableRef {
  SummaryRef::RefKind Kind = SummaryRef::Unknown;
  unsigned Param = 0;             ///< Path
  bool ByValue = false;           ///< Path
  std::vector<std::string> Loads; ///< Path: a key per load ("" = an element)
  std::string Global;             ///< Global: the variable's USR
  unsigned FreshIndex = 0;        ///< Fresh
  bool operator==(const PortableRef &O) const {
    return Kind == O.Kind && Param == O.Param && ByValue == O.ByValue && Loads == O.Loads &&
           Global == O.Global && FreshIndex == O.FreshIndex;
  }
};

/// The summary of one function with external linkage, as exported.
struct PortableSummary {
  std::string Usr;       ///< the function's
  std::string Name;      ///< qualified, for messages
  std::string Signature; ///< the function's canonical type, checked on import
  std::string Source;    ///< the file that defines it
  unsigned Line = 0;     ///< of the definition
  /// Pointer parameters whose memory the function only reads or writes: it
  /// neither keeps, returns nor releases the pointer, and hands it only to
  /// calls that do neither (what pinning needs to follow a buffer into it).
  std::vector<unsigned> PlainParams;
  /// For a function that returns a buffer: the bytes of the one C
  /// allocation whose start it returns without keeping or releasing it, over
  /// its arguments (what a caller needs to register the buffer), or why a
  /// caller cannot register it (ReturnedBytesWhy).
  ArgumentFormula ReturnedBytes;
  std::string ReturnedBytesWhy;

  struct Access {
    PortableRef Object;
    uint8_t Host = NoAccess, Device = NoAccess;
    bool operator==(const Access &O) const {
      return Object == O.Object && Host == O.Host && Device == O.Device;
    }
  };
  struct Store {
    PortableRef Target;
    std::string Field;
    PortableRef Value;
    bool operator==(const Store &O) const {
      return Target == O.Target && Field == O.Field && Value == O.Value;
    }
  };
  std::vector<Access> Accesses;
  uint8_t UnknownHost = NoAccess, UnknownDevice = NoAccess;
  std::string UnknownWhy;
  std::vector<FreshObject> FreshObjects;
  std::vector<Store> Stores;
  std::vector<PortableRef> Escapes, Returns;
  std::vector<std::pair<std::string, PortableRef>> ReturnFields;
  bool StoresUnknown = false, WritesOutput = false, PerformsGpuOps = false, ResetsDevice = false,
       MaySync = false, ReadsTimer = false, SyncsDeviceBeforeTimer = false,
       CalleesPerformGpuOps = false, LeavesOwnStreamWork = false, Recursive = false;
};

/// Clang's USR of \p D ("" when it has none).
std::string usrOf(const clang::Decl *D);

/// Whether \p F's summary may stand for calls from other translation units:
/// a host function with external linkage whose body is in this unit, not
/// inline, not a template instantiation, not from a system header (those
/// are visible to every unit that calls them).
bool isExportable(const clang::FunctionDecl &F);

/// \p S (the summary of \p F) with names another translation unit can read.
PortableSummary exportSummary(const clang::FunctionDecl &F, const FunctionSummary &S);

/// The declarations of one translation unit by USR: functions, variables
/// with global storage, fields and classes.
class DeclIndex {
public:
  explicit DeclIndex(clang::ASTContext &Ctx);
  const clang::Decl *find(llvm::StringRef Usr) const { return Decls.lookup(Usr); }

private:
  llvm::StringMap<const clang::Decl *> Decls;
};

/// \p P with its names resolved through \p Index. Every effect on a name
/// that does not resolve is an effect on Unknown.
FunctionSummary importSummary(const PortableSummary &P, const DeclIndex &Index);

llvm::json::Value toJSON(const PortableSummary &P);
bool fromJSON(const llvm::json::Value &V, PortableSummary &P, llvm::json::Path Path);

} // namespace streamalloc

#endif
