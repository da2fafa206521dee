//===- ApiModel.h - What the tool knows about external functions ----------===//
//
// One table (ApiModel.def) describes every CUDA runtime and libc function the
// analyses understand: how each argument's pointee is accessed, whether the
// call enqueues GPU work, its asynchronous form, and whether it synchronises.
// No other part of the tool spells an API name.
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

struct ApiFunction {
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
  /// Writes the program's output; kernels that print write it too.
  bool WritesOutput;

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

} // namespace streamalloc

#endif
