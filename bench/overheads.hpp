// Fixed costs through the C API: executing a 16-element ADD (also through a
// pool) and planning a rank-4 broadcast, each as min and median over many
// batches.
#pragma once

#include "case_runner.hpp"
#include "timing.hpp"

#include <string>
#include <vector>

namespace bench {

struct OverheadResult {
    std::string what;  // e.g. "execute (16)+(16) f32"
    std::string cap;   // as given to bcast_set_max_isa ("" = left alone)
    std::string isa;   // the kernel set the plan got
    Stats stats;
    double target_ns = 0;
    std::string error;
};

// Also, per pool in `parallels` (threads > 1), the 16-element execute
// through bcast_op_execute_pool: an op that small runs on the caller alone.
std::vector<OverheadResult> measure_overheads(const std::vector<std::string>& caps, bool smoke,
                                              const std::vector<Parallel>& parallels = {});

}  // namespace bench
