// AVX2's byte lanes for the quantization kernels (simd/simd_quantize.hpp):
// 8 bytes widened by vpmovzxbd / vpmovsxbd, 8 lanes narrowed by two packs
// (the lanes already hold values of the byte's type: nothing saturates);
// a line of four batches is 32 bytes, finished in the packed domain and
// streamed where asked.
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
struct ByteLanes<xsimd::fma3<xsimd::avx2>> {
    using A = xsimd::fma3<xsimd::avx2>;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    static constexpr std::size_t kLineSteps = 4;
    template <class Q>
    static I widen(const Q* p) {
        const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
        if constexpr (std::is_signed_v<Q>) return _mm256_cvtepi8_epi32(bytes);
        else return _mm256_cvtepu8_epi32(bytes);
    }
    template <class Q>
    static void narrow(Q* p, I k) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(p), pack<Q>(k, k));
    }
    // Same bytes as finish + narrow per batch, finished in the packed domain
    // as AVX-512's store_line does (avx512_quantize.hpp says why each step
    // keeps the bytes): rne(min(hi, q)), packs and a saturating zero point,
    // packs to bytes, raised to the lowest byte.
    template <class Q>
    static void store_line(Q* p, const F* q, const QuantOut<A>& o, bool stream) {
        constexpr bool kSigned = std::is_signed_v<Q>;
        const __m256 hi = o.hi;
        const __m256i zero_point = _mm256_set1_epi16(static_cast<int16_t>(o.params.zero_point));
        const __m256i lowest = _mm256_set1_epi8(static_cast<char>(o.lowest()));
        __m256i k[4];
        for (int j = 0; j < 4; ++j) k[j] = _mm256_cvtps_epi32(_mm256_min_ps(hi, q[j]));
        const __m256i w0 = _mm256_adds_epi16(_mm256_packs_epi32(k[0], k[1]), zero_point);
        const __m256i w1 = _mm256_adds_epi16(_mm256_packs_epi32(k[2], k[3]), zero_point);
        __m256i line = kSigned ? _mm256_packs_epi16(w0, w1) : _mm256_packus_epi16(w0, w1);
        // Packs work per 128-bit lane: dword 4L + j holds batch j's lanes 4L..4L+3.
        line = _mm256_permutevar8x32_epi32(line, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        // The byte type's own lowest (no activation clamp): the packs gave it.
        if (o.lowest() > std::numeric_limits<Q>::min()) {
            line = kSigned ? _mm256_max_epi8(line, lowest) : _mm256_max_epu8(line, lowest);
        }
        if (stream) _mm256_stream_si256(reinterpret_cast<__m256i*>(p), line);
        else _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), line);
    }

private:
    // a's 8 lanes, then b's, as 16 bytes.
    template <class Q>
    static __m128i pack(I a, I b) {
        const __m256i la = a, lb = b;
        const __m128i wa = _mm_packs_epi32(_mm256_castsi256_si128(la), _mm256_extracti128_si256(la, 1));
        const __m128i wb = _mm_packs_epi32(_mm256_castsi256_si128(lb), _mm256_extracti128_si256(lb, 1));
        return std::is_signed_v<Q> ? _mm_packs_epi16(wa, wb) : _mm_packus_epi16(wa, wb);
    }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
