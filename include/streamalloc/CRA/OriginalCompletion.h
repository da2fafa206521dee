//===- OriginalCompletion.h - What the original program had completed -------===//
//
// In the original program every GPU op is on the legacy default stream. A
// call that blocks the host (a synchronous copy to or from host memory, a
// fill of host or managed memory, cudaFree, a device sync, ...; the CUDA
// Runtime API's "API synchronization behavior") returns only once its own
// work and all earlier legacy-stream work are complete. A kernel launch, a
// device-to-device copy and a fill of device memory return at once: they stay
// running until the original's next blocking call.
//
// The CRA tracks, for every pending op, whether the original had completed it
// at the current point. Where unsure it says "completed": that only makes the
// tool wait more (DESIGN.md §3a), never less.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_ORIGINALCOMPLETION_H
#define STREAMALLOC_CRA_ORIGINALCOMPLETION_H

namespace streamalloc {

class FunctionAccesses;
struct GpuOp;
struct StmtAccesses;

/// Whether the original's call of \p Op returns only once \p Op and all
/// earlier legacy-stream work are complete.
bool blocksInOriginal(const GpuOp &Op, const FunctionAccesses &FA);

/// Whether a statement with accesses \p A (its GPU ops included) may block
/// the host in the original until all earlier legacy-stream work is complete.
bool statementBlocksInOriginal(const StmtAccesses &A, const FunctionAccesses &FA);

} // namespace streamalloc

#endif
