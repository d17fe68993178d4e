// AVX-512's byte lanes for the quantization kernels (simd/simd_quantize.hpp):
// 16 bytes widened by vpmovzxbd / vpmovsxbd, 16 lanes narrowed by vpmovdb
// (truncating: the lanes already hold values of the byte's type); four
// narrowed batches make one 64-byte line for a streaming store.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_quantize.hpp"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bcast::kernels::BCAST_KERNEL_ISA::simd {
namespace {

template <>
struct ByteLanes<xsimd::avx512bw> {
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
    template <class Q>
    static void stream_line(Q* p, const I* k) {
        __m512i line = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(k[0]));
        line = _mm512_inserti32x4(line, _mm512_cvtepi32_epi8(k[1]), 1);
        line = _mm512_inserti32x4(line, _mm512_cvtepi32_epi8(k[2]), 2);
        line = _mm512_inserti32x4(line, _mm512_cvtepi32_epi8(k[3]), 3);
        _mm512_stream_si512(reinterpret_cast<__m512i*>(p), line);
    }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA::simd
