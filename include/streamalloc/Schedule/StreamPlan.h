//===- StreamPlan.h - Dataflow stream assignment (DFSA) ----------------------===//
//
// Which stream each asynchronous op goes on, and which cross-stream
// dependencies need an event. The dependency graph has an edge from op A to
// op B when they touch a common object and one of them writes it (RAW, WAR
// or WAW, on device or host memory), A before B in the function's text, or A
// after B inside a loop around both (the edge is carried over the back edge).
//
// Assignment walks the ops in program order: an op that depends on the op
// last put on some stream continues that stream (a chain needs no event);
// an op without predecessors starts a new stream while fewer than
// MaxStreams are in use, and otherwise reuses a stream: a copy goes behind a
// copy in the same direction (one copy engine per direction serialises
// them anyway), anything else behind the stream idle the longest. A
// stream-ordered allocation without predecessors takes no stream of its
// own: it goes on the stream of its first user, so that chain needs no event.
//
// An edge between different streams needs the consumer's stream to wait for
// an event recorded on the producer's stream right after the producer's
// statement. The wait goes before the consumer's statement, or before the
// outermost loop around the consumer that does not hold the producer (inside
// it the producer cannot run again). A wait is left out when an earlier wait
// of the same stream, on every path in the same pass, already covers the
// producer's latest run: a wait for the same event with no run of the
// producer in between, or for an event recorded after a later op of the
// producer's stream that follows the producer's latest run; or when the
// program's own device sync ran after that run.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_SCHEDULE_STREAMPLAN_H
#define STREAMALLOC_SCHEDULE_STREAMPLAN_H

#include "streamalloc/Access/MemoryObjects.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <optional>
#include <vector>

namespace clang {
class Stmt;
} // namespace clang

namespace streamalloc {

class FunctionAccesses;
struct CraResult;

struct ScheduleOptions {
  /// Bound on the streams of one function. 4 by default: measured on the
  /// H200 in docs/results.md (the suite gains nothing from more).
  unsigned MaxStreams = 4;
  /// Fill StreamPlan::Edges with every edge of the dependency graph (for
  /// --dump=schedule and --graph; it may be quadratic in the ops).
  bool ListEdges = false;
  /// Loops whose body may be replayed as a CUDA graph (LaunchGraphs.h): a
  /// stream capture records one stream's work, so every op inside such a
  /// loop goes on the stream its first op gets.
  std::vector<const clang::Stmt *> OneStreamLoops;
};

/// A dependency between two asynchronous ops.
struct Dependency {
  unsigned From, To;
  ObjectId Object;  ///< an object both touch
  bool LoopCarried; ///< From runs in an earlier iteration of a loop around both
};

/// Event \p Event is recorded on \p Stream after the statement that
/// enqueues op \p Op (and the other ops of that statement).
struct EventRecord {
  unsigned Event;
  unsigned Op;
  const clang::Stmt *Statement;
  unsigned Stream;
};

/// Before \p At (the statement that enqueues op \p Op, or a loop around
/// it), stream \p Waiter waits for each of \p Events. An event not recorded yet on this path (its
/// producer did not run, or runs later in the loop) is one recorded earlier or never: the wait is
/// then for older work or none, which is what the path needs.
struct EventWait {
  unsigned Op;
  const clang::Stmt *Statement;
  const clang::Stmt *At;
  unsigned Waiter;
  std::vector<unsigned> Events;
};

struct StreamPlan {
  unsigned NumStreams = 0;                       ///< streams this function uses
  std::vector<std::optional<unsigned>> StreamOf; ///< per op id; empty when synchronous
  unsigned NumEvents = 0;                        ///< events this function uses
  /// Every edge of the dependency graph, when ScheduleOptions::ListEdges
  /// asked for them; empty otherwise.
  std::vector<Dependency> Edges;
  /// Edges with the same paths as the whole graph: op A reaches op B through
  /// them exactly when it does through Edges (linear in the accesses).
  std::vector<Dependency> PathEdges;
  std::vector<EventRecord> Records; ///< indexed by event
  std::vector<EventWait> EventWaits;
  /// Cross-stream edges whose wait an earlier wait or device sync covers.
  unsigned CoveredWaits = 0;
  /// Events ordering ops across streams (EventWaits use them); the records
  /// after them serve host waits alone.
  unsigned NumEdgeEvents = 0;
  /// Nothing but this plan's streams may hold GPU work of the program
  /// (`main`, with no work left on the legacy stream): a host wait for every
  /// stream is one cudaDeviceSynchronize.
  bool OnlyPlannedWork = false;
  std::vector<std::vector<unsigned>> WaitStreams; ///< per CRA wait: streams to synchronise
  /// Per CRA wait: it covers work on a stream of the program's own, which
  /// the tool cannot name: it is one cudaDeviceSynchronize.
  std::vector<bool> WaitsForDevice;
  /// Per CRA wait: events to synchronise on, where later work is queued on
  /// the covered ops' stream (the wait's PartialStreams).
  std::vector<std::vector<unsigned>> WaitEvents;

  /// Fills WaitStreams and WaitEvents for \p Cra's waits: a stream whose
  /// pending ops a wait covers entirely is synchronised; on a partial stream
  /// the wait is for an event recorded after each covered op's statement.
  void bindWaits(const CraResult &Cra);
  /// Whether a host wait for \p Streams whole streams and \p Events events
  /// is one cudaDeviceSynchronize: it needs every stream, and nothing else
  /// may hold work (OnlyPlannedWork).
  bool waitIsOneDeviceSync(size_t Streams, size_t Events) const {
    return OnlyPlannedWork && NumStreams > 1 && Streams == NumStreams && Events == 0;
  }
  /// The sync calls host wait \p I makes.
  size_t waitCalls(unsigned I) const {
    assert(I < WaitStreams.size() && WaitEvents.size() == WaitStreams.size() &&
           WaitsForDevice.size() == WaitStreams.size() &&
           "bindWaits() ran for the CRA wait asked about");
    size_t Streams = WaitStreams[I].size(), Events = WaitEvents[I].size();
    return WaitsForDevice[I] || waitIsOneDeviceSync(Streams, Events) ? 1 : Streams + Events;
  }
  void print(llvm::raw_ostream &OS, const FunctionAccesses &FA) const;
  /// The dependency graph as a Graphviz subgraph (one cluster per function).
  void printDot(llvm::raw_ostream &OS, const FunctionAccesses &FA, unsigned Cluster) const;
};

StreamPlan planStreams(const FunctionAccesses &FA, const CraResult &Cra,
                       const ScheduleOptions &Options);

} // namespace streamalloc

#endif
