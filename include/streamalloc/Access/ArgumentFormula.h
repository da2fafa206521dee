//===- ArgumentFormula.h - An integer a callee computes from its arguments -===//
//
// Text that computes, from a call's arguments, a value the callee computes
// (the bytes a helper allocates and returns): pieces of C text, and holes
// that each stand for one argument as written at the call. The text before a
// hole converts the argument to the parameter's type, so the caller computes
// in the callee's types. It names no declaration of either side, so a unit
// that defines the callee can export it to units that only call it
// (SummaryExchange.h).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_ARGUMENTFORMULA_H
#define STREAMALLOC_ACCESS_ARGUMENTFORMULA_H

#include <string>
#include <vector>

namespace streamalloc {

struct ArgumentFormula {
  struct Piece {
    std::string Text; ///< C text, when Arg < 0
    int Arg = -1;     ///< else the index of the argument this stands for
    bool operator==(const Piece &O) const { return Text == O.Text && Arg == O.Arg; }
  };
  std::vector<Piece> Pieces;

  bool empty() const { return Pieces.empty(); }
  ArgumentFormula &operator+=(const ArgumentFormula &O) {
    Pieces.insert(Pieces.end(), O.Pieces.begin(), O.Pieces.end());
    return *this;
  }
  ArgumentFormula &operator+=(std::string Text) {
    Pieces.push_back({std::move(Text), -1});
    return *this;
  }
  static ArgumentFormula text(std::string Text) { return ArgumentFormula() += std::move(Text); }
  static ArgumentFormula argument(unsigned Index) {
    ArgumentFormula F;
    F.Pieces.push_back({"", (int)Index});
    return F;
  }
  bool operator==(const ArgumentFormula &O) const { return Pieces == O.Pieces; }
};

} // namespace streamalloc

#endif
