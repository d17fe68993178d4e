// The JSON pieces that every plan's description shares (describe_op.cpp,
// describe_expression.cpp). Names and numbers only, but for the tuning's
// source (a path: quoted by json_quote).
#pragma once

#include "core/quantization.hpp"
#include "plan/layout.hpp"
#include "tuning/active_tuning.hpp"
#include "tuning/tuning_text.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
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

// [{"extent":..,"strides":[.. per operand]}, ..], innermost last; operand
// k's column is the layout's operand column[k].
inline std::string loops_json(const LoopNest& nest, const std::size_t* column, std::size_t num_operands) {
    std::string s = "[";
    for (std::size_t l = 0; l < nest.num_loops && !nest.empty; ++l) {
        const Loop& loop = nest.loops[l];
        int64_t strides[kMaxOperands];
        for (std::size_t k = 0; k < num_operands; ++k) strides[k] = loop.stride[column[k]];
        if (l) s += ",";
        s += "{\"extent\":" + std::to_string(loop.extent) +
             ",\"strides\":" + json_list(strides, num_operands) + "}";
    }
    return s + "]";
}

// What every planned description starts with: ,"planned":true and the
// layout (isa, the tuning in force and where it came from, output shape,
// the operands as users name them, the loops), the reads in the order
// `reads` gives (NULL: the layout's).
inline std::string layout_json(const Layout& l, const std::size_t* reads = nullptr) {
    std::size_t column[kMaxOperands];
    std::string operands = "[";
    for (std::size_t k = 0; k < l.num_reads; ++k) {
        column[k] = reads ? reads[k] : k;
        operands += "\"input" + std::to_string(l.input_order[column[k]]) + "\",";
    }
    column[l.num_reads] = l.num_reads;
    operands += "\"output\"]";
    return ",\"planned\":true,\"isa\":" + quoted(l.isa) +
           ",\"tuning\":" + tuning::json_quote(tuning::active_source()) +
           ",\"output_shape\":" + json_list(l.out.dims.data(), l.out.rank) +
           ",\"operands\":" + operands + ",\"loops\":" + loops_json(l.nest, column, l.num_reads + 1);
}

}  // namespace bcast::plan

namespace bcast::plan {

// ,"quantization":{"inputs":[{"dtype":"u8","scale":0.5,"zero_point":128},
// null, ..],"output":{..} or null}: inputs [0, n), null where unset.
inline std::string quantization_json(const Quantization* const* inputs, std::size_t n,
                                     const Quantization* output) {
    const auto one = [](const Quantization* q) -> std::string {
        if (!q) return "null";
        char scale[32];
        std::snprintf(scale, sizeof scale, "%.9g", static_cast<double>(q->scale));
        return std::string("{\"dtype\":") + quoted(q->dtype == BCAST_DTYPE_I8 ? "i8" : "u8") +
               ",\"scale\":" + scale + ",\"zero_point\":" + std::to_string(q->zero_point) + "}";
    };
    std::string s = ",\"quantization\":{\"inputs\":[";
    for (std::size_t i = 0; i < n; ++i) s += (i ? "," : "") + one(inputs[i]);
    return s + "],\"output\":" + one(output) + "}";
}

}  // namespace bcast::plan
