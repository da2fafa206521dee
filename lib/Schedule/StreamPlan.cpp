//===- StreamPlan.cpp -----------------------------------------------------===//
#include "streamalloc/Schedule/StreamPlan.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/Cra.h"

#include "llvm/ADT/STLExtras.h"

namespace streamalloc {

StreamPlan planStreams(const FunctionAccesses &FA, const CraResult &Cra,
                       const ScheduleOptions &Options) {
  StreamPlan Plan;
  Plan.StreamOf.resize(FA.ops().size());
  // One chain: every asynchronous op on stream 0 keeps the program's GPU
  // order, so GPU->GPU dependencies need no events.
  for (const GpuOp &Op : FA.ops())
    if (Cra.Ops[Op.Id].Async) {
      Plan.StreamOf[Op.Id] = 0;
      Plan.NumStreams = 1;
    }
  for (const Wait &W : Cra.Waits) {
    std::vector<unsigned> Streams;
    for (unsigned Op : W.Covers)
      if (Plan.StreamOf[Op] && !llvm::is_contained(Streams, *Plan.StreamOf[Op]))
        Streams.push_back(*Plan.StreamOf[Op]);
    llvm::sort(Streams);
    Plan.WaitStreams.push_back(std::move(Streams));
  }
  (void)Options;
  return Plan;
}

void StreamPlan::print(llvm::raw_ostream &OS, const FunctionAccesses &FA) const {
  OS << "function " << FA.name() << ": " << NumStreams << " stream(s)\n";
  for (const GpuOp &Op : FA.ops()) {
    OS << "  op" << Op.Id << " line " << Op.Line << " " << Op.Callee << " -> ";
    if (StreamOf[Op.Id])
      OS << "stream " << *StreamOf[Op.Id] << "\n";
    else
      OS << "legacy default stream (synchronous)\n";
  }
  for (unsigned I = 0; I < WaitStreams.size(); ++I) {
    OS << "  wait " << I << " syncs";
    for (unsigned S : WaitStreams[I])
      OS << " stream " << S;
    OS << "\n";
  }
}

} // namespace streamalloc
