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

bool shareLoop(const Unit &A, const Unit &B) {
  return llvm::any_of(A.Loops,
                      [&](const clang::Stmt *L) { return llvm::is_contained(B.Loops, L); });
}

/// Whether a conflict between units \p From and \p To is an edge From -> To:
/// forward in program order, or carried over the back edge of a loop around
/// both.
bool edgeMayRun(const std::vector<Unit> &Units, unsigned From, unsigned To) {
  return From != To && (From < To || shareLoop(Units[From], Units[To]));
}

/// Which units touch which objects, so that the units a unit may conflict
/// with are found without trying every pair: two ops conflict only through
/// an object both may touch and one writes, or when one touches Unknown.
class UnitIndex {
public:
  UnitIndex(const FunctionAccesses &FA, const std::vector<Unit> &Units)
      : FA(FA), Units(Units), Modes(Units.size()), TouchesUnknown(Units.size()) {
    for (unsigned U = 0; U < Units.size(); ++U) {
      for (unsigned Op : Units[U].Ops)
        for (auto [Obj, Mode] : FA.ops()[Op].Effects.entries())
          Modes[U][Obj] |= Mode;
      for (auto [Obj, Mode] : Modes[U]) {
        if (Obj == UnknownObject) {
          TouchesUnknown[U] = true;
          Wild.push_back(U);
          continue;
        }
        Touching[Obj].push_back(U);
        if (Mode & WriteAccess)
          Writing[Obj].push_back(U);
      }
    }
    if (!Wild.empty()) {
      All.resize(Units.size());
      std::iota(All.begin(), All.end(), 0u);
    }
  }

  bool conflict(unsigned A, unsigned B) const {
    for (unsigned X : Units[A].Ops)
      for (unsigned Y : Units[B].Ops)
        if (conflictBetween(FA.ops()[X], FA.ops()[Y]))
          return true;
    return false;
  }

  /// Calls \p Visit with lists of units, ascending, that together hold
  /// every unit that may conflict with \p U (a superset, repeats possible);
  /// all units when \p U may touch any object.
  template <typename Fn> void forLists(unsigned U, Fn Visit) const {
    if (TouchesUnknown[U]) {
      Visit(llvm::ArrayRef<unsigned>(All));
      return;
    }
    Visit(llvm::ArrayRef<unsigned>(Wild));
    for (auto [Obj, Mode] : Modes[U]) {
      // A unit that only reads the object conflicts through it with writers.
      const auto &Index = (Mode & WriteAccess) ? Touching : Writing;
      if (auto It = Index.find(Obj); It != Index.end())
        Visit(llvm::ArrayRef<unsigned>(It->second));
    }
  }

  /// The latest unit before \p U that conflicts with it and that \p Accept
  /// takes, if any.
  template <typename Pred> std::optional<unsigned> latestBefore(unsigned U, Pred Accept) const {
    std::optional<unsigned> Best;
    forLists(U, [&](llvm::ArrayRef<unsigned> List) {
      for (auto It = std::lower_bound(List.begin(), List.end(), U); It != List.begin();) {
        unsigned V = *--It;
        if (Best && V <= *Best)
          break;
        if (Accept(V) && conflict(V, U)) {
          Best = V;
          break;
        }
      }
    });
    return Best;
  }

  /// Every unit that conflicts with \p U, ascending, that \p Accept takes.
  template <typename Pred> std::vector<unsigned> allConflicting(unsigned U, Pred Accept) const {
    std::vector<unsigned> Result;
    forLists(U, [&](llvm::ArrayRef<unsigned> List) {
      for (unsigned V : List)
        if (V != U && Accept(V))
          Result.push_back(V);
    });
    llvm::sort(Result);
    Result.erase(llvm::unique(Result), Result.end());
    llvm::erase_if(Result, [&](unsigned V) { return !conflict(V, U); });
    return Result;
  }

private:
  const FunctionAccesses &FA;
  const std::vector<Unit> &Units;
  std::vector<std::map<ObjectId, uint8_t>> Modes; ///< per unit: its ops' modes, combined
  std::vector<bool> TouchesUnknown;               ///< per unit
  llvm::DenseMap<ObjectId, std::vector<unsigned>> Touching, Writing; ///< units, ascending
  std::vector<unsigned> Wild; ///< units touching Unknown, ascending
  std::vector<unsigned> All;  ///< every unit, when some touch Unknown
};

/// Every dependency edge between ops of different units, in the order
/// --dump=schedule prints them (by consumer unit, then producer unit).
std::vector<Dependency> allEdges(const FunctionAccesses &FA, const std::vector<Unit> &Units,
                                 const UnitIndex &Index) {
  std::vector<Dependency> Edges;
  for (unsigned To = 0; To < Units.size(); ++To) {
    auto Related = [&](unsigned From) { return edgeMayRun(Units, From, To); };
    for (unsigned From : Index.allConflicting(To, Related))
      for (unsigned A : Units[From].Ops)
        for (unsigned B : Units[To].Ops)
          if (std::optional<ObjectId> Obj = conflictBetween(FA.ops()[A], FA.ops()[B]))
            Edges.push_back({A, B, *Obj, From > To});
  }
  return Edges;
}

/// Edges of the dependency graph with the same paths as the whole graph, in
/// time linear in the accesses (for ops that may touch Unknown memory: in
/// the ops). Per object, in program order, an op that writes it links from
/// every op touching it since the first of the last unit that wrote it,
/// and an op that only reads it from that unit's writers; per loop and
/// object, the loop's last writing unit's writers link back (carried) to the
/// ops from the loop's start to its first writing unit, and the ops from the
/// last writing unit to the loop's end to the first writing unit's writers.
/// Any conflicting pair is then joined through a chain of writers. An op
/// that may touch Unknown memory gets its edges one by one.
std::vector<Dependency> pathPreservingEdges(const FunctionAccesses &FA,
                                            const std::vector<Unit> &Units) {
  struct Access {
    unsigned Unit, Op;
    bool Writes;
  };
  using AccessList = std::vector<Access>;
  std::vector<Dependency> Links;
  auto Link = [&](const Access &From, const Access &To, ObjectId Obj, bool Carried) {
    assert((From.Writes || To.Writes) && "links join conflicting ops");
    if (From.Unit != To.Unit)
      Links.push_back({From.Op, To.Op, Obj, Carried});
  };
  // The accesses of the unit that ends at \p End (exclusive) in \p List.
  auto UnitStart = [](const AccessList &List, size_t End) {
    size_t First = End - 1;
    while (First > 0 && List[First - 1].Unit == List[End - 1].Unit)
      --First;
    return First;
  };
  auto Writes = [](const AccessList &List, size_t Begin, size_t End) {
    return std::any_of(List.begin() + Begin, List.begin() + End,
                       [](const Access &A) { return A.Writes; });
  };

  std::vector<std::optional<unsigned>> UnitOf(FA.ops().size());
  std::vector<unsigned> WildOps;
  std::vector<bool> IsWild(FA.ops().size());
  llvm::DenseMap<ObjectId, AccessList> ByObject;
  std::map<std::pair<const clang::Stmt *, ObjectId>, AccessList> ByLoop;
  for (unsigned U = 0; U < Units.size(); ++U)
    for (unsigned Op : Units[U].Ops) {
      UnitOf[Op] = U;
      for (auto [Obj, Mode] : FA.ops()[Op].Effects.entries()) {
        if (Obj == UnknownObject) {
          WildOps.push_back(Op);
          IsWild[Op] = true;
          continue;
        }
        Access A{U, Op, bool(Mode & WriteAccess)};
        ByObject[Obj].push_back(A);
        for (const clang::Stmt *L : Units[U].Loops)
          ByLoop[{L, Obj}].push_back(A);
      }
    }

  for (auto &[Obj, List] : ByObject) {
    // [WriterBegin, WriterEnd): the last writing unit's accesses before the
    // current unit.
    size_t WriterBegin = 0, WriterEnd = 0;
    for (size_t I = 0; I < List.size(); ++I) {
      const Access &B = List[I];
      for (size_t J = WriterBegin; J < (B.Writes ? I : WriterEnd); ++J)
        if (B.Writes || List[J].Writes)
          Link(List[J], B, Obj, false);
      if (I + 1 == List.size() || List[I + 1].Unit != B.Unit) {
        size_t First = UnitStart(List, I + 1);
        if (Writes(List, First, I + 1)) {
          WriterBegin = First;
          WriterEnd = I + 1;
        }
      }
    }
  }
  for (auto &[Key, List] : ByLoop) {
    ObjectId Obj = Key.second;
    auto IsWrite = [](const Access &A) { return A.Writes; };
    auto FirstWrite = llvm::find_if(List, IsWrite);
    if (FirstWrite == List.end())
      continue;
    unsigned FirstWriter = FirstWrite->Unit;
    unsigned LastWriter = llvm::find_if(llvm::reverse(List), IsWrite)->Unit;
    // [Begin, FirstEnd): up to the first writing unit; [FirstBegin, FirstEnd) that unit.
    auto FirstEnd = std::find_if(FirstWrite, List.end(),
                                 [&](const Access &A) { return A.Unit != FirstWriter; });
    auto FirstBegin = std::find_if(List.begin(), FirstEnd,
                                   [&](const Access &A) { return A.Unit == FirstWriter; });
    for (const Access &A : List) {
      if (A.Unit < LastWriter)
        continue;
      bool LastWrite = A.Unit == LastWriter && A.Writes;
      for (auto B = LastWrite ? List.begin() : FirstBegin; B != FirstEnd && B->Unit < A.Unit; ++B)
        if (LastWrite || B->Writes)
          Link(A, *B, Obj, true);
    }
  }
  // Each pair of ops that may touch Unknown is tried once, from its earlier op.
  for (unsigned W : WildOps)
    for (unsigned X = 0; X < FA.ops().size(); ++X) {
      if (!UnitOf[X] || (IsWild[X] && X < W))
        continue;
      if (std::optional<ObjectId> Obj = conflictBetween(FA.ops()[W], FA.ops()[X])) {
        unsigned UW = *UnitOf[W], UX = *UnitOf[X];
        if (edgeMayRun(Units, UW, UX))
          Links.push_back({W, X, *Obj, UW > UX});
        if (edgeMayRun(Units, UX, UW))
          Links.push_back({X, W, *Obj, UX > UW});
      }
    }
  return Links;
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
  // the back edge of a loop around both. The decisions below ask for them
  // unit by unit, through the index; profitability follows paths, for
  // which edges with the same paths suffice.
  UnitIndex Index(FA, Units);
  Plan.PathEdges = pathPreservingEdges(FA, Units);
  if (Options.ListEdges)
    Plan.Edges = allEdges(FA, Units, Index);

  // Greedy assignment in program order. A stream-ordered allocation with no
  // predecessor waits for its first user (later in program order) and joins
  // that user's stream.
  unsigned Max = std::max(1u, Options.MaxStreams);
  std::vector<std::optional<unsigned>> StreamOfUnit(Units.size());
  std::vector<int> Tail;         // per stream: last unit put on it
  std::vector<unsigned> LastUse; // per stream: when it was last used
  std::vector<unsigned> Waiting; // allocations placed with their first user
  llvm::DenseMap<const clang::Stmt *, unsigned> StreamOfLoop; // of OneStreamLoops
  auto OnlyKind = [&](unsigned U, GpuOpKind Kind) {
    return llvm::all_of(Units[U].Ops, [&](unsigned Op) { return FA.ops()[Op].Kind == Kind; });
  };
  auto Place = [&](unsigned U, unsigned S) {
    assert(S < Tail.size() && "a unit goes on a stream in use");
    StreamOfUnit[U] = S;
    for (unsigned Op : Units[U].Ops)
      Plan.StreamOf[Op] = S;
  };
  auto Any = [](unsigned) { return true; };
  auto IsPlaced = [&](unsigned V) { return StreamOfUnit[V].has_value(); };
  for (unsigned U = 0; U < Units.size(); ++U) {
    // The work a callee returns with is on the stream it chose.
    std::optional<unsigned> Fixed;
    for (unsigned Op : Units[U].Ops)
      if (FA.ops()[Op].FixedStream) {
        assert((!Fixed || Fixed == FA.ops()[Op].FixedStream) && "one fixed stream per unit");
        Fixed = FA.ops()[Op].FixedStream;
      }
    if (Fixed) {
      assert(*Fixed < Max && "the callee's plan kept the same bound");
      while (Tail.size() <= *Fixed) {
        Tail.push_back(-1);
        LastUse.push_back(0);
      }
      Place(U, *Fixed);
      Tail[*Fixed] = U;
      LastUse[*Fixed] = U + 1;
      continue;
    }
    if (OnlyKind(U, GpuOpKind::Alloc) && !Index.latestBefore(U, Any)) {
      Waiting.push_back(U); // placed with its first user
      continue;
    }
    // The outermost loop around U whose ops share one stream, and that
    // stream once its first unit is placed.
    const clang::Stmt *OneStream = nullptr;
    for (const clang::Stmt *Loop : Units[U].Loops)
      if (llvm::is_contained(Options.OneStreamLoops, Loop))
        OneStream = Loop;
    std::optional<unsigned> Chosen;
    auto Grouped = StreamOfLoop.find(OneStream);
    bool InGroup = OneStream && Grouped != StreamOfLoop.end();
    if (InGroup)
      Chosen = Grouped->second;
    // The stream whose last unit U depends on (the latest such).
    for (unsigned S = 0; !InGroup && S < Tail.size(); ++S)
      if (Tail[S] >= 0 && Index.conflict(Tail[S], U) && (!Chosen || Tail[S] > Tail[*Chosen]))
        Chosen = S;
    // A stream kept free below a callee's fixed one is a new stream.
    for (unsigned S = 0; !Chosen && S < Tail.size(); ++S)
      if (Tail[S] < 0)
        Chosen = S;
    if (!Chosen && Tail.size() < Max) {
      Chosen = Tail.size();
      Tail.push_back(-1);
      LastUse.push_back(0);
    }
    if (!Chosen) // bound hit: follow the latest predecessor
      if (std::optional<unsigned> Latest = Index.latestBefore(U, IsPlaced))
        Chosen = *StreamOfUnit[*Latest];
    // Bound hit, independent: a copy goes behind a copy in the same direction
    // (it would wait for that copy's engine anyway) rather than behind other
    // work; otherwise the stream idle the longest.
    CopyDirection E =
        Chosen ? CopyDirection::Unknown : copyEngineOf(FA.ops()[Units[U].Ops.front()]);
    for (unsigned S = 0; E != CopyDirection::Unknown && S < Tail.size(); ++S)
      if (Tail[S] >= 0 && copyEngineOf(FA.ops()[Units[Tail[S]].Ops.back()]) == E &&
          (!Chosen || LastUse[S] < LastUse[*Chosen]))
        Chosen = S;
    if (!Chosen)
      Chosen = llvm::min_element(LastUse) - LastUse.begin();
    Place(U, *Chosen);
    if (OneStream)
      StreamOfLoop.try_emplace(OneStream, *Chosen);
    llvm::erase_if(Waiting, [&](unsigned P) {
      if (!Index.conflict(P, U))
        return false;
      Place(P, *Chosen);
      return true;
    });
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
    auto Producer = [&](unsigned P) {
      return StreamOfUnit[P] != StreamOfUnit[U] && edgeMayRun(Units, P, U);
    };
    for (unsigned P : Index.allConflicting(U, Producer)) {
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
