// Overflow-checked int64 arithmetic for sizes and offsets; overflow is a
// SIZE_OVERFLOW error, never undefined behaviour.
#pragma once

#include "core/error.hpp"

#include <cstdint>

namespace bcast {

inline int64_t checked_mul(int64_t a, int64_t b, const char* what) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) fail(BCAST_ERROR_SIZE_OVERFLOW, std::string(what) + " overflows int64");
    return r;
}

inline int64_t checked_add(int64_t a, int64_t b, const char* what) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) fail(BCAST_ERROR_SIZE_OVERFLOW, std::string(what) + " overflows int64");
    return r;
}

// |v| without the overflow of llabs(INT64_MIN): strides may be any int64.
inline uint64_t magnitude(int64_t v) {
    return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

}  // namespace bcast
