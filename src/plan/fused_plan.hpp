// A planned expression: the output shape, one coalesced loop nest over every
// input read and the output, and the steps that evaluate the chain block by
// block (fused_execute.hpp).
//
// Planning composes each node's placement (its rule and axis) through the
// chain, so every read of an input lands on the final output's axes; the
// shapes and refusals are those of the nodes run one by one. A value reached
// along two different placements is read (input) or evaluated (node) once
// per placement: a "leaf" is one placed read of an input, a "step" one placed
// evaluation of a node. Each step runs the ordinary kernels of its op and
// dtype, so intermediates are rounded to their dtype after every node, as
// the unfused ops round them; a linear chain of the ops chain kernels take
// runs them all in one such kernel (same ops, same rounding).
#pragma once

#include "core/shape.hpp"
#include "plan/expression.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/quantize.hpp"
#include "plan/layout.hpp"
#include "rules/rules.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bcast::plan {

// Placed evaluations after composition (a node used along two placements
// counts twice); scratch slots that one block needs.
constexpr std::size_t kMaxSteps = 2 * kMaxNodes;
// Scratch for one block of every slot, on the executing thread's stack.
constexpr std::size_t kScratchBytes = 32 * 1024;
// Inner rows up to this long that one input repeats along the next loop
// (NHWC per-channel parameters) merge with that loop: the input becomes a
// pattern, laid out once per line in a slot and read at the block's phase.
constexpr int64_t kMaxPattern = 256;
// Lines up to this long that every leaf reads in place run in blocks of
// whole lines, step by step, rather than through a chain kernel
// (FusedPlan::block_rows; fused_plan.cpp, rows_beat_chain).
constexpr std::size_t kMaxRowsLine = 128;
// The block of a plan without slots: a line is one call.
constexpr std::size_t kWholeLine = std::size_t{1} << 30;

constexpr std::size_t kNoSlot = SIZE_MAX;

// Where a step's operand comes from.
struct Source {
    bool leaf = true;       // a leaf (input read), else an earlier step's result
    std::size_t index = 0;  // leaf or step index
};

// How a step runs on a block, fixed once the loop nest is known.
enum class Call : unsigned char {
    kBinary,   // `binary`: vv, vs, sv, or an exchanged op's vs, operands swapped
    kUnary,    // `unary`: copy or fill
    kStrided,  // the strided kernel: n-ary ops, SELECT, a strided output
    kScalar,   // every operand constant: one element into the step's slot
};

struct Step {
    std::size_t node = 0;              // the expression's node
    bcast_opcode kernel_op = 0;        // reversed ops folded: RSUB runs SUB
    bcast_dtype dtype = 0;             // the op's dtype
    std::size_t out_size = 0;          // its result's element size
    std::size_t num_operands = 0;
    std::array<Source, kMaxInputs> operands{};  // kernel order
    kernels::OpKernels kernels{};
    // x op y as y op' x where the pair has an exchanged op (op_info.hpp):
    // such pairs have no sv kernel, so a scalar x runs op' with y first.
    bool has_exchanged = false;
    kernels::OpKernels exchanged{};
    bool scalar = false;      // every operand is constant along the inner loop
    std::size_t slot = kNoSlot;  // scratch slot of its result (none: the last step)
    // Resolved per plan (not per block: reloading per-block descriptors
    // right after each kernel call stalled behind its stores, docs/fusion.md).
    Call call = Call::kStrided;
    kernels::BinaryFn binary = nullptr;
    kernels::UnaryFn unary = nullptr;
    bool swap = false;
    // Its 2-D form, where the plan runs blocks of whole rows (block_rows)
    // and the kernel set has one (else the kernel runs once per row).
    kernels::Binary2dFn binary2d = nullptr;
    std::array<bool, kMaxInputs> operand_scalar{};  // constant along the inner loop
};

// The layout's reads are the leaves (plan/layout.hpp).
struct FusedPlan : Layout {
    bcast_dtype out_dtype = 0;
    // Per leaf: a slot when its inner stride is neither 0 nor 1 element
    // (gathered per block).
    std::array<std::size_t, kMaxInputs> leaf_slot{};
    std::array<bool, kMaxInputs> leaf_scalar{};  // constant along the inner loop, read in place
    std::array<kernels::StridedFn, kMaxInputs> leaf_gather{};  // COPY of its dtype
    // Per leaf: the period of a pattern read (0: none); a pattern leaf has a
    // slot that holds its period repeated over a block and one period more.
    std::array<std::size_t, kMaxInputs> leaf_period{};
    // Per leaf: a quantized input is dequantized into its slot (every
    // quantized leaf has one, constant ones too) as it is read.
    std::array<kernels::DequantizeFn, kMaxInputs> leaf_dequantize{};
    std::array<kernels::QuantParams, kMaxInputs> leaf_quant{};
    std::array<bcast_dtype, kMaxInputs> leaf_quant_dtype{};
    // A quantized output: the last step writes a slot, which is quantized
    // into the output.
    kernels::QuantizeFn quantize_out = nullptr;
    kernels::QuantParams out_quant{};
    // A quantized binary op over lines it reads in place (each operand
    // contiguous or constant) runs in registers: dequantize, op, quantize
    // in one kernel per block (kernels/quantize.hpp).
    kernels::QuantBinaryFn quant_binary = nullptr;
    kernels::QuantBinaryParams quant_binary_params{};
    // Where that op is ADD, SUB or MUL of bytes and a pattern: the affine
    // kernels (kernels/affine_check.hpp), which a line of at least
    // affine_min_line elements runs where they check out exact for its
    // pattern; the pattern's coefficients take the slot the register kernel
    // leaves unused (the step's). Where both operands are bytes, the check
    // ran at planning: quant_binary is the affine kernel, or failing that
    // the reciprocal one where it checks out (checked_pairs).
    kernels::AffineKernels affine{};
    std::size_t affine_bytes_leaf = 0, affine_pattern_leaf = 0;
    std::size_t affine_slot = kNoSlot;
    std::size_t affine_min_line = 0;  // 0: none
    // A row kernel's 256 rows, computed at planning where the op is long
    // (quant_binary_params.rows points into them).
    std::shared_ptr<const std::vector<unsigned char>> quant_rows;
    enum class CheckedPairs : unsigned char { kNone, kAffine, kReciprocal };
    CheckedPairs checked_pairs = CheckedPairs::kNone;
    std::array<Step, kMaxSteps> steps{};
    std::size_t num_steps = 0;  // the last one writes the output

    std::size_t block = 0;       // elements per block
    std::size_t num_slots = 0;
    std::size_t slot_bytes = 0;  // per slot: block x the widest element, whole lines
    kernels::OpKernels copy_out{};  // COPY of the output dtype: a constant result
    // A linear chain of chain_op()s over one dtype into a contiguous output
    // runs as one chain kernel call per block or line, in registers
    // (kernel_table.hpp).
    kernels::ChainFn chain = nullptr;
    kernels::Chain chain_links{};
    std::array<kernels::ChainLeaf, kMaxInputs> chain_leaf{};  // each leaf's kind
    // The chain reads every leaf where it lies (no slot): its walk's calls
    // are whole rows of lines, and its blocks run to the line's end.
    bool chain_whole_lines = false;
    // Short lines read in place run step by step over blocks of this many
    // whole lines (0: line by line), each step one 2-D kernel call per block
    // where it has one: a call or a chain per line of a few steps cost more
    // than the line's work (docs/fusion.md, "Short lines").
    std::size_t block_rows = 0;
};

// The size of the elements leaf l's slot holds: f32 for a quantized leaf.
inline std::size_t slot_elem_size(const FusedPlan& p, std::size_t l) {
    return p.leaf_dequantize[l] ? sizeof(float) : p.elem_size[l];
}

// Plans e for these input shapes (user order), strides (NULL, or per input
// NULL = contiguous) and output strides (NULL = contiguous). Throws Error
// with the status a node run alone would give, its message naming the node.
// resolved: a one-node expression's placements, resolved by its caller
// (a single op planned to a target shape), instead of the node's rule.
FusedPlan plan_expression(const Expression& e, const Shape* inputs, const int64_t* const* strides,
                          const int64_t* out_strides);

// The same into p, a default-constructed plan where the caller keeps it
// (the plan is 28 KB: returning it adds a copy to every planning).
void plan_expression(const Expression& e, const Shape* inputs, const int64_t* const* strides,
                     const int64_t* out_strides, FusedPlan& p,
                     const rules::Resolution* resolved = nullptr);

// The expression and its plan (NULL: not planned) as JSON.
std::string describe_json(const Expression& e, const FusedPlan* plan);

// A single op (its parameters) and its plan, its one-node expression's
// (NULL: not planned), as JSON: the kernel as the op names it.
std::string describe_op_json(bcast_opcode opcode, bcast_dtype dtype, bcast_rule rule, int64_t axis,
                             const FusedPlan* plan);

}  // namespace bcast::plan
