// The write references' pattern (private to roofline/): its period stored
// twice, so that a vector starting at any i % kWritePatternLength stays inside
// the array, whatever the output's offset makes the first streamed i.
#pragma once

#include "reference_loops.hpp"

namespace roofline {

struct WritePattern {
    alignas(64) float values[2 * kWritePatternLength];
};

constexpr WritePattern make_write_pattern() {
    WritePattern p{};
    for (std::size_t i = 0; i < 2 * kWritePatternLength; ++i)
        p.values[i] = write_pattern_value(i % kWritePatternLength);
    return p;
}

inline constexpr WritePattern kWritePattern = make_write_pattern();

}  // namespace roofline
