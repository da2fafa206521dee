//===- StreamPlan.cpp -----------------------------------------------------===//
#include "streamalloc/Schedule/StreamPlan.h"
#include "streamalloc/Access/FunctionAccesses.h"
#include "streamalloc/CRA/Cra.h"

#include "PassOrder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <numeric>

namespace streamalloc {

namespace {

/// The async ops of one statement: they are enqueued together, so they
/// share a stream and are ordered by it.
struct Unit {
  const clang::Stmt *Statement;
  std::vector<unsigned> Ops;
  std::vector<const clang::Stmt *> Loops; ///< of its first op
};

std::optional<ObjectId> conflictBetween(const GpuOp &A, const GpuOp &B) {
  // Both directions: AccessSet treats Unknown on the two sides differently
  // (an op's Unknown memory does not print); between two ops either side
  // may be the one that prints.
  if (std::optional<ObjectId> Obj = A.Effects.conflictWith(B.Effects))
    return Obj;
  return B.Effects.conflictWith(A.Effects);
}

/// The copy engine an op uses (as its direction): host-to-device and
/// device-to-host copies each have one, so two copies in one direction run
/// one after the other anyway. Unknown for anything else.
CopyDirection copyEngineOf(const GpuOp &Op) {
  CopyDirection D = copyDirectionOf(Op);
  return D == CopyDirection::HostToDevice || D == CopyDirection::DeviceToHost
             ? D
             : CopyDirection::Unknown;
}

/// Which units touch which objects, so that the units an op may conflict
/// with are found without trying every pair: two ops conflict only through
/// an object both may touch, or when one touches Unknown.
class UnitIndex {
public:
  UnitIndex(const FunctionAccesses &FA, const std::vector<Unit> &Units) : Units(Units.size()) {
    for (unsigned U = 0; U < Units.size(); ++U)
      for (unsigned Op : Units[U].Ops)
        for (auto [Obj, Mode] : FA.ops()[Op].Effects.entries()) {
          std::vector<unsigned> &List = Obj == UnknownObject ? Wild : ByObject[Obj];
          if (List.empty() || List.back() != U)
            List.push_back(U);
          UnitObjects.push_back({U, Obj});
        }
    // mayConflictWith() finds a unit's objects by binary search on the unit.
    assert(llvm::is_sorted(UnitObjects,
                           [](const auto &A, const auto &B) { return A.first < B.first; }) &&
           "unit objects are listed by ascending unit");
  }

  /// The units that may conflict with unit \p To, ascending (a superset).
  std::vector<unsigned> mayConflictWith(unsigned To) const {
    assert(To < Units && "not a unit of this function");
    auto Own =
        llvm::make_range(llvm::lower_bound(UnitObjects, std::pair<unsigned, ObjectId>(To, 0)),
                         llvm::lower_bound(UnitObjects, std::pair<unsigned, ObjectId>(To + 1, 0)));
    std::vector<unsigned> Result = Wild;
    for (auto [U, Obj] : Own) {
      if (Obj == UnknownObject) {
        Result.resize(Units);
        std::iota(Result.begin(), Result.end(), 0u);
        return Result;
      }
      if (auto It = ByObject.find(Obj); It != ByObject.end())
        llvm::append_range(Result, It->second);
    }
    llvm::sort(Result);
    Result.erase(std::unique(Result.begin(), Result.end()), Result.end());
    return Result;
  }

private:
  unsigned Units;
  llvm::DenseMap<ObjectId, std::vector<unsigned>> ByObject; ///< units, ascending
  std::vector<unsigned> Wild;                               ///< units touching Unknown
  std::vector<std::pair<unsigned, ObjectId>> UnitObjects;   ///< ascending by unit
};

bool shareLoop(const Unit &A, const Unit &B) {
  return llvm::any_of(A.Loops,
                      [&](const clang::Stmt *L) { return llvm::is_contained(B.Loops, L); });
}

} // namespace

StreamPlan planStreams(const FunctionAccesses &FA, const CraResult &Cra,
                       const ScheduleOptions &Options) {
  assert(Cra.Ops.size() == FA.ops().size() && "CRA decides every op of the function");
  StreamPlan Plan;
  Plan.StreamOf.resize(FA.ops().size());

  // Code goes before or after a statement's outermost macro expansion, so
  // the ops of all statements of one expansion (a macro taking several
  // calls) form one unit too.
  const clang::SourceManager &SM = FA.function().getASTContext().getSourceManager();
  auto Anchor = [&](const clang::Stmt *S) {
    return SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
  };
  std::vector<Unit> Units;
  for (const GpuOp &Op : FA.ops()) {
    assert(Op.Id < Cra.Ops.size() && "an op id indexes CRA's decisions");
    const OpDecision &D = Cra.Ops[Op.Id];
    if (!D.Async)
      continue;
    assert(D.Statement && "an asynchronous op knows the statement that enqueues it");
    if (Units.empty() || Anchor(Units.back().Statement) != Anchor(D.Statement))
      Units.push_back({D.Statement, {}, D.Loops});
    Units.back().Ops.push_back(Op.Id);
  }

  // Dependencies between units: forward in program order, and carried over
  // the back edge of a loop around both.
  std::vector<std::vector<unsigned>> Preds(Units.size()), CarriedPreds(Units.size());
  UnitIndex Index(FA, Units);
  for (unsigned To = 0; To < Units.size(); ++To)
    for (unsigned From : Index.mayConflictWith(To)) {
      if (From == To)
        continue;
      bool Carried = From > To;
      if (Carried && !shareLoop(Units[From], Units[To]))
        continue;
      for (unsigned A : Units[From].Ops)
        for (unsigned B : Units[To].Ops)
          if (std::optional<ObjectId> Obj = conflictBetween(FA.ops()[A], FA.ops()[B])) {
            Plan.Edges.push_back({A, B, *Obj, Carried});
            auto &List = Carried ? CarriedPreds[To] : Preds[To];
            if (!llvm::is_contained(List, From))
              List.push_back(From);
          }
    }

  // Greedy assignment in program order. A stream-ordered allocation with no
  // predecessor waits for its first user (later in program order) and joins
  // that user's stream.
  unsigned Max = std::max(1u, Options.MaxStreams);
  std::vector<std::optional<unsigned>> StreamOfUnit(Units.size());
  std::vector<int> Tail;         // per stream: last unit put on it
  std::vector<unsigned> LastUse; // per stream: when it was last used
  auto OnlyKind = [&](unsigned U, GpuOpKind Kind) {
    return llvm::all_of(Units[U].Ops, [&](unsigned Op) { return FA.ops()[Op].Kind == Kind; });
  };
  auto Place = [&](unsigned U, unsigned S) {
    assert(S < Tail.size() && "a unit goes on a stream in use");
    StreamOfUnit[U] = S;
    for (unsigned Op : Units[U].Ops)
      Plan.StreamOf[Op] = S;
  };
  for (unsigned U = 0; U < Units.size(); ++U) {
    if (Preds[U].empty() && OnlyKind(U, GpuOpKind::Alloc))
      continue; // placed with its first user
    std::vector<unsigned> Placed;
    for (unsigned P : Preds[U])
      if (StreamOfUnit[P])
        Placed.push_back(P);
    std::optional<unsigned> Chosen;
    for (unsigned S = 0; S < Tail.size(); ++S)
      if (llvm::is_contained(Placed, unsigned(Tail[S])) && (!Chosen || Tail[S] > Tail[*Chosen]))
        Chosen = S;
    if (!Chosen && Tail.size() < Max) {
      Chosen = Tail.size();
      Tail.push_back(-1);
      LastUse.push_back(0);
    }
    if (!Chosen && !Placed.empty()) // bound hit: follow the latest predecessor
      Chosen = *StreamOfUnit[*llvm::max_element(Placed)];
    // Bound hit, independent: a copy goes behind a copy in the same direction
    // (it would wait for that copy's engine anyway) rather than behind other
    // work; otherwise the stream idle the longest.
    CopyDirection E =
        Chosen ? CopyDirection::Unknown : copyEngineOf(FA.ops()[Units[U].Ops.front()]);
    for (unsigned S = 0; E != CopyDirection::Unknown && S < Tail.size(); ++S)
      if (copyEngineOf(FA.ops()[Units[Tail[S]].Ops.back()]) == E &&
          (!Chosen || LastUse[S] < LastUse[*Chosen]))
        Chosen = S;
    if (!Chosen)
      Chosen = llvm::min_element(LastUse) - LastUse.begin();
    Place(U, *Chosen);
    for (unsigned P : Preds[U])
      if (!StreamOfUnit[P])
        Place(P, *Chosen);
    // A stream-ordered release ends its buffer's chain: the work after it
    // keeps following the op before it (same stream, no event needed).
    if (!OnlyKind(U, GpuOpKind::Free) || Tail[*Chosen] < 0)
      Tail[*Chosen] = U;
    LastUse[*Chosen] = U + 1;
  }
  // An allocation nothing after it uses goes on the first stream.
  for (unsigned U = 0; U < Units.size(); ++U)
    if (!StreamOfUnit[U]) {
      if (Tail.empty()) {
        Tail.push_back(U);
        LastUse.push_back(U + 1);
      }
      Place(U, 0);
    }
  Plan.NumStreams = Tail.size();
  assert(Plan.NumStreams <= Max && "the stream bound holds");
  assert(llvm::all_of(FA.ops(),
                      [&](const GpuOp &Op) {
                        return Plan.StreamOf[Op.Id].has_value() == Cra.Ops[Op.Id].Async;
                      }) &&
         "every asynchronous op, and only those, has a stream");

  // Cross-stream waits: one candidate per consumer unit and producer unit
  // on another stream, placed before the consumer or before the outermost
  // loop around it that does not hold the producer.
  PassOrder Order(FA.function());
  auto Inside = [&](const clang::Stmt *S, const clang::Stmt *Outer) {
    auto In = Order.extent(S), Out = Order.extent(Outer);
    return !In || !Out || (Out->first <= In->first && In->first <= Out->second);
  };
  struct Candidate {
    unsigned Consumer, Producer;
    const clang::Stmt *At;
  };
  std::vector<Candidate> Candidates;
  for (unsigned U = 0; U < Units.size(); ++U) {
    std::vector<unsigned> From = Preds[U];
    llvm::append_range(From, CarriedPreds[U]);
    llvm::sort(From);
    From.erase(llvm::unique(From), From.end());
    for (unsigned P : From) {
      if (StreamOfUnit[P] == StreamOfUnit[U])
        continue;
      const clang::Stmt *At = Units[U].Statement;
      for (const clang::Stmt *Loop : Units[U].Loops) {
        if (Inside(Units[P].Statement, Loop))
          break;
        if (Order.inBlock(Loop))
          At = Loop;
      }
      Candidates.push_back({U, P, At});
    }
  }
  // In the order the host reaches them (a hoisted wait before the waits
  // inside its loop; at one place, later producers first, since their
  // events also cover earlier work of their stream).
  auto Offset = [&](const clang::Stmt *S) {
    auto E = Order.extent(S);
    return E ? E->first : 0u;
  };
  llvm::stable_sort(Candidates, [&](const Candidate &A, const Candidate &B) {
    unsigned OA = Offset(A.At), OB = Offset(B.At);
    return OA != OB ? OA < OB : A.Producer > B.Producer;
  });
  // Whether kept wait K (stream W waits for K's producer X before K.At)
  // already orders C's producer P before C.At: K runs on every path to C.At
  // in the same pass, P is on X's stream and has not run since X's record
  // that K waited for (for P == X: not since K).
  auto Covers = [&](const Candidate &K, const Candidate &C) {
    unsigned X = K.Producer, P = C.Producer;
    if (StreamOfUnit[K.Consumer] != StreamOfUnit[C.Consumer] ||
        StreamOfUnit[X] != StreamOfUnit[P] || !Order.runsBefore(K.At, C.At))
      return false;
    if (X == P)
      return !Order.mayRunBetween(Units[P].Statement, K.At, C.At);
    return Order.runsBefore(Units[X].Statement, K.At) &&
           !Order.mayRunBetween(Units[P].Statement, Units[X].Statement, C.At);
  };
  // Or the program's own device sync ran after the producer's latest run,
  // on every path to C.At in the same pass: the producer is complete.
  auto Synced = [&](const Candidate &C) {
    return llvm::any_of(Cra.Syncs, [&](const SyncPoint &H) {
      return H.Statement != C.At && Order.runsBefore(H.Statement, C.At) &&
             !Order.mayRunBetween(Units[C.Producer].Statement, H.Statement, C.At);
    });
  };
  std::vector<Candidate> Kept;
  for (const Candidate &C : Candidates) {
    if (Synced(C) || llvm::any_of(Kept, [&](const Candidate &K) { return Covers(K, C); }))
      ++Plan.CoveredWaits;
    else
      Kept.push_back(C);
  }
  // Events, one per producing unit that a kept wait needs, numbered in the
  // order of their first consumer; waits grouped per place and stream.
  llvm::stable_sort(Kept, [](const Candidate &A, const Candidate &B) {
    return A.Consumer != B.Consumer ? A.Consumer < B.Consumer : A.Producer < B.Producer;
  });
  llvm::DenseMap<unsigned, unsigned> EventOfUnit;
  for (const Candidate &C : Kept) {
    auto [It, New] = EventOfUnit.try_emplace(C.Producer, Plan.NumEvents);
    if (New) {
      Plan.Records.push_back({Plan.NumEvents, Units[C.Producer].Ops.front(),
                              Units[C.Producer].Statement, *StreamOfUnit[C.Producer]});
      ++Plan.NumEvents;
    }
    unsigned Waiter = *StreamOfUnit[C.Consumer];
    auto Same = llvm::find_if(
        Plan.EventWaits, [&](const EventWait &W) { return W.At == C.At && W.Waiter == Waiter; });
    if (Same == Plan.EventWaits.end())
      Same = Plan.EventWaits.insert(
          Plan.EventWaits.end(),
          {Units[C.Consumer].Ops.front(), Units[C.Consumer].Statement, C.At, Waiter, {}});
    if (!llvm::is_contained(Same->Events, It->second))
      Same->Events.push_back(It->second);
  }
  Plan.NumEdgeEvents = Plan.NumEvents;
  assert(llvm::all_of(Plan.EventWaits,
                      [&](const EventWait &W) {
                        return W.Waiter < Plan.NumStreams &&
                               llvm::all_of(
                                   W.Events, [&](unsigned E) { return E < Plan.NumEdgeEvents; });
                      }) &&
         "a cross-stream wait is for an edge event, on a stream of the plan");
  Plan.bindWaits(Cra);
  return Plan;
}

void StreamPlan::bindWaits(const CraResult &Cra) {
  assert(StreamOf.size() == Cra.Ops.size() && "the plan and CRA are for the same ops");
  assert(NumEdgeEvents <= Records.size() && "the edge events are recorded");
  Records.resize(NumEdgeEvents);
  NumEvents = NumEdgeEvents;
  WaitStreams.clear();
  WaitEvents.clear();
  WaitsForDevice.clear();
  // One event per statement: a host wait reuses the event an edge recorded
  // after the same statement.
  auto EventAfter = [&](unsigned Op) {
    const clang::Stmt *Statement = Cra.Ops[Op].Statement;
    assert(Statement && StreamOf[Op] && "a host wait's event follows an asynchronous op");
    for (const EventRecord &R : Records)
      if (R.Statement == Statement)
        return R.Event;
    Records.push_back({NumEvents, Op, Statement, *StreamOf[Op]});
    return NumEvents++;
  };
  for (const Wait &W : Cra.Waits) {
    std::vector<unsigned> Streams, Events;
    bool Device = false;
    for (unsigned Op : W.Covers) {
      assert(Op < StreamOf.size() && "a wait covers ops of this function");
      // Only the program's own ops are pending without a stream of the plan.
      if (!StreamOf[Op]) {
        Device = true;
        continue;
      }
      if (!llvm::is_contained(W.PartialStreams, *StreamOf[Op])) {
        if (!llvm::is_contained(Streams, *StreamOf[Op]))
          Streams.push_back(*StreamOf[Op]);
      } else if (unsigned E = EventAfter(Op); !llvm::is_contained(Events, E)) {
        Events.push_back(E);
      }
    }
    llvm::sort(Streams);
    llvm::sort(Events);
    if (Device) {
      Streams.resize(NumStreams);
      std::iota(Streams.begin(), Streams.end(), 0u);
      Events.clear();
    }
    WaitStreams.push_back(std::move(Streams));
    WaitEvents.push_back(std::move(Events));
    WaitsForDevice.push_back(Device);
  }
  assert(WaitStreams.size() == Cra.Waits.size() && WaitEvents.size() == Cra.Waits.size() &&
         "one binding per CRA wait");
  assert(Records.size() == NumEvents && "one record per event");
  for (unsigned E = 0; E < Records.size(); ++E)
    assert(Records[E].Event == E && Records[E].Stream < NumStreams &&
           "records are indexed by event, on streams of the plan");
}

void StreamPlan::print(llvm::raw_ostream &OS, const FunctionAccesses &FA) const {
  const clang::SourceManager &SM = FA.function().getASTContext().getSourceManager();
  OS << "function " << FA.name() << ": " << NumStreams << " stream(s), " << NumEvents
     << " event(s)\n";
  for (const GpuOp &Op : FA.ops()) {
    OS << "  op" << Op.Id << " line " << Op.Line << " " << Op.Callee << " -> ";
    if (StreamOf[Op.Id])
      OS << "stream " << *StreamOf[Op.Id] << "\n";
    else
      OS << "legacy default stream (synchronous)\n";
  }
  for (const Dependency &E : Edges)
    OS << "  edge op" << E.From << " -> op" << E.To << " on " << FA.describe(E.Object)
       << (E.LoopCarried ? " (carried by the loop)" : "") << "\n";
  for (const EventRecord &R : Records)
    OS << "  event " << R.Event << " recorded on stream " << R.Stream << " after op" << R.Op
       << (R.Event >= NumEdgeEvents ? " (for the host)" : "") << "\n";
  for (const EventWait &W : EventWaits) {
    OS << "  stream " << W.Waiter << " waits for event";
    for (unsigned E : W.Events)
      OS << " " << E;
    OS << " before op" << W.Op;
    if (W.At != W.Statement)
      OS << " (before the loop on line " << SM.getExpansionLineNumber(W.At->getBeginLoc()) << ")";
    OS << "\n";
  }
  if (CoveredWaits)
    OS << "  " << CoveredWaits
       << " cross-stream edge(s) ordered by an earlier wait or device sync\n";
  for (unsigned I = 0; I < WaitStreams.size(); ++I) {
    if (WaitsForDevice[I]) {
      OS << "  wait " << I << " syncs the device (work on the program's own streams)\n";
      continue;
    }
    OS << "  wait " << I << " syncs";
    for (unsigned S : WaitStreams[I])
      OS << " stream " << S;
    for (unsigned E : WaitEvents[I])
      OS << " event " << E;
    OS << "\n";
  }
}

void StreamPlan::printDot(llvm::raw_ostream &OS, const FunctionAccesses &FA,
                          unsigned Cluster) const {
  static const char *const Colours[] = {"lightblue", "palegreen", "lightsalmon", "plum",
                                        "khaki",     "lightcyan", "pink",        "wheat"};
  auto Node = [&](unsigned Op) {
    return "f" + std::to_string(Cluster) + "_op" + std::to_string(Op);
  };
  OS << "  subgraph cluster_" << Cluster << " {\n    label=\"" << FA.name() << "\";\n";
  for (const GpuOp &Op : FA.ops()) {
    OS << "    " << Node(Op.Id) << " [label=\"" << Op.Callee << "\\nline " << Op.Line << "\\n";
    if (StreamOf[Op.Id])
      OS << "stream " << *StreamOf[Op.Id]
         << "\", style=filled, fillcolor=" << Colours[*StreamOf[Op.Id] % std::size(Colours)]
         << "];\n";
    else
      OS << "synchronous\", shape=box];\n";
  }
  for (const Dependency &E : Edges) {
    bool Cross = StreamOf[E.From] != StreamOf[E.To];
    OS << "    " << Node(E.From) << " -> " << Node(E.To) << " [label=\"" << FA.describe(E.Object)
       << "\"" << (E.LoopCarried ? ", style=dashed" : "") << (Cross ? ", color=red" : "") << "];\n";
  }
  OS << "  }\n";
}

} // namespace streamalloc
