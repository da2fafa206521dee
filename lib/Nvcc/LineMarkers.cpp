//===- LineMarkers.cpp ----------------------------------------------------===//
#include "streamalloc/Nvcc/LineMarkers.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

namespace streamalloc::nvcc {

namespace {

/// How far ahead (lines of both texts together) agreement is looked for.
constexpr size_t Window = 400;

llvm::SmallVector<llvm::StringRef> lines(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef> Out;
  Text.split(Out, '\n');
  return Out;
}

std::string marker(size_t Line, llvm::StringRef Name) {
  std::string Quoted;
  for (char C : Name) {
    if (C == '\\' || C == '"')
      Quoted += '\\';
    Quoted += C;
  }
  return "#line " + std::to_string(Line) + " \"" + Quoted + "\"";
}

/// A line that is unlikely to occur twice nearby (not blank, not a brace).
bool distinctive(llvm::StringRef Line) {
  llvm::StringRef T = Line.trim();
  return T.size() >= 6 && llvm::any_of(T, [](char C) { return llvm::isAlnum(C); });
}

/// Whether line \p I of \p A and line \p J of \p B are the same line of
/// the source: equal, and distinctive or followed by equal lines (single
/// blank lines and braces match too easily).
bool anchored(llvm::ArrayRef<llvm::StringRef> A, size_t I, llvm::ArrayRef<llvm::StringRef> B,
              size_t J) {
  if (I >= A.size() || J >= B.size() || A[I] != B[J])
    return false;
  if (distinctive(A[I]))
    return true;
  bool AEnds = I + 1 >= A.size(), BEnds = J + 1 >= B.size();
  return AEnds || BEnds ? AEnds == BEnds : A[I + 1] == B[J + 1];
}

} // namespace

std::string withLineMarkers(llvm::StringRef Original, llvm::StringRef Transformed,
                            llvm::StringRef SourceName) {
  llvm::SmallVector<llvm::StringRef> Orig = lines(Original), Out = lines(Transformed);
  bool MayMark = !Transformed.contains("R\"");
  std::string Result = marker(1, SourceName) + "\n";
  size_t NextNumber = 1; // what the next output line is numbered
  auto Emit = [&](size_t J) {
    Result += Out[J];
    if (J + 1 < Out.size())
      Result += '\n';
    ++NextNumber;
  };
  size_t I = 0, J = 0;
  while (J < Out.size()) {
    if (I < Orig.size() && Out[J] == Orig[I]) {
      bool AfterContinuation = J > 0 && Out[J - 1].ends_with("\\");
      if (NextNumber != I + 1 && MayMark && !AfterContinuation) {
        Result += marker(I + 1, SourceName) + "\n";
        NextNumber = I + 1;
      }
      Emit(J++);
      ++I;
      continue;
    }
    // The nearest point where both texts agree again: output lines before it
    // were inserted or edited, original lines before it edited or removed.
    std::optional<std::pair<size_t, size_t>> Resync;
    for (size_t Distance = 1; Distance < Window && !Resync; ++Distance)
      for (size_t Skip = 0; Skip <= Distance && !Resync; ++Skip)
        if (anchored(Orig, I + Skip, Out, J + Distance - Skip))
          Resync = {I + Skip, J + Distance - Skip};
    if (!Resync) { // no alignment: the rest keeps the numbers it has
      while (J < Out.size())
        Emit(J++);
      break;
    }
    while (J < Resync->second)
      Emit(J++);
    I = Resync->first;
  }
  return Result;
}

} // namespace streamalloc::nvcc
