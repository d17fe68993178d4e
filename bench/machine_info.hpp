// What the report's header says about the machine, and where a working set
// lives in its cache hierarchy.
#pragma once

#include <cstddef>
#include <string>

namespace bench {

struct MachineInfo {
    std::string cpu_model;
    unsigned cpus = 0;
    std::size_t l1d_bytes = 0, l2_bytes = 0, llc_bytes = 0;  // 0 when unknown
    std::string transparent_huge_pages;  // the kernel's THP mode, e.g. "madvise"
    std::string load_average;  // 1, 5 and 15 minutes: how busy the machine was
    std::string date_utc;
    std::string compiler;
};

MachineInfo machine_info();

// "L1", "L2", "LLC" or ">LLC": the smallest cache level holding `bytes`.
const char* residency(double bytes, const MachineInfo& machine);

std::string format_bytes(double bytes);  // "192 MiB"

}  // namespace bench
