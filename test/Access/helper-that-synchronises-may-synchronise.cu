// A summary says whether the function may wait for the device (an explicit
// device, stream or event synchronisation, itself or in a callee).
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
static void drain() { cudaDeviceSynchronize(); }
static void wait_event(cudaEvent_t e) { cudaEventSynchronize(e); }
static void outer() { drain(); }
static int compute(int x) { return 2 * x; }

int main() {
  outer();
  return compute(1);
  // CHECK-LABEL: summary of drain (host, line 6)
  // CHECK-NEXT: flags: may synchronise
  // CHECK-LABEL: summary of wait_event (host, line 7)
  // CHECK-NEXT: flags: may synchronise
  // CHECK-LABEL: summary of outer (host, line 8)
  // CHECK-NEXT: flags: may synchronise
  // CHECK-LABEL: summary of compute (host, line 9)
  // CHECK-NEXT: touches nothing its callers can see
}
