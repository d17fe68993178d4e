// AVX2's byte lanes for the quantization kernels (simd/simd_quantize.hpp):
// 8 bytes widened by vpmovzxbd / vpmovsxbd, 8 lanes narrowed by two packs
// (the lanes already hold values of the byte's type: nothing saturates);
// a line of four batches is 32 bytes, streamed where asked.
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
    template <class Q>
    static void store_line(Q* p, const F* q, const QuantOut<A>& o, bool stream) {
        const __m128i low = pack<Q>(o.finish(q[0]), o.finish(q[1]));
        const __m128i high = pack<Q>(o.finish(q[2]), o.finish(q[3]));
        const __m256i line = _mm256_set_m128i(high, low);
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
