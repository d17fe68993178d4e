// The kernel-table interface every ISA fills: one OpKernels per (kernel op,
// dtype). Kernel ops are the public opcodes with the reversed ops folded onto
// their base op (RSUB -> SUB with the operands swapped by the plan).
//
// All pointers point at the first element; strides are in elements (0 and
// negative allowed). Input order is the kernel's: for a binary op, x is the
// left operand. Output elements are of the op's output dtype (BOOL for
// comparisons and logical ops). A kernel may be called with an output equal
// to an input of the same element size (in place, same layout).
//
// `stores.stream` is the plan's decision for the whole op
// (stream_threshold.hpp): the op moves more bytes than the cache holds, so
// kernels that can may write aligned output lines with non-temporal stores,
// and fence before returning unless `stores.fence` is false. Kernels without
// such stores ignore both. Deciding per op, not per call, matters: an op over
// 64 short rows per call moves little per call but 64 MiB in all.
#pragma once

#include <bcast/bcast.h>

#include <cstddef>
#include <cstdint>

namespace bcast::kernels {

// How a kernel stores its output. A plain bool is the plan's decision, with
// the fence. Unfenced: a caller that writes one output in many short calls
// (a fused expression's blocks, a few KiB each) fences once when it is done
// (stream_fence()); a fence per call cost more than the calls.
struct Stores {
    bool stream = false;
    bool fence = true;
    constexpr Stores(bool streamed) : stream(streamed) {}  // NOLINT: implicit on purpose
    constexpr Stores(bool streamed, bool fenced) : stream(streamed), fence(fenced) {}
};

// Orders the non-temporal stores of earlier unfenced calls before what
// follows, as a fenced kernel does before returning.
void stream_fence() noexcept;

using BinaryFn = void (*)(std::size_t n, const void* x, const void* y, void* out, Stores stores);
using PeriodicFn = void (*)(std::size_t n, std::size_t period, const void* x, const void* y,
                            void* out, Stores stores);
// rows x n: out[r*out_row + i] = x[r*x_row + i*sx] op y[r*y_row + i*sy] with
// the inner strides (sx, sy) fixed by the slot; row strides in elements.
using Binary2dFn = void (*)(std::size_t rows, std::size_t n, const void* x, std::ptrdiff_t x_row,
                            const void* y, std::ptrdiff_t y_row, void* out,
                            std::ptrdiff_t out_row, Stores stores);
using UnaryFn = void (*)(std::size_t n, const void* x, void* out, Stores stores);
using StridedFn = void (*)(std::size_t n, std::size_t num_inputs, const void* const* in,
                           const std::ptrdiff_t* in_strides, void* out,
                           std::ptrdiff_t out_stride);

struct OpKernels {
    // Binary ops (two inputs).
    BinaryFn vv = nullptr;            // out[i] = x[i] op y[i]
    BinaryFn vs = nullptr;            // out[i] = x[i] op y[0]
    BinaryFn sv = nullptr;            // out[i] = x[0] op y[i]
    PeriodicFn periodic_y = nullptr;  // out[i] = x[i] op y[i % period]
    PeriodicFn periodic_x = nullptr;  // out[i] = x[i % period] op y[i]
    // Optional 2-D forms of vv / vs / sv: one call for many short rows. The
    // executor calls the 1-D kernel per row where these are null.
    Binary2dFn vv2d = nullptr;        // (sx, sy) = (1, 1)
    Binary2dFn vs2d = nullptr;        // (1, 0)
    Binary2dFn sv2d = nullptr;        // (0, 1)
    // COPY (one input).
    UnaryFn copy = nullptr;           // out[i] = x[i]
    UnaryFn fill = nullptr;           // out[i] = x[0]
    // Every supported pair has this one: any arity the op takes (variadic
    // ADD/MUL/MAX/MIN/MEAN fold left to right; SELECT's in[0] is the BOOL
    // condition), any strides.
    StridedFn strided = nullptr;
};

// A linear chain of binary ops over one dtype, evaluated step by step in
// registers (fused expressions): acc = x op0 y, then acc = acc op_k leaf
// (leaf op_k acc where acc_is_y) for each further link. Leaves are the
// caller's operands, each of a ChainLeaf kind.
// The ops are the op table's chain ops (core/op_info.hpp: chain_op), f32
// and f64 only, computed as their own kernels compute them, so a chain
// writes what its ops run one by one write.
constexpr std::size_t kMaxChainLinks = 32;

struct ChainLink {
    bcast_opcode op = 0;
    std::size_t leaf = 0;   // the operand that is not the accumulator
    bool acc_is_y = false;  // leaf op acc (link 0: never)
};

struct Chain {
    std::size_t first = 0;  // link 0's x
    std::size_t num_links = 0;
    ChainLink link[kMaxChainLinks];
};

// How a chain reads a leaf: a run from memory (streamed calls prefetch it),
// a run expected in cache (a copy in the caller's scratch, or a small
// working set), or one element for the whole call.
enum class ChainLeaf : unsigned char { kStream, kCached, kScalar };

// A streamed chain's partial last output line, held from the end of one
// run for the next: when that run starts where this one ended, its first
// elements complete the line, which is then streamed whole; otherwise
// flush(carry) stores it with ordinary stores. Runs that share a line thus
// write it once, in one way: ordinary stores into a line that streaming
// stores also write cost a write-combining flush, and writing the edges in
// calls of their own cost a short line as much again (docs/fusion.md).
// An aggregate (no inline constructor in the ISA kernels): start with {}.
struct ChainCarry {
    unsigned char bytes[64];
    unsigned char* at;  // where bytes[0] belongs
    std::size_t size;   // bytes held
};

// Stores what carry holds with ordinary stores, and empties it.
void flush(ChainCarry& carry) noexcept;

// One call of a chain kernel: `rows` runs of n elements each. Run r reads
// leaf l at leaves[l] + r * leaf_row_bytes[l] and writes out + r *
// out_row_bytes; a kScalar leaf is one element per run. carry (null: none)
// is the line carried between the runs of one walk, calls included; the
// caller flushes it at the end.
struct ChainCall {
    std::size_t n = 0;
    std::size_t rows = 1;
    const void* const* leaves = nullptr;
    const ChainLeaf* kinds = nullptr;
    const int64_t* leaf_row_bytes = nullptr;  // read only where rows > 1
    void* out = nullptr;
    int64_t out_row_bytes = 0;
    Stores stores{false};
    ChainCarry* carry = nullptr;
};

using ChainFn = void (*)(const Chain& chain, const ChainCall& call);

// Portable C++ kernels: nullptr when (op, dtype) is not supported
// (bcast::op_supports) or op is a reversed opcode.
const OpKernels* portable_kernels(bcast_opcode kernel_op, bcast_dtype dtype);

}  // namespace bcast::kernels
