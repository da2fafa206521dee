//===- CutRun.cpp - A CRA run in stretches between the function body's statements ===//
#include "CutRun.h"

#include <cassert>
#include <iterator>

namespace streamalloc {

namespace {

/// Cuts \p R, which observed \p Points (the first one: where it began).
CutRun cut(CraResult R, std::vector<BodyPoint> Points, unsigned Start) {
  if (Points.empty())
    Points.emplace_back(); // a body that is not a block
  CutRun C;
  C.Start = Start;
  C.End = Start + Points.size();
  auto Slice = [&](auto &All, auto Count, auto &Into) {
    for (unsigned I = 0; I < Points.size(); ++I) {
      unsigned Begin = I ? Count(Points[I]) : 0;
      unsigned End = I + 1 < Points.size() ? Count(Points[I + 1]) : All.size();
      assert(Begin <= End && End <= All.size() && "points count what the run recorded");
      Into.emplace_back(std::make_move_iterator(All.begin() + Begin),
                        std::make_move_iterator(All.begin() + End));
    }
  };
  Slice(R.Waits, [](const BodyPoint &P) { return P.Waits; }, C.Waits);
  Slice(R.Syncs, [](const BodyPoint &P) { return P.Syncs; }, C.Syncs);
  C.Points = std::move(Points);
  return C;
}

} // namespace

CutRun runWhole(CraRunner Run, llvm::ArrayRef<const clang::Expr *> Ignored) {
  std::vector<BodyPoint> Points;
  auto Observe = [&](const BodyPoint &P) {
    assert(P.Index == Points.size() && "a whole run passes every point in order");
    Points.push_back(P);
    return true;
  };
  BodyWalk Walk;
  Walk.Observe = Observe;
  CraResult R = Run(Ignored, Walk); // before Points is moved from
  return cut(std::move(R), std::move(Points), 0);
}

CutRun runFrom(CraRunner Run, llvm::ArrayRef<const clang::Expr *> Ignored, const CutRun &Base,
               unsigned From) {
  assert(Base.Start == 0 && From < Base.End && "resumed at a point of a whole run");
  std::vector<BodyPoint> Points{Base.Points[From]};
  Points.front().Waits = Points.front().Syncs = 0; // counts of this run
  auto Observe = [&](const BodyPoint &P) {
    assert(P.Index < Base.End && "the runs walk the same body");
    if (P.sameWalk(Base.Points[P.Index]))
      return false; // from here on, the same as Base
    Points.push_back(P);
    return true;
  };
  BodyWalk Walk;
  Walk.Observe = Observe;
  Walk.From = &Base.Points[From];
  CraResult R = Run(Ignored, Walk);
  return cut(std::move(R), std::move(Points), From);
}

void splice(CutRun &Base, CutRun Stretch) {
  assert(Base.Start <= Stretch.Start && Stretch.End <= Base.End && "a stretch of the run");
  for (unsigned I = Stretch.Start; I < Stretch.End; ++I) {
    Base.Points[I - Base.Start] = std::move(Stretch.Points[I - Stretch.Start]);
    Base.Waits[I - Base.Start] = std::move(Stretch.Waits[I - Stretch.Start]);
    Base.Syncs[I - Base.Start] = std::move(Stretch.Syncs[I - Stretch.Start]);
  }
}

} // namespace streamalloc
