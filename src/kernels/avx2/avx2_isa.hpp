// The AVX2 policy for the shared SIMD loops (see simd/simd_codec.hpp): 256-bit
// batches of xsimd::fma3<avx2> (avx2, plus a fused xsimd::fma: the float
// transcendentals' polynomials use it; nothing else asks for one and the
// file builds with -ffp-contract=off), streaming stores, f16 through F16C, and comparison
// masks packed to BOOL bytes.
#pragma once

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_codec.hpp"

#include <xsimd/xsimd.hpp>

#include <immintrin.h>

#include <cstdint>

namespace bcast::kernels::BCAST_KERNEL_ISA {
namespace {

struct Avx2Isa {
    using arch = xsimd::fma3<xsimd::avx2>;
    template <class T>
    using B = xsimd::batch<T, arch>;
    static constexpr bool kHasF16 = true;
    static constexpr bool kPairsF16Steps = true;  // simd_codec.hpp's F16PairCodec

    template <bool NT, class T>
    static void put(T* p, B<T> v) {
        if constexpr (NT) stream(p, static_cast<typename B<T>::register_type>(v));
        else v.store_unaligned(p);
    }
    static void fence() { _mm_sfence(); }

    // F16C: exact widening; narrowing with an explicit round to nearest even
    // (independent of MXCSR), NaNs quieted with their top payload kept, as
    // half.hpp's f32_to_f16.
    static B<float> load_f16(const std::uint16_t* p) {
        return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    template <bool NT>
    static void store_f16(std::uint16_t* p, B<float> v) {
        const __m128i h = narrowed(v);
        if constexpr (NT) _mm_stream_si128(reinterpret_cast<__m128i*>(p), h);
        else _mm_storeu_si128(reinterpret_cast<__m128i*>(p), h);
    }

    // Two steps (lo first): streamed as one 32-byte store, cached as two
    // (no lane insert: (64K)+(64K) f16 measured 1.54x-1.55x the reference
    // with it, 1.49x-1.50x without).
    template <bool NT>
    static void store_f16_pair(std::uint16_t* p, B<float> lo, B<float> hi) {
        if constexpr (NT) {
            _mm256_stream_si256(reinterpret_cast<__m256i*>(p),
                                _mm256_set_m128i(narrowed(hi), narrowed(lo)));
        } else {
            store_f16<false>(p, lo);
            store_f16<false>(p + 8, hi);
        }
    }

    // Lanes are all-ones or zero: saturating packs keep that down to bytes.
    template <class T>
    static void store_bools(std::uint8_t* out, xsimd::batch_bool<T, arch> m) {
        const __m256i lanes = as_int(static_cast<typename xsimd::batch_bool<T, arch>::register_type>(m));
        const __m128i lo = _mm256_castsi256_si128(lanes);
        const __m128i hi = _mm256_extracti128_si256(lanes, 1);
        const __m128i one = _mm_set1_epi8(1);
        if constexpr (sizeof(T) == 1) {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                                _mm256_and_si256(lanes, _mm256_set1_epi8(1)));
        } else if constexpr (sizeof(T) == 2) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                             _mm_and_si128(_mm_packs_epi16(lo, hi), one));
        } else if constexpr (sizeof(T) == 4) {
            const __m128i words = _mm_packs_epi32(lo, hi);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out),
                             _mm_and_si128(_mm_packs_epi16(words, words), one));
        } else {
            simd::store_mask_bits(
                out, static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(lanes))), 4);
        }
    }

private:
    static __m128i narrowed(B<float> v) { return _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }
    static void stream(void* p, __m256 r) { _mm256_stream_ps(static_cast<float*>(p), r); }
    static void stream(void* p, __m256d r) { _mm256_stream_pd(static_cast<double*>(p), r); }
    static void stream(void* p, __m256i r) { _mm256_stream_si256(static_cast<__m256i*>(p), r); }
    static __m256i as_int(__m256 r) { return _mm256_castps_si256(r); }
    static __m256i as_int(__m256d r) { return _mm256_castpd_si256(r); }
    static __m256i as_int(__m256i r) { return r; }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA
