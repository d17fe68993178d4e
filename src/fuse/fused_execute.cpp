#include "fuse/fused_execute.hpp"

#include "exec/tasks.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace bcast::fuse {
namespace {

using plan::kMaxOperands;

// How each step runs on a block, fixed for the whole plan: which kernel,
// where its operands come from, where its result goes. Resolved once per
// run, so that a block only fills the leaves' pointers and calls kernels:
// the per-block descriptors of earlier versions were reloaded right after
// each kernel call and stalled behind its stores (docs/fusion.md).
enum class CallKind : unsigned char {
    kBinary,   // vv, vs, sv, or an exchanged op's vs with the operands swapped
    kUnary,    // copy or fill
    kStrided,  // the general kernel: n-ary ops, SELECT, strided output
    kScalar,   // every operand constant: one element into the step's slot
};

struct Operand {
    const void* fixed = nullptr;  // an earlier step's slot; nullptr: a leaf
    std::size_t leaf = 0;
    bool scalar = false;  // one element for the whole block
};

struct Call {
    CallKind kind = CallKind::kStrided;
    kernels::BinaryFn binary = nullptr;
    kernels::UnaryFn unary = nullptr;
    kernels::StridedFn strided = nullptr;
    bool swap = false;  // kBinary: y first (an exchanged op)
    std::size_t num_operands = 0;
    Operand operand[kMaxInputs];
    void* out = nullptr;  // the step's slot; nullptr: the output
    std::ptrdiff_t out_stride = 1;
    // The output's blocks stream unfenced: run_range fences once.
    kernels::Stores stores{false};
};

class Block {
public:
    Block(const FusedPlan& p, unsigned char* scratch, bool stream) : p_(p), scratch_(scratch) {
        const plan::Loop& inner = p.nest.loops[p.nest.num_loops - 1];
        for (std::size_t o = 0; o <= p.num_leaves; ++o) stride_[o] = inner.stride[o];
        const bool single = inner.extent == 1;
        bool leaf_scalar[kMaxInputs] = {};
        for (std::size_t l = 0; l < p.num_leaves; ++l) {
            leaf_scalar[l] = p.leaf_period[l] == 0 && p.leaf_slot[l] == kNoSlot && !single &&
                             stride_[l] == 0;
        }
        for (std::size_t s = 0; s < p.num_steps; ++s) {
            const Step& step = p.steps[s];
            const bool last = s + 1 == p.num_steps;
            Call& c = calls_[s];
            c.num_operands = step.num_operands;
            for (std::size_t j = 0; j < step.num_operands; ++j) {
                const Source& src = step.operands[j];
                Operand& o = c.operand[j];
                if (src.leaf) {
                    o.leaf = src.index;
                    o.scalar = leaf_scalar[src.index];
                } else {
                    o.fixed = slot_at(p.steps[src.index].slot);
                    o.scalar = p.steps[src.index].scalar;
                }
            }
            c.strided = step.kernels.strided;
            c.out = last ? nullptr : slot_at(step.slot);
            c.out_stride = last ? stride_[p.num_leaves] : 1;
            c.stores = kernels::Stores{last && stream, false};
            if (step.scalar) {
                c.kind = CallKind::kScalar;
                c.out = slot_at(step.slot);
                c.out_stride = 1;
            } else {
                choose_kernel(step, c);
            }
        }
    }

    // Lays each pattern leaf's period out in its slot, repeated over a
    // block and one period more (the line's patterns start at ptr).
    void lay_out_patterns(char* const* ptr) const {
        for (std::size_t l = 0; l < p_.num_leaves; ++l) {
            const std::size_t period = p_.leaf_period[l];
            if (period == 0) continue;
            auto* slot = static_cast<unsigned char*>(slot_at(p_.leaf_slot[l]));
            const void* from = ptr[l];
            const std::ptrdiff_t one = 1;
            p_.leaf_gather[l](period, 1, &from, &one, slot, 1);
            const std::size_t bytes = (p_.block + period) * p_.elem_size[l];
            for (std::size_t have = period * p_.elem_size[l]; have < bytes; have *= 2) {
                std::memcpy(slot + have, slot, std::min(have, bytes - have));
            }
        }
    }

    // Elements [0, m) of the run whose operands start at ptr; `phase` is the
    // block's first element's index in its line (where patterns read).
    void run(char* const* ptr, std::size_t m, std::size_t phase) const {
        const void* leaf[kMaxInputs];
        for (std::size_t l = 0; l < p_.num_leaves; ++l) {
            if (p_.leaf_period[l] > 0) {
                const std::size_t at = phase % p_.leaf_period[l] * p_.elem_size[l];
                leaf[l] = static_cast<unsigned char*>(slot_at(p_.leaf_slot[l])) + at;
            } else if (p_.leaf_slot[l] == kNoSlot) {
                leaf[l] = ptr[l];
            } else {
                void* slot = slot_at(p_.leaf_slot[l]);
                const void* from = ptr[l];
                const std::ptrdiff_t stride = stride_[l];
                p_.leaf_gather[l](m, 1, &from, &stride, slot, 1);
                leaf[l] = slot;
            }
        }
        void* const output = ptr[p_.num_leaves];
        for (std::size_t s = 0; s < p_.num_steps; ++s) {
            const Call& c = calls_[s];
            const auto in = [&](std::size_t j) {
                const Operand& o = c.operand[j];
                return o.fixed != nullptr ? o.fixed : leaf[o.leaf];
            };
            void* out = c.out != nullptr ? c.out : output;
            switch (c.kind) {
                case CallKind::kBinary:
                    if (c.swap) c.binary(m, in(1), in(0), out, c.stores);
                    else c.binary(m, in(0), in(1), out, c.stores);
                    break;
                case CallKind::kUnary: c.unary(m, in(0), out, c.stores); break;
                case CallKind::kStrided: strided(c, leaf, m, out, c.out_stride); break;
                case CallKind::kScalar:
                    strided(c, leaf, 1, out, 1);
                    if (s + 1 == p_.num_steps) broadcast(out, output, m);
                    break;
            }
        }
    }

private:
    void* slot_at(std::size_t slot) const { return scratch_ + slot * p_.slot_bytes; }

    // The contiguous kernel for the step's operands where one fits, else
    // the strided one.
    static void choose_kernel(const Step& step, Call& c) {
        const kernels::OpKernels& k = step.kernels;
        c.kind = CallKind::kStrided;
        if (c.out_stride != 1) return;
        if (step.num_operands == 2) {
            const bool xs = c.operand[0].scalar, ys = c.operand[1].scalar;
            kernels::BinaryFn fn = nullptr;
            if (!xs && !ys) fn = k.vv;
            else if (!xs && ys) fn = k.vs;
            else if (xs && !ys) fn = k.sv;
            if (fn == nullptr && xs && !ys && step.has_exchanged) {
                fn = step.exchanged.vs;
                c.swap = fn != nullptr;
            }
            if (fn != nullptr) {
                c.kind = CallKind::kBinary;
                c.binary = fn;
            }
        } else if (step.num_operands == 1) {
            const kernels::UnaryFn fn = c.operand[0].scalar ? k.fill : k.copy;
            if (fn != nullptr) {
                c.kind = CallKind::kUnary;
                c.unary = fn;
            }
        }
    }

    static void strided(const Call& c, const void* const* leaf, std::size_t m, void* out,
                        std::ptrdiff_t out_stride) {
        const void* data[kMaxInputs];
        std::ptrdiff_t strides[kMaxInputs];
        for (std::size_t j = 0; j < c.num_operands; ++j) {
            const Operand& o = c.operand[j];
            data[j] = o.fixed != nullptr ? o.fixed : leaf[o.leaf];
            strides[j] = o.scalar ? 0 : 1;
        }
        c.strided(m, c.num_operands, data, strides, out, out_stride);
    }

    // A constant result over the block's m output elements.
    void broadcast(const void* value, void* out, std::size_t m) const {
        const std::ptrdiff_t zero = 0;
        p_.copy_out.strided(m, 1, &value, &zero, out, stride_[p_.num_leaves]);
    }

    const FusedPlan& p_;
    unsigned char* scratch_;
    std::ptrdiff_t stride_[kMaxOperands] = {};
    Call calls_[kMaxSteps];
};

// Elements [first, first + n) of an inner line whose operands start at ptr
// (patterns: at the line's start; the others: at element `first`). A short
// first block up to the output's next cache line (when it is contiguous),
// then whole blocks, so that block edges never split an output line between
// two kernel calls (a streamed line written by two calls is slow).
void run_line(const FusedPlan& p, const Block& block, char* const* ptr, std::size_t first_elem,
              std::size_t n) {
    block.lay_out_patterns(ptr);
    const std::size_t out = p.num_leaves;
    const std::size_t inner = p.nest.num_loops - 1;
    std::size_t first = 0;
    if (p.nest.loops[inner].stride[out] == 1) {
        const auto misaligned = reinterpret_cast<std::uintptr_t>(ptr[out]) % 64;
        first = misaligned == 0 ? 0 : std::min(n, (64 - misaligned) / p.elem_size[out]);
    }
    char* at[kMaxOperands];
    for (std::size_t done = 0; done < n;) {
        const std::size_t m = done == 0 && first > 0 ? first : std::min(p.block, n - done);
        for (std::size_t o = 0; o <= out; ++o) {
            at[o] = ptr[o] + static_cast<int64_t>(done) * p.byte_stride[inner][o];
        }
        block.run(at, m, first_elem + done);
        done += m;
    }
}

}  // namespace

exec::BufferLayout buffer_layout(const FusedPlan& p) {
    return exec::BufferLayout{p.num_leaves,      p.nest.empty,      p.input_order.data(),
                              p.elem_size.data(), p.lo_byte.data(), p.hi_byte.data(),
                              p.same_layout_as_output.data()};
}

namespace {

uint64_t total_elems(const FusedPlan& p) {
    if (p.nest.empty) return 0;
    uint64_t total = 1;
    for (std::size_t l = 0; l < p.nest.num_loops; ++l) total *= static_cast<uint64_t>(p.nest.loops[l].extent);
    return total;
}

uint64_t grain(const FusedPlan& p) {
    return std::max<uint64_t>(1, exec::kLineBytes / p.elem_size[p.num_leaves]);
}

// The flat range [begin, end) of the nest (outer loops' odometer, then the
// line): the odometer seeks the line holding begin, then walks on.
void walk_range(const FusedPlan& p, const void* const* inputs, void* output, uint64_t begin,
                uint64_t end, bool stream) {
    alignas(64) unsigned char scratch[kScratchBytes];
    const Block block(p, scratch, stream);
    const std::size_t out = p.num_leaves;
    const std::size_t inner = p.nest.num_loops - 1;
    char* ptr[kMaxOperands];
    for (std::size_t l = 0; l < out; ++l) {
        ptr[l] = static_cast<char*>(const_cast<void*>(inputs[p.input_order[l]]));
    }
    ptr[out] = static_cast<char*>(output);
    const auto n = static_cast<uint64_t>(p.nest.loops[inner].extent);
    int64_t index[kMaxRank] = {};
    uint64_t line = begin / n;
    for (std::size_t d = inner; d-- > 0;) {
        const auto extent = static_cast<uint64_t>(p.nest.loops[d].extent);
        index[d] = static_cast<int64_t>(line % extent);
        line /= extent;
        for (std::size_t o = 0; o <= out; ++o) ptr[o] += index[d] * p.byte_stride[d][o];
    }
    uint64_t off = begin % n, at = begin;
    char* from[kMaxOperands];
    for (;;) {
        const uint64_t len = std::min(n - off, end - at);
        for (std::size_t o = 0; o <= out; ++o) {
            from[o] = ptr[o] + static_cast<int64_t>(off) * p.byte_stride[inner][o];
        }
        run_line(p, block, from, static_cast<std::size_t>(off), static_cast<std::size_t>(len));
        at += len;
        if (at >= end) return;
        off = 0;
        // The odometer over the outer loops, innermost fastest.
        std::size_t d = inner;
        for (; d-- > 0;) {
            const int64_t extent = p.nest.loops[d].extent;
            if (++index[d] < extent) {
                for (std::size_t o = 0; o <= out; ++o) ptr[o] += p.byte_stride[d][o];
                break;
            }
            index[d] = 0;
            for (std::size_t o = 0; o <= out; ++o) ptr[o] -= p.byte_stride[d][o] * (extent - 1);
        }
        if (d == SIZE_MAX) return;
    }
}

// walk_range, then the one fence for all its blocks' streaming stores.
void run_range(const FusedPlan& p, const void* const* inputs, void* output, uint64_t begin,
               uint64_t end, bool stream) {
    walk_range(p, inputs, output, begin, end, stream);
    if (stream) kernels::stream_fence();
}

}  // namespace

void run(const FusedPlan& p, const void* const* inputs, void* output) noexcept {
    const uint64_t total = total_elems(p);
    if (total > 0) run_range(p, inputs, output, 0, total, p.stream);
}

std::size_t task_count(const FusedPlan& p, std::size_t max_tasks) noexcept {
    // Each input and the output moved once, plus each step's work weighed
    // as the bytes a plain op of its result moves.
    uint64_t per_elem = 0;
    for (std::size_t o = 0; o <= p.num_leaves; ++o) per_elem += p.elem_size[o];
    for (std::size_t s = 0; s < p.num_steps; ++s) {
        per_elem += exec::op_weight(p.steps[s].kernel_op) * p.steps[s].out_size;
    }
    return exec::tasks_for_work(total_elems(p), per_elem, grain(p), max_tasks);
}

void run_task(const FusedPlan& p, const void* const* inputs, void* output, std::size_t task,
              std::size_t count) noexcept {
    const uint64_t total = total_elems(p);
    if (total == 0 || task >= count) return;
    const uint64_t g = grain(p);
    const uint64_t head = exec::flat_output_contiguous(p.nest, p.num_leaves)
                              ? exec::elems_to_line(output, p.elem_size[p.num_leaves]) % g
                              : 0;
    const uint64_t begin = exec::task_boundary(total, task, count, head, g);
    const uint64_t end = exec::task_boundary(total, task + 1, count, head, g);
    if (begin < end) run_range(p, inputs, output, begin, end, count > 1 ? p.stream_split : p.stream);
}

}  // namespace bcast::fuse
