// Per-tensor 8-bit quantization of one operand: an i8 or u8 value q stands
// for scale * (q - zero_point). What bcast computes for quantized operands
// is the QDQ graph, exactly (docs/quantization.md): DequantizeLinear of each
// input, the op in f32, QuantizeLinear of the result. The checks here are the
// one place that says which parameters are valid.
#pragma once

#include <bcast/bcast.h>

#include <cstdint>

namespace bcast {

struct Quantization {
    bcast_dtype dtype = BCAST_DTYPE_U8;  // the stored values: U8 or I8
    float scale = 1.0f;
    int32_t zero_point = 0;
};

// The stored dtype's range, inclusive.
constexpr int32_t quantized_min(bcast_dtype dt) { return dt == BCAST_DTYPE_I8 ? -128 : 0; }
constexpr int32_t quantized_max(bcast_dtype dt) { return dt == BCAST_DTYPE_I8 ? 127 : 255; }

// Throws INVALID_ARGUMENT naming `operand` ("input 1", "the output") for a
// dtype other than u8/i8, a scale that is not a positive normal f32 (zero,
// negative, subnormal, infinite, NaN), or a zero point outside the dtype.
void check_quantization(const Quantization& q, const char* operand);

}  // namespace bcast
