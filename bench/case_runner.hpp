// One row of the benchmark: one case at one offset layout and thread count
// (the reference loops run by as many threads, each on its share). Plan the case once
// per requested ISA cap, check the output against the oracle, then time the
// roofline references (normal and streaming stores) and every plan
// interleaved, all on the same buffers at the same offsets.
#pragma once

#include "cases.hpp"
#include "machine_info.hpp"
#include "offset_layouts.hpp"
#include "thread_team.hpp"
#include "timing.hpp"

#include <bcast/bcast.h>

#include <cmath>

#include <string>
#include <vector>

namespace bench {

struct IsaResult {
    std::string cap;     // what bcast_set_max_isa was given ("" = left alone)
    std::string isa;     // the kernel set the plan got (describe's "isa")
    std::string kernel;  // describe's "kernel"
    Stats stats;
    double over_reference = 0;  // median of per-round bcast / reference times
};

// How many threads a row runs on: bcast through `pool` (NULL: one thread,
// bcast_op_execute), the reference loops split over `team`.
struct Parallel {
    int threads = 1;
    bcast_pool* pool = nullptr;
    roofline::ThreadTeam* team = nullptr;
};

struct CaseResult {
    Case c;             // as run (shrunk in smoke mode); c.label names the full case
    OffsetLayout layout;  // where a, b and the output start
    int threads = 1;    // bcast's pool
    int tasks = 1;      // what bcast splits the op into there (bcast_op_task_count), and
                        // how many threads the reference runs on
    // On a pool: the median over rounds of plain execute's time / the pool's,
    // both timed in the same rounds (first cap).
    double speedup = std::nan("");
    double bytes = 0;   // read + written, each operand once
    const char* where = "";  // cache level holding the working set
    // The roofline: per round the faster of the plain loop with normal stores
    // and the same loop with streaming stores (when the CPU has them).
    Stats reference, reference_normal, reference_streaming;
    bool streaming_faster = false;  // by min time
    std::vector<IsaResult> bcast;  // one per cap, in the order asked
    double second_over_first = 0;  // bcast[1] / bcast[0], paired, when two caps
    std::string error;  // planning, execution or a wrong result; empty when fine
};

CaseResult run_case(const Case& c, const OffsetLayout& layout,
                    const std::vector<std::string>& caps, const Budget& budget,
                    const MachineInfo& machine, const Parallel& parallel = {});

}  // namespace bench
