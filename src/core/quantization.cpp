#include "core/quantization.hpp"

#include "core/error.hpp"
#include "core/op_info.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace bcast {

void check_quantization(const Quantization& q, const char* operand) {
    const std::string who = operand;
    if (q.dtype != BCAST_DTYPE_U8 && q.dtype != BCAST_DTYPE_I8) {
        const std::string name = valid_dtype(q.dtype) ? dtype_name(q.dtype) : "unknown dtype " + std::to_string(q.dtype);
        fail(BCAST_ERROR_UNSUPPORTED, who + ": quantized values are u8 or i8, not " + name);
    }
    // Subnormal scales are refused: their reciprocals overflow, and no
    // framework's quantizer produces them (decisions.md).
    if (!(q.scale >= std::numeric_limits<float>::min()) || !std::isfinite(q.scale)) {
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", static_cast<double>(q.scale));
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": the scale " + text + " is not a positive normal finite float");
    }
    if (q.zero_point < quantized_min(q.dtype) || q.zero_point > quantized_max(q.dtype)) {
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": the zero point " + std::to_string(q.zero_point) + " is outside " +
                 dtype_name(q.dtype) + "'s range " + std::to_string(quantized_min(q.dtype)) + " to " +
                 std::to_string(quantized_max(q.dtype)));
    }
}

}  // namespace bcast
