//===- PendingSet.cpp - CRA's lattice ---------------------------------------===//
#include "streamalloc/CRA/PendingSet.h"

#include "llvm/ADT/STLExtras.h"

namespace streamalloc {

void mergeOps(std::vector<unsigned> &Into, const std::vector<unsigned> &From) {
  for (unsigned Op : From)
    if (!llvm::is_contained(Into, Op))
      Into.push_back(Op);
}

bool PendingSet::origDone(unsigned Op) const { return llvm::is_contained(OrigDone, Op); }

std::vector<unsigned> PendingSet::done() const {
  std::vector<unsigned> Ops;
  llvm::copy_if(*this, std::back_inserter(Ops), [&](unsigned Op) { return origDone(Op); });
  return Ops;
}

void PendingSet::join(const PendingSet &Other) {
  mergeOps(*this, Other);
  mergeOps(OrigDone, Other.OrigDone);
}

bool PendingSet::sameState(const PendingSet &Other) const {
  auto Contains = [](const std::vector<unsigned> &A, const std::vector<unsigned> &B) {
    return llvm::all_of(B, [&](unsigned Op) { return llvm::is_contained(A, Op); });
  };
  std::vector<unsigned> Done = done(), OtherDone = Other.done();
  return Contains(*this, Other) && Contains(Other, *this) && Contains(Done, OtherDone) &&
         Contains(OtherDone, Done);
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
