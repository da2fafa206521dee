//===- PendingSet.cpp - CRA's lattice ---------------------------------------===//
#include "streamalloc/CRA/PendingSet.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

namespace streamalloc {

bool mergeOps(std::vector<unsigned> &Into, const std::vector<unsigned> &From) {
  size_t Before = Into.size();
  for (unsigned Op : From)
    if (!llvm::is_contained(Into, Op))
      Into.push_back(Op);
  return Into.size() != Before;
}

bool PendingSet::origDone(unsigned Op) const { return llvm::is_contained(OrigDone, Op); }

std::vector<unsigned> PendingSet::done() const {
  std::vector<unsigned> Ops;
  llvm::copy_if(*this, std::back_inserter(Ops), [&](unsigned Op) { return origDone(Op); });
  return Ops;
}

/// Whether \p Ops names each op at most once: both parts of the lattice are sets.
[[maybe_unused]] static bool holdsEachOpOnce(std::vector<unsigned> Ops) {
  llvm::sort(Ops);
  return std::adjacent_find(Ops.begin(), Ops.end()) == Ops.end();
}

bool PendingSet::join(const PendingSet &Other) {
  assert(holdsEachOpOnce(*this) && holdsEachOpOnce(OrigDone) && holdsEachOpOnce(Other) &&
         holdsEachOpOnce(Other.OrigDone) && "a pending set holds each op once");
  bool Grew = mergeOps(*this, Other);
  return mergeOps(OrigDone, Other.OrigDone) || Grew;
}

bool PendingSet::operator==(const PendingSet &Other) const {
  return static_cast<const std::vector<unsigned> &>(*this) == Other && OrigDone == Other.OrigDone;
}

void PendingSet::print(llvm::raw_ostream &OS) const {
  auto List = [&](const std::vector<unsigned> &Ops) {
    OS << "{";
    for (unsigned I = 0; I < Ops.size(); ++I)
      OS << (I ? ", op" : "op") << Ops[I];
    OS << "}";
  };
  List(*this);
  if (std::vector<unsigned> Done = done(); !Done.empty()) {
    OS << ", done in the original ";
    List(Done);
  }
}

} // namespace streamalloc
