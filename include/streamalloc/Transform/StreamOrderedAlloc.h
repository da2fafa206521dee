//===- StreamOrderedAlloc.h - cudaMalloc/cudaFree made stream-ordered -------===//
//
// cudaFree synchronises the whole device, and a host wait before it (for the
// ops that use the buffer) would be needed anyway; both stop the overlap the
// tool builds when a program allocates and frees scratch buffers as it goes.
// Where the tool sees a device buffer's whole life, its allocations become
// cudaMallocAsync and its releases cudaFreeAsync (through sa_free_async,
// which like cudaFree ignores null) on the planned streams:
// GPU ops of their own (GpuOpKind::Alloc/Free) that write the buffer, so the
// CRA and the stream plan order them like any other op (an event where the
// buffer's users run on another stream).
//
// This file finds the candidates: groups of cudaMalloc calls and the cudaFree
// calls that release them, all in one function, the memory held only by that
// function's plain local pointers (and the pointer parameters of helpers in
// this file that only pass it to kernels, copies and other helpers). Both
// sides of a group are converted together, or neither: memory from
// cudaMalloc is never freed with cudaFreeAsync, nor the other way round.
// Whether a candidate is converted also depends on the CRA (an allocation in
// a condition stays synchronous, and with it its whole group); the driver
// decides that (lib/Driver/Pipeline.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_TRANSFORM_STREAMORDEREDALLOC_H
#define STREAMALLOC_TRANSFORM_STREAMORDEREDALLOC_H

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace streamalloc {

struct AllocGroup {
  std::vector<const clang::CallExpr *> Allocs; ///< cudaMalloc calls
  std::vector<const clang::CallExpr *> Frees;  ///< cudaFree calls that release them
  std::string Name;                            ///< the first pointer variable holding it
  unsigned Line = 0;                           ///< the first allocation's line
  std::string WhySync;                         ///< empty: may become stream-ordered
};

/// The device buffers \p F allocates with cudaMalloc, grouped by the
/// pointers that may hold them, each with the cudaFree calls that release
/// them and, when the group must stay synchronous, why. A cudaFree of \p F
/// that releases no group's memory comes back as a group of its own with no
/// allocation (and a reason).
std::vector<AllocGroup> findStreamOrderedAllocs(const clang::FunctionDecl &F,
                                                clang::ASTContext &Ctx);

} // namespace streamalloc

#endif
