#include "exec/execute.hpp"

#include "core/error.hpp"
#include "exec/fused_execute.hpp"
#include "exec/walk.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bcast::exec {
namespace {

using plan::InnerKind;
using plan::kMaxOperands;

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

// The kernels over elements [0, n) of a call at ptr (a rows plan: part of
// one row); over `rows` whole rows of a rows plan.
void call_run(const plan::Plan& p, char* const* ptr, std::size_t n, bool stream) noexcept {
    const std::size_t out = p.num_reads;
    const kernels::OpKernels& k = p.kernels;
    switch (p.kind) {
        case InnerKind::VV: k.vv(n, ptr[0], ptr[1], ptr[out], stream); return;
        case InnerKind::VS: k.vs(n, ptr[0], ptr[1], ptr[out], stream); return;
        case InnerKind::SV: k.sv(n, ptr[0], ptr[1], ptr[out], stream); return;
        case InnerKind::PeriodicY:
            k.periodic_y(n, static_cast<std::size_t>(p.period), ptr[0], ptr[1], ptr[out],
                         stream);
            return;
        case InnerKind::PeriodicX:
            k.periodic_x(n, static_cast<std::size_t>(p.period), ptr[0], ptr[1], ptr[out],
                         stream);
            return;
        case InnerKind::Copy: k.copy(n, ptr[0], ptr[out], stream); return;
        case InnerKind::Fill: k.fill(n, ptr[0], ptr[out], stream); return;
        case InnerKind::Strided: {
            const plan::Loop& inner = p.nest.loops[p.nest.num_loops - 1];
            std::ptrdiff_t strides[kMaxOperands];
            for (std::size_t o = 0; o < out; ++o) strides[o] = inner.stride[o];
            k.strided(n, out, reinterpret_cast<const void* const*>(ptr), strides, ptr[out],
                      inner.stride[out]);
            return;
        }
        case InnerKind::Empty: return;
    }
}

void call_rows(const plan::Plan& p, char* const* ptr, std::size_t rows, bool stream) noexcept {
    const plan::Loop& row = p.nest.loops[p.outer_loops];
    const auto n = static_cast<std::size_t>(p.inner_count);
    const kernels::OpKernels& k = p.kernels;
    const kernels::Binary2dFn fn =
        p.kind == InnerKind::VV ? k.vv2d : p.kind == InnerKind::VS ? k.vs2d : k.sv2d;
    fn(rows, n, ptr[0], row.stride[0], ptr[1], row.stride[1], ptr[2], row.stride[2], stream);
}

// The walk's line runner: a whole call through the plan's kernel, a part
// of one (a task's range) as the same kernels over the part.
struct OpRunner {
    const plan::Plan& p;
    bool stream;

    void operator()(char* const* ptr, uint64_t off, uint64_t len) const noexcept {
        if (p.rows > 0) {
            split_rows(
                p, ptr, off, len, static_cast<uint64_t>(p.inner_count), p.outer_loops,
                [&](char* const* q, uint64_t m) { call_run(p, q, m, stream); },
                [&](char* const* q, uint64_t rows) { call_rows(p, q, rows, stream); });
            return;
        }
        if (off == 0) {
            call_run(p, ptr, len, stream);
            return;
        }
        // Periodic: the full operand and the output run on, the pattern
        // restarts (off is a whole number of periods).
        const std::size_t out = p.num_reads;
        const std::size_t inner = p.nest.num_loops - 1;
        const bool periodic = p.kind == InnerKind::PeriodicX || p.kind == InnerKind::PeriodicY;
        const std::size_t pattern = p.kind == InnerKind::PeriodicX ? 0 : 1;
        char* q[kMaxOperands];
        for (std::size_t o = 0; o <= out; ++o) {
            int64_t step = p.byte_stride[inner][o];
            if (periodic) step = o == pattern ? 0 : static_cast<int64_t>(p.elem_size[o]);
            q[o] = ptr[o] + static_cast<int64_t>(off) * step;
        }
        call_run(p, q, len, stream);
    }
};

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

void run(const plan::Plan& p, const void* const* inputs, void* output) noexcept {
    if (p.quantized) return run(*p.quantized, inputs, output);
    if (p.total_elems == 0) return;
    OpRunner runner{p, p.stream};
    walk(p, inputs, output, 0, p.total_elems, runner);
}

void run_range(const plan::Plan& p, const void* const* inputs, void* output, uint64_t begin,
               uint64_t end, bool stream) noexcept {
    if (p.quantized) return run_range(*p.quantized, inputs, output, begin, end, stream);
    OpRunner runner{p, stream};
    walk(p, inputs, output, begin, end, runner);
}

}  // namespace bcast::exec
