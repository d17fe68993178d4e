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

}  // namespace bcast
