#include "plan/fused_plan.hpp"

#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/op_checks.hpp"
#include "kernels/affine_check.hpp"
#include "kernels/dispatch.hpp"
#include "rules/rules.hpp"
#include "tuning/active_tuning.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bcast::plan {
namespace {

using AxisMap = std::array<int, kMaxRank>;  // a value's axis -> final output axis, or -1

kernels::QuantParams quant_params(const Quantization& q) {
    kernels::QuantParams p;
    p.scale = q.scale;
    p.zero_point = q.zero_point;
    p.lo = static_cast<float>(quantized_min(q.dtype) - q.zero_point);
    p.hi = static_cast<float>(quantized_max(q.dtype) - q.zero_point);
    return p;
}

std::string node_label(const Expression& e, std::size_t k) {
    return node_name(k, op_info(e.node(k).opcode));
}

// Every node's output shape and placements, as the node run alone would
// resolve them (also nodes the output does not use: their refusals count).
struct Shapes {
    std::vector<Shape> value;               // inputs, then nodes
    std::vector<rules::Resolution> node;    // per node
};

// The bytes an operand spans from its pointer (what a single op's plan
// checks before it runs): SIZE_OVERFLOW where they do not fit.
void check_span(const Shape& shape, const int64_t* user_strides, std::size_t elem_size) {
    const std::array<int64_t, kMaxRank> own = contiguous_strides(shape);
    int64_t lo = 0, hi = 0;
    for (std::size_t k = 0; k < shape.rank; ++k) {
        const int64_t span = checked_mul(user_strides ? user_strides[k] : own[k], shape[k] - 1, "offset");
        if (span < 0) lo = checked_add(lo, span, "offset");
        else hi = checked_add(hi, span, "offset");
    }
    const auto esz = static_cast<int64_t>(elem_size);
    checked_mul(lo, esz, "byte offset");
    checked_add(checked_mul(hi, esz, "byte offset"), esz, "byte offset");
}

Shapes resolve_nodes(const Expression& e, const Shape* inputs, const int64_t* const* strides,
                     const rules::Resolution* resolved) {
    Shapes s;
    s.value.assign(inputs, inputs + e.num_inputs());
    s.node.resize(e.num_nodes());
    std::array<Shape, kMaxInputs> operands{};  // 4 KB: cleared once, not per node
    for (std::size_t k = 0; k < e.num_nodes(); ++k) {
        const Node& n = e.node(k);
        for (std::size_t j = 0; j < n.num_operands; ++j) operands[j] = s.value[n.operands[j]];
        try {
            s.node[k] = resolved ? *resolved
                                 : rules::resolve(n.rule, n.axis, operands.data(), n.num_operands,
                                                  primary_operand(n.opcode));
            const int64_t count = element_count(s.node[k].out);
            checked_mul(count, static_cast<int64_t>(dtype_size(n.out_dtype)), "output byte size");
            // Run alone, the node reads its operands where it writes anything:
            // inputs along their strides, intermediates contiguous.
            for (std::size_t j = 0; j < n.num_operands && count > 0; ++j) {
                const std::size_t v = n.operands[j];
                const bool input = v < e.num_inputs();
                check_span(s.value[v], input && strides ? strides[v] : nullptr,
                           dtype_size(input ? e.stored_dtype(v) : e.value_dtype(v)));
            }
        } catch (const Error& err) {
            fail(err.status(), e.single_op() ? std::string(err.what()) : node_label(e, k) + ": " + err.what());
        }
        s.value.push_back(s.node[k].out);
    }
    return s;
}

// Builds leaves and steps from the output node down, composing placements.
class Composer {
public:
    Composer(const Expression& e, const Shapes& shapes, const int64_t* const* strides, FusedPlan& p)
        : e_(e), shapes_(shapes), strides_(strides), p_(p) {}

    // The leaves found so far, as the layout reads them.
    const Read* reads() const { return reads_.data(); }
    std::size_t num_reads() const { return num_reads_; }

    Source place(std::size_t value, AxisMap map) {
        const Shape& shape = shapes_.value[value];
        for (std::size_t i = 0; i < kMaxRank; ++i) {
            if (i >= shape.rank || shape[i] == 1) map[i] = -1;  // broadcast: no axis
        }
        for (const Placed& seen : placed_) {
            if (seen.value == value && seen.map == map) return seen.source;
        }
        const Source source = value < e_.num_inputs() ? add_leaf(value, map) : add_step(value, map);
        placed_.push_back({value, map, source});
        return source;
    }

private:
    struct Placed {
        std::size_t value;
        AxisMap map;
        Source source;
    };

    Source add_leaf(std::size_t input, const AxisMap& map) {
        const std::size_t l = num_reads_;
        if (l >= kMaxInputs) {
            fail(BCAST_ERROR_UNSUPPORTED, "the expression reads its inputs along more than " +
                                              std::to_string(kMaxInputs) +
                                              " different placements");
        }
        Read& read = reads_[l];
        read.input = input;
        read.shape = &shapes_.value[input];
        read.strides = strides_ ? strides_[input] : nullptr;
        read.placement.out_axis = map;
        read.elem_size = dtype_size(e_.stored_dtype(input));
        p_.leaf_gather[l] = kernels::select_kernels(BCAST_OP_COPY, e_.stored_dtype(input)).kernels.strided;
        if (const Quantization* q = e_.input_quantization(input)) {
            p_.leaf_dequantize[l] = kernels::select_quant_kernels(q->dtype).kernels.dequantize;
            p_.leaf_quant[l] = quant_params(*q);
            p_.leaf_quant_dtype[l] = q->dtype;
        }
        ++num_reads_;
        return Source{true, l};
    }

    Source add_step(std::size_t value, const AxisMap& map) {
        const std::size_t k = value - e_.num_inputs();
        const Node& n = e_.node(k);
        const OpInfo* info = op_info(n.opcode);
        Step step;
        step.node = k;
        step.dtype = n.dtype;
        step.out_size = dtype_size(n.out_dtype);
        step.num_operands = n.num_operands;
        for (std::size_t j = 0; j < n.num_operands; ++j) {
            const rules::Placement& into_node = shapes_.node[k].inputs[j];
            AxisMap operand_map{};
            operand_map.fill(-1);
            for (std::size_t i = 0; i < shapes_.value[n.operands[j]].rank; ++i) {
                const int axis = into_node.out_axis[i];
                operand_map[i] = axis >= 0 ? map[static_cast<std::size_t>(axis)] : -1;
            }
            step.operands[j] = place(n.operands[j], operand_map);
        }
        if (info->swapped) std::swap(step.operands[0], step.operands[1]);
        step.kernel_op = info->base;
        const kernels::Selection sel = kernels::select_kernels(step.kernel_op, n.dtype);
        if (!sel.kernels.strided) {
            fail(BCAST_ERROR_UNSUPPORTED, node_label(e_, k) + " has no kernel for " + dtype_name(n.dtype));
        }
        step.kernels = sel.kernels;
        p_.isa = sel.isa;
        const int exchanged = exchanged_op(step.kernel_op, n.dtype);
        if (n.num_operands == 2 && exchanged >= 0) {
            step.has_exchanged = true;
            step.exchanged = kernels::select_kernels(exchanged, n.dtype).kernels;
        }
        if (p_.num_steps >= kMaxSteps) {
            fail(BCAST_ERROR_UNSUPPORTED, "the expression evaluates its nodes along more than " +
                                              std::to_string(kMaxSteps) + " different placements");
        }
        p_.steps[p_.num_steps] = step;
        return Source{false, p_.num_steps++};
    }

    const Expression& e_;
    const Shapes& shapes_;
    const int64_t* const* strides_;
    FusedPlan& p_;
    std::vector<Placed> placed_;
    std::array<Read, kMaxInputs> reads_{};
    std::size_t num_reads_ = 0;
};

std::size_t widest_element(const FusedPlan& p) {
    std::size_t widest = p.elem_size[p.num_reads];
    for (std::size_t l = 0; l < p.num_reads; ++l) widest = std::max(widest, slot_elem_size(p, l));
    for (std::size_t s = 0; s < p.num_steps; ++s) widest = std::max(widest, p.steps[s].out_size);
    return widest;
}

// Elements per block when `slots` slots share the scratch, each holding a
// block and `period` elements more of `widest` bytes, in whole lines: a
// multiple of 64 up to the tuning's chain_block, or 0 when not even 64 fit.
std::size_t block_for(std::size_t slots, std::size_t widest, std::size_t period) {
    const std::size_t most = std::max<std::size_t>(64, tuning::active().chain_block / 64 * 64);
    if (slots == 0) return most;
    const std::size_t share = kScratchBytes / slots / 64 * 64;  // whole lines per slot
    const std::size_t elems = share / widest;
    if (elems < period + 64) return 0;
    return std::min(most, (elems - period) / 64 * 64);
}

// A short inner row that some leaves repeat along the next loop, while the
// output and the other leaves run on or stay constant, merges with that loop
// into one line; the repeating leaves become patterns (fused_execute.cpp).
void merge_patterns(FusedPlan& p) {
    LoopNest& nest = p.nest;
    if (nest.num_loops < 2) return;
    Loop& inner = nest.loops[nest.num_loops - 1];
    const Loop& outer = nest.loops[nest.num_loops - 2];
    const int64_t period = inner.extent;
    if (period > kMaxPattern || period < 2) return;
    const std::size_t out = p.num_reads;
    const auto runs = [&](std::size_t o) { return inner.stride[o] == 1 && outer.stride[o] == period; };
    const auto constant = [&](std::size_t o) { return inner.stride[o] == 0 && outer.stride[o] == 0; };
    const auto repeats = [&](std::size_t o) { return inner.stride[o] == 1 && outer.stride[o] == 0; };
    if (!runs(out)) return;
    bool any = false;
    for (std::size_t l = 0; l < out; ++l) {
        if (repeats(l)) any = true;
        else if (!runs(l) && !constant(l)) return;
    }
    if (!any) return;
    // One binary step over two leaves runs its rows through its 2-D kernel
    // (choose_rows), whose vv rows over a row that one operand repeats are
    // one periodic run, as a single op's (a repeated x of a pair with an
    // exchanged op as y op' x: choose_rows).
    const Step& step = p.steps[0];
    if (p.num_steps == 1 && !p.quantize_out && step.num_operands == 2 && step.operands[0].leaf &&
        step.operands[1].leaf && !p.leaf_dequantize[step.operands[0].index] &&
        !p.leaf_dequantize[step.operands[1].index] && step.kernels.vv2d) {
        return;
    }
    // Every slot must still hold a 64-element block and a period more.
    if (block_for(p.num_reads + p.num_steps, widest_element(p), static_cast<std::size_t>(period)) == 0) {
        return;
    }
    for (std::size_t l = 0; l < out; ++l) {
        if (!repeats(l)) continue;
        p.leaf_period[l] = static_cast<std::size_t>(period);
        inner.stride[l] = 0;  // the pattern's start stays put along the line
        p.byte_stride[nest.num_loops - 1][l] = 0;
    }
    inner.extent = checked_mul(period, outer.extent, "line length");
    nest.loops[nest.num_loops - 2] = inner;
    p.byte_stride[nest.num_loops - 2] = p.byte_stride[nest.num_loops - 1];
    --nest.num_loops;
}

// Which operands are constant along the inner loop, and scratch slots: a
// gathered leaf keeps one for the block, a step's result one until its last
// use (the last step writes the output, but a constant one needs a slot to
// broadcast from).
void assign_slots(FusedPlan& p) {
    const Loop& inner = p.nest.loops[p.nest.num_loops - 1];
    const bool single = inner.extent == 1;
    auto& leaf_scalar = p.leaf_scalar;
    std::size_t slots = 0;
    for (std::size_t l = 0; l < p.num_reads; ++l) {
        const int64_t stride = inner.stride[l];
        const bool pattern = p.leaf_period[l] > 0;
        leaf_scalar[l] = !single && !pattern && stride == 0;
        const bool in_place =
            !pattern && !p.leaf_dequantize[l] && (single || stride == 0 || stride == 1);
        p.leaf_slot[l] = in_place ? kNoSlot : slots++;
    }
    std::vector<std::size_t> last_use(p.num_steps, 0);
    for (std::size_t s = 0; s < p.num_steps; ++s) {
        Step& step = p.steps[s];
        step.scalar = true;
        for (std::size_t j = 0; j < step.num_operands; ++j) {
            const Source& src = step.operands[j];
            step.scalar = step.scalar && (src.leaf ? leaf_scalar[src.index] : p.steps[src.index].scalar);
            if (!src.leaf) last_use[src.index] = s;
        }
    }
    std::vector<std::size_t> free_slots;
    for (std::size_t s = 0; s < p.num_steps; ++s) {
        Step& step = p.steps[s];
        const bool last = s + 1 == p.num_steps;
        if (!last || step.scalar || p.quantize_out) {
            if (free_slots.empty()) {
                step.slot = slots++;
            } else {
                step.slot = free_slots.back();
                free_slots.pop_back();
            }
        }
        // Operands whose last use this was give their slots back after it
        // (a kernel may not write over an operand of another size).
        for (std::size_t j = 0; j < step.num_operands; ++j) {
            const Source& src = step.operands[j];
            if (!src.leaf && last_use[src.index] == s && p.steps[src.index].slot != kNoSlot &&
                std::find(free_slots.begin(), free_slots.end(), p.steps[src.index].slot) ==
                    free_slots.end()) {
                free_slots.push_back(p.steps[src.index].slot);
            }
        }
    }
    p.num_slots = slots;
    const std::size_t widest = widest_element(p);
    std::size_t longest_period = 0;
    for (std::size_t l = 0; l < p.num_reads; ++l) longest_period = std::max(longest_period, p.leaf_period[l]);
    // Slots of block + longest_period elements, in whole lines; the block a
    // multiple of 64 (merge_patterns made sure one fits).
    p.block = block_for(slots, widest, longest_period);
    p.slot_bytes = ((p.block + longest_period) * widest + 63) / 64 * 64;
    if (p.num_slots * p.slot_bytes > kScratchBytes) {
        fail(BCAST_ERROR_INTERNAL, "fused plan: " + std::to_string(p.num_slots) + " slots of " +
                                       std::to_string(p.slot_bytes) + " bytes exceed the scratch");
    }
}

// Each step's kernel for its operands' kinds (constant or run) and its
// output's inner stride: the contiguous kernels where they fit, else the
// strided one.
void resolve_calls(FusedPlan& p) {
    const std::size_t out = p.num_reads;
    const Loop& inner = p.nest.loops[p.nest.num_loops - 1];
    const bool out_runs = inner.extent == 1 || inner.stride[out] == 1;
    for (std::size_t s = 0; s < p.num_steps; ++s) {
        Step& step = p.steps[s];
        for (std::size_t j = 0; j < step.num_operands; ++j) {
            const Source& src = step.operands[j];
            step.operand_scalar[j] = src.leaf ? p.leaf_scalar[src.index] : p.steps[src.index].scalar;
        }
        if (step.scalar) {
            step.call = Call::kScalar;
            continue;
        }
        step.call = Call::kStrided;
        const bool last = s + 1 == p.num_steps;
        if (last && !p.quantize_out && !out_runs) continue;
        const kernels::OpKernels& k = step.kernels;
        if (step.num_operands == 2) {
            const bool xs = step.operand_scalar[0], ys = step.operand_scalar[1];
            // A constant x of a pair with an exchanged op runs as y op' x:
            // only the right-broadcast forms are vectorised (simd_table.hpp).
            step.swap = xs && step.has_exchanged && step.exchanged.vs != nullptr;
            const kernels::BinaryFn fn = step.swap ? step.exchanged.vs : !xs && !ys ? k.vv : !xs ? k.vs : k.sv;
            if (fn != nullptr) {
                step.call = Call::kBinary;
                step.binary = fn;
            }
        } else if (step.num_operands == 1) {
            const kernels::UnaryFn fn = step.operand_scalar[0] ? k.fill : k.copy;
            if (fn != nullptr) {
                step.call = Call::kUnary;
                step.unary = fn;
            }
        }
    }
}

// The chain kernel where the steps are a linear chain it evaluates: step 0
// over two leaves, each later step over the step before and a leaf, all of
// chain_op()s in one dtype, none constant, the output contiguous.
void choose_chain(FusedPlan& p) {
    const std::size_t out = p.num_reads;
    if (p.num_steps < 2 || p.num_steps > kernels::kMaxChainLinks) return;
    if (p.nest.loops[p.nest.num_loops - 1].stride[out] != 1) return;
    const bcast_dtype dtype = p.steps[0].dtype;
    if (p.out_dtype != dtype || p.quantize_out) return;
    for (std::size_t l = 0; l < p.num_reads; ++l) {
        if (p.leaf_dequantize[l]) return;
    }
    kernels::Chain chain{};
    for (std::size_t s = 0; s < p.num_steps; ++s) {
        const Step& step = p.steps[s];
        if (step.dtype != dtype || step.num_operands != 2 || step.scalar ||
            !chain_op(step.kernel_op)) {
            return;
        }
        const Source& x = step.operands[0];
        const Source& y = step.operands[1];
        kernels::ChainLink& link = chain.link[s];
        link.op = step.kernel_op;
        if (s == 0) {
            if (!x.leaf || !y.leaf) return;
            chain.first = x.index;
            link.leaf = y.index;
        } else if (!x.leaf && x.index == s - 1 && y.leaf) {
            link.leaf = y.index;
        } else if (x.leaf && !y.leaf && y.index == s - 1) {
            link.leaf = x.index;
            link.acc_is_y = true;
        } else {
            return;
        }
    }
    chain.num_links = p.num_steps;
    p.chain = kernels::select_chain(dtype);
    p.chain_links = chain;
}

// Whether blocks of lines beat the chain kernel over lines of n elements
// of `size` bytes: the chain pays per line (its edges, ragged steps where
// a line does not end on a cache line), the blocks per step and block (one
// pass over a slot each); measured, lines under four cache lines, and
// ragged ones up to kMaxRowsLine elements, run faster in blocks
// (docs/fusion.md, "Short lines").
bool rows_beat_chain(std::size_t n, std::size_t size) {
    return n <= kMaxRowsLine && (n * size < 256 || (n * size) % 64 != 0);
}

// Blocks of whole lines (FusedPlan::block_rows) where every leaf is read
// in place (no quantization, pattern or gathered copy), no step is constant
// along the line, the output's lines are contiguous and two lines fit a
// slot's share of the scratch, unless a chain kernel runs these lines
// faster. One step into the output has no slots: a block is then every row
// of the call, and a line one call, as a single op runs them.
void choose_rows(FusedPlan& p) {
    if (p.quantize_out) return;
    for (std::size_t l = 0; l < p.num_reads; ++l) {
        if (p.leaf_slot[l] != kNoSlot || p.leaf_dequantize[l]) return;
    }
    for (std::size_t s = 0; s < p.num_steps; ++s) {
        if (p.steps[s].scalar) return;
    }
    const bool one_step = p.num_slots == 0;
    if (one_step) p.block = kWholeLine;
    const Loop& inner = p.nest.loops[p.nest.num_loops - 1];
    if (p.nest.num_loops < 2 || inner.stride[p.num_reads] != 1) return;
    const auto n = static_cast<std::size_t>(inner.extent);
    if (p.chain && !rows_beat_chain(n, p.elem_size[p.num_reads])) return;
    if (one_step) {
        p.block_rows = SIZE_MAX;
    } else {
        const std::size_t share = kScratchBytes / p.num_slots / 64 * 64;
        const std::size_t lines = share / widest_element(p) / n;
        if (lines < 2) return;
        p.block_rows = lines;
        p.slot_bytes = share;
    }
    p.chain = nullptr;
    const Loop& row = p.nest.loops[p.nest.num_loops - 2];
    for (std::size_t s = 0; s < p.num_steps; ++s) {
        Step& step = p.steps[s];
        if (step.call != Call::kBinary) continue;
        const Source& x = step.operands[0];
        const Source& y = step.operands[1];
        bool xs = step.operand_scalar[0], ys = step.operand_scalar[1];
        // Rows over a row that x repeats, of a pair with an exchanged op, run
        // as y op' x: the 2-D kernel's periodic run is for a repeated y.
        if (!xs && !ys && step.has_exchanged && x.leaf && y.leaf && row.stride[x.index] == 0 &&
            row.stride[y.index] != 0 && step.exchanged.vv2d) {
            step.swap = true;
            step.binary = step.exchanged.vv;
        }
        if (step.swap) std::swap(xs, ys);  // in the kernel's order
        const kernels::OpKernels& k = step.swap ? step.exchanged : step.kernels;
        step.binary2d = !xs && !ys ? k.vv2d : !xs ? k.vs2d : k.sv2d;
    }
}

// Each line must be this many times its check's elements (256 x the
// pattern's period) long: the check then costs a few percent of the line.
// Pairs are checked at planning (65,536 of them) where the op is this many
// times longer.
constexpr std::size_t kAffinePerCheck = 32;

// Whether the op is long enough for planning to run the exact kernel over
// all 65,536 byte pairs (to check a kernel against it, or to tabulate it).
bool pays_for_pairs(const FusedPlan& p) {
    return static_cast<uint64_t>(element_count(p.out)) >= kAffinePerCheck * 65536;
}

// The checked kernels of a quantized binary op (kernels/affine_check.hpp):
// over two byte operands, checked now, the affine kernel of an ADD, SUB or
// MUL, else the reciprocal one; over bytes and a pattern, the reciprocal
// one if checked now, and the affine kernels for the lines to check
// (FusedPlan::affine), where the block holds a whole period.
void choose_checked(FusedPlan& p, const kernels::QuantBinaryKernels& k) {
    const Step& step = p.steps[0];
    const std::size_t x = step.operands[0].index, y = step.operands[1].index;
    const bcast_opcode op = step.kernel_op;
    const bool linear = op == BCAST_OP_ADD || op == BCAST_OP_SUB || op == BCAST_OP_MUL;
    if (p.leaf_period[x] == 0 && p.leaf_period[y] == 0) {
        if (p.leaf_scalar[x] || p.leaf_scalar[y]) return;
        if (!pays_for_pairs(p)) return;
        using Checked = FusedPlan::CheckedPairs;
        kernels::QuantBinaryFn fn = nullptr;
        if (linear && (fn = kernels::checked_affine_pairs(op, k.affine, p.quant_binary, p.quant_binary_params))) {
            p.checked_pairs = Checked::kAffine;
        } else if ((fn = kernels::checked_reciprocal_pairs(k.vv_reciprocal, p.quant_binary, p.quant_binary_params))) {
            p.checked_pairs = Checked::kReciprocal;
        }
        if (fn) p.quant_binary = fn;
        return;
    }
    const bool pattern_x = p.leaf_period[x] > 0;
    // The pattern holds the bytes' dequantized values, so the pairs that
    // check the reciprocal over two byte operands check it here too.
    const kernels::QuantBinaryFn reciprocal = pattern_x ? k.fv_reciprocal : k.vf_reciprocal;
    if (reciprocal && pays_for_pairs(p) &&
        kernels::checked_reciprocal_pairs(k.vv_reciprocal, k.vv, p.quant_binary_params)) {
        p.quant_binary = reciprocal;
        p.checked_pairs = FusedPlan::CheckedPairs::kReciprocal;
    }
    if (!linear) return;
    const std::size_t bytes = pattern_x ? y : x, pattern = pattern_x ? x : y;
    const std::size_t period = p.leaf_period[pattern];
    if (p.block < period || step.slot == kNoSlot || p.slot_bytes < (p.block + period) * sizeof(float)) return;
    p.affine = k.affine;
    p.affine_bytes_leaf = bytes;
    p.affine_pattern_leaf = pattern;
    p.affine_slot = step.slot;
    p.affine_min_line = kAffinePerCheck * 256 * period;
}

// The register kernel of a quantized binary op: one step over two
// quantized leaves of the output's dtype, each contiguous or constant along
// the line (read in place) or a pattern (read from its slot, where the
// block lays it out dequantized), into a contiguous quantized output.
void choose_quant_binary(FusedPlan& p) {
    if (!p.quantize_out || p.num_steps != 1) return;
    const Step& step = p.steps[0];
    if (step.num_operands != 2 || step.call == Call::kScalar) return;
    const Loop& inner = p.nest.loops[p.nest.num_loops - 1];
    const bool single = inner.extent == 1;
    if (!single && inner.stride[p.num_reads] != 1) return;
    bool pattern = false;
    for (std::size_t j = 0; j < 2; ++j) {
        const Source& src = step.operands[j];
        if (!src.leaf) return;
        const std::size_t l = src.index;
        if (!p.leaf_dequantize[l] || p.leaf_quant_dtype[l] != p.out_dtype) return;
        pattern = pattern || p.leaf_period[l] > 0;
        if (!single && !p.leaf_scalar[l] && p.leaf_period[l] == 0 && inner.stride[l] != 1) return;
    }
    const std::size_t x = step.operands[0].index, y = step.operands[1].index;
    const kernels::QuantBinaryKernels k = kernels::select_quant_binary(step.kernel_op, p.out_dtype);
    // How each operand is read: 0 bytes, 1 one byte, 2 a pattern (a pattern
    // never meets a constant or another pattern: no kernel, the block path).
    const auto read = [&](std::size_t l) { return p.leaf_period[l] > 0 ? 2 : p.leaf_scalar[l] ? 1 : 0; };
    const kernels::QuantBinaryFn by_reads[3][3] = {
        {k.vv, k.vs, k.vf}, {k.sv, nullptr, nullptr}, {k.fv, nullptr, nullptr}};
    p.quant_binary = by_reads[read(x)][read(y)];
    p.quant_binary_params = {p.leaf_quant[x], p.leaf_quant[y], p.out_quant, p.quant_binary, nullptr, {}};
    // A table row indexes the other operand's bytes: read in place, not a
    // pattern (whose register kernel does not exist to build the row).
    const kernels::QuantBinaryFn row = p.leaf_scalar[x] && read(y) == 0   ? k.sv_row
                                       : p.leaf_scalar[y] && read(x) == 0 ? k.vs_row
                                                                          : nullptr;
    if (row) {
        p.quant_binary = row;
        // A long op computes all 256 rows once (as the pairs checks cost),
        // so that no line computes its own: on a Zen 4 guest that took 140
        // ns per line, which cached stores do not hide.
        if (k.vv && pays_for_pairs(p)) {
            auto rows = std::make_shared<std::vector<unsigned char>>(65536);
            kernels::pair_rows(k.vv, p.quant_binary_params, p.leaf_scalar[x], rows->data());
            p.quant_binary_params.rows = rows->data();
            p.quant_rows = std::move(rows);
        }
    }
    if (p.quant_binary && !row) choose_checked(p, k);
    // Without a pattern nothing goes through slots: a line runs in one call
    // (a table row is built once per line, not once per block).
    if (p.quant_binary && !pattern) p.block = kWholeLine;
}

// How the chain reads each leaf. Runs read in place come from memory (and
// are prefetched) when the expression touches more than the split-stream
// threshold of its kind (about half the last-level cache, built in:
// p.stream_split, the one_input value for a chain whose output is 2/5 of
// what it touches): below it they come from cache, where prefetching them
// costs more than it saves (docs/fusion.md).
void set_chain_leaves(FusedPlan& p) {
    const bool from_memory = p.stream_split;
    p.chain_whole_lines = p.chain != nullptr;
    for (std::size_t l = 0; l < p.num_reads; ++l) {
        const bool copied = p.leaf_slot[l] != kNoSlot;  // a pattern or a gathered run
        p.chain_leaf[l] = p.leaf_scalar[l]        ? kernels::ChainLeaf::kScalar
                          : copied || !from_memory ? kernels::ChainLeaf::kCached
                                                   : kernels::ChainLeaf::kStream;
        p.chain_whole_lines = p.chain_whole_lines && !copied;
    }
}

}  // namespace

FusedPlan plan_expression(const Expression& e, const Shape* inputs, const int64_t* const* strides,
                          const int64_t* out_strides) {
    FusedPlan p;
    plan_expression(e, inputs, strides, out_strides, p);
    return p;
}

void plan_expression(const Expression& e, const Shape* inputs, const int64_t* const* strides,
                     const int64_t* out_strides, FusedPlan& p, const rules::Resolution* resolved) {
    if (resolved && e.num_nodes() != 1) {
        fail(BCAST_ERROR_INTERNAL, "resolved placements are for a one-node expression");
    }
    const std::size_t root = e.output();
    const Shapes shapes = resolve_nodes(e, inputs, strides, resolved);
    p.out = shapes.value[root];
    p.out_dtype = e.value_dtype(root);
    if (const Quantization* q = e.output_quantization()) {
        if (p.out_dtype != BCAST_DTYPE_F32) {
            fail(BCAST_ERROR_UNSUPPORTED, "the output, " + node_label(e, root - e.num_inputs()) +
                                              ", is " + dtype_name(p.out_dtype) +
                                              ": only an f32 result can be quantized");
        }
        p.quantize_out = kernels::select_quant_kernels(q->dtype).kernels.quantize;
        p.out_quant = quant_params(*q);
        p.out_dtype = q->dtype;
    }

    Composer composer(e, shapes, strides, p);
    AxisMap identity{};
    for (std::size_t i = 0; i < kMaxRank; ++i) identity[i] = static_cast<int>(i);
    composer.place(root, identity);
    p.copy_out = kernels::select_kernels(BCAST_OP_COPY, p.out_dtype).kernels;
    lay_out(p, composer.reads(), composer.num_reads(), out_strides, dtype_size(p.out_dtype));
    if (!p.nest.empty) {
        merge_patterns(p);
        assign_slots(p);
        resolve_calls(p);
        choose_chain(p);
        choose_rows(p);
        set_chain_leaves(p);
        choose_quant_binary(p);
    }
    // Each input and the output moved once at the cost per element of the
    // op that writes the output (a single op's work), plus each earlier
    // step's weighed as the bytes a plain op of its result moves.
    uint64_t per_elem = 0;
    for (std::size_t o = 0; o <= p.num_reads; ++o) per_elem += p.elem_size[o];
    per_elem *= op_weight(p.steps[p.num_steps - 1].kernel_op);
    for (std::size_t s = 0; s + 1 < p.num_steps; ++s) per_elem += op_weight(p.steps[s].kernel_op) * p.steps[s].out_size;
    // A chain over whole lines, and blocks of lines, take whole rows of
    // lines per call.
    const std::size_t loops = p.nest.num_loops;
    const bool rows = p.chain_whole_lines || p.block_rows > 0;
    const std::size_t outer = rows && loops >= 2 ? loops - 2 : loops - (loops > 0 ? 1 : 0);
    // Tasks over short lines in blocks take whole lines: a task that began
    // or ended inside one would run its parts as calls of their own, and a
    // row one operand repeats would start out of phase (2 threads on
    // (1,112,112,3)+(3): 3-20% slower).
    const uint64_t line = loops > 0 ? static_cast<uint64_t>(p.nest.loops[loops - 1].extent) : 0;
    set_walk(p, outer, p.block_rows > 0 && line <= kMaxRowsLine ? line : 0, per_elem);
}

}  // namespace bcast::plan
