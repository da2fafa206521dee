//===- CostModel.h - Measured costs of what the tool adds to a program -----===//
//
// Every change the tool makes has a price the original did not pay: a stream
// to create, a memory pool to set up, host memory to page-lock, events to
// record and wait for. The profitability rules (Profit/Profitability.h,
// Transform/HostPinning.h) weigh those prices against what a change can save;
// the numbers here are measured on the GPU machine (docs/results.md says
// when and how: bench/pin-cost.cu, bench/fixed-costs.cu) and quoted in the
// report next to each decision.
//
//===----------------------------------------------------------------------===//
#ifndef STREAMALLOC_MODEL_COSTMODEL_H
#define STREAMALLOC_MODEL_COSTMODEL_H

#include <string>

namespace streamalloc {

/// Host-side traffic of one buffer, as the cost model sees it.
struct BufferTraffic {
  double Bytes = 0;    ///< allocation size (1 GB when not a compile-time constant)
  double H2DBytes = 0; ///< bytes copies read from it per allocation (loops count 4 times)
  double D2HBytes = 0; ///< bytes copies write into it per allocation
  unsigned Copies = 0; ///< copy ops that use it
};

struct CostModel {
  /// Copy bandwidth (cudaMemcpy, H200): pageable memory per direction, and
  /// page-locked memory.
  double PageableH2DGBps = 9.0, PageableD2HGBps = 15.6, PinnedGBps = 55.4;
  /// cudaMallocHost + cudaFreeHost instead of malloc + free, first touch
  /// included: per GB (0.04-0.11 measured) and per allocation.
  double AllocExtraSecPerGB = 0.07, AllocFixedSec = 634e-6;
  /// cudaHostRegister + cudaHostUnregister of malloc'd memory.
  double RegisterSecPerGB = 0.06, RegisterFixedSec = 112e-6;
  /// Measured by bench/fixed-costs.cu on the H200 (docs/results.md,
  /// 2026-12-02), host seconds: the first cudaMallocAsync of a process (the
  /// stream-ordered memory pool is set up; a later one of 1 MB costs 55 us, a
  /// cudaMalloc of 1 MB 45 us), the first cudaStreamCreate once the context
  /// exists and a later one, and cudaEventRecord / cudaStreamWaitEvent.
  double PoolFirstUseSec = 10.7e-3;
  double FirstStreamCreateSec = 20e-6, StreamCreateSec = 2.4e-6;
  double EventCallSec = 0.37e-6;
  /// CUDA graphs, host seconds (bench/fixed-costs.cu --first graphs and
  /// --first graph, H200, docs/results.md 2026-12-03): a kernel launch of a
  /// launch-bound sequence; a stream capture of n launches (fixed + per op),
  /// cudaGraphExecUpdate from such a capture, cudaGraphInstantiate, one
  /// cudaGraphLaunch whatever the size, and the process's first capture and
  /// instantiation.
  double LaunchSec = 3.0e-6;
  double CaptureFixedSec = 0.5e-6, CapturePerOpSec = 0.4e-6;
  double GraphUpdateFixedSec = 0.15e-6, GraphUpdatePerOpSec = 0.03e-6;
  double InstantiateFixedSec = 2.8e-6, InstantiatePerOpSec = 0.71e-6;
  double GraphLaunchSec = 1.15e-6;
  double GraphFirstUseSec = 230e-6;

  /// Seconds saved (negative: lost) by page-locking a buffer with \p Traffic,
  /// by allocating it page-locked or (\p Register) registering it. Counts
  /// only the faster copies; the overlap that page-locked memory allows on
  /// top (an asynchronous copy no longer blocks the host) is not counted.
  double pinSaving(const BufferTraffic &Traffic, bool Register) const;
};

/// "1.2 ms", "340 us", "2.1 s": a duration for the report.
std::string formatSeconds(double Seconds);

} // namespace streamalloc

#endif
