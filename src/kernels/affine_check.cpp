#include "kernels/affine_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace bcast::kernels {
namespace {

// Elements per kernel call of a check: its buffers live on the stack.
constexpr std::size_t kChunk = 1024;
// |u| bound the coefficients keep, below the kernels' 2^30 after rounding.
constexpr double kBound = 1 << 29;

// Whether `affine` gives `exact`'s bytes on every chunk `fill` makes:
// fill(k, x, y) writes chunk k's byte operand x (and for pairs the other
// byte operand y) and returns its length (0: no more). A pattern's exact
// kernel reads `pattern` beside x, the affine kernel `coeffs` (both null
// for pairs: y).
template <class Fill>
bool same_bytes(QuantBinaryFn exact, QuantBinaryFn affine, const QuantBinaryParams& params, bool bytes_first,
                const void* pattern, const void* coeffs, const Fill& fill) {
    alignas(64) unsigned char x[kChunk], y[kChunk], want[kChunk], got[kChunk];
    const void* exact_y = pattern != nullptr ? pattern : y;
    const void* affine_y = coeffs != nullptr ? coeffs : y;
    const Stores cached{false, false};
    for (std::size_t k = 0;; ++k) {
        const std::size_t n = fill(k, x, y);
        if (n == 0) return true;
        exact(n, bytes_first ? x : exact_y, bytes_first ? exact_y : x, want, params, cached);
        affine(n, x, affine_y, got, params, cached);
        if (std::memcmp(want, got, n) != 0) return false;
    }
}

// v rounded to f32 where |v| is below kBound (the conversion then defined);
// false otherwise, NaN too.
bool coefficient(double v, float& out) {
    if (!(std::fabs(v) < kBound)) return false;
    out = static_cast<float>(v);
    return true;
}

// v moved k ulps (k < 0: down).
float ulps(float v, int k) {
    for (; k > 0; --k) v = std::nextafter(v, HUGE_VALF);
    for (; k < 0; ++k) v = std::nextafter(v, -HUGE_VALF);
    return v;
}

// Every (x, y) byte pair, chunk by chunk: x every byte, four times per
// chunk; y four bytes, each 256 times.
std::size_t byte_pairs(std::size_t c, unsigned char* x, unsigned char* y) {
    if (c == 256 / 4) return 0;
    for (std::size_t i = 0; i < kChunk; ++i) {
        x[i] = static_cast<unsigned char>(i);
        y[i] = static_cast<unsigned char>(c * 4 + i / 256);
    }
    return kChunk;
}

// The quotient's scale 1 / out_scale, in double.
double over(const QuantBinaryParams& p) { return 1.0 / static_cast<double>(p.out.scale); }

}  // namespace

QuantBinaryFn checked_affine_pairs(bcast_opcode op, const AffineKernels& k, QuantBinaryFn exact,
                                   QuantBinaryParams& params) {
    QuantBinaryParams p = params;
    const double sx = p.x.scale, sy = p.y.scale, zx = p.x.zero_point, zy = p.y.zero_point;
    const double r = over(p), zo = p.out.zero_point;
    QuantBinaryFn affine = nullptr;
    double bound = kBound;
    if (op == BCAST_OP_ADD || op == BCAST_OP_SUB) {
        // (sx (x - zx) +- sy (y - zy)) r + zo
        const double sign = op == BCAST_OP_ADD ? 1.0 : -1.0;
        affine = k.sum;
        if (coefficient(sx * r, p.affine.a) && coefficient(sign * sy * r, p.affine.b) &&
            coefficient((-sx * zx - sign * sy * zy) * r + zo, p.affine.c)) {
            bound = 256.0 * (std::fabs(p.affine.a) + std::fabs(p.affine.b)) + std::fabs(p.affine.c);
        }
    } else if (op == BCAST_OP_MUL) {
        // sx sy (x - zx)(y - zy) r + zo
        affine = k.product;
        p.affine.c = static_cast<float>(zo);
        p.affine.x_zero = p.x.zero_point;
        p.affine.y_zero = p.y.zero_point;
        if (coefficient(sx * sy * r, p.affine.a)) bound = 65536.0 * std::fabs(p.affine.a) + std::fabs(p.affine.c);
    }
    if (affine == nullptr || !(bound < kBound)) return nullptr;
    // Where the nearest coefficients miss a pair, a neighbour often does not
    // (c one or two ulps either way, or a one; each try one check): random
    // u8 ADD parameters pass 72% at the first try, 87% within these
    // (docs/quantization.md).
    static constexpr int kNudges[][2] = {{0, 0}, {0, 1}, {0, -1}, {1, 0}, {-1, 0}, {0, 2}, {0, -2}};
    for (const auto& [da, dc] : kNudges) {
        QuantBinaryParams t = p;
        t.affine.a = ulps(p.affine.a, da);
        t.affine.c = ulps(p.affine.c, dc);
        if (same_bytes(exact, affine, t, true, nullptr, nullptr, byte_pairs)) {
            params = t;
            return affine;
        }
    }
    return nullptr;
}

QuantBinaryFn checked_reciprocal_pairs(QuantBinaryFn reciprocal, QuantBinaryFn exact,
                                       const QuantBinaryParams& params) {
    // A subnormal reciprocal (an output scale above 2^126) would be 0 on a
    // thread that flushes subnormals, unlike the check's: no reciprocal.
    if (reciprocal == nullptr || !std::isnormal(1.0f / params.out.scale)) return nullptr;
    return same_bytes(exact, reciprocal, params, true, nullptr, nullptr, byte_pairs) ? reciprocal : nullptr;
}

void pair_rows(QuantBinaryFn exact, const QuantBinaryParams& params, bool x_constant, unsigned char* rows) {
    alignas(64) unsigned char x[kChunk], y[kChunk];
    for (std::size_t c = 0;; ++c) {
        const std::size_t n = byte_pairs(c, x, y);  // rows 4c..4c+3, in order
        if (n == 0) return;
        if (x_constant) exact(n, y, x, rows + c * kChunk, params, Stores{false, false});
        else exact(n, x, y, rows + c * kChunk, params, Stores{false, false});
    }
}

QuantBinaryFn affine_pattern_coefficients(bcast_opcode op, bool bytes_first, const AffineKernels& k,
                                          const float* row, std::size_t period, QuantBinaryParams& params,
                                          float* coeffs) {
    const QuantParams& q = bytes_first ? params.x : params.y;
    const double r = over(params), zo = params.out.zero_point, s = q.scale, z = q.zero_point;
    if (op == BCAST_OP_MUL) {  // (x - z) s f r + zo
        params.affine.x_zero = q.zero_point;
        params.affine.c = static_cast<float>(zo);
        for (std::size_t i = 0; i < period; ++i) {
            if (!coefficient(s * row[i] * r, coeffs[i]) ||
                !(512.0 * std::fabs(coeffs[i]) + std::fabs(params.affine.c) < kBound)) {
                return nullptr;
            }
        }
        return k.slopes;
    }
    if (op != BCAST_OP_ADD && op != BCAST_OP_SUB) return nullptr;
    // (alpha s (x - z) + beta f) r + zo: x - f, f - x or x + f
    const double alpha = op == BCAST_OP_SUB && !bytes_first ? -1.0 : 1.0;
    const double beta = op == BCAST_OP_SUB && bytes_first ? -1.0 : 1.0;
    if (!coefficient(alpha * s * r, params.affine.a)) return nullptr;
    for (std::size_t i = 0; i < period; ++i) {
        if (!coefficient((beta * row[i] - alpha * s * z) * r + zo, coeffs[i]) ||
            !(256.0 * std::fabs(params.affine.a) + std::fabs(coeffs[i]) < kBound)) {
            return nullptr;
        }
    }
    return k.offsets;
}

bool affine_pattern_exact(QuantBinaryFn exact, QuantBinaryFn affine, const QuantBinaryParams& params,
                          bool bytes_first, const float* pattern, const float* coeffs, std::size_t period,
                          std::size_t block) {
    // Whole periods per call, every byte value once per entry.
    const std::size_t per_call = std::min(block, kChunk) / period;
    if (per_call == 0) return false;
    const auto bytes = [&](std::size_t c, unsigned char* x, unsigned char*) -> std::size_t {
        const std::size_t first = c * per_call;
        if (first >= 256) return 0;
        const std::size_t values = std::min(per_call, 256 - first);
        for (std::size_t j = 0; j < values; ++j) std::memset(x + j * period, static_cast<int>(first + j), period);
        return values * period;
    };
    return same_bytes(exact, affine, params, bytes_first, pattern, coeffs, bytes);
}

}  // namespace bcast::kernels
