#include "reference_streaming.hpp"

#include "reference_loops.hpp"
#include "write_pattern.hpp"

// AVX2 through target attributes (no -m flag); callers check
// streaming_available() first.
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ROOFLINE_AVX2 __attribute__((target("avx2")))
#define ROOFLINE_HAVE_STREAMING 1
#else
#define ROOFLINE_HAVE_STREAMING 0
#endif

namespace roofline {

#if ROOFLINE_HAVE_STREAMING
namespace {

// Adds 32 bytes of lanes of one element type.
struct F32Lanes {
    ROOFLINE_AVX2 static __m256i add(__m256i x, __m256i y) {
        return _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y)));
    }
    ROOFLINE_AVX2 static __m256i splat(float c) { return _mm256_castps_si256(_mm256_set1_ps(c)); }
};
struct U16Lanes {
    ROOFLINE_AVX2 static __m256i add(__m256i x, __m256i y) { return _mm256_add_epi16(x, y); }
    ROOFLINE_AVX2 static __m256i splat(std::uint16_t c) {
        return _mm256_set1_epi16(static_cast<short>(c));
    }
};
struct I8Lanes {
    ROOFLINE_AVX2 static __m256i add(__m256i x, __m256i y) { return _mm256_add_epi8(x, y); }
    ROOFLINE_AVX2 static __m256i splat(std::int8_t c) { return _mm256_set1_epi8(c); }
};

constexpr std::size_t kVectorBytes = 32;
constexpr std::size_t kLineBytes = 64;

ROOFLINE_AVX2 __m256i load(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// Streaming stores only pay off for whole cache lines: a partly streamed line
// is flushed from the write-combining buffer as partial writes, which is
// slower than normal stores. So, as a real roofline loop at an unaligned
// output would: normal stores up to the first line boundary of y, whole lines
// streamed, the rest with normal stores. vector_at(i) gives the vector
// starting at y[i], scalar_at(i) the element y[i].
template <class T, class Vector, class Scalar>
ROOFLINE_AVX2 void stream_loop(T* y, std::size_t n, Vector vector_at, Scalar scalar_at) {
    static_assert(kLineBytes % sizeof(T) == 0 && kLineBytes == 2 * kVectorBytes);
    constexpr std::size_t lanes = kVectorBytes / sizeof(T);
    std::size_t i = 0;
    for (; i < n && reinterpret_cast<std::uintptr_t>(y + i) % kLineBytes; ++i) y[i] = scalar_at(i);
    // Two lines per iteration, all loads before the stores: when an input
    // sits a few bytes from the output modulo 4 KiB (operands at different
    // offsets), a load issued after a store to the same 4 KiB offset waits
    // for it (4K aliasing): the interleaved loop was 1.4x slower there.
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
        const __m256i v0 = vector_at(i), v1 = vector_at(i + lanes);
        const __m256i v2 = vector_at(i + 2 * lanes), v3 = vector_at(i + 3 * lanes);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i), v0);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i + lanes), v1);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i + 2 * lanes), v2);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i + 3 * lanes), v3);
    }
    for (; i + 2 * lanes <= n; i += 2 * lanes) {
        _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i), vector_at(i));
        _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i + lanes), vector_at(i + lanes));
    }
    for (; i < n; ++i) y[i] = scalar_at(i);
    _mm_sfence();  // streaming stores are weakly ordered
}

template <class Lanes, class T>
ROOFLINE_AVX2 void add_streaming(const T* a, const T* b, T* y, std::size_t n) {
    stream_loop(y, n, [=](std::size_t i) ROOFLINE_AVX2 { return Lanes::add(load(a + i), load(b + i)); },
                [=](std::size_t i) { return static_cast<T>(a[i] + b[i]); });
}

template <class Lanes, class T>
ROOFLINE_AVX2 void add_scalar_streaming(const T* a, T c, T* y, std::size_t n) {
    const __m256i vc = Lanes::splat(c);
    stream_loop(y, n, [=](std::size_t i) ROOFLINE_AVX2 { return Lanes::add(load(a + i), vc); },
                [=](std::size_t i) { return static_cast<T>(a[i] + c); });
}

}  // namespace

bool streaming_available() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

void reference_add_streaming(const float* a, const float* b, float* y, std::size_t n) {
    add_streaming<F32Lanes>(a, b, y, n);
}
void reference_add_streaming(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* y,
                             std::size_t n) {
    add_streaming<U16Lanes>(a, b, y, n);
}
void reference_add_streaming(const std::int8_t* a, const std::int8_t* b, std::int8_t* y,
                             std::size_t n) {
    add_streaming<I8Lanes>(a, b, y, n);
}
void reference_add_scalar_streaming(const float* a, float c, float* y, std::size_t n) {
    add_scalar_streaming<F32Lanes>(a, c, y, n);
}
void reference_add_scalar_streaming(const std::uint16_t* a, std::uint16_t c, std::uint16_t* y,
                                    std::size_t n) {
    add_scalar_streaming<U16Lanes>(a, c, y, n);
}
void reference_add_scalar_streaming(const std::int8_t* a, std::int8_t c, std::int8_t* y,
                                    std::size_t n) {
    add_scalar_streaming<I8Lanes>(a, c, y, n);
}

// kWritePattern holds the period twice, so the vector at any i % 64 is inside.
ROOFLINE_AVX2 void reference_write_streaming(float* y, std::size_t n) {
    const float* pattern = kWritePattern.values;
    stream_loop(y, n,
                [=](std::size_t i) ROOFLINE_AVX2 { return load(pattern + i % kWritePatternLength); },
                [=](std::size_t i) { return pattern[i % kWritePatternLength]; });
}

#else  // no AVX2 streaming stores on this target: never called

bool streaming_available() { return false; }
void reference_add_streaming(const float*, const float*, float*, std::size_t) {}
void reference_add_streaming(const std::uint16_t*, const std::uint16_t*, std::uint16_t*, std::size_t) {}
void reference_add_streaming(const std::int8_t*, const std::int8_t*, std::int8_t*, std::size_t) {}
void reference_add_scalar_streaming(const float*, float, float*, std::size_t) {}
void reference_add_scalar_streaming(const std::uint16_t*, std::uint16_t, std::uint16_t*, std::size_t) {}
void reference_add_scalar_streaming(const std::int8_t*, std::int8_t, std::int8_t*, std::size_t) {}
void reference_write_streaming(float*, std::size_t) {}

#endif

}  // namespace roofline
