// The header's QDQ definition on one element (bcast_op_set_quantization),
// for the harnesses' oracles: DequantizeLinear ((q - zero point) as an
// integer, to f32, times the f32 scale) and QuantizeLinear (the f32 quotient,
// half to even, plus the zero point, saturated; NaN gives the dtype's
// minimum). Written from the header, not from src/.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace fuzz {

// A u8 or i8 byte as the integer it holds.
inline int32_t quantized_value(unsigned char byte, bool i8) {
    return i8 ? static_cast<int8_t>(byte) : static_cast<int32_t>(byte);
}

inline float dequantize(unsigned char byte, bool i8, float scale, int32_t zero_point) {
    return static_cast<float>(quantized_value(byte, i8) - zero_point) * scale;
}

// The output byte (the u8 or i8 value's bits).
inline unsigned char quantize(float v, bool i8, float scale, int32_t zero_point) {
    const float lo = i8 ? -128.0f : 0.0f, hi = i8 ? 127.0f : 255.0f;
    if (std::isnan(v)) return static_cast<unsigned char>(static_cast<int32_t>(lo));
    const float quotient = v / scale;
    // Clamping before rounding gives the saturated result: the bounds are whole.
    const float clamped = std::min(std::max(quotient, lo - static_cast<float>(zero_point)),
                                   hi - static_cast<float>(zero_point));
    return static_cast<unsigned char>(static_cast<int32_t>(std::nearbyint(clamped)) + zero_point);
}

}  // namespace fuzz
