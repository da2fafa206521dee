//===- PendingSet.cpp - CRA's lattice ---------------------------------------===//
#include "streamalloc/CRA/PendingSet.h"

#include "llvm/ADT/STLExtras.h"

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

bool PendingSet::join(const PendingSet &Other) {
  bool Grew = mergeOps(*this, Other);
  return mergeOps(OrigDone, Other.OrigDone) || Grew;
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
