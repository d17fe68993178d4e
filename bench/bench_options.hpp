// What the small benchmarks (bcast_fused_bench, bcast_quantized_bench) share:
// their options and how they print a time.
#pragma once

#include "timing.hpp"

#include <cstddef>
#include <string>

namespace bench {

struct Options {
    Budget budget;
    bool smoke = false;      // one short round per case: ctest's smoke run
    std::size_t offset = 0;  // bytes past a 64-byte boundary of every buffer
};

// --budget-ms N (default default_ms), --offset BYTES, --smoke; anything
// else prints the usage and exits with status 2.
Options parse_options(int argc, char** argv, double default_ms);

// "1.23 ms", "4.56 us", "7.8 ns".
std::string format_time(double ns);

}  // namespace bench
