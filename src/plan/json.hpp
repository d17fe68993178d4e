// The small JSON pieces that describe outputs share (plan/describe.cpp,
// fuse/describe.cpp). Names and numbers only: nothing here needs escaping.
#pragma once

#include "plan/loop_nest.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace bcast::plan {

inline std::string json_list(const int64_t* values, std::size_t count) {
    std::string s = "[";
    for (std::size_t i = 0; i < count; ++i) {
        if (i) s += ",";
        s += std::to_string(values[i]);
    }
    return s + "]";
}

inline std::string quoted(const char* text) { return std::string("\"") + text + "\""; }

// [{"extent":..,"strides":[.. per operand]}, ..], innermost last.
inline std::string loops_json(const LoopNest& nest, std::size_t num_operands) {
    std::string s = "[";
    for (std::size_t l = 0; l < nest.num_loops && !nest.empty; ++l) {
        const Loop& loop = nest.loops[l];
        if (l) s += ",";
        s += "{\"extent\":" + std::to_string(loop.extent) +
             ",\"strides\":" + json_list(loop.stride.data(), num_operands) + "}";
    }
    return s + "]";
}

}  // namespace bcast::plan
