//===- EditList.cpp -------------------------------------------------------===//
#include "streamalloc/Transform/EditList.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace streamalloc {

bool EditList::apply(llvm::StringRef Original, std::string &Result, std::string &Error) const {
  std::vector<unsigned> Order(Edits.size());
  std::iota(Order.begin(), Order.end(), 0);
  // By offset; at one offset insertions first (in the order added), then the
  // replacement that starts there.
  llvm::stable_sort(Order, [&](unsigned A, unsigned B) {
    if (Edits[A].Offset != Edits[B].Offset)
      return Edits[A].Offset < Edits[B].Offset;
    return Edits[A].Length == 0 && Edits[B].Length != 0;
  });
  Result.clear();
  unsigned Pos = 0;
  for (unsigned I : Order) {
    const Edit &E = Edits[I];
    if (E.Offset + E.Length > Original.size()) {
      Error = "edit at offset " + std::to_string(E.Offset) + " lies outside the file";
      return false;
    }
    if (E.Offset < Pos) {
      Error = "overlapping edits at offset " + std::to_string(E.Offset);
      return false;
    }
    Result.append(Original.data() + Pos, E.Offset - Pos);
    Result += E.Text;
    Pos = E.Offset + E.Length;
  }
  Result.append(Original.data() + Pos, Original.size() - Pos);
  return true;
}

unsigned EditList::firstOffset() const {
  unsigned First = ~0u;
  for (const Edit &E : Edits)
    First = std::min(First, E.Offset);
  return First;
}

void EditList::print(llvm::raw_ostream &OS) const {
  for (const Edit &E : Edits) {
    OS << "  @" << E.Offset;
    if (E.Length)
      OS << " replace " << E.Length << " bytes with";
    else
      OS << " insert";
    OS << " \"";
    OS.write_escaped(E.Text);
    OS << "\"\n";
  }
}

} // namespace streamalloc
