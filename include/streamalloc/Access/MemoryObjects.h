//===- MemoryObjects.h - The units the analyses reason about ---------------===//
//
// A memory object is an allocation site, the storage of a variable, the
// object a parameter points to (symbolic, inside a function), or the single
// object Unknown, which stands for anything the analysis cannot name and
// conflicts with everything.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_MEMORYOBJECTS_H
#define STREAMALLOC_ACCESS_MEMORYOBJECTS_H

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace streamalloc {

using ObjectId = unsigned;
constexpr ObjectId UnknownObject = 0;
/// stdout/stderr/files. Host I/O and kernels that print write it. It is not
/// memory: an op whose memory effects are Unknown does not touch it.
constexpr ObjectId OutputObject = 1;

enum class ObjectKind {
  Unknown,
  Variable,          ///< storage of a local or global variable (incl. stack arrays)
  DeviceSymbol,      ///< a __device__ / __constant__ variable
  HostAllocation,    ///< malloc/new/... site
  PinnedAllocation,  ///< cudaMallocHost/cudaHostAlloc site
  DeviceAllocation,  ///< cudaMalloc site
  ManagedAllocation, ///< cudaMallocManaged site: host and device both reach it
  ContainerStorage,  ///< the elements of a std::vector (a heap buffer the vector owns)
  Symbolic,          ///< what a parameter points to (or a pointer stored there points to)
  ProgramOutput      ///< stdout/stderr/files: written by host I/O and by kernels that print
};

struct MemoryObject {
  ObjectKind Kind;
  std::string Name; ///< variable name, or the variable an allocation was first assigned to
  unsigned Line;    ///< declaration or allocation line
  const clang::VarDecl *Var = nullptr; ///< for Variable/DeviceSymbol: its declaration
  const clang::Expr *Site = nullptr;   ///< for allocations made by an expression: it
  /// For an allocation a callee makes: the callee, the call that made it, and
  /// the allocation in the callee's body (when its summary was made here).
  const clang::FunctionDecl *AllocatedBy = nullptr;
  const clang::Expr *Call = nullptr;
  const clang::Expr *CalleeSite = nullptr;
};

class ObjectTable {
public:
  ObjectTable();
  ObjectId add(ObjectKind Kind, std::string Name, unsigned Line,
               const clang::VarDecl *Var = nullptr, const clang::Expr *Site = nullptr);
  const MemoryObject &get(ObjectId Id) const {
    assert(Id < Objects.size() && "not an object of this table");
    return Objects[Id];
  }
  MemoryObject &get(ObjectId Id) {
    assert(Id < Objects.size() && "not an object of this table");
    return Objects[Id];
  }
  unsigned size() const { return Objects.size(); }
  void print(llvm::raw_ostream &OS) const;

private:
  std::vector<MemoryObject> Objects;
};

llvm::StringRef objectKindName(ObjectKind Kind);

enum AccessMode : uint8_t { NoAccess = 0, ReadAccess = 1, WriteAccess = 2, ReadWriteAccess = 3 };

/// Which objects something may read and write.
class AccessSet {
public:
  void add(ObjectId Object, uint8_t Mode);
  /// \p Object is only a possible alias of what is accessed (a symbolic
  /// object that may be the same memory): it conflicts like any entry, but a
  /// conflict through a direct entry is reported first.
  void addAlias(ObjectId Object, uint8_t Mode);
  void addAll(const AccessSet &Other);
  bool empty() const { return Modes.empty(); }
  bool touchesUnknown() const { return Modes.count(UnknownObject) != 0; }
  uint8_t modeOf(ObjectId Object) const;
  /// The mode of \p Object's direct entry, without what it gets only as a
  /// possible alias of another entry.
  uint8_t directModeOf(ObjectId Object) const;
  const std::map<ObjectId, uint8_t> &entries() const { return Modes; }

  /// The first object through which this set and \p Other conflict (they may
  /// touch it and at least one side writes), if any. Unknown conflicts with
  /// every object, except that Unknown *memory* on this side (an op's effects)
  /// does not reach \p Other's OutputObject; Unknown on \p Other's side (a
  /// call the analysis cannot see into) may print, so it reaches everything.
  std::optional<ObjectId> conflictWith(const AccessSet &Other) const;
  /// Whether \p Object is in the set only as a possible alias.
  bool isAliasOnly(ObjectId Object) const { return AliasOnly.count(Object) != 0; }

  void print(llvm::raw_ostream &OS, const ObjectTable &Objects) const;

private:
  std::map<ObjectId, uint8_t> Modes;
  std::map<ObjectId, uint8_t> Direct; ///< the entries not added only as aliases
  std::set<ObjectId> AliasOnly;

  std::optional<ObjectId> firstConflict(const std::map<ObjectId, uint8_t> &Mine,
                                        const AccessSet &Other, bool DirectOnly) const;
};

} // namespace streamalloc

#endif
