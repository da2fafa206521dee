//===- EditList.cpp -------------------------------------------------------===//
#include "streamalloc/Transform/EditList.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <numeric>

namespace streamalloc {

const Edit *EditList::firstOutside(unsigned Begin, unsigned End) const {
  assert(Begin <= End && "a text range");
  for (const Edit &E : Edits)
    if (!E.inside(Begin, End))
      return &E;
  return nullptr;
}

EditList EditList::filtered(llvm::function_ref<bool(const Edit &)> Keep) const {
  EditList Kept;
  llvm::copy_if(Edits, std::back_inserter(Kept.Edits), Keep);
  return Kept;
}

void EditList::removeAddedSince(unsigned From, llvm::function_ref<bool(const Edit &)> Keep) {
  assert(From <= Edits.size() && "a count of edits made before");
  Edits.erase(
      std::remove_if(Edits.begin() + From, Edits.end(), [&](const Edit &E) { return !Keep(E); }),
      Edits.end());
}

/// Indices of \p Edits in the order they are applied: by offset; at one
/// offset insertions first (in the order added), then the replacement that
/// starts there.
static std::vector<unsigned> applicationOrder(const std::vector<Edit> &Edits) {
  std::vector<unsigned> Order(Edits.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(Order, [&](unsigned A, unsigned B) {
    if (Edits[A].Offset != Edits[B].Offset)
      return Edits[A].Offset < Edits[B].Offset;
    return Edits[A].Length == 0 && Edits[B].Length != 0;
  });
  return Order;
}

/// \p Text without the tool's notes in it.
static std::string withoutNotes(llvm::StringRef Text) {
  std::string Code;
  while (!Text.empty()) {
    size_t Line = Text.find("// streamalloc: "), Block = Text.find("/* streamalloc: ");
    size_t At = std::min(Line, Block);
    Code += Text.take_front(At);
    if (At == llvm::StringRef::npos)
      break;
    Text = Text.drop_front(At);
    size_t End = At == Line ? Text.find('\n') : Text.find("*/");
    Text = End == llvm::StringRef::npos ? llvm::StringRef()
                                        : Text.drop_front(At == Line ? End : End + 2);
  }
  return Code;
}

std::optional<unsigned> EditList::firstDifference(const EditList &Other, bool IgnoringNotes) const {
  std::vector<unsigned> Mine = applicationOrder(Edits), Theirs = applicationOrder(Other.Edits);
  for (unsigned I = 0; I < Mine.size() || I < Theirs.size(); ++I) {
    if (I == Mine.size())
      return Other.Edits[Theirs[I]].Offset;
    if (I == Theirs.size())
      return Edits[Mine[I]].Offset;
    const Edit &A = Edits[Mine[I]], &B = Other.Edits[Theirs[I]];
    if (A.Offset != B.Offset || A.Length != B.Length ||
        (IgnoringNotes ? withoutNotes(A.Text) != withoutNotes(B.Text) : A.Text != B.Text))
      return std::min(A.Offset, B.Offset);
  }
  return std::nullopt;
}

bool EditList::apply(llvm::StringRef Original, std::string &Result, std::string &Error) const {
  std::vector<unsigned> Order = applicationOrder(Edits);
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
