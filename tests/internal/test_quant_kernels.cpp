// Every ISA's quantization kernels against the portable ones, bit for bit,
// and the portable ones against a reference written here from ONNX's
// operator text (double-checked arithmetic, not the kernels' code).
#include "kernel_test_data.hpp"
#include "kernels/affine_check.hpp"
#include "kernels/dispatch.hpp"
#include "kernels/quantize.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

using bcast::kernels::QuantBinaryFn;
using bcast::kernels::QuantBinaryKernels;
using bcast::kernels::QuantBinaryParams;
using bcast::kernels::QuantKernels;
using bcast::kernels::QuantParams;
using bcast_test::host_isas;

namespace {

QuantParams params(float scale, int32_t zp, bool i8) {
    QuantParams p;
    p.scale = scale;
    p.zero_point = zp;
    p.lo = static_cast<float>((i8 ? -128 : 0) - zp);
    p.hi = static_cast<float>((i8 ? 127 : 255) - zp);
    return p;
}

// QuantizeLinear: saturate(round_half_even(v / scale) + zp), NaN to the
// dtype's minimum. The quotient is float's (the operator's precision); its
// rounding is decided here by comparing with the nearest integers.
int32_t reference_quantize(float v, float scale, int32_t zp, bool i8) {
    const int32_t qmin = i8 ? -128 : 0, qmax = i8 ? 127 : 255;
    const float x = v / scale;
    if (std::isnan(x)) return qmin;
    if (x >= 1e6f) return qmax;
    if (x <= -1e6f) return qmin;
    const double d = x;
    const double down = std::floor(d), frac = d - down;
    int64_t r = static_cast<int64_t>(down);
    if (frac > 0.5 || (frac == 0.5 && (r % 2 != 0))) ++r;
    r += zp;
    return static_cast<int32_t>(r < qmin ? qmin : r > qmax ? qmax : r);
}

// Values that probe every path: ties, near-ties, zero signs, the range's
// edges, huge and non-finite values, random ones.
std::vector<float> probe_values(float scale) {
    std::vector<float> v;
    for (int k = -300; k <= 300; ++k) {
        const float t = (static_cast<float>(k) + 0.5f) * scale;
        v.push_back(t);
        v.push_back(std::nextafter(t, 1e30f));
        v.push_back(std::nextafter(t, -1e30f));
        v.push_back(static_cast<float>(k) * scale);
    }
    const float inf = std::numeric_limits<float>::infinity();
    for (float x : {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                    std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                    std::numeric_limits<float>::denorm_min(), 1e30f, -1e30f, 3e9f, -3e9f}) {
        v.push_back(x);
    }
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> any(-400.0f, 400.0f);
    for (int k = 0; k < 3000; ++k) v.push_back(any(rng) * scale);
    return v;
}

const float kScales[] = {1.0f, 0.125f, 0.1f, 0.0078125f, 3.7e-5f, 1e-10f, 1e10f, 0.3333333f,
                         1.17549435e-38f, 3.4e38f};

}  // namespace

TEST_CASE("portable quantize is QuantizeLinear, half to even, saturating", "[quant]") {
    for (bool i8 : {false, true}) {
        const bcast_dtype dt = i8 ? BCAST_DTYPE_I8 : BCAST_DTYPE_U8;
        const QuantKernels* k = bcast::kernels::portable_quant_kernels(dt);
        REQUIRE(k != nullptr);
        for (float scale : kScales) {
            for (int32_t zp : {i8 ? -128 : 0, i8 ? 127 : 255, i8 ? -3 : 128}) {
                const std::vector<float> v = probe_values(scale);
                std::vector<unsigned char> out(v.size());
                k->quantize(v.size(), v.data(), out.data(), 1, params(scale, zp, i8));
                for (std::size_t i = 0; i < v.size(); ++i) {
                    const int32_t got = i8 ? static_cast<int8_t>(out[i]) : out[i];
                    INFO("v=" << v[i] << " scale=" << scale << " zp=" << zp);
                    REQUIRE(got == reference_quantize(v[i], scale, zp, i8));
                }
            }
        }
    }
}

TEST_CASE("portable dequantize is (q - zp) * scale", "[quant]") {
    const QuantKernels* k = bcast::kernels::portable_quant_kernels(BCAST_DTYPE_I8);
    std::vector<int8_t> q(256);
    for (int i = 0; i < 256; ++i) q[static_cast<std::size_t>(i)] = static_cast<int8_t>(i - 128);
    std::vector<float> out(256);
    k->dequantize(256, q.data(), 1, out.data(), params(0.1f, 5, true));
    for (int i = 0; i < 256; ++i) {
        REQUIRE(out[static_cast<std::size_t>(i)] == static_cast<float>(i - 128 - 5) * 0.1f);
    }
    // a negative stride reads backwards
    k->dequantize(3, q.data() + 255, -1, out.data(), params(1.0f, 0, true));
    REQUIRE(out[0] == 127.0f);
    REQUIRE(out[2] == 125.0f);
}

TEST_CASE("every ISA's quantization kernels match the portable ones", "[quant][simd][bit-for-bit]") {
    for (const std::string& isa : host_isas()) {
        for (bool i8 : {false, true}) {
            const bcast_dtype dt = i8 ? BCAST_DTYPE_I8 : BCAST_DTYPE_U8;
            const QuantKernels* portable = bcast::kernels::portable_quant_kernels(dt);
            const QuantKernels fast = bcast::kernels::isa_quant_kernels(isa.c_str(), dt);
            REQUIRE(fast.quantize != nullptr);
            REQUIRE(fast.dequantize != nullptr);
            for (float scale : kScales) {
                const int32_t zp = i8 ? -7 : 133;
                const QuantParams p = params(scale, zp, i8);
                const std::vector<float> v = probe_values(scale);
                // every length up to a few vectors, and the whole probe
                for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{17},
                                      std::size_t{63}, std::size_t{129}, v.size()}) {
                    std::vector<unsigned char> want(n + 1, 0xAB), got(n + 1, 0xAB);
                    portable->quantize(n, v.data(), want.data(), 1, p);
                    fast.quantize(n, v.data(), got.data(), 1, p);
                    INFO(isa << " i8=" << i8 << " scale=" << scale << " n=" << n);
                    REQUIRE(want == got);  // the byte past the end untouched too
                }
                std::vector<unsigned char> want(v.size() * 3, 0), got(v.size() * 3, 0);
                portable->quantize(v.size(), v.data(), want.data(), 3, p);
                fast.quantize(v.size(), v.data(), got.data(), 3, p);
                REQUIRE(want == got);
                std::vector<unsigned char> bytes(1000);
                for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 37 + 11);
                for (std::ptrdiff_t stride : {1, 2, -1, 0}) {
                    const std::size_t n = 300;
                    const unsigned char* from = stride < 0 ? bytes.data() + 999 : bytes.data();
                    std::vector<float> dw(n), dg(n);
                    portable->dequantize(n, from, stride, dw.data(), p);
                    fast.dequantize(n, from, stride, dg.data(), p);
                    INFO(isa << " dequantize stride " << stride);
                    REQUIRE(std::memcmp(dw.data(), dg.data(), n * sizeof(float)) == 0);
                }
            }
        }
    }
}

namespace {

// The f32 ops the register kernels take (the op table's quantizable chain
// ops), written out here: a dequantized value is never NaN, so C's max and
// min are the ops' own.
struct RegisterOp {
    bcast_opcode op;
    float (*f)(float, float);
};
const RegisterOp kRegisterOps[] = {
    {BCAST_OP_ADD, [](float a, float b) { return a + b; }},
    {BCAST_OP_SUB, [](float a, float b) { return a - b; }},
    {BCAST_OP_MUL, [](float a, float b) { return a * b; }},
    {BCAST_OP_DIV, [](float a, float b) { return a / b; }},
    {BCAST_OP_MAX, [](float a, float b) { return a > b ? a : b; }},
    {BCAST_OP_MIN, [](float a, float b) { return a < b ? a : b; }},
};

// How a register kernel reads an operand (kernels/quantize.hpp).
enum class Read { kBytes, kByte, kFloats };

}  // namespace

TEST_CASE("every ISA's quantized register kernels give dequantize, the f32 op, quantize",
          "[quant][simd][bit-for-bit]") {
    const QuantParams scale_sets[][3] = {
        {params(0.02f, 3, false), params(0.05f, 250, false), params(0.04f, 128, false)},
        {params(0.0625f, 128, false), params(0.0625f, 128, false), params(0.125f, 128, false)},  // ties
        {params(1.0f, 0, false), params(1.0f, 3, false), params(1e-10f, 5, false)},  // saturates
        {params(3.4e38f, 7, false), params(3.4e38f, 200, false), params(1.0f, 100, false)},  // inf, NaN
        {params(0.1f, 0, false), params(0.1f, 0, false), params(0.1f, 0, false)},
        {params(0.03f, 255, false), params(0.02f, 0, false), params(0.05f, 255, false)},  // zero points at the ends
        // with an output clamp (below: ReLU6-like bounds inside the range)
        {params(0.02f, 3, false), params(0.05f, 250, false), params(0.01f, 100, false)},
    };
    const auto* clamped_set = &scale_sets[std::size(scale_sets) - 1];
    std::mt19937 rng(7);
    for (const std::string& isa : host_isas()) {
        for (bool i8 : {false, true}) {
            const bcast_dtype dt = i8 ? BCAST_DTYPE_I8 : BCAST_DTYPE_U8;
            const QuantKernels* portable = bcast::kernels::portable_quant_kernels(dt);
            for (const RegisterOp& op : kRegisterOps) {
                const QuantBinaryKernels k = bcast::kernels::isa_quant_binary_kernels(isa.c_str(), op.op, dt);
                const std::pair<QuantBinaryFn, std::pair<Read, Read>> forms[] = {
                    {k.vv, {Read::kBytes, Read::kBytes}}, {k.vs, {Read::kBytes, Read::kByte}},
                    {k.sv, {Read::kByte, Read::kBytes}},  {k.vf, {Read::kBytes, Read::kFloats}},
                    {k.fv, {Read::kFloats, Read::kBytes}},
                };
                for (const auto& set : scale_sets) {
                    QuantBinaryParams p;
                    p.x = set[0];
                    p.y = set[1];
                    p.out = set[2];
                    if (i8) {  // the same sets moved to i8's range
                        for (QuantParams* q : {&p.x, &p.y, &p.out}) *q = params(q->scale, q->zero_point - 128, true);
                    }
                    if (&set == clamped_set) {  // bytes [qmin + 40, qmax - 60] only
                        p.out.lo += 40.0f;
                        p.out.hi -= 60.0f;
                    }
                    for (const auto& [kernel, reads] : forms) {
                        INFO(isa << " op " << op.op << " i8=" << i8 << " scale " << p.x.scale << " form "
                                  << static_cast<int>(reads.first) << static_cast<int>(reads.second));
                        REQUIRE(kernel != nullptr);
                        for (std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                                              std::size_t{100}, std::size_t{1024}}) {
                            std::vector<unsigned char> x(n), y(n);
                            for (auto& b : x) b = static_cast<unsigned char>(rng());
                            for (auto& b : y) b = static_cast<unsigned char>(rng());
                            // The reference: each operand dequantized, the op, quantized.
                            std::vector<float> dx(n), dy(n), v(n);
                            portable->dequantize(n, x.data(), reads.first == Read::kByte ? 0 : 1, dx.data(), p.x);
                            portable->dequantize(n, y.data(), reads.second == Read::kByte ? 0 : 1, dy.data(), p.y);
                            for (std::size_t i = 0; i < n; ++i) v[i] = op.f(dx[i], dy[i]);
                            std::vector<unsigned char> want(n + 1, 0xAB);
                            portable->quantize(n, v.data(), want.data(), 1, p.out);
                            // The kernel, reading a pattern operand as its f32 values.
                            const void* xp = reads.first == Read::kFloats ? static_cast<const void*>(dx.data()) : x.data();
                            const void* yp = reads.second == Read::kFloats ? static_cast<const void*>(dy.data()) : y.data();
                            std::vector<unsigned char> got(n + 1, 0xAB);
                            kernel(n, xp, yp, got.data(), p, bcast::kernels::Stores{false, false});
                            INFO("n=" << n);
                            REQUIRE(want == got);  // the byte past the end untouched too
                            // Streamed: whole 64-byte lines from a line's start.
                            if (n % 64 == 0) {
                                alignas(64) unsigned char streamed[1024];
                                kernel(n, xp, yp, streamed, p, bcast::kernels::Stores{true, false});
                                bcast::kernels::stream_fence();
                                REQUIRE(std::memcmp(streamed, want.data(), n) == 0);
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("every ISA's affine kernels round, saturate and clamp their u", "[quant][simd][bit-for-bit]") {
    // Coefficients whose products and sums are exact in f32 (eighths and
    // sixteenths), so fused and unfused multiply-adds agree and the
    // reference computes u exactly in double: ties (.5) round to even,
    // values beyond the byte range saturate (set 2 scales the slopes up to
    // 2^18, 2^12 or 2^10, inside the kernels' 2^30 promise), and an output clamp
    // narrows (set 3).
    enum Kind { kOffsets, kSlopes, kSum, kProduct };
    std::mt19937 rng(11);
    const auto eighths = [&](float scale) { return scale * static_cast<float>(static_cast<int>(rng() % 33) - 16) / 8.0f; };
    const auto sixteenths = [&] { return static_cast<float>(static_cast<int>(rng() % 8192) - 4096) / 16.0f; };
    for (const std::string& isa : host_isas()) {
        for (bool i8 : {false, true}) {
            const bcast_dtype dt = i8 ? BCAST_DTYPE_I8 : BCAST_DTYPE_U8;
            const int32_t qmin = i8 ? -128 : 0;
            const auto value = [&](unsigned char b) { return i8 ? static_cast<double>(static_cast<signed char>(b)) : b; };
            const bcast::kernels::AffineKernels k =
                bcast::kernels::isa_quant_binary_kernels(isa.c_str(), BCAST_OP_ADD, dt).affine;
            for (Kind kind : {kOffsets, kSlopes, kSum, kProduct}) {
                const QuantBinaryFn kernel = kind == kOffsets ? k.offsets : kind == kSlopes ? k.slopes
                                             : kind == kSum   ? k.sum      : k.product;
                const bool floats = kind == kOffsets || kind == kSlopes;
                INFO(isa << " i8=" << i8 << " kind " << kind);
                REQUIRE(kernel != nullptr);
                for (int set = 0; set < 4; ++set) {
                    QuantBinaryParams p;
                    const int32_t zy = qmin + static_cast<int32_t>(rng() % 256);
                    p.out = params(0.5f, zy, i8);
                    if (set == 3) {  // an output clamp: bytes [qmin + 40, qmax - 60]
                        p.out.lo += 40.0f;
                        p.out.hi -= 60.0f;
                    }
                    // (the sum's y * b + c stays below 2^20: its sixteenths exact)
                    const float big = set != 2 ? 1.0f : kind == kProduct ? 4096.0f : kind == kSum ? 1024.0f : 262144.0f;
                    p.affine.a = eighths(big);
                    p.affine.b = eighths(big);
                    p.affine.c = kind == kOffsets ? 0.0f : sixteenths();
                    p.affine.x_zero = qmin + static_cast<int32_t>(rng() % 256);
                    p.affine.y_zero = qmin + static_cast<int32_t>(rng() % 256);
                    for (std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                                          std::size_t{100}, std::size_t{1024}}) {
                        std::vector<unsigned char> x(n), y(n);
                        std::vector<float> c(n);
                        for (auto& b : x) b = static_cast<unsigned char>(rng());
                        for (auto& b : y) b = static_cast<unsigned char>(rng());
                        for (auto& v : c) v = kind == kSlopes ? eighths(big) : sixteenths();
                        std::vector<unsigned char> want(n + 1, 0xAB), got(n + 1, 0xAB);
                        for (std::size_t i = 0; i < n; ++i) {
                            const double q = value(x[i]), v = value(y[i]);
                            const double u = kind == kOffsets ? q * p.affine.a + c[i]
                                             : kind == kSlopes ? (q - p.affine.x_zero) * c[i] + p.affine.c
                                             : kind == kSum    ? q * p.affine.a + (v * p.affine.b + p.affine.c)
                                                               : (q - p.affine.x_zero) * (v - p.affine.y_zero) * p.affine.a + p.affine.c;
                            const double lo = static_cast<double>(p.out.lo) + zy, hi = static_cast<double>(p.out.hi) + zy;
                            want[i] = static_cast<unsigned char>(static_cast<int>(std::min(hi, std::max(lo, std::nearbyint(u)))));
                        }
                        const void* yp = floats ? static_cast<const void*>(c.data()) : y.data();
                        kernel(n, x.data(), yp, got.data(), p, bcast::kernels::Stores{false, false});
                        INFO("set " << set << " n=" << n);
                        REQUIRE(want == got);  // the byte past the end untouched too
                        if (n % 64 == 0) {
                            alignas(64) unsigned char streamed[1024];
                            kernel(n, x.data(), yp, streamed, p, bcast::kernels::Stores{true, false});
                            bcast::kernels::stream_fence();
                            REQUIRE(std::memcmp(streamed, want.data(), n) == 0);
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("the affine forms' coefficients pass their check where they are exact", "[quant][simd]") {
    // Powers of two for every scale and small zero points: every coefficient
    // and every u is exact in f32, so each form must pass its check and be
    // chosen (a wrong sign, scale or zero point in the coefficients fails it
    // and the exact kernel would run, unseen by the result tests).
    for (const std::string& isa : host_isas()) {
        for (bool i8 : {false, true}) {
            const bcast_dtype dt = i8 ? BCAST_DTYPE_I8 : BCAST_DTYPE_U8;
            const int32_t shift = i8 ? -128 : 0;
            for (bcast_opcode op : {BCAST_OP_ADD, BCAST_OP_SUB, BCAST_OP_MUL}) {
                INFO(isa << " i8=" << i8 << " op " << op);
                const QuantBinaryKernels k = bcast::kernels::isa_quant_binary_kernels(isa.c_str(), op, dt);
                QuantBinaryParams p;
                p.x = params(0.25f, 3 + shift, i8);
                p.y = params(0.5f, 250 + shift, i8);
                p.out = params(op == BCAST_OP_MUL ? 8.0f : 0.125f, 128 + shift, i8);
                QuantBinaryParams pairs = p;
                REQUIRE(bcast::kernels::checked_affine_pairs(op, k.affine, k.vv, pairs) != nullptr);
                // A row of 64 entries beside bytes, both ways round.
                std::vector<float> row(64 + 1024), coeffs(64 + 1024);
                for (std::size_t i = 0; i < 64; ++i) {
                    row[i] = bcast::kernels::dequantize_one(static_cast<int32_t>(i * 4) + shift, p.y);
                }
                for (std::size_t i = 64; i < row.size(); ++i) row[i] = row[i % 64];
                for (bool bytes_first : {true, false}) {
                    QuantBinaryParams q = p;
                    if (!bytes_first) std::swap(q.x, q.y);
                    const QuantBinaryFn affine = bcast::kernels::affine_pattern_coefficients(
                        op, bytes_first, k.affine, row.data(), 64, q, coeffs.data());
                    REQUIRE(affine != nullptr);
                    for (std::size_t i = 64; i < coeffs.size(); ++i) coeffs[i] = coeffs[i % 64];
                    const QuantBinaryFn exact = bytes_first ? k.vf : k.fv;
                    CHECK(bcast::kernels::affine_pattern_exact(exact, affine, q, bytes_first, row.data(),
                                                               coeffs.data(), 64, 1024));
                }
            }
        }
    }
}

TEST_CASE("the reciprocal kernels quantize v times the scale's reciprocal, and run only where that is exact",
          "[quant][simd]") {
    // The bench's parameters (the reciprocal gives every pair's bytes for
    // these ops) and decimal ones whose ties it breaks (0.02 / 0.04).
    const QuantParams sets[][3] = {
        {params(0.0213f, 128, false), params(0.0371f, 133, false), params(0.0517f, 126, false)},
        {params(0.02f, 3, false), params(0.05f, 7, false), params(0.04f, 5, false)},
    };
    for (const std::string& isa : host_isas()) {
        for (bool i8 : {false, true}) {
            const bcast_dtype dt = i8 ? BCAST_DTYPE_I8 : BCAST_DTYPE_U8;
            const QuantKernels* portable = bcast::kernels::portable_quant_kernels(dt);
            std::vector<unsigned char> x(65536), y(65536);
            for (std::size_t i = 0; i < x.size(); ++i) {
                x[i] = static_cast<unsigned char>(i);
                y[i] = static_cast<unsigned char>(i >> 8);
            }
            for (const RegisterOp& op : kRegisterOps) {
                const QuantBinaryKernels k = bcast::kernels::isa_quant_binary_kernels(isa.c_str(), op.op, dt);
                for (std::size_t s = 0; s < std::size(sets); ++s) {
                    QuantBinaryParams p;
                    p.x = sets[s][0];
                    p.y = sets[s][1];
                    p.out = sets[s][2];
                    if (i8) {
                        for (QuantParams* q : {&p.x, &p.y, &p.out}) *q = params(q->scale, q->zero_point - 128, true);
                    }
                    INFO(isa << " op " << op.op << " i8=" << i8 << " set " << s);
                    REQUIRE(k.vv_reciprocal != nullptr);
                    std::vector<float> dx(x.size()), dy(y.size());
                    portable->dequantize(x.size(), x.data(), 1, dx.data(), p.x);
                    portable->dequantize(y.size(), y.data(), 1, dy.data(), p.y);
                    std::vector<unsigned char> exact(x.size()), reciprocal(x.size());
                    const float r = 1.0f / p.out.scale;
                    for (std::size_t i = 0; i < x.size(); ++i) {
                        const float v = op.f(dx[i], dy[i]);
                        exact[i] = static_cast<unsigned char>(reference_quantize(v, p.out.scale, p.out.zero_point, i8));
                        reciprocal[i] = static_cast<unsigned char>(reference_quantize(v * r, 1.0f, p.out.zero_point, i8));
                    }
                    std::vector<unsigned char> got(x.size());
                    k.vv_reciprocal(x.size(), x.data(), y.data(), got.data(), p, bcast::kernels::Stores{false, false});
                    REQUIRE(got == reciprocal);
                    // A pattern operand, read dequantized: the same bytes.
                    REQUIRE(k.vf_reciprocal != nullptr);
                    REQUIRE(k.fv_reciprocal != nullptr);
                    std::fill(got.begin(), got.end(), 0xAB);
                    k.vf_reciprocal(x.size(), x.data(), dy.data(), got.data(), p, bcast::kernels::Stores{false, false});
                    REQUIRE(got == reciprocal);
                    std::fill(got.begin(), got.end(), 0xAB);
                    k.fv_reciprocal(x.size(), dx.data(), y.data(), got.data(), p, bcast::kernels::Stores{false, false});
                    REQUIRE(got == reciprocal);
                    const bool agrees = reciprocal == exact;
                    CHECK(agrees == (s == 0));
                    REQUIRE((bcast::kernels::checked_reciprocal_pairs(k.vv_reciprocal, k.vv, p) != nullptr) == agrees);
                    // An output scale whose reciprocal is subnormal (2^-127, exact:
                    // MAX would pass the pairs) is refused all the same.
                    QuantBinaryParams huge = p;
                    huge.x.scale = huge.y.scale = std::ldexp(1.0f, 120);
                    huge.out.scale = std::ldexp(1.0f, 127);
                    REQUIRE(bcast::kernels::checked_reciprocal_pairs(k.vv_reciprocal, k.vv, huge) == nullptr);
                    // Short and odd lengths (the partial batch, the tail),
                    // streamed whole lines, and an output clamp: the same
                    // reference, its bytes clamped to the narrowed bounds.
                    for (bool clamped : {false, true}) {
                        QuantBinaryParams c = p;
                        const int32_t lowest = (i8 ? -128 : 0) + (clamped ? 40 : 0);
                        const int32_t highest = (i8 ? 127 : 255) - (clamped ? 60 : 0);
                        c.out.lo = static_cast<float>(lowest - c.out.zero_point);
                        c.out.hi = static_cast<float>(highest - c.out.zero_point);
                        for (std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                                              std::size_t{100}, std::size_t{1024}}) {
                            INFO("n=" << n << " clamped=" << clamped);
                            const std::size_t at = (n * 7919) % (x.size() - n);  // some pairs, not the first
                            std::vector<unsigned char> want(n + 1, 0xAB), short_got(n + 1, 0xAB);
                            for (std::size_t i = 0; i < n; ++i) {
                                const int32_t q = static_cast<int32_t>(i8 ? static_cast<int8_t>(reciprocal[at + i])
                                                                          : reciprocal[at + i]);
                                want[i] = static_cast<unsigned char>(std::min(highest, std::max(lowest, q)));
                            }
                            k.vv_reciprocal(n, x.data() + at, y.data() + at, short_got.data(), c,
                                            bcast::kernels::Stores{false, false});
                            REQUIRE(short_got == want);  // the byte past the end untouched too
                            if (n % 64 == 0) {
                                alignas(64) unsigned char streamed[1024];
                                k.vv_reciprocal(n, x.data() + at, y.data() + at, streamed, c,
                                                bcast::kernels::Stores{true, false});
                                bcast::kernels::stream_fence();
                                REQUIRE(std::memcmp(streamed, want.data(), n) == 0);
                            }
                        }
                    }
                }
            }
        }
    }
}
