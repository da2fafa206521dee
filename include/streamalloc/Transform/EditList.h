//===- EditList.h - Text edits on one file ----------------------------------===//
//
// Replacements and insertions by byte offset, applied in one pass so that the
// rest of the file stays byte-for-byte as it was. Insertions at the same
// offset keep the order in which they were added.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_TRANSFORM_EDITLIST_H
#define STREAMALLOC_TRANSFORM_EDITLIST_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace streamalloc {

struct Edit {
  unsigned Offset;
  unsigned Length; ///< bytes replaced; 0 for an insertion
  std::string Text;

  /// Whether the edit lies inside the text [\p Begin, \p End): an insertion
  /// at \p End, after the text, does not.
  bool inside(unsigned Begin, unsigned End) const {
    return Offset >= Begin && Offset + Length <= End && !(Length == 0 && Offset == End);
  }
};

class EditList {
public:
  void insert(unsigned Offset, std::string Text) { Edits.push_back({Offset, 0, std::move(Text)}); }
  void replace(unsigned Offset, unsigned Length, std::string Text) {
    Edits.push_back({Offset, Length, std::move(Text)});
  }
  bool empty() const { return Edits.empty(); }
  unsigned size() const { return Edits.size(); }
  const std::vector<Edit> &all() const { return Edits; }
  /// Smallest offset any edit touches (UINT_MAX when there is none).
  unsigned firstOffset() const;
  /// The first edit (in the order added) that is not inside the text
  /// [\p Begin, \p End): an insertion at \p End, after the text, is outside.
  const Edit *firstOutside(unsigned Begin, unsigned End) const;
  /// The smallest offset at which this list and \p Other edit differently
  /// (in the order apply() makes the edits), or none when they are the same.
  /// \p IgnoringNotes: texts that differ only in the tool's notes
  /// (`// streamalloc: ...` to the end of a line, `/* streamalloc: ... */`)
  /// count as the same.
  std::optional<unsigned> firstDifference(const EditList &Other, bool IgnoringNotes = false) const;

  /// The edits \p Keep accepts, in the order added.
  EditList filtered(llvm::function_ref<bool(const Edit &)> Keep) const;
  /// Removes the edits from the \p From-th added on that \p Keep rejects.
  void removeAddedSince(unsigned From, llvm::function_ref<bool(const Edit &)> Keep);

  /// Applies every edit to \p Original. Fails (returns false, sets \p Error)
  /// when two replacements overlap or an edit lies outside the text.
  bool apply(llvm::StringRef Original, std::string &Result, std::string &Error) const;

  void print(llvm::raw_ostream &OS) const;

private:
  std::vector<Edit> Edits;
};

} // namespace streamalloc

#endif
