// The SSE2 policy for the shared SIMD loops (see simd/simd_codec.hpp): 128-bit
// xsimd::sse2 batches, streaming stores, and comparison masks packed to BOOL
// bytes. No f16 here (F16C came with AVX): f16 stays portable on SSE2.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_codec.hpp"

#include <xsimd/xsimd.hpp>

#include <emmintrin.h>

#include <cstdint>
#include <cstring>

namespace bcast::kernels::BCAST_KERNEL_ISA {
namespace {

struct Sse2Isa {
    using arch = xsimd::sse2;
    template <class T>
    using B = xsimd::batch<T, arch>;
    static constexpr bool kHasF16 = false;
    static constexpr bool kPairsF16Steps = false;

    template <bool NT, class T>
    static void put(T* p, B<T> v) {
        if constexpr (NT) stream(p, static_cast<typename B<T>::register_type>(v));
        else v.store_unaligned(p);
    }
    static void fence() { _mm_sfence(); }

    // Lanes are all-ones or zero: saturating packs keep that down to bytes.
    template <class T>
    static void store_bools(std::uint8_t* out, xsimd::batch_bool<T, arch> m) {
        const __m128i lanes = as_int(static_cast<typename xsimd::batch_bool<T, arch>::register_type>(m));
        const __m128i one = _mm_set1_epi8(1);
        if constexpr (sizeof(T) == 1) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_and_si128(lanes, one));
        } else if constexpr (sizeof(T) == 2) {
            const __m128i bytes = _mm_and_si128(_mm_packs_epi16(lanes, lanes), one);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out), bytes);
        } else if constexpr (sizeof(T) == 4) {
            const __m128i words = _mm_packs_epi32(lanes, lanes);
            const __m128i bytes = _mm_and_si128(_mm_packs_epi16(words, words), one);
            const int four = _mm_cvtsi128_si32(bytes);
            std::memcpy(out, &four, 4);
        } else {
            simd::store_mask_bits(out, static_cast<unsigned>(_mm_movemask_pd(_mm_castsi128_pd(lanes))), 2);
        }
    }

private:
    static void stream(void* p, __m128 r) { _mm_stream_ps(static_cast<float*>(p), r); }
    static void stream(void* p, __m128d r) { _mm_stream_pd(static_cast<double*>(p), r); }
    static void stream(void* p, __m128i r) { _mm_stream_si128(static_cast<__m128i*>(p), r); }
    static __m128i as_int(__m128 r) { return _mm_castps_si128(r); }
    static __m128i as_int(__m128d r) { return _mm_castpd_si128(r); }
    static __m128i as_int(__m128i r) { return r; }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA
