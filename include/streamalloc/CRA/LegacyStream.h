//===- LegacyStream.h - How the output's legacy-stream work is ordered ------===//
//
// The output leaves some GPU ops as the original wrote them: synchronous
// calls and launches on the legacy default stream. The tool's own streams
// are blocking streams (cudaStreamCreate), so each op left on the legacy
// stream starts on the device only once all work enqueued earlier on the
// tool's streams is complete (the CUDA Runtime API's "stream synchronization
// behavior"). Such an op therefore needs no host wait for what it does on
// the device; only what the host itself touches while making the call (the
// host buffer of a copy) may conflict with pending work.
//
// A program compiled with the per-thread default stream gets no such
// ordering; the pipeline refuses those files (Pipeline.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_CRA_LEGACYSTREAM_H
#define STREAMALLOC_CRA_LEGACYSTREAM_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace streamalloc {

class AccessSet;
class FunctionAccesses;
struct GpuOp;
struct StmtAccesses;

/// Whether \p Op, left as written, runs on the legacy default stream (a
/// synchronous copy or fill, a launch without a stream).
bool runsOnLegacyStream(const GpuOp &Op);

/// What the host may touch while it makes the call of \p Op left as
/// written: for an op on the legacy stream or on a stream of the program's
/// own its host-side effects, for any other all of its effects.
const AccessSet &hostTouchedWhenLeft(const GpuOp &Op);

/// Whether every call of \p FA's function, with all its GPU ops left as
/// written, returns only once all device work queued before it is complete:
/// a statement at the top level of its body, before any that may jump out,
/// synchronises the device or makes a blocking copy to the host.
bool callCompletesEarlierWork(const FunctionAccesses &FA);

/// Whether the call of \p Op, left as written, returns only once every op
/// enqueued before it on any of the tool's streams is complete: a
/// synchronous copy to host memory returns once the copy is done, and on the
/// legacy stream the copy ran after all of them.
bool completesEarlierWork(const GpuOp &Op);

/// Whether a statement with accesses \p A always makes such a call, with an
/// op for which \p LeftAsWritten holds: nothing enqueued before the
/// statement is pending after it (a copy in a `?:` branch or right of
/// `&&`/`||` may not run).
bool completesEarlierWork(const StmtAccesses &A, const FunctionAccesses &FA,
                          llvm::function_ref<bool(unsigned)> LeftAsWritten);

} // namespace streamalloc

#endif
