// SSE2's byte lanes for the quantization kernels (simd/simd_quantize.hpp):
// 4 bytes widened by two unpacks (signed: unpacked onto themselves, then an
// arithmetic shift), 4 lanes narrowed by two packs (the lanes already hold
// values of the byte's type: nothing saturates); a line of four batches is
// 16 bytes, finished in the packed domain and streamed where asked. xsimd
// 8.1's generic lanes go through memory one lane at a time instead.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_quantize.hpp"

#include <emmintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <>
struct ByteLanes<xsimd::sse2> {
    using A = xsimd::sse2;
    using F = xsimd::batch<float, A>;
    using I = xsimd::batch<int32_t, A>;
    static constexpr std::size_t kLineSteps = 4;
    template <class Q>
    static I widen(const Q* p) {
        int32_t four;
        std::memcpy(&four, p, sizeof four);
        const __m128i bytes = _mm_cvtsi32_si128(four);
        if constexpr (std::is_signed_v<Q>) {
            const __m128i words = _mm_unpacklo_epi8(bytes, bytes);
            return _mm_srai_epi32(_mm_unpacklo_epi16(words, words), 24);
        } else {
            const __m128i zero = _mm_setzero_si128();
            return _mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero);
        }
    }
    template <class Q>
    static void narrow(Q* p, I k) {
        const __m128i words = _mm_packs_epi32(k, k);
        const __m128i bytes = std::is_signed_v<Q> ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words);
        const int32_t four = _mm_cvtsi128_si32(bytes);
        std::memcpy(p, &four, sizeof four);
    }
    // Same bytes as finish + narrow per batch, finished in the packed domain
    // as AVX-512's store_line does (avx512_quantize.hpp says why each step
    // keeps the bytes), except that the lowest byte is raised in int16
    // before the last pack (SSE2 has no signed byte max; the saturating pack
    // is monotone and keeps the lowest byte, so the order does not matter).
    // 128-bit packs keep the batches in order: no permute.
    template <class Q>
    static void store_line(Q* p, const F* q, const QuantOut<A>& o, bool stream) {
        const __m128 hi = o.hi;
        const __m128i zero_point = _mm_set1_epi16(static_cast<int16_t>(o.params.zero_point));
        const __m128i lowest = _mm_set1_epi16(static_cast<int16_t>(o.lowest()));
        __m128i k[4];
        for (int j = 0; j < 4; ++j) k[j] = _mm_cvtps_epi32(_mm_min_ps(hi, q[j]));
        __m128i w0 = _mm_adds_epi16(_mm_packs_epi32(k[0], k[1]), zero_point);
        __m128i w1 = _mm_adds_epi16(_mm_packs_epi32(k[2], k[3]), zero_point);
        // The byte type's own lowest (no activation clamp): the last pack gives it.
        if (o.lowest() > std::numeric_limits<Q>::min()) {
            w0 = _mm_max_epi16(w0, lowest);
            w1 = _mm_max_epi16(w1, lowest);
        }
        const __m128i line = std::is_signed_v<Q> ? _mm_packs_epi16(w0, w1) : _mm_packus_epi16(w0, w1);
        // A streamed call starts a whole 64-byte line (store_quantized's
        // contract) and steps 16 bytes: p is 16-byte aligned here.
        if (stream) _mm_stream_si128(reinterpret_cast<__m128i*>(p), line);
        else _mm_storeu_si128(reinterpret_cast<__m128i*>(p), line);
    }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
