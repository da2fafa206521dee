//===- FunctionSummary.h - What a function may read and write ---------------===//
//
// For each function with a body in the translation unit (kernels, __device__
// functions, host helpers, member functions): which objects it may read and
// write, on the host and on the device, named from inside the function:
// what a parameter points to (a symbolic path such as `*w.d_params`),
// globals, objects it allocates, and Unknown. Also the pointers it stores
// where its caller can see them (`cudaMalloc(&w->buf, n)`), what it returns,
// what it lets escape to code the analysis cannot see, and whether it
// performs GPU ops or synchronises.
//
// Summaries are computed on demand, callees first; functions that call each
// other (a strongly connected component of the call graph) are iterated
// together to a fixpoint. A call site instantiates the callee's summary with
// its arguments; a launch instantiates the kernel's.
//
// A host function's summary includes the effects of the GPU ops it performs:
// the tool waits for them before the function returns, so by then they are
// done.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_ACCESS_FUNCTIONSUMMARY_H
#define STREAMALLOC_ACCESS_FUNCTIONSUMMARY_H

#include "streamalloc/Access/MemoryObjects.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace streamalloc {

/// Where inside an object a pointer is stored: a field (FieldDecl), the
/// element buffer of a container (the container's class), or null: an
/// element of an array, or the whole object.
using FieldKey = const clang::Decl *;

/// "What parameter Param points to (or refers to), then what the pointer
/// stored at each of Loads points to". Param This is the object a member
/// function is called on. ByValue: the path starts at the parameter's own
/// value (a struct passed by value), so its first step loads a field of it.
struct SymbolicPath {
  static constexpr unsigned This = ~0u;
  unsigned Param = 0;
  bool ByValue = false;
  llvm::SmallVector<FieldKey, 2> Loads;

  bool operator==(const SymbolicPath &O) const {
    return Param == O.Param && ByValue == O.ByValue && Loads == O.Loads;
  }
  bool operator!=(const SymbolicPath &O) const { return !(*this == O); }
  bool operator<(const SymbolicPath &O) const;
  /// Reads like the C expression for the object: `*p`, `w` (a reference
  /// parameter), `*w.d_params`, `*q->next`, `**pp`, `*v.data()`.
  std::string str(const clang::FunctionDecl &F) const;
};

/// An object as a summarised function names it.
struct SummaryRef {
  enum RefKind : uint8_t { Path, Global, Fresh, Unknown };
  RefKind Kind = Unknown;
  SymbolicPath P;                      ///< Path
  const clang::VarDecl *Var = nullptr; ///< Global (a global or static variable)
  unsigned FreshIndex = 0;             ///< Fresh: index into FunctionSummary::FreshObjects

  static SummaryRef path(SymbolicPath P);
  static SummaryRef global(const clang::VarDecl *V);
  static SummaryRef fresh(unsigned Index);
  static SummaryRef unknown() { return {}; }
  bool operator==(const SummaryRef &O) const;
  bool operator!=(const SummaryRef &O) const { return !(*this == O); }
  bool operator<(const SummaryRef &O) const;
};

struct SummaryAccess {
  SummaryRef Object;
  uint8_t Host = NoAccess;   ///< by host code (including callees' GPU ops, finished on return)
  uint8_t Device = NoAccess; ///< by device code: the kernel, or the function's own GPU ops
  /// The part of Device that the host itself touches when the function's own
  /// GPU ops stay as written (GpuOp::HostSideEffects); the rest runs in the
  /// legacy stream's order.
  uint8_t DeviceHostSide = NoAccess;
  bool operator==(const SummaryAccess &O) const {
    return Object == O.Object && Host == O.Host && Device == O.Device &&
           DeviceHostSide == O.DeviceHostSide;
  }
};

/// The pointer stored at Field of Target may point to Value.
struct SummaryStore {
  SummaryRef Target;
  FieldKey Field = nullptr;
  SummaryRef Value;
  bool operator==(const SummaryStore &O) const {
    return Target == O.Target && Field == O.Field && Value == O.Value;
  }
  bool operator<(const SummaryStore &O) const;
};

/// An object the function allocates and lets its caller reach.
struct FreshObject {
  ObjectKind Kind;
  std::string Name;
  /// The allocation in the function's body (none in an imported summary):
  /// where pinning a buffer a constructor allocates starts (HostPinning.cpp).
  const clang::Expr *Site = nullptr;
  bool operator==(const FreshObject &O) const {
    return Kind == O.Kind && Name == O.Name && Site == O.Site;
  }
};

struct FunctionSummary {
  std::vector<SummaryAccess> Accesses;      ///< sorted by object
  uint8_t UnknownHost = NoAccess;           ///< host access to memory the analysis cannot name
  uint8_t UnknownDevice = NoAccess;         ///< device access to memory the analysis cannot name
  uint8_t UnknownDeviceHostSide = NoAccess; ///< the part of UnknownDevice as DeviceHostSide
  std::string UnknownWhy;                   ///< the first construct that caused it
  std::vector<FreshObject> FreshObjects;
  std::vector<SummaryStore> Stores; ///< sorted
  std::vector<SummaryRef> Escapes;  ///< reachable by code the analysis cannot see afterwards
  std::vector<SummaryRef> Returns;  ///< what a returned pointer (or reference) designates
  /// A returned struct (or container): what the pointers in its fields point to.
  std::vector<std::pair<FieldKey, SummaryRef>> ReturnFields;
  bool StoresUnknown = false;        ///< may store pointers to anything anywhere it can reach
  bool WritesOutput = false;         ///< prints (for a kernel: flushed at syncs)
  bool PerformsGpuOps = false;       ///< copies, fills or launches (host code)
  bool CalleesPerformGpuOps = false; ///< some of them in callees (not only its own)
  bool ResetsDevice = false;         ///< may call cudaDeviceReset
  bool MaySync = false;              ///< may wait for the device (or a stream or event)
  /// Reads a clock (gettimeofday, a `get_time()` wrapper): a call to it is a
  /// timer read of the caller (--timers).
  bool ReadsTimer = false;
  /// Every clock read comes after a device sync of its own that the tool
  /// keeps (a top-level statement of the body, outside `main`): the work a
  /// caller left running is complete when the clock is read.
  bool SyncsDeviceBeforeTimer = false;
  /// May return while work it (or a callee) put on a stream of the
  /// program's own is still running: no device sync follows that work at the
  /// top level of its body before every return. A caller models the call as
  /// an op on such a stream (OwnStreams.h).
  bool LeavesOwnStreamWork = false;
  bool Recursive = false; ///< part of a cycle of calls (iterated to a fixpoint)

  /// Convenience views for callers that only care about the first level.
  uint8_t paramMode(unsigned Param) const;           ///< through what the parameter points to
  uint8_t globalMode(const clang::VarDecl *V) const; ///< host and device
  uint8_t unknownMode() const { return UnknownHost | UnknownDevice; }

  bool operator==(const FunctionSummary &O) const;
  bool operator!=(const FunctionSummary &O) const { return !(*this == O); }

  /// One fact a line, e.g. "  device W: *out" (--dump=summaries).
  void print(llvm::raw_ostream &OS, const clang::FunctionDecl &F) const;
};

/// Computes and caches summaries (callees first, cycles to a fixpoint), and
/// the points-to facts the read/write analysis of each function needs.
class FunctionSummaries {
public:
  FunctionSummaries();
  ~FunctionSummaries();
  const FunctionSummary &get(const clang::FunctionDecl *F);
  /// The driver's finding that the output keeps every GPU op of \p F as
  /// written (on the legacy default stream, in program order): a later
  /// caller's pending work on the tool's streams is then complete on the
  /// device before those ops run, and only what \p F touches on the host
  /// can conflict with it (StmtAccesses::HostSide). \p CompletesEarlierWork:
  /// every call returns only once the work queued before it is complete (a
  /// device sync or a blocking copy to the host that always runs).
  void setLeftAsWritten(const clang::FunctionDecl *F, bool CompletesEarlierWork);
  /// The driver's finding that the output of \p F blocks the host exactly
  /// where the original does: none of its GPU ops runs asynchronously (ops on
  /// the program's own streams stay as written), none of its syncs is
  /// removed, and every function it calls that enqueues device work blocks
  /// as written too. A caller's pending work on the program's own streams is
  /// then completed by a call of \p F exactly as in the original.
  void setBlocksAsWritten(const clang::FunctionDecl *F);
  /// The driver's finding that \p F returns with GPU work still pending on
  /// stream \p Stream of the tool's pool (none: it waits for its work before
  /// returning). Each call of it is then an op of the caller's
  /// (GpuOpKind::CallWork) on that stream.
  void setPendingWorkStream(const clang::FunctionDecl *F, std::optional<unsigned> Stream);
  /// The driver's findings so far (setLeftAsWritten, setPendingWorkStream,
  /// setBlocksAsWritten),
  /// to go back to after trial analyses.
  struct Findings {
    std::vector<std::pair<const clang::FunctionDecl *, bool>> LeftAsWritten;
    std::vector<std::pair<const clang::FunctionDecl *, unsigned>> PendingWork;
    std::vector<const clang::FunctionDecl *> BlocksAsWritten;
  };
  Findings findings() const;
  void restore(const Findings &F);
  std::optional<unsigned> pendingWorkStream(const clang::FunctionDecl *F) const;

  /// Every function defined in the main file, in source order: its summary,
  /// which of its symbolic objects may alias, and for host code the read and
  /// write sets of each GPU op (--dump=summaries).
  void print(llvm::raw_ostream &OS, clang::ASTContext &Ctx);

  struct Impl; // defined in lib/Access
  Impl &impl() { return *P; }

private:
  std::unique_ptr<Impl> P;
};

} // namespace streamalloc

#endif
