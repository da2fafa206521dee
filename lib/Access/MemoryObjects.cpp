//===- MemoryObjects.cpp --------------------------------------------------===//
#include "streamalloc/Access/MemoryObjects.h"

#include "llvm/Support/ErrorHandling.h"

#include <iterator>

namespace streamalloc {

ObjectTable::ObjectTable() {
  Objects.push_back({ObjectKind::Unknown, "<unknown>", 0});
  Objects.push_back({ObjectKind::ProgramOutput, "the program's output", 0});
}

ObjectId ObjectTable::add(ObjectKind Kind, std::string Name, unsigned Line,
                          const clang::VarDecl *Var, const clang::Expr *Site) {
  Objects.push_back({Kind, std::move(Name), Line, Var, Site});
  return Objects.size() - 1;
}

llvm::StringRef objectKindName(ObjectKind Kind) {
  // In the enum's order.
  static constexpr llvm::StringLiteral Names[] = {
      "unknown",      "variable",      "device-symbol",      "host-alloc",       "pinned-alloc",
      "device-alloc", "managed-alloc", "container-elements", "parameter-memory", "output"};
  static_assert(std::size(Names) == static_cast<size_t>(ObjectKind::ProgramOutput) + 1,
                "a name per object kind");
  return Names[static_cast<size_t>(Kind)];
}

void ObjectTable::print(llvm::raw_ostream &OS) const {
  for (unsigned I = OutputObject + 1; I < Objects.size(); ++I)
    OS << "  #" << I << " " << Objects[I].Name << " (" << objectKindName(Objects[I].Kind)
       << ", line " << Objects[I].Line << ")\n";
}

void AccessSet::add(ObjectId Object, uint8_t Mode) {
  if (Mode == NoAccess)
    return;
  Modes[Object] |= Mode;
  Direct[Object] |= Mode;
  AliasOnly.erase(Object);
}

void AccessSet::addAlias(ObjectId Object, uint8_t Mode) {
  if (Mode == NoAccess)
    return;
  if (!Direct.count(Object))
    AliasOnly.insert(Object);
  Modes[Object] |= Mode;
}

void AccessSet::addAll(const AccessSet &Other) {
  for (auto [Object, Mode] : Other.Direct)
    add(Object, Mode);
  for (ObjectId Object : Other.AliasOnly)
    addAlias(Object, Other.modeOf(Object));
  for (auto [Object, Mode] : Other.Modes)
    if (!Other.AliasOnly.count(Object))
      Modes[Object] |= Mode; // aliases of objects also present directly
}

uint8_t AccessSet::modeOf(ObjectId Object) const {
  auto It = Modes.find(Object);
  return It == Modes.end() ? uint8_t(NoAccess) : It->second;
}

uint8_t AccessSet::directModeOf(ObjectId Object) const {
  auto It = Direct.find(Object);
  return It == Direct.end() ? uint8_t(NoAccess) : It->second;
}

std::optional<ObjectId> AccessSet::firstConflict(const std::map<ObjectId, uint8_t> &Mine,
                                                 const AccessSet &Other, bool DirectOnly) const {
  const std::map<ObjectId, uint8_t> &Theirs = DirectOnly ? Other.Direct : Other.Modes;
  auto ModeIn = [](const std::map<ObjectId, uint8_t> &M, ObjectId O) -> uint8_t {
    auto It = M.find(O);
    return It == M.end() ? uint8_t(NoAccess) : It->second;
  };
  auto Clash = [](uint8_t A, uint8_t B) { return (A | B) & WriteAccess; };
  for (auto [Object, Mode] : Mine) {
    if (Object == UnknownObject) {
      for (auto [OtherObject, OtherMode] : Theirs)
        if (OtherObject != OutputObject && Clash(Mode, OtherMode))
          return OtherObject;
      continue;
    }
    uint8_t OtherMode = ModeIn(Theirs, Object) | ModeIn(Theirs, UnknownObject);
    if (OtherMode && Clash(Mode, OtherMode))
      return Object;
  }
  return std::nullopt;
}

std::optional<ObjectId> AccessSet::conflictWith(const AccessSet &Other) const {
  // A conflict through what both sides name directly reads best; one through
  // a possible alias is as real.
  if (std::optional<ObjectId> O = firstConflict(Direct, Other, true))
    return O;
  if (std::optional<ObjectId> O = firstConflict(Modes, Other, true))
    return O; // names what the other side touches directly
  return firstConflict(Modes, Other, false);
}

void AccessSet::print(llvm::raw_ostream &OS, const ObjectTable &Objects) const {
  bool First = true;
  for (auto [Object, Mode] : Modes) {
    OS << (First ? "" : ", ") << Objects.get(Object).Name << ":" << ((Mode & ReadAccess) ? "R" : "")
       << ((Mode & WriteAccess) ? "W" : "");
    First = false;
  }
  if (First)
    OS << "-";
}

} // namespace streamalloc
