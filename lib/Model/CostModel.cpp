//===- CostModel.cpp - Measured costs of what the tool adds to a program ---===//
#include "streamalloc/Model/CostModel.h"

#include <cmath>
#include <cstdio>

namespace streamalloc {

double CostModel::pinSaving(const BufferTraffic &T, bool Register) const {
  constexpr double GB = 1e9;
  double Saved = T.H2DBytes / GB * (1.0 / PageableH2DGBps - 1.0 / PinnedGBps) +
                 T.D2HBytes / GB * (1.0 / PageableD2HGBps - 1.0 / PinnedGBps);
  double Cost = Register ? RegisterFixedSec + RegisterSecPerGB * T.Bytes / GB
                         : AllocFixedSec + AllocExtraSecPerGB * T.Bytes / GB;
  return Saved - Cost;
}

std::string formatSeconds(double Seconds) {
  double Abs = std::fabs(Seconds);
  const char *Unit = "s";
  double Value = Seconds;
  if (Abs < 1e-3) {
    Unit = "us";
    Value = Seconds * 1e6;
  } else if (Abs < 1) {
    Unit = "ms";
    Value = Seconds * 1e3;
  }
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, std::fabs(Value) < 10 ? "%.1f %s" : "%.0f %s", Value, Unit);
  return Buf;
}

} // namespace streamalloc
