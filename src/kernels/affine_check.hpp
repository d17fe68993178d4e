// The coefficients of the affine kernels (kernels/quantize.hpp,
// AffineKernels) for a quantized ADD, SUB or MUL, and the check that gates
// them and the reciprocal kernel: an inexact kernel runs only where it gives
// the exact kernel's bytes on every input it can meet.
#pragma once

#include "kernels/quantize.hpp"

#include <bcast/bcast.h>

#include <cstddef>

namespace bcast::kernels {

// Both operands bytes: the sum or product kernel for op (ADD, SUB, MUL; null
// for others) with params.affine set, where it gives `exact`'s bytes for all
// 65,536 pairs; else null.
QuantBinaryFn checked_affine_pairs(bcast_opcode op, const AffineKernels& k, QuantBinaryFn exact,
                                   QuantBinaryParams& params);

// Both operands bytes: `reciprocal` (QuantBinaryKernels::vv_reciprocal of
// the op) where it gives `exact`'s bytes for all 65,536 pairs and the
// reciprocal is a normal float; else null.
QuantBinaryFn checked_reciprocal_pairs(QuantBinaryFn reciprocal, QuantBinaryFn exact,
                                       const QuantBinaryParams& params);

// Every pair's bytes by `exact` (both operands bytes) as 256 rows of 256
// into rows[65536]: row v holds exact(k, v) at k where y is the constant
// operand, exact(v, k) where x is (bytes as unsigned): what the row kernels
// look a line up in (QuantBinaryParams::rows).
void pair_rows(QuantBinaryFn exact, const QuantBinaryParams& params, bool x_constant, unsigned char* rows);

// One operand bytes (x where bytes_first), the other a pattern whose period
// of dequantized values is `row`: the offsets or slopes kernel for op (null
// for others), with params.affine set and the pattern's coefficients in
// coeffs[0, period), where |u| stays below 2^30 for every byte; else null.
QuantBinaryFn affine_pattern_coefficients(bcast_opcode op, bool bytes_first, const AffineKernels& k,
                                          const float* row, std::size_t period, QuantBinaryParams& params,
                                          float* coeffs);

// Whether `affine` (over coeffs) gives `exact`'s bytes (over pattern) for
// every byte with every entry of a period, pattern and coeffs each laid out
// from phase 0 over `block` elements, at least one period.
bool affine_pattern_exact(QuantBinaryFn exact, QuantBinaryFn affine, const QuantBinaryParams& params,
                          bool bytes_first, const float* pattern, const float* coeffs, std::size_t period,
                          std::size_t block);

}  // namespace bcast::kernels
