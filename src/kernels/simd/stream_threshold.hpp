// When the SIMD kernels store with non-temporal (streaming) stores: for an
// op whose operands touch at least this many bytes in all (each input's
// extent once plus the output's), decided once per op by the plan
// (Plan::stream), not per kernel call: an op made of many calls over short
// rows moves as much as one long call. Data that large do not stay in the
// core's cache anyway; streaming skips the read for ownership of each output
// line and leaves the cache to the inputs. Below it, plain stores win: the
// output and inputs stay in the core's cache from one call to the next.
//
// Measured on the CI machine (Xeon, 2 MiB L2 per core, a 300 MiB L3 that the
// VM reports but that does not behave like one for a single core): f32 a + b
// (vv) and a + scalar (vs), AVX-512 and AVX2, each size repeated on the same
// buffers, best time, streaming vs plain:
//   vv output 512 KiB (1.5 MiB moved): plain 1.6x faster; 1 MiB (3 MiB):
//     streaming 1.55x faster; 2-512 MiB outputs: streaming 1.1-1.7x faster;
//   vs output 1 MiB (2 MiB moved): plain 1.3x faster; 2 MiB (4 MiB):
//     streaming 1.3x faster, and so on up.
// The crossover sits between 2 and 3 MiB moved, just above the L2, not at
// glibc's 3/4 of the LLC share: the built-in default is 5/4 of the per-core
// L2 read at run time (sysconf), 2.5 MiB here. Both values are the tuning's
// nt_min_bytes (tuning/active_tuning.hpp: a host's file may set them). (How: a small program timing the
// table's vv/vs kernels with the testing override below set to 1 and to the
// maximum, for outputs of 64 KiB to 512 MiB.)
//
// Plain functions in a baseline translation unit, so that the ISA kernels
// share one value without sharing any inline code.
#pragma once

#include <cstddef>

namespace bcast::kernels {

// one_input: for an op whose output is at least 2/5 of the bytes it
// touches (the tuning's nt_min_bytes.*.one_input).
std::size_t stream_threshold_bytes(bool one_input);

// The same decision for an op run as several tasks at once (a pool): each
// core's cached stores then hit the shared last-level cache in parallel,
// while streaming stores share one path to memory that one core already
// fills. So a split op streams only from half the last-level cache up (or
// from stream_threshold_bytes(), if larger or if the LLC size is unknown;
// at most from 32 MiB).
// Measured with `bcast_nt_crossover --threads 2` (docs/parallel.md).
std::size_t split_stream_threshold_bytes(bool one_input);

// Tests only: any threshold for both (1: every call streams); 0 restores
// the tuning's.
void set_stream_threshold_bytes_for_testing(std::size_t bytes);

}  // namespace bcast::kernels
