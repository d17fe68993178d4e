// The quantization kernels every ISA fills: DequantizeLinear into f32 and
// QuantizeLinear from f32, for u8 and i8 (core/quantization.hpp). A
// quantized op or expression runs its f32 kernels between them
// (exec/fused_execute.cpp). The element definitions below are the
// reference: every ISA's kernels give exactly what they give.
#pragma once

#include "kernels/kernel_table.hpp"

#include <bcast/bcast.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace bcast::kernels {

// One operand's parameters as the kernels use them, fixed by the plan.
struct QuantParams {
    float scale = 1.0f;
    int32_t zero_point = 0;
    // Quantize: the quotient's bounds qmin - zero_point and qmax - zero_point
    // (whole numbers), where qmin/qmax are the dtype's range narrowed by any
    // output clamp, never widened (the AVX-512 and AVX2 line stores rely on
    // both). Clamping before rounding gives what rounding then saturating
    // gives, and keeps infinities and huge quotients out of the conversion.
    float lo = 0.0f;
    float hi = 255.0f;
};

// out[i] = (q[i * stride] - zero_point) * scale in f32: the difference is an
// exact integer (|q - zp| <= 255), converted exactly, multiplied once.
inline float dequantize_one(int32_t q, const QuantParams& p) {
    return static_cast<float>(q - p.zero_point) * p.scale;
}

// round_half_even(clamp(v / scale, lo, hi)) + zero_point: the IEEE f32
// quotient (never a reciprocal, never double), NaN to lo (the comparisons
// fail), ties to even (the default rounding mode).
inline int32_t quantize_one(float v, const QuantParams& p) {
    float q = v / p.scale;
    q = q >= p.lo ? q : p.lo;
    q = q <= p.hi ? q : p.hi;
    return static_cast<int32_t>(std::nearbyint(q)) + p.zero_point;
}

// q: u8 or i8 elements at a stride (in elements; 0 and negative allowed).
using DequantizeFn = void (*)(std::size_t n, const void* q, std::ptrdiff_t stride, float* out,
                              const QuantParams& p);
using QuantizeFn = void (*)(std::size_t n, const float* v, void* q, std::ptrdiff_t stride,
                            const QuantParams& p);

struct QuantKernels {
    DequantizeFn dequantize = nullptr;
    QuantizeFn quantize = nullptr;
};

// A quantized binary op in registers, for a line whose operands are each
// contiguous bytes, one byte (constant along the line), or contiguous f32
// values already dequantized (a pattern: a short row repeated along the
// line, laid out once per line by exec/fused_execute.cpp), into a contiguous
// output: out[i] = Q(DQ(x[i]) op DQ(y[i])), with the op's own f32 definition
// (kernels/ops), so exactly what dequantizing into f32, running the f32
// kernel and quantizing gives, in one pass. `stores.stream`: the output's
// whole 64-byte lines may take non-temporal stores (the caller passes whole
// aligned lines then, and fences; kernels without such stores ignore it).
struct QuantBinaryParams;
using QuantBinaryFn = void (*)(std::size_t n, const void* x, const void* y, void* out,
                               const QuantBinaryParams& p, Stores stores);
struct QuantBinaryParams {
    QuantParams x, y, out;
    // Table-row kernels (one operand constant along the line): the register
    // kernel of the same layout, which computes the row's 256 entries; or,
    // where planning computed every row (kernels/affine_check.hpp,
    // pair_rows), those: the row for the constant byte v (as unsigned) at
    // rows + 256 * v, and a line computes nothing.
    QuantBinaryFn row = nullptr;
    const unsigned char* rows = nullptr;
    // The affine kernels' constant coefficients (AffineKernels).
    struct {
        float a = 0.0f, b = 0.0f, c = 0.0f;
        int32_t x_zero = 0, y_zero = 0;
    } affine;
};

// Quantized ADD, SUB and MUL are linear in each byte operand: their result
// is round(clamp(u, lo + zp, hi + zp)) for a u computed in fused
// multiply-adds (where the ISA has them) from coefficients that hold the
// output's scale and zero point zp (params.affine: a, b, c, x_zero,
// y_zero), |u| below 2^30:
//   offsets: u = x[i] * a + y[i]               (y: f32, ADD and SUB of a pattern)
//   slopes:  u = (x[i] - x_zero) * y[i] + c    (y: f32, MUL by a pattern)
//   sum:     u = x[i] * a + (y[i] * b + c)     (y: bytes, ADD and SUB)
//   product: u = (x[i] - x_zero) * (y[i] - y_zero) * a + c   (y: bytes, MUL)
// One step instead of dequantize, op, divide and add, but not exact by
// itself: kernels/affine_check.hpp runs it on every input it can meet
// against the exact kernel first.
struct AffineKernels {
    QuantBinaryFn offsets = nullptr, slopes = nullptr, sum = nullptr, product = nullptr;
};
struct QuantBinaryKernels {
    // v: bytes, s: one byte, f: dequantized f32 (x first, then y).
    QuantBinaryFn vv = nullptr, vs = nullptr, sv = nullptr, vf = nullptr, fv = nullptr;
    // Where one operand is constant along the line the result is a function
    // of the other operand's byte: these look each byte up in a 256-entry
    // row that params.row computes per call (exact by construction). Null
    // where the CPU has no fast byte lookup.
    QuantBinaryFn vs_row = nullptr, sv_row = nullptr;
    AffineKernels affine;
    // vv with the quotient as the op's result times the output scale's f32
    // reciprocal: a multiply instead of a divide (on Intel's AVX-512 cores
    // the divide costs a quarter of the kernel), not exact by itself;
    // kernels/affine_check.hpp runs it on all 65,536 pairs first.
    QuantBinaryFn vv_reciprocal = nullptr;
    // vf and fv the same way. A pattern holds its bytes dequantized as vv's
    // lanes dequantize them (the same f32 values), so the pairs that check
    // vv_reciprocal check these too.
    QuantBinaryFn vf_reciprocal = nullptr, fv_reciprocal = nullptr;
};

// The portable kernels for u8 or i8; nullptr for any other dtype.
const QuantKernels* portable_quant_kernels(bcast_dtype dtype);

}  // namespace bcast::kernels
