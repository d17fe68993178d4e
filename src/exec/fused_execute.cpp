#include "exec/fused_execute.hpp"

#include "exec/walk.hpp"
#include "kernels/affine_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace bcast::exec {
namespace {

using plan::Call;
using plan::FusedPlan;
using plan::kNoSlot;
using plan::Step;
using plan::Source;

class Block {
public:
    Block(const FusedPlan& p, unsigned char* scratch) : p_(p), scratch_(scratch) {
        const plan::Loop& inner = p.nest.loops[p.nest.num_loops - 1];
        for (std::size_t o = 0; o <= p.num_reads; ++o) stride_[o] = inner.stride[o];
    }

    // Lays each pattern leaf's period out in its slot, repeated over a
    // block and one period more (the line's patterns start at ptr).
    void lay_out_patterns(char* const* ptr) const {
        for (std::size_t l = 0; l < p_.num_reads; ++l) {
            const std::size_t period = p_.leaf_period[l];
            if (period == 0) continue;
            void* slot = slot_at(p_.leaf_slot[l]);
            read_leaf(l, ptr[l], 1, period, slot);
            repeat(slot, period, plan::slot_elem_size(p_, l));
        }
    }

    // The affine kernel a line of n elements runs, with its params (null:
    // none): where the plan has them and the line is long enough to pay for
    // the check, the coefficients for the line's pattern, laid out as the
    // pattern is, checked against the exact kernel for every byte with every
    // pattern entry (all the line can meet). After lay_out_patterns.
    kernels::QuantBinaryFn lay_out_affine(std::size_t n, kernels::QuantBinaryParams& params) const {
        if (p_.affine_min_line == 0 || n < p_.affine_min_line) return nullptr;
        const std::size_t period = p_.leaf_period[p_.affine_pattern_leaf];
        const auto* pattern = static_cast<const float*>(slot_at(p_.leaf_slot[p_.affine_pattern_leaf]));
        auto* coeffs = static_cast<float*>(slot_at(p_.affine_slot));
        const Step& step = p_.steps[0];
        const bool bytes_first = p_.affine_bytes_leaf == step.operands[0].index;
        const kernels::QuantBinaryFn affine = kernels::affine_pattern_coefficients(
            step.kernel_op, bytes_first, p_.affine, pattern, period, params, coeffs);
        if (affine == nullptr) return nullptr;
        repeat(coeffs, period, sizeof(float));
        const bool exact = kernels::affine_pattern_exact(p_.quant_binary, affine, params, bytes_first, pattern,
                                                         coeffs, period, p_.block);
        return exact ? affine : nullptr;
    }

    // Elements [0, m) of the run whose operands start at ptr; `phase` is the
    // block's first element's index in its line (where patterns read). The
    // output streams (unfenced: run_range fences once) where `stream`.
    // `affine`: the affine kernel the line runs, with these params
    // (lay_out_affine's; null: none).
    void run(char* const* ptr, std::size_t m, std::size_t phase, bool stream, kernels::QuantBinaryFn affine,
             const kernels::QuantBinaryParams& affine_params) const {
        const void* leaf[kMaxInputs];
        if (affine != nullptr) {
            const std::size_t at = phase % p_.leaf_period[p_.affine_pattern_leaf];
            affine(m, ptr[p_.affine_bytes_leaf], static_cast<const float*>(slot_at(p_.affine_slot)) + at,
                   ptr[p_.num_reads], affine_params, kernels::Stores{stream, false});
            return;
        }
        if (p_.quant_binary != nullptr) {  // in registers, reading in place or a pattern
            const Step& step = p_.steps[0];
            for (std::size_t j = 0; j < 2; ++j) {
                const std::size_t l = step.operands[j].index;
                leaf[j] = p_.leaf_period[l] > 0 ? pattern_at(l, phase) : ptr[l];
            }
            p_.quant_binary(m, leaf[0], leaf[1], ptr[p_.num_reads], p_.quant_binary_params,
                            kernels::Stores{stream, false});
            return;
        }
        for (std::size_t l = 0; l < p_.num_reads; ++l) {
            if (p_.leaf_period[l] > 0) {
                leaf[l] = pattern_at(l, phase);
            } else if (p_.leaf_slot[l] == kNoSlot) {
                leaf[l] = ptr[l];
            } else {
                void* slot = slot_at(p_.leaf_slot[l]);
                read_leaf(l, ptr[l], stride_[l], p_.leaf_scalar[l] ? 1 : m, slot);
                leaf[l] = slot;
            }
        }
        void* const output = ptr[p_.num_reads];
        if (p_.chain != nullptr) {  // the whole chain in registers
            kernels::ChainCall call;
            call.n = m;
            call.leaves = leaf;
            call.kinds = p_.chain_leaf.data();
            call.out = output;
            call.stores = kernels::Stores{stream, false};
            p_.chain(p_.chain_links, call);
            return;
        }
        for (std::size_t s = 0; s < p_.num_steps; ++s) {
            const Step& step = p_.steps[s];
            const void* in[kMaxInputs];
            for (std::size_t j = 0; j < step.num_operands; ++j) {
                const Source& src = step.operands[j];
                in[j] = src.leaf ? leaf[src.index] : slot_at(p_.steps[src.index].slot);
            }
            const bool writes_output = s + 1 == p_.num_steps && !p_.quantize_out;
            void* out = writes_output && step.call != Call::kScalar ? output : slot_at(step.slot);
            run_step(step, in, m, out, writes_output ? output : nullptr, stream);
        }
        if (p_.quantize_out) quantize(output, m);
    }

    // `rows` whole lines of n elements from ptr (block_rows plans), step by
    // step: each step over all rows in one 2-D call where it has one, else
    // row by row; results in slots, row after row (n elements apart).
    void run_rows(char* const* ptr, std::size_t rows, std::size_t n, bool stream) const {
        const std::size_t row_loop = p_.nest.num_loops - 2;
        const plan::Loop& row = p_.nest.loops[row_loop];
        const plan::OperandStrides& row_bytes = p_.byte_stride[row_loop];
        for (std::size_t s = 0; s < p_.num_steps; ++s) {
            const Step& step = p_.steps[s];
            const bool last = s + 1 == p_.num_steps;
            const void* in[kMaxInputs];
            std::ptrdiff_t in_row[kMaxInputs], in_row_bytes[kMaxInputs];
            for (std::size_t j = 0; j < step.num_operands; ++j) {
                const Source& src = step.operands[j];
                const std::size_t l = src.index;
                in[j] = src.leaf ? ptr[l] : slot_at(p_.steps[l].slot);
                in_row[j] = src.leaf ? row.stride[l] : static_cast<std::ptrdiff_t>(n);
                in_row_bytes[j] = src.leaf ? row_bytes[l] : static_cast<std::ptrdiff_t>(n * p_.steps[l].out_size);
            }
            char* const out = last ? ptr[p_.num_reads] : static_cast<char*>(slot_at(step.slot));
            const std::ptrdiff_t out_row = last ? row.stride[p_.num_reads] : static_cast<std::ptrdiff_t>(n);
            const std::ptrdiff_t out_row_bytes = last ? row_bytes[p_.num_reads] : out_row * static_cast<std::ptrdiff_t>(step.out_size);
            if (step.binary2d != nullptr) {
                const std::size_t x = step.swap ? 1 : 0, y = 1 - x;
                step.binary2d(rows, n, in[x], in_row[x], in[y], in_row[y], out, out_row,
                              kernels::Stores{last && stream, false});
                continue;
            }
            // Row by row with ordinary stores: streamed rows would share their
            // partial cache lines with the next row's ordinary stores.
            for (std::size_t r = 0; r < rows; ++r) {
                const void* at[kMaxInputs];
                for (std::size_t j = 0; j < step.num_operands; ++j) {
                    at[j] = static_cast<const char*>(in[j]) + static_cast<std::ptrdiff_t>(r) * in_row_bytes[j];
                }
                char* const to = out + static_cast<std::ptrdiff_t>(r) * out_row_bytes;
                run_step(step, at, n, to, last ? to : nullptr, false);
            }
        }
    }

private:
    void* slot_at(std::size_t slot) const { return scratch_ + slot * p_.slot_bytes; }

    // A slot's first period (elements of `size` bytes) repeated over a
    // block and one period more.
    void repeat(void* slot, std::size_t period, std::size_t size) const {
        auto* s = static_cast<unsigned char*>(slot);
        const std::size_t total = (p_.block + period) * size;
        for (std::size_t have = period * size; have < total; have *= 2) {
            std::memcpy(s + have, s, std::min(have, total - have));
        }
    }

    // Pattern leaf l laid out in its slot, from the element at `phase`.
    const void* pattern_at(std::size_t l, std::size_t phase) const {
        const std::size_t at = phase % p_.leaf_period[l] * plan::slot_elem_size(p_, l);
        return static_cast<unsigned char*>(slot_at(p_.leaf_slot[l])) + at;
    }

    // n elements of leaf l from `from` at `stride` into slot: dequantized
    // to f32 where the leaf is quantized, else copied.
    void read_leaf(std::size_t l, const void* from, std::ptrdiff_t stride, std::size_t n,
                   void* slot) const {
        if (p_.leaf_dequantize[l]) {
            p_.leaf_dequantize[l](n, from, stride, static_cast<float*>(slot), p_.leaf_quant[l]);
        } else {
            p_.leaf_gather[l](n, 1, &from, &stride, slot, 1);
        }
    }

    // The last step's f32 result, quantized into the block's m output
    // elements (a constant result once, then broadcast).
    void quantize(void* output, std::size_t m) const {
        const Step& last = p_.steps[p_.num_steps - 1];
        const auto* value = static_cast<const float*>(slot_at(last.slot));
        if (last.call == Call::kScalar) {
            unsigned char q = 0;
            p_.quantize_out(1, value, &q, 1, p_.out_quant);
            broadcast(&q, output, m);
        } else {
            p_.quantize_out(m, value, output, stride_[p_.num_reads], p_.out_quant);
        }
    }

    // One step over m elements, its operands at in (kernel order), its
    // result at out; `output` is the output where the step writes it
    // (nullptr: a slot).
    void run_step(const Step& step, const void* const* in, std::size_t m, void* out, void* output,
                  bool stream) const {
        const kernels::Stores stores{output != nullptr && stream, false};
        switch (step.call) {
            case Call::kBinary:
                if (step.swap) step.binary(m, in[1], in[0], out, stores);
                else step.binary(m, in[0], in[1], out, stores);
                break;
            case Call::kUnary: step.unary(m, in[0], out, stores); break;
            case Call::kStrided: strided(step, in, m, out, output ? stride_[p_.num_reads] : 1); break;
            case Call::kScalar:
                strided(step, in, 1, out, 1);
                if (output) broadcast(out, output, m);
                break;
        }
    }

    static void strided(const Step& step, const void* const* in, std::size_t m, void* out,
                        std::ptrdiff_t out_stride) {
        std::ptrdiff_t strides[kMaxInputs];
        for (std::size_t j = 0; j < step.num_operands; ++j) strides[j] = step.operand_scalar[j] ? 0 : 1;
        step.kernels.strided(m, step.num_operands, in, strides, out, out_stride);
    }

    // A constant result over the block's m output elements.
    void broadcast(const void* value, void* out, std::size_t m) const {
        const std::ptrdiff_t zero = 0;
        p_.copy_out.strided(m, 1, &value, &zero, out, stride_[p_.num_reads]);
    }

    const FusedPlan& p_;
    unsigned char* scratch_;
    std::ptrdiff_t stride_[kMaxOperands];  // operands 0..num_reads (no rep stos per call)
};

// Elements [first, first + n) of an inner line whose operands start at ptr
// (patterns: at the line's start; the others: at element `first`). Blocks
// never split an output cache line between two kernel calls (a streamed
// line written by two calls is slow), and a streamed contiguous output
// streams whole lines only: its partial first and last lines, which the
// lines before and after share, take ordinary stores (a line written both
// ways costs a write-combining flush), in calls of their own. (Chains over
// whole lines keep their edges themselves: run_chain_lines.)
void run_line(const FusedPlan& p, const Block& block, char* const* ptr, std::size_t first_elem,
              std::size_t n, bool stream) {
    block.lay_out_patterns(ptr);
    kernels::QuantBinaryParams affine_params = p.quant_binary_params;
    const kernels::QuantBinaryFn affine = block.lay_out_affine(n, affine_params);
    const std::size_t out = p.num_reads;
    const std::size_t inner = p.nest.num_loops - 1;
    std::size_t head = 0, tail = 0;
    // A line one unstreamed call covers is one call: there is no later
    // block whose start the head would align.
    if (p.nest.loops[inner].stride[out] == 1 && (stream || n > p.block)) {
        const std::size_t size = p.elem_size[out];
        const auto misaligned = reinterpret_cast<std::uintptr_t>(ptr[out]) % 64;
        head = misaligned == 0 ? 0 : std::min(n, (64 - misaligned) / size);
        if (stream) tail = (n - head) % (64 / size);
    }
    char* at[kMaxOperands];
    const auto call = [&](std::size_t done, std::size_t m, bool streamed) {
        for (std::size_t o = 0; o <= out; ++o) {
            at[o] = ptr[o] + static_cast<int64_t>(done) * p.byte_stride[inner][o];
        }
        block.run(at, m, first_elem + done, streamed, affine, affine_params);
    };
    if (head > 0) call(0, head, false);
    for (std::size_t done = head; done < n - tail;) {
        const std::size_t m = std::min(p.block, n - tail - done);
        call(done, m, stream);
        done += m;
    }
    if (tail > 0) call(n - tail, tail, false);
}

// A chain over `rows` whole lines of the loop outside the line (or one
// line, or part of one) in one call: the kernel moves from line to line
// itself, and keeps the partial output lines between them (ChainCarry).
void run_chain_lines(const FusedPlan& p, char* const* ptr, std::size_t n, std::size_t rows,
                     bool stream, kernels::ChainCarry& carry) {
    const std::size_t out = p.num_reads;
    const void* leaf[kMaxInputs];
    for (std::size_t l = 0; l < out; ++l) leaf[l] = ptr[l];
    kernels::ChainCall call;
    call.n = n;
    call.rows = rows;
    call.leaves = leaf;
    call.kinds = p.chain_leaf.data();
    if (rows > 1) {
        const plan::OperandStrides& row = p.byte_stride[p.nest.num_loops - 2];
        call.leaf_row_bytes = row.data();
        call.out_row_bytes = row[out];
    }
    call.out = ptr[out];
    call.stores = kernels::Stores{stream, false};
    call.carry = &carry;
    p.chain(p.chain_links, call);
}

// The walk's line runner. Chains over lines read in place take whole rows
// of lines per call (the walk's calls are two loops); everything else runs
// line by line in blocks.
class FusedRunner {
public:
    FusedRunner(const FusedPlan& p, bool stream, unsigned char* scratch)
        : p_(p), block_(p, scratch), stream_(stream) {}

    void operator()(char* const* ptr, uint64_t off, uint64_t len) {
        const std::size_t inner = p_.nest.num_loops - 1;
        if (p_.block_rows > 0) {
            const auto n = static_cast<std::size_t>(p_.nest.loops[inner].extent);
            split_rows(
                p_, ptr, off, len, n, inner - 1,
                [&](char* const* q, uint64_t m) { run_line(p_, block_, q, 0, static_cast<std::size_t>(m), stream_); },
                [&](char* const* q, uint64_t rows) { run_blocks(q, static_cast<std::size_t>(rows), n); });
            return;
        }
        if (p_.chain_whole_lines && p_.outer_loops + 2 == p_.nest.num_loops) {
            const auto n = static_cast<std::size_t>(p_.nest.loops[inner].extent);
            split_rows(
                p_, ptr, off, len, n, inner - 1,
                [&](char* const* q, uint64_t m) { run_chain_lines(p_, q, m, 1, stream_, carry_); },
                [&](char* const* q, uint64_t rows) { run_chain_lines(p_, q, n, rows, stream_, carry_); });
            return;
        }
        char* from[kMaxOperands];
        for (std::size_t o = 0; o <= p_.num_reads; ++o) {
            from[o] = ptr[o] + static_cast<int64_t>(off) * p_.byte_stride[inner][o];
        }
        if (p_.chain_whole_lines) {
            run_chain_lines(p_, from, static_cast<std::size_t>(len), 1, stream_, carry_);
        } else {
            run_line(p_, block_, from, static_cast<std::size_t>(off), static_cast<std::size_t>(len), stream_);
        }
    }

    // The partial output lines a chain carried, then the one fence for all
    // the streaming stores.
    void finish() {
        kernels::flush(carry_);
        if (stream_) kernels::stream_fence();
    }

private:
    // Rows of a block_rows plan, block by block (Block::run_rows).
    void run_blocks(char* const* ptr, std::size_t rows, std::size_t n) const {
        const std::size_t row_loop = p_.nest.num_loops - 2;
        char* at[kMaxOperands];
        for (std::size_t done = 0; done < rows;) {
            const std::size_t count = std::min(p_.block_rows, rows - done);
            for (std::size_t o = 0; o <= p_.num_reads; ++o) {
                at[o] = ptr[o] + static_cast<int64_t>(done) * p_.byte_stride[row_loop][o];
            }
            block_.run_rows(at, count, n, stream_);
            done += count;
        }
    }

    const FusedPlan& p_;
    const Block block_;
    bool stream_;
    kernels::ChainCarry carry_{};
};

// A single step over one loop that reads every operand in place is one
// kernel call over the range: a single op's common case, without the walk
// and blocks (which cost a 16-element add twice its time).
bool run_as_one_call(const FusedPlan& p, const void* const* inputs, void* output, uint64_t begin,
                     uint64_t end, bool stream) noexcept {
    if (p.num_steps != 1 || p.num_slots != 0 || p.nest.num_loops != 1) return false;
    const Step& step = p.steps[0];
    if (step.call != Call::kBinary && step.call != Call::kUnary) return false;
    char* ptr[kMaxOperands];
    operand_pointers(p, inputs, output, ptr);
    const std::size_t out = p.num_reads;
    for (std::size_t o = 0; o <= out; ++o) ptr[o] += static_cast<int64_t>(begin) * p.byte_stride[0][o];
    const auto n = static_cast<std::size_t>(end - begin);
    const kernels::Stores stores{stream, true};
    const std::size_t x = step.operands[step.swap ? 1 : 0].index;
    if (step.call == Call::kUnary) {
        step.unary(n, ptr[step.operands[0].index], ptr[out], stores);
    } else {
        step.binary(n, ptr[x], ptr[step.operands[step.swap ? 0 : 1].index], ptr[out], stores);
    }
    return true;
}

void run_in(const FusedPlan& p, const void* const* inputs, void* output, uint64_t begin,
            uint64_t end, bool stream, unsigned char* scratch) noexcept {
    FusedRunner runner(p, stream, scratch);
    walk(p, inputs, output, begin, end, runner);
    runner.finish();
}

// Its own frame, so that a plan without slots does not reserve the scratch.
__attribute__((noinline)) void run_with_scratch(const FusedPlan& p, const void* const* inputs,
                                                void* output, uint64_t begin, uint64_t end,
                                                bool stream) noexcept {
    alignas(64) unsigned char scratch[plan::kScratchBytes];
    run_in(p, inputs, output, begin, end, stream, scratch);
}

}  // namespace

void run_range(const FusedPlan& p, const void* const* inputs, void* output, uint64_t begin,
               uint64_t end, bool stream) noexcept {
    if (run_as_one_call(p, inputs, output, begin, end, stream)) return;
    // A single op's plan has no slot: its execute keeps to a small stack.
    if (p.num_slots == 0) return run_in(p, inputs, output, begin, end, stream, nullptr);
    run_with_scratch(p, inputs, output, begin, end, stream);
}

void run(const FusedPlan& p, const void* const* inputs, void* output) noexcept {
    if (p.total_elems > 0) run_range(p, inputs, output, 0, p.total_elems, p.stream);
}

}  // namespace bcast::exec
