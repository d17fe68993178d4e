// AVX-512's byte lanes for the quantization kernels (simd/simd_quantize.hpp):
// 16 bytes widened by vpmovzxbd / vpmovsxbd, 16 lanes narrowed by vpmovdb
// (truncating: the lanes already hold values of the byte's type). A line of
// four batches (64 bytes) is finished in the packed domain instead, two
// vector operations fewer per batch than finish + narrow (measured in
// docs/quantization.md): see store_line.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_quantize.hpp"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <>
struct ByteLanes<xsimd::avx512bw> {
    using F = xsimd::batch<float, xsimd::avx512bw>;
    using I = xsimd::batch<int32_t, xsimd::avx512bw>;
    static constexpr std::size_t kLineSteps = 4;
    template <class Q>
    static I widen(const Q* p) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        if constexpr (std::is_signed_v<Q>) return _mm512_cvtepi8_epi32(bytes);
        else return _mm512_cvtepu8_epi32(bytes);
    }
    template <class Q>
    static void narrow(Q* p, I k) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(k));
    }
    // Same bytes as finish + narrow per batch: rne(min(hi, q)) (NaN and every
    // quotient below the int range convert to INT_MIN), packed to int16 with
    // saturation, plus the zero point with saturation (INT_MIN's -32768 stays
    // below every byte), packed to bytes with saturation, then raised to the
    // output's lowest byte (lo + zero_point). Above: min gave hi, whole.
    template <class Q>
    static void store_line(Q* p, const F* q, const QuantOut<xsimd::avx512bw>& o, bool stream) {
        constexpr bool kSigned = std::is_signed_v<Q>;
        const __m512 hi = o.hi;
        const __m512i zero_point = _mm512_set1_epi16(static_cast<int16_t>(o.params.zero_point));
        const __m512i lowest = _mm512_set1_epi8(static_cast<char>(o.lowest()));
        __m512i k[4];
        for (int j = 0; j < 4; ++j) k[j] = _mm512_cvtps_epi32(_mm512_min_ps(hi, q[j]));
        const __m512i w0 = _mm512_adds_epi16(_mm512_packs_epi32(k[0], k[1]), zero_point);
        const __m512i w1 = _mm512_adds_epi16(_mm512_packs_epi32(k[2], k[3]), zero_point);
        __m512i line = kSigned ? _mm512_packs_epi16(w0, w1) : _mm512_packus_epi16(w0, w1);
        // Packs work per 128-bit lane: dword 4L + j holds batch j's lanes 4L..4L+3.
        line = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), line);
        // The byte type's own lowest (no activation clamp): the packs gave it.
        if (o.lowest() > std::numeric_limits<Q>::min()) {
            line = kSigned ? _mm512_max_epi8(line, lowest) : _mm512_max_epu8(line, lowest);
        }
        if (stream) _mm512_stream_si512(reinterpret_cast<__m512i*>(p), line);
        else _mm512_storeu_si512(p, line);
    }
    // store_line's bytes where the zero point is 0 and every quotient is
    // below 2^30 in magnitude (the affine kernel's): rne, saturating packs
    // to the byte type, then lo and hi (whole, inside the byte type) as
    // byte bounds; clamping after rounding gives what clamping before does.
    // Bounds that are the byte type's own (no activation clamp) are what the
    // packs already saturate to: two vector operations of about 25 saved.
    template <class Q>
    static void store_bounded_line(Q* p, const F* q, const QuantOut<xsimd::avx512bw>& o, bool stream) {
        constexpr bool kSigned = std::is_signed_v<Q>;
        const int lo = static_cast<int>(o.params.lo), hi = static_cast<int>(o.params.hi);
        const bool clamps = lo > std::numeric_limits<Q>::min() || hi < std::numeric_limits<Q>::max();
        const __m512i lowest = _mm512_set1_epi8(static_cast<char>(lo));
        const __m512i highest = _mm512_set1_epi8(static_cast<char>(hi));
        __m512i k[4];
        for (int j = 0; j < 4; ++j) k[j] = _mm512_cvtps_epi32(q[j]);
        const __m512i w0 = _mm512_packs_epi32(k[0], k[1]);
        const __m512i w1 = _mm512_packs_epi32(k[2], k[3]);
        __m512i line = kSigned ? _mm512_packs_epi16(w0, w1) : _mm512_packus_epi16(w0, w1);
        line = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), line);
        if (clamps) {
            line = kSigned ? _mm512_max_epi8(line, lowest) : _mm512_max_epu8(line, lowest);
            line = kSigned ? _mm512_min_epi8(line, highest) : _mm512_min_epu8(line, highest);
        }
        if (stream) _mm512_stream_si512(reinterpret_cast<__m512i*>(p), line);
        else _mm512_storeu_si512(p, line);
    }
};

template <>
struct MulAdd<xsimd::avx512bw> {
    using F = xsimd::batch<float, xsimd::avx512bw>;
    static F of(F x, F a, F b) { return _mm512_fmadd_ps(x, a, b); }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
