// AVX2's byte lanes for the quantization kernels (simd/simd_quantize.hpp):
// 8 bytes widened by vpmovzxbd / vpmovsxbd, 8 lanes narrowed by two packs
// (the lanes already hold values of the byte's type: nothing saturates).
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_quantize.hpp"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <>
struct ByteLanes<xsimd::fma3<xsimd::avx2>> {
    using I = xsimd::batch<int32_t, xsimd::fma3<xsimd::avx2>>;
    template <class Q>
    static I widen(const Q* p) {
        const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
        if constexpr (std::is_signed_v<Q>) return _mm256_cvtepi8_epi32(bytes);
        else return _mm256_cvtepu8_epi32(bytes);
    }
    template <class Q>
    static void narrow(Q* p, I k) {
        const __m256i lanes = k;
        const __m128i words =
            _mm_packs_epi32(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
        const __m128i bytes =
            std::is_signed_v<Q> ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words);
        _mm_storel_epi64(reinterpret_cast<__m128i*>(p), bytes);
    }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
