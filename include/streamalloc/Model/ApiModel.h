//===- ApiModel.h - What the tool knows about external functions ----------===//
//
// One table (ApiModel.def) describes every CUDA runtime and libc function the
// analyses understand: how each argument's pointee is accessed, whether the
// call enqueues GPU work, its asynchronous form, and whether it synchronises;
// the CUDA types and constants the tool reads or writes; and the name
// prefixes of functions it does not list. No other part of the tool spells
// an API name (scripts/check-api-names): code asks for a row's kind or
// capability, and text the tool writes takes its names from here.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_MODEL_APIMODEL_H
#define STREAMALLOC_MODEL_APIMODEL_H

#include "llvm/ADT/StringRef.h"

namespace streamalloc {

enum class ApiKind {
  GpuCopy,      ///< enqueues a copy (cudaMemcpy family)
  GpuSet,       ///< enqueues a fill (cudaMemset family)
  DeviceSync,   ///< waits for all device work (cudaDeviceSynchronize)
  OtherSync,    ///< waits for something the tool did not enqueue (a user stream/event)
  Allocate,     ///< creates a fresh memory object (returned or through an out-parameter)
  Release,      ///< frees the object its argument points to
  Host,         ///< ordinary host function: accesses only what its roles say
  Pure,         ///< touches no memory the program can see
  Timer,        ///< reads a clock (else like Host): the program observes elapsed time there
  ProgramExit,  ///< ends the process (exit, abort)
  DeviceReset,  ///< destroys the CUDA context (cudaDeviceReset)
  DeviceSelect, ///< changes the current device (cudaSetDevice)
  UserStreams,  ///< creates or uses streams/events/graphs explicitly
  // std::vector: a container whose elements are a heap buffer it owns. For a
  // member function, role 0 is the container itself (`this`), and a role on
  // a container says how its elements are accessed ('f': it may reallocate).
  ContainerNew,      ///< the class row: constructing one allocates its elements
  ContainerElements, ///< returns a pointer, reference or iterator into the elements
  ContainerAssign,   ///< operator=: copies the elements of its argument (a move hands them over)
  ContainerSwap,     ///< swap: the two containers exchange their elements
};

/// How a call accesses what one argument points to.
enum class ArgRole : char {
  None = '-',          ///< scalar or ignored value
  Read = 'r',          ///< reads the pointee
  Write = 'w',         ///< writes the pointee
  ReadWrite = 'b',     ///< reads and writes the pointee
  OutAlloc = 'o',      ///< receives a pointer to a fresh object (cudaMalloc(&p, n))
  Free = 'f',          ///< frees the pointee (a write for ordering purposes)
  SymbolRead = 's',    ///< reads the named __device__ symbol
  SymbolWrite = 'S',   ///< writes the named __device__ symbol
  Unknown = 'u',       ///< the argument carries pointers the model cannot follow
  VariadicRead = '*',  ///< this and every later argument: pointees are read
  VariadicWrite = '+', ///< this and every later argument: pointees are written (scanf)
};

/// Where a fresh object returned by an allocation lives.
enum class MemorySpace { None, HostPageable, HostPinned, Device, Managed };

/// What one row can do that a rewrite or a decision relies on.
enum class ApiCap {
  None,
  StreamOrderableAlloc,   ///< a device allocation with a stream-ordered form (AsyncName)
  StreamOrderableRelease, ///< its release, with a stream-ordered form
  PinnableAlloc,          ///< a host allocation pinning can replace by a page-locked one
  RegistrableAlloc,       ///< one pinning can only register (keeps its alignment; bytes: last arg)
  PinnableRelease,        ///< the release of a pinnable or registrable allocation
  PageLocks,              ///< changes whether host memory is page-locked
  EnqueuesOnStream,       ///< enqueues work on the stream it is given (the legacy one when 0)
  QueriesFreeMemory,      ///< reports how much device memory is free
  LaunchesKernel,         ///< launches a kernel through its arguments
  LinearCopy,             ///< a one-dimensional copy: argument 2 is its byte count
};

/// No argument of the call plays the part (see ApiFunction::CopyKindArg).
constexpr unsigned NoArgument = ~0u;

/// One enumerator per row of ApiModel.def, in its order.
enum class ApiId : unsigned {
#define API_ROW(Id, ...) Id,
#include "streamalloc/Model/ApiModel.def"
};

/// One enumerator per CUDA type or constant of ApiModel.def.
enum class ApiSymbol : unsigned {
#define API_SYMBOL(Name) Name,
#include "streamalloc/Model/ApiModel.def"
};

/// Families of functions recognised by the start of their name.
enum class ApiNameGroup {
  CudaRuntime,         ///< the CUDA runtime, modelled or not
  LaunchConfiguration, ///< Clang's calls behind a launch's <<<...>>>
  GpuLibrary,          ///< libraries that may enqueue GPU work (CUDA's own included)
};

struct ApiFunction {
  ApiId Id;
  llvm::StringRef Name;
  ApiKind Kind;
  /// One character per argument (see ArgRole); missing trailing characters
  /// mean ArgRole::None.
  llvm::StringRef Roles;
  MemorySpace Allocates;
  /// Allocation returned by value (malloc) rather than through OutAlloc.
  bool ReturnsAllocation;
  /// Asynchronous form and the position of its stream argument; empty when
  /// the call has none.
  llvm::StringRef AsyncName;
  unsigned StreamArgIndex;
  /// Source text of the defaulted trailing arguments of the synchronous form,
  /// one per parameter after FirstDefaultedArg, comma-separated. Needed
  /// because the asynchronous form's stream comes after them.
  unsigned FirstDefaultedArg;
  llvm::StringRef Defaults;
  /// The argument that names a copy's direction, or NoArgument.
  unsigned CopyKindArg;
  /// Writes the program's output; kernels that print write it too.
  bool WritesOutput;
  /// A call of the CUDA runtime (not host work).
  bool CudaRuntime;
  ApiCap Cap;

  bool has(ApiCap C) const { return Cap == C; }
  ArgRole roleOf(unsigned ArgIndex) const;
  bool isGpuOp() const { return Kind == ApiKind::GpuCopy || Kind == ApiKind::GpuSet; }
  /// A member function of a modelled class (role 0 is the object).
  bool isMember() const { return Name.count("::") > 1; }
  bool isStd() const { return Name.starts_with("std::"); }
};

/// The row for \p Name, or null when the function is not modelled. A
/// function of namespace std is looked up as "std::name" first (rows that
/// only the standard library may match), then as "name" (the C library);
/// a member function of a std class as "std::class::name", a class (its
/// constructors) as "std::class".
const ApiFunction *lookupApi(llvm::StringRef Name);

/// Number of rows and each row, for tests that check the whole table.
unsigned apiModelSize();
const ApiFunction &apiModelRow(unsigned Index);

/// The row \p Id names.
const ApiFunction &apiRow(ApiId Id);
inline llvm::StringRef apiName(ApiId Id) { return apiRow(Id).Name; }
/// The first row with capability \p C (the table has one for each used).
const ApiFunction &apiWith(ApiCap C);
/// The GPU op whose asynchronous form \p Async is (cudaMemcpy for
/// cudaMemcpyAsync), or null. Both take their leading arguments in the same
/// order; the stream goes where the synchronous row's StreamArgIndex says.
const ApiFunction *synchronousFormOf(const ApiFunction &Async);
/// The first row of kind \p K.
const ApiFunction &apiOfKind(ApiKind K);
/// How a CUDA type or constant is spelled.
llvm::StringRef apiSymbol(ApiSymbol S);
/// Whether \p Name spells \p S.
bool isApiSymbol(llvm::StringRef Name, ApiSymbol S);
/// Whether \p Name starts with a prefix of \p Group.
bool hasNamePrefix(ApiNameGroup Group, llvm::StringRef Name);
/// Whether a header at \p Path belongs to a GPU library.
bool isGpuLibraryHeader(llvm::StringRef Path);

} // namespace streamalloc

#endif
