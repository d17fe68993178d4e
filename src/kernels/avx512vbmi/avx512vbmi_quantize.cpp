// Quantized binary ops with one operand constant along the line, as a
// 256-entry table row: the result is a function of the other operand's byte
// alone, so the register kernel (params.row) computes it once per call for
// all 256 bytes, exactly (or takes it from the rows planning computed:
// QuantBinaryParams::rows), and the line is a byte lookup: two vpermi2b over
// the row's four 64-byte quarters and a blend on the index's top bit, 64
// bytes per step (streamed whole lines where the caller asks). Built with the avx512 flags and -mavx512vbmi; runs only
// once cpu::cpu_features() has reported avx512vbmi.
// BCAST_KERNEL_ISA (avx512vbmi: this file's namespace) comes from its object
// library's definitions (src/CMakeLists.txt).
#include "kernels/quantize.hpp"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace bcast::kernels::avx512vbmi {
namespace {

// Every byte value once: the varying operand's row input.
alignas(64) constexpr unsigned char kAllBytes[256] = {
#define BCAST_BYTES_16(h) h, h + 1, h + 2, h + 3, h + 4, h + 5, h + 6, h + 7, h + 8, h + 9, h + 10, \
                          h + 11, h + 12, h + 13, h + 14, h + 15
    BCAST_BYTES_16(0),   BCAST_BYTES_16(16),  BCAST_BYTES_16(32),  BCAST_BYTES_16(48),
    BCAST_BYTES_16(64),  BCAST_BYTES_16(80),  BCAST_BYTES_16(96),  BCAST_BYTES_16(112),
    BCAST_BYTES_16(128), BCAST_BYTES_16(144), BCAST_BYTES_16(160), BCAST_BYTES_16(176),
    BCAST_BYTES_16(192), BCAST_BYTES_16(208), BCAST_BYTES_16(224), BCAST_BYTES_16(240),
#undef BCAST_BYTES_16
};

// Rows shorter than this cost more to build than the lookup saves: the
// register kernel runs them directly.
constexpr std::size_t kMinRowLine = 512;

template <bool XScalar>
void row_lookup(std::size_t n, const void* x, const void* y, void* out, const QuantBinaryParams& p,
                Stores stores) {
    if (n < kMinRowLine && p.rows == nullptr) return p.row(n, x, y, out, p, stores);
    alignas(64) unsigned char built[256];
    const unsigned char* row = built;
    if (p.rows != nullptr) row = p.rows + 256 * std::size_t{*static_cast<const unsigned char*>(XScalar ? x : y)};
    else if (XScalar) p.row(256, x, kAllBytes, built, p, false);
    else p.row(256, kAllBytes, y, built, p, false);
    const auto* index = static_cast<const unsigned char*>(XScalar ? y : x);
    auto* o = static_cast<unsigned char*>(out);
    const __m512i q0 = _mm512_loadu_si512(row), q1 = _mm512_loadu_si512(row + 64);
    const __m512i q2 = _mm512_loadu_si512(row + 128), q3 = _mm512_loadu_si512(row + 192);
    const auto lookup = [&](__m512i idx) {
        const __m512i low = _mm512_permutex2var_epi8(q0, idx, q1);
        const __m512i high = _mm512_permutex2var_epi8(q2, idx, q3);
        return _mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), low, high);
    };
    std::size_t i = 0;
    if (stores.stream) {  // whole aligned lines (the caller's contract)
        for (; i + 64 <= n; i += 64) {
            _mm512_stream_si512(reinterpret_cast<__m512i*>(o + i), lookup(_mm512_loadu_si512(index + i)));
        }
    }
    for (; i + 64 <= n; i += 64) {
        _mm512_storeu_si512(o + i, lookup(_mm512_loadu_si512(index + i)));
    }
    if (i < n) {
        const __mmask64 tail = _cvtu64_mask64(~0ull >> (64 - (n - i)));
        _mm512_mask_storeu_epi8(o + i, tail, lookup(_mm512_maskz_loadu_epi8(tail, index + i)));
    }
}

}  // namespace

// The row kernels of kernels/quantize.hpp (QuantBinaryKernels::vs_row, sv_row).
QuantBinaryFn quant_row_kernel(bool x_scalar) {
    return x_scalar ? &row_lookup<true> : &row_lookup<false>;
}

}  // namespace bcast::kernels::avx512vbmi
