#include "plan/plan.hpp"

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/op_info.hpp"
#include "kernels/dispatch.hpp"
#include "plan/layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace bcast::plan {
namespace {

bool strides_are(const Loop& loop, std::size_t operand, int64_t value) {
    return loop.stride[operand] == value;
}

// Short inner rows repeating along the next loop: one periodic call covers
// both loops. x_pattern: the repeating operand is x (else y).
bool try_periodic(Plan& p, bool x_pattern) {
    const LoopNest& nest = p.nest;
    if (p.num_reads != 2 || nest.num_loops < 2) return false;
    const Loop& inner = nest.loops[nest.num_loops - 1];
    const Loop& outer = nest.loops[nest.num_loops - 2];
    const int64_t n = inner.extent;
    const std::size_t pat = x_pattern ? 0 : 1, full = x_pattern ? 1 : 0, out = 2;
    if (n > kMaxPeriod) return false;
    if (!(strides_are(inner, out, 1) && strides_are(outer, out, n))) return false;
    if (!(strides_are(inner, full, 1) && strides_are(outer, full, n))) return false;
    if (!(strides_are(inner, pat, 1) && strides_are(outer, pat, 0))) return false;
    if (!(x_pattern ? p.kernels.periodic_x : p.kernels.periodic_y)) return false;
    p.kind = x_pattern ? InnerKind::PeriodicX : InnerKind::PeriodicY;
    p.inner_count = outer.extent * n;
    p.period = n;
    p.outer_loops = nest.num_loops - 2;
    return true;
}

InnerKind pick_contiguous_kind(const Plan& p, const Loop& inner) {
    const std::size_t out = p.num_reads;
    const bool single = inner.extent == 1;
    if (!single && !strides_are(inner, out, 1)) return InnerKind::Strided;
    auto unit = [&](std::size_t o) { return single || strides_are(inner, o, 1); };
    auto zero = [&](std::size_t o) { return single || strides_are(inner, o, 0); };
    if (p.num_reads == 1) {
        if (unit(0) && p.kernels.copy) return InnerKind::Copy;
        if (zero(0) && p.kernels.fill) return InnerKind::Fill;
        return InnerKind::Strided;
    }
    if (p.num_reads == 2) {
        if (unit(0) && unit(1) && p.kernels.vv) return InnerKind::VV;
        if (unit(0) && zero(1) && p.kernels.vs) return InnerKind::VS;
        if (zero(0) && unit(1) && p.kernels.sv) return InnerKind::SV;
    }
    return InnerKind::Strided;
}

kernels::Binary2dFn two_d_kernel(const Plan& p) {
    switch (p.kind) {
        case InnerKind::VV: return p.kernels.vv2d;
        case InnerKind::VS: return p.kernels.vs2d;
        case InnerKind::SV: return p.kernels.sv2d;
        default: return nullptr;
    }
}

void choose_inner_kernel(Plan& p) {
    if (p.nest.empty) {
        p.kind = InnerKind::Empty;
        return;
    }
    if (try_periodic(p, false) || try_periodic(p, true)) return;
    const Loop& inner = p.nest.loops[p.nest.num_loops - 1];
    p.kind = pick_contiguous_kind(p, inner);
    p.inner_count = inner.extent;
    p.outer_loops = p.nest.num_loops - 1;
    // Many rows per call where the ISA offers it: the row loop moves into the
    // kernel, saving an indirect call and tail set-up per short row.
    if (p.outer_loops > 0 && two_d_kernel(p)) {
        p.rows = p.nest.loops[p.outer_loops - 1].extent;
        --p.outer_loops;
    }
}

// Whether x is the operand broadcast along the inner loops where y is not:
// the inner loop reads a scalar x against a run of y (sv), or x and y both
// run but x repeats along the next loop while y runs on (periodic_x, or vv
// rows over a repeated x).
bool left_operand_repeats(const LoopNest& nest) {
    if (nest.empty || nest.num_loops == 0) return false;
    const Loop& inner = nest.loops[nest.num_loops - 1];
    if (inner.stride[0] == 0 && inner.stride[1] != 0) return true;
    if (nest.num_loops < 2 || inner.stride[0] != 1 || inner.stride[1] != 1) return false;
    const Loop& outer = nest.loops[nest.num_loops - 2];
    return outer.stride[0] == 0 && outer.stride[1] != 0;
}

// Kernel operands 0 and 1 trade places, with everything the plan keeps per
// kernel operand.
void exchange_inputs(Plan& p) {
    std::swap(p.input_order[0], p.input_order[1]);
    std::swap(p.elem_size[0], p.elem_size[1]);
    std::swap(p.lo_byte[0], p.lo_byte[1]);
    std::swap(p.hi_byte[0], p.hi_byte[1]);
    for (std::size_t l = 0; l < p.nest.num_loops; ++l) {
        std::swap(p.nest.loops[l].stride[0], p.nest.loops[l].stride[1]);
        std::swap(p.byte_stride[l][0], p.byte_stride[l][1]);
    }
}

}  // namespace

const char* inner_kind_name(InnerKind kind, std::size_t num_inputs) {
    switch (kind) {
        case InnerKind::Empty: return "empty";
        case InnerKind::VV: return "vv";
        case InnerKind::VS: return "vs";
        case InnerKind::SV: return "sv";
        case InnerKind::PeriodicY:
        case InnerKind::PeriodicX: return "periodic";
        case InnerKind::Copy: return "copy";
        case InnerKind::Fill: return "fill";
        case InnerKind::Strided: return num_inputs > 2 ? "nary" : "strided";
    }
    return "?";
}

Plan build_plan(const PlanRequest& rq, const rules::Resolution& res) {
    const OpInfo* info = op_info(rq.opcode);
    Plan p;
    p.opcode = rq.opcode;
    p.dtype = rq.dtype;
    p.out = res.out;
    const auto out_esz = dtype_size(output_dtype(rq.opcode, rq.dtype));
    checked_mul(element_count(p.out), static_cast<int64_t>(out_esz), "output byte size");

    std::array<Read, kMaxInputs> reads{};
    for (std::size_t k = 0; k < rq.num_inputs; ++k) {
        const std::size_t user = info->swapped && k < 2 ? 1 - k : k;
        const bool is_condition = rq.opcode == BCAST_OP_SELECT && user == 0;
        reads[k] = Read{user, &rq.inputs[user], rq.strides ? rq.strides[user] : nullptr,
                        res.inputs[user], is_condition ? 1 : dtype_size(rq.dtype)};
    }
    lay_out(p, reads.data(), rq.num_inputs, rq.out_strides, out_esz);

    // Left-broadcast forms of pairs with an exchanged op run as the
    // right-broadcast ones (op_info.hpp): only those have SIMD kernels.
    bcast_opcode kernel_op = info->base;
    const int exchanged = exchanged_op(kernel_op, rq.dtype);
    if (rq.num_inputs == 2 && exchanged >= 0 && left_operand_repeats(p.nest)) {
        exchange_inputs(p);
        kernel_op = exchanged;
    }
    p.kernel_op = kernel_op;
    const kernels::Selection sel = kernels::select_kernels(kernel_op, rq.dtype);
    if (!sel.kernels.strided) {
        fail(BCAST_ERROR_UNSUPPORTED, std::string(info->name) + " has no kernel for " +
                                          dtype_name(rq.dtype));
    }
    p.kernels = sel.kernels;
    p.isa = sel.isa;
    choose_inner_kernel(p);
    uint64_t bytes_per_elem = 0;
    for (std::size_t o = 0; o <= p.num_reads; ++o) bytes_per_elem += p.elem_size[o];
    const bool periodic = p.kind == InnerKind::PeriodicX || p.kind == InnerKind::PeriodicY;
    set_walk(p, p.outer_loops, periodic ? static_cast<uint64_t>(p.period) : 0,
             bytes_per_elem * op_weight(kernel_op));
    return p;
}

}  // namespace bcast::plan
