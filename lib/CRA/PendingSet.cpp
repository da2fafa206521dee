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

void PendingSet::ownStreamsBlocked() {
  mergeOps(*this, OwnStream);
  mergeOps(OrigDone, OwnStream);
  OwnStream.clear();
  OwnOrdered.clear();
}

void PendingSet::erase(std::vector<unsigned> Ops) {
  auto Drop = [&](std::vector<unsigned> &From) {
    From.erase(llvm::remove_if(From, [&](unsigned Op) { return llvm::is_contained(Ops, Op); }),
               From.end());
  };
  Drop(*this);
  Drop(OrigDone);
  Drop(OwnStream);
  Drop(OwnOrdered);
}

void PendingSet::enqueueOwnStream(unsigned Op) {
  if (llvm::is_contained(*this, Op))
    return; // pending from an earlier run, already waited for like the tool's
  if (!llvm::is_contained(OwnStream, Op))
    OwnStream.push_back(Op);
  // A new run: the original has ordered nothing after it yet.
  OwnOrdered.erase(std::remove(OwnOrdered.begin(), OwnOrdered.end(), Op), OwnOrdered.end());
}

std::vector<unsigned> PendingSet::everything() const {
  std::vector<unsigned> All = *this;
  mergeOps(All, OwnStream);
  return All;
}

bool PendingSet::join(const PendingSet &Other) {
  assert(holdsEachOpOnce(*this) && holdsEachOpOnce(OrigDone) && holdsEachOpOnce(Other) &&
         holdsEachOpOnce(Other.OrigDone) && "a pending set holds each op once");
  bool Grew = mergeOps(*this, Other);
  Grew |= mergeOps(OrigDone, Other.OrigDone);
  // An op pending among the tool's on one path is treated so on both.
  auto InMain = [&](unsigned Op) { return llvm::is_contained(*this, Op); };
  OwnStream.erase(llvm::remove_if(OwnStream, InMain), OwnStream.end());
  OwnOrdered.erase(llvm::remove_if(OwnOrdered, InMain), OwnOrdered.end());
  for (unsigned Op : Other.OwnStream)
    if (!InMain(Op) && !llvm::is_contained(OwnStream, Op)) {
      OwnStream.push_back(Op);
      Grew = true;
    }
  for (unsigned Op : Other.OwnOrdered)
    if (!InMain(Op) && !llvm::is_contained(OwnOrdered, Op)) {
      OwnOrdered.push_back(Op);
      Grew = true;
    }
  return Grew;
}

bool PendingSet::operator==(const PendingSet &Other) const {
  return static_cast<const std::vector<unsigned> &>(*this) == Other && OrigDone == Other.OrigDone &&
         OwnStream == Other.OwnStream && OwnOrdered == Other.OwnOrdered;
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
  if (!OwnStream.empty()) {
    OS << ", on the program's own streams ";
    List(OwnStream);
  }
  if (!OwnOrdered.empty()) {
    OS << ", ordered before later work in the original ";
    List(OwnOrdered);
  }
}

} // namespace streamalloc
