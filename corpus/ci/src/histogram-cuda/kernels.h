#pragma once
// Counts values[0..n) into BINS bins on the GPU; d_bins must hold BINS counters.
void histogram_launch(const unsigned *d_values, int n, unsigned *d_bins);
