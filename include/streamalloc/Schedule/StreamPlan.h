//===- StreamPlan.h - Stream assignment (DFSA) -------------------------------===//
//
// Which stream each asynchronous op goes on and which streams each wait
// synchronises. The first version puts every op of a file on one stream:
// the host overlaps with the GPU, GPU ops stay in program order.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_SCHEDULE_STREAMPLAN_H
#define STREAMALLOC_SCHEDULE_STREAMPLAN_H

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

namespace streamalloc {

class FunctionAccesses;
struct CraResult;

struct ScheduleOptions {
  unsigned MaxStreams = 1;
};

struct StreamPlan {
  unsigned NumStreams = 0;                        ///< streams this function uses
  std::vector<std::optional<unsigned>> StreamOf;  ///< per op id; empty when synchronous
  std::vector<std::vector<unsigned>> WaitStreams; ///< per CRA wait: streams to synchronise

  void print(llvm::raw_ostream &OS, const FunctionAccesses &FA) const;
};

StreamPlan planStreams(const FunctionAccesses &FA, const CraResult &Cra,
                       const ScheduleOptions &Options);

} // namespace streamalloc

#endif
