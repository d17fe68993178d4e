#include "exec/check_buffers.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bcast::exec {
namespace {

// Addresses plus signed offsets, compared without wrap-around.
__extension__ typedef __int128 wide_int;

bool ranges_overlap(std::uintptr_t a, int64_t a_lo, int64_t a_hi, std::uintptr_t b,
                    int64_t b_lo, int64_t b_hi) {
    const wide_int a0 = static_cast<wide_int>(a) + a_lo, a1 = static_cast<wide_int>(a) + a_hi;
    const wide_int b0 = static_cast<wide_int>(b) + b_lo, b1 = static_cast<wide_int>(b) + b_hi;
    return a0 < b1 && b0 < a1;
}

// Which operand a message is about: an input's index as the caller numbers
// it, or kOutput. The text is only built on failure: a successful execute
// allocates nothing.
constexpr std::size_t kOutput = SIZE_MAX;

std::string operand_name(std::size_t user) {
    return user == kOutput ? std::string("output") : "input " + std::to_string(user);
}

// Kernels load and store whole elements (in C++ a misaligned element access
// is undefined behaviour, and SIMD heads peel to vector alignment in whole
// elements), so every pointer must be a multiple of its element size.
// Element sizes are powers of two: a mask, not a division (a 64-bit divide
// costs more than a whole 16-element kernel).
void check_aligned(std::uintptr_t addr, std::size_t elem_size, std::size_t user) {
    if ((addr & (elem_size - 1)) == 0) return;
    char hex[2 + 2 * sizeof addr + 1];
    std::snprintf(hex, sizeof hex, "%#jx", static_cast<std::uintmax_t>(addr));
    fail(BCAST_ERROR_INVALID_ARGUMENT, operand_name(user) + " at " + hex + " is not aligned to its " +
                                           std::to_string(elem_size) + "-byte element size");
}

// The strides may reach bytes that no address has (below 0 or past the top):
// walking there would wrap pointer arithmetic, which is undefined.
void check_in_address_space(std::uintptr_t addr, int64_t lo, int64_t hi, std::size_t user) {
    const wide_int first = static_cast<wide_int>(addr) + lo;
    const wide_int last = static_cast<wide_int>(addr) + hi - 1;
    if (first >= 0 && last <= static_cast<wide_int>(UINTPTR_MAX)) return;
    fail(BCAST_ERROR_INVALID_ARGUMENT,
         operand_name(user) + ": its strides reach bytes " + std::to_string(lo) + " to " +
             std::to_string(hi - 1) + " from the pointer, outside the address space");
}

}  // namespace

void check_buffers(const plan::Layout& b, const void* const* inputs, const void* output) {
    if (b.nest.empty) return;
    if (!output) fail(BCAST_ERROR_INVALID_ARGUMENT, "output pointer is NULL");
    if (!inputs) fail(BCAST_ERROR_INVALID_ARGUMENT, "inputs array is NULL");
    const std::size_t out = b.num_reads;
    const auto out_addr = reinterpret_cast<std::uintptr_t>(output);
    check_aligned(out_addr, b.elem_size[out], kOutput);
    check_in_address_space(out_addr, b.lo_byte[out], b.hi_byte[out], kOutput);
    for (std::size_t k = 0; k < b.num_reads; ++k) {
        const std::size_t user = b.input_order[k];
        if (!inputs[user]) {
            fail(BCAST_ERROR_INVALID_ARGUMENT, "input " + std::to_string(user) + " is NULL");
        }
        const auto in_addr = reinterpret_cast<std::uintptr_t>(inputs[user]);
        check_aligned(in_addr, b.elem_size[k], user);
        check_in_address_space(in_addr, b.lo_byte[k], b.hi_byte[k], user);
        if (!ranges_overlap(in_addr, b.lo_byte[k], b.hi_byte[k], out_addr, b.lo_byte[out],
                            b.hi_byte[out])) {
            continue;
        }
        if (in_addr == out_addr && b.same_layout_as_output[user]) continue;  // in place
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             "output overlaps input " + std::to_string(user) +
                 "'s byte range without the identical layout that in-place execution needs "
                 "(byte ranges decide: views that interleave count as overlapping)");
    }
}

}  // namespace bcast::exec
