// The AVX-512 policy for the shared SIMD loops (see simd/simd_codec.hpp):
// 512-bit xsimd::avx512bw batches, streaming stores, f16 through the AVX-512F
// conversions, and comparison masks (k registers) expanded to BOOL bytes.
#pragma once

// GCC 12's warnings about its own AVX-512 intrinsics are silenced by this
// ISA's flags (avx512/build.cmake).

#include "kernels/isa_namespace.hpp"
#include "kernels/simd/simd_codec.hpp"

#include <xsimd/xsimd.hpp>

#include <immintrin.h>

#include <cstdint>

namespace bcast::kernels::BCAST_KERNEL_ISA {
namespace {

struct Avx512Isa {
    using arch = xsimd::avx512bw;
    template <class T>
    using B = xsimd::batch<T, arch>;
    static constexpr bool kHasF16 = true;
    // Paired f16 stores (64-byte streaming stores) measured (16M)+() f16 at
    // 0.92x the reference against 1.04x, but a 32-element step made
    // (16)+(16) f16 a padded partial step: 25 ns -> 31 ns per call.
    static constexpr bool kPairsF16Steps = false;

    template <bool NT, class T>
    static void put(T* p, B<T> v) {
        if constexpr (NT) stream(p, static_cast<typename B<T>::register_type>(v));
        else v.store_unaligned(p);
    }
    static void fence() { _mm_sfence(); }

    // Exact widening; narrowing with an explicit round to nearest even, NaNs
    // quieted with their top payload kept, as half.hpp's f32_to_f16.
    static B<float> load_f16(const std::uint16_t* p) {
        return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    template <bool NT>
    static void store_f16(std::uint16_t* p, B<float> v) {
        const __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
        if constexpr (NT) _mm256_stream_si256(reinterpret_cast<__m256i*>(p), h);
        else _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), h);
    }

    // One mask bit per lane: a byte of 1 where set, 0 elsewhere.
    template <class T>
    static void store_bools(std::uint8_t* out, xsimd::batch_bool<T, arch> m) {
        constexpr std::size_t lanes = xsimd::batch_bool<T, arch>::size;
        const auto bits = static_cast<typename xsimd::batch_bool<T, arch>::register_type>(m);
        if constexpr (lanes == 64) {
            _mm512_storeu_si512(out, _mm512_maskz_set1_epi8(bits, 1));
        } else if constexpr (lanes == 32) {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_maskz_set1_epi8(bits, 1));
        } else if constexpr (lanes == 16) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_maskz_set1_epi8(bits, 1));
        } else {
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_maskz_set1_epi8(bits, 1));
        }
    }

private:
    static void stream(void* p, __m512 r) { _mm512_stream_ps(static_cast<float*>(p), r); }
    static void stream(void* p, __m512d r) { _mm512_stream_pd(static_cast<double*>(p), r); }
    static void stream(void* p, __m512i r) { _mm512_stream_si512(static_cast<__m512i*>(p), r); }
};

}  // namespace
}  // namespace bcast::kernels::BCAST_KERNEL_ISA
