// make a function "may synchronise", and so does polling with cudaEventQuery (a loop
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu --dump=summaries | %FileCheck %s
void by_device() { cudaDeviceSynchronize(); }
void by_stream(cudaStream_t s) { cudaStreamSynchronize(s); }
void by_event(cudaEvent_t e) { cudaEventSynchronize(e); }
void by_query(cudaEvent_t e) { cudaEventQuery(e); }
// CHECK-LABEL: summary of by_device (host, line 5)
// CHECK-NEXT: flags: may synchronise
// CHECK-LABEL: summary of by_stream (host, line 6)
// CHECK-NEXT: flags: may synchronise
// CHECK-LABEL: summary of by_event (host, line 7)
// CHECK-NEXT: flags: may synchronise
// CHECK-LABEL: summary of by_query (host, line 8)
// CHECK-NEXT: flags: may synchronise
