//===- LaunchGraphs.h - Launch-bound loops replayed as CUDA graphs --------===//
//
// A loop whose body is nothing but GPU work the device does on its own
// (kernel launches, fills, device-to-device copies) pays the host's launch
// cost for every op of every iteration: about 3 us a kernel on the H200,
// more than a small kernel runs. No stream assignment removes that cost. A
// CUDA graph does: the iteration's ops are captured on their stream (about
// 0.4 us an op), the executable graph made from an earlier capture is
// updated with the new one (a few tenths of a us) and launched once (about
// 1.1 us), and the device runs the ops back to back.
//
// Every iteration is captured afresh, so the arguments are whatever that
// iteration computes (the loop counter, pointers swapped between
// iterations): the capture evaluates them exactly where the launches would.
// The first iterations of the program run directly, until the launches they
// save pay for the set-up of the first graph (the process's first capture
// and instantiation cost about 0.25 ms); if a capture, update, instantiation
// or graph launch fails, the body runs directly from then on and reports
// its own errors.
//
// A loop is replayed as a graph when, in the final analysis and plan:
// - its body is statements each of which is exactly one such op (inside an
//   error-check macro or not), with no other host work, no wait and no
//   event wait in between: a capture records the GPU work of one stream and
//   nothing the host does;
// - every op is asynchronous and on one stream (the planner keeps them
//   together: ScheduleOptions::OneStreamLoops);
// - the graph replaces at least half of the host's launch cost per
//   iteration (a single op per iteration saves too little);
// - the translation unit starts no host threads that may launch: a capture
//   on a stream another thread launches on would record that thread's work
//   too (an OpenMP region of plain host work is fine: its threads run only
//   inside it).
// An event that a later op on another stream waits for is recorded after
// the loop instead of after its op (recordAfterGraphLoops): the wait is
// after the loop, and the graph launches are in order on the loop's stream.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_SCHEDULE_LAUNCHGRAPHS_H
#define STREAMALLOC_SCHEDULE_LAUNCHGRAPHS_H

#include "streamalloc/Model/CostModel.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct CraResult;
struct StreamPlan;

/// A loop whose body holds GPU ops: a candidate for a graph (WhyNot empty)
/// when its body is nothing but statements that each enqueue one.
struct LaunchLoop {
  const clang::Stmt *Loop = nullptr;
  const clang::Stmt *First = nullptr, *Last = nullptr; ///< the body's first and last statement
  std::vector<unsigned> Ops;                           ///< op ids, in the body's order
  unsigned Line = 0;                                   ///< of the loop
  /// Empty: the body is replayed as a graph. Otherwise why not.
  std::string WhyNot;
  unsigned Stream = 0;           ///< the stream it is captured on
  unsigned DirectIterations = 0; ///< iterations the program runs before its first capture
};

/// The loops of \p FA's function whose body holds two or more GPU ops (in
/// nested statements too), or one op and nothing else. Those whose body is
/// only statements of one capturable op each have WhyNot empty: candidates
/// the planner keeps on one stream; the others say why not (the first
/// statement that is not such an op).
/// \p WhyNone: why no loop of the file may become a graph ("" if they may).
std::vector<LaunchLoop> findLaunchLoops(const FunctionAccesses &FA, const std::string &WhyNone);

/// The loops of \p Loops that the planner should keep on one stream.
std::vector<const clang::Stmt *> oneStreamLoops(const std::vector<LaunchLoop> &Loops);

/// Decides each candidate of \p Loops with the final analysis and plan:
/// sets WhyNot, or Stream and DirectIterations.
void decideLaunchLoops(std::vector<LaunchLoop> &Loops, const FunctionAccesses &FA,
                       const CraResult &Cra, const StreamPlan &Plan, const CostModel &Costs = {});

/// Host seconds one iteration of \p Ops ops saves as a graph (negative: it
/// costs more), and the seconds its first capture and instantiation cost.
double graphSavingPerIteration(unsigned Ops, const CostModel &Costs = {});
double graphSetUpCost(unsigned Ops, const CostModel &Costs = {});

/// Event records after an op of a loop replayed as a graph move after the
/// loop (a record inside the capture would be part of the graph).
void recordAfterGraphLoops(StreamPlan &Plan, const std::vector<LaunchLoop> &Loops);

/// "the program starts host threads (what, on which line)", or "" when the
/// translation unit starts none: std::thread, std::async, pthread_create, an
/// OpenMP region that launches or calls the program's own code.
std::string startsHostThreads(clang::ASTContext &Ctx);

/// Why the translation unit's loops may not be captured, or "", given what
/// startsHostThreads() said.
std::string whyNoLaunchGraphs(const std::string &HostThreads);

} // namespace streamalloc

#endif
