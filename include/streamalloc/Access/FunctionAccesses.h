//===- FunctionAccesses.h - Read/write analysis of one host function -------===//
//
// The read/write stage's result for one host function: its memory objects,
// its GPU ops with the objects each reads and writes, and a query that gives
// the host accesses of any statement. Calls to functions with a body use the
// callee's summary; a call to a function without a model or body may touch
// any memory. What a parameter points to is a symbolic object; where two of
// them (or one and a global) may be the same memory, each stands for both.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_FUNCTIONACCESSES_H
#define STREAMALLOC_ACCESS_FUNCTIONACCESSES_H

#include "streamalloc/Access/MemoryObjects.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class CXXMethodDecl;
class Expr;
class FunctionDecl;
class QualType;
class Stmt;
class VarDecl;
} // namespace clang

namespace streamalloc {

struct ApiFunction;
class FunctionSummaries;

enum class GpuOpKind {
  Copy,
  Set,
  Launch,
  Alloc, ///< cudaMalloc made stream-ordered: writes the fresh object when its stream reaches it
  Free,  ///< cudaFree made stream-ordered: writes (frees) the object when its stream reaches it
  /// A call of a function that returns with its GPU work still pending on a
  /// stream of the tool's (FunctionSummaries::setPendingWorkStream): that
  /// work, as an op of the caller on the same stream.
  CallWork,
};

/// A host-side call that enqueues device work.
struct GpuOp {
  unsigned Id;
  GpuOpKind Kind;
  std::string Callee;      ///< API name or kernel name
  const clang::Expr *Call; ///< CallExpr or CUDAKernelCallExpr
  const ApiFunction *Api;  ///< null for launches
  AccessSet Effects;       ///< what the op reads/writes when it runs
  std::string UnknownWhy;  ///< why Effects contain Unknown, if they do
  unsigned Line, Column;
  bool HasUserStream;         ///< the call already names a stream
  bool UsesTemporary = false; ///< reads or writes a temporary that dies with the statement
  /// The part of Effects that the host itself may touch before the legacy
  /// default stream reaches the op, when the op is left as a synchronous call
  /// there: the source of a copy to the device (every argument when the
  /// direction is not spelled), what a fill writes outside device memory.
  /// The rest runs in the legacy stream's order: a launch, what a copy does
  /// on the device, the host buffer a copy to the host writes once it has run.
  AccessSet HostSideEffects{};
  /// For an op given a stream of the program's own: that stream's name when
  /// it is the same wherever the function spells it (ownStreamKey), else "".
  std::string StreamKey{};
  /// CallWork: the stream of the tool's pool the callee leaves its work on;
  /// the plan puts the op there.
  std::optional<unsigned> FixedStream{};
};

/// Which way a copy goes, from its cudaMemcpyKind argument (spelled as an
/// enumerator, defaulted ones included). Unknown: not a copy, or a kind that
/// is a variable or cudaMemcpyDefault (any direction).
enum class CopyDirection { Unknown, HostToDevice, DeviceToHost, DeviceToDevice, HostToHost };
CopyDirection copyDirectionOf(const GpuOp &Op);
/// The same for a call of \p Api (a copy of the API table) not yet an op.
CopyDirection copyDirectionOf(const ApiFunction &Api, const clang::CallExpr &Call);

/// Host-side behaviour of one statement (its whole subtree).
struct StmtAccesses {
  AccessSet Host;            ///< host reads/writes while the statement runs
  std::string UnknownWhy;    ///< the construct that made Host touch Unknown
  std::vector<unsigned> Ops; ///< GPU ops enqueued by the statement, in source order
  /// The ops of Ops enqueued whenever the statement runs (not in a part of
  /// it that may be skipped: a `?:` branch, the right of `&&`/`||`).
  std::vector<unsigned> OpsAlwaysEnqueued;
  bool SyncsDevice = false; ///< waits for all device work (cudaDeviceSynchronize)
  /// The device-sync calls that make SyncsDevice true (they run whenever the
  /// statement does).
  std::vector<const clang::Expr *> SyncCalls;
  /// The stream syncs (cudaStreamSynchronize) that run whenever the
  /// statement does.
  std::vector<const clang::Expr *> StreamSyncCalls;
  bool ResetsDevice = false;   ///< calls cudaDeviceReset
  bool MaySync = false;        ///< may wait for the device, a stream or an event
  bool PerformsGpuOps = false; ///< enqueues device work (itself or in a callee)
  /// Besides its own GPU ops, may block the host until earlier device work is
  /// done in the original program: a sync, a CUDA runtime call other than a
  /// query, a callee that performs GPU ops or syncs, a call the analysis
  /// cannot see.
  bool MayBlock = false;
  bool ReadsTimer = false; ///< reads a clock (itself or in a callee)
  /// Puts work on a stream of the program's own (an op given such a stream,
  /// or a call of a function that may return before such work is done).
  bool EnqueuesOnOwnStreams = false;
  bool CalleesPerformGpuOps = false; ///< calls a function that enqueues device work
  /// Calls a function that enqueues device work and may, in the output, block
  /// the host where the original did not or not where it did (any but those
  /// of FunctionSummaries::setBlocksAsWritten).
  bool CalleesMayBlockDifferently = false;
  /// Calls a function the analysis cannot see (no body, no model, no
  /// summary), or one that reaches memory it cannot name and may itself do
  /// so: whether and where that blocks in the output is not known.
  bool CallsUnseen = false;
  /// Calls a function whose GPU ops the output leaves as written
  /// (FunctionSummaries::setLeftAsWritten): then HostSide is Host without
  /// what those ops do in the legacy stream's order.
  bool CallsLeftAsWritten = false;
  /// Always calls such a function that returns only once all earlier device
  /// work is complete (FunctionSummaries::setLeftAsWritten).
  bool CallCompletesEarlierWork = false;
  std::optional<AccessSet> HostSide;
};

/// The name reports give \p F: its qualified name, or for a lambda's body
/// "lambda in main, line 19".
std::string displayName(const clang::FunctionDecl &F);

/// Whether the lambda whose body is \p Body runs only where the unit shows
/// it: it is called at least once, and every call is one of a local variable
/// holding the closure that the program does nothing with but call. Each
/// caller then sees the call, and the lambda's summary, captures included.
bool onlyCalledDirectly(const clang::CXXMethodDecl &Body, clang::ASTContext &Ctx);

/// Why the lambda whose body is \p Body may run other than during a call on
/// the thread of a function that holds or passes its closure: "" when the
/// program does nothing with the closure but call it directly or pass it to
/// functions that call it only before they return, on the caller's thread
/// (standard algorithms without an execution policy, functions the unit
/// defines). Such a lambda's body can order its work after everything
/// enqueued before it runs, and finish it before it returns, wherever it is
/// called from.
std::string whyLambdaMayRunElsewhere(const clang::CXXMethodDecl &Body, clang::ASTContext &Ctx);

/// Whether \p T is a standard execution policy that lets an algorithm run
/// the function it is given on several threads at once (all but
/// std::execution::seq).
bool isParallelExecutionPolicy(clang::QualType T);

class FunctionAccesses {
public:
  /// \p StreamOrdered: cudaMalloc/cudaFree calls to treat as GPU ops of their
  /// own (GpuOpKind::Alloc/Free) because they will become stream-ordered;
  /// any other allocation or release is a host access, as usual.
  /// \p ReturnsWithWorkPending: \p F may return while GPU work it enqueued
  /// on the tool's streams is still running, where that work touches only
  /// what its callers can name (mayOutliveFunction); each caller waits for
  /// it as for a CallWork op.
  FunctionAccesses(const clang::FunctionDecl &F, clang::ASTContext &Ctx, FunctionSummaries &Device,
                   llvm::ArrayRef<const clang::Expr *> StreamOrdered = {},
                   bool ReturnsWithWorkPending = false);
  ~FunctionAccesses();
  /// Whether the analysis of \p F would find any GPU op (ops() not empty),
  /// answered from the syntax alone; \p Device: the calls of functions that
  /// return with work pending count.
  static bool hasOps(const clang::FunctionDecl &F,
                     llvm::ArrayRef<const clang::Expr *> StreamOrdered = {},
                     FunctionSummaries *Device = nullptr);
  FunctionAccesses(FunctionAccesses &&);

  const clang::FunctionDecl &function() const;
  std::string name() const;
  const ObjectTable &objects() const;
  const std::vector<GpuOp> &ops() const;
  bool returnsWithWorkPending() const;
  /// Whether \p Op may still run after the function returns: a copy, fill,
  /// launch or callee's pending work on the tool's streams that touches only
  /// what a caller can name (what the parameters point to, globals and
  /// device symbols), no local, no memory the function allocates, nothing
  /// unknown, not the program's output.
  bool mayOutliveFunction(const GpuOp &Op) const;
  /// What the destructors of the function's locals may touch (all of them,
  /// wherever they are declared): a return runs some of them.
  const AccessSet &destroyedOnReturn() const;

  /// Host accesses of \p S. GPU ops inside it contribute the reads that
  /// evaluating their arguments performs, not their device effects.
  /// \p MayNotRun: \p S sits in a branch or loop body, so an exit() in it is
  /// an error path (it abandons pending GPU work, as a CUDA error would).
  /// \p Skip: a subtree left out (an op's own call, whose argument reads
  /// happen before the op is enqueued).
  StmtAccesses accessesOf(const clang::Stmt *S, bool MayNotRun = false,
                          const clang::Stmt *Skip = nullptr) const;

  /// What the destructor of the local \p V does when its scope ends (a
  /// std::vector frees its own elements; a class whose destructor has a body
  /// does what its summary says; anything else may touch any memory).
  StmtAccesses destructorAccesses(const clang::VarDecl *V) const;

  /// Whether memory the analysis cannot name may include \p V's storage (its
  /// address is taken somewhere, or it is an array or a global).
  bool isReachable(const clang::VarDecl *V) const;

  /// The objects the pointer value \p E (an expression of this function)
  /// may point to; none when it may point to memory the analysis cannot
  /// name. May add symbolic objects to objects().
  std::optional<std::vector<ObjectId>> pointeesOf(const clang::Expr *E) const;
  /// The parameter whose pointee \p Object is (`*p`, not a path through
  /// stored pointers), if it is one.
  std::optional<unsigned> pointedToByParam(ObjectId Object) const;

  /// Human-readable description of an object, e.g. "h_c" or "a[] (stack)".
  std::string describe(ObjectId Object) const;

  /// Prints objects, ops and per-statement host accesses (--dump=accesses).
  void print(llvm::raw_ostream &OS) const;

  struct Impl; // defined in FunctionAccesses.cpp

private:
  std::unique_ptr<Impl> P;
};

} // namespace streamalloc

#endif
