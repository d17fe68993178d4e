#include "reference_loops.hpp"

#include "write_pattern.hpp"

// One clone per vector ISA, chosen by the loader (ifunc): no -m flag needed,
// and the loops run at the widest vectors the CPU has.
#if defined(__x86_64__) && defined(__GNUC__)
#define ROOFLINE_BEST_ISA __attribute__((target_clones("avx512f", "avx2", "default")))
#define ROOFLINE_HAVE_CLONES 1
#else
#define ROOFLINE_BEST_ISA
#define ROOFLINE_HAVE_CLONES 0
#endif

namespace roofline {
namespace {

// Integer lanes wrap like the C API's integer ADD; the cast keeps -Wconversion
// quiet. Unrolled so that in-cache runs are bound by the load/store ports, not
// by loop overhead.
template <class T>
inline __attribute__((always_inline)) void add_loop(const T* __restrict a,
                                                    const T* __restrict b, T* __restrict y,
                                                    std::size_t n) {
#pragma GCC unroll 4
    for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<T>(a[i] + b[i]);
}

template <class T>
inline __attribute__((always_inline)) void add_scalar_loop(const T* __restrict a, T c,
                                                           T* __restrict y, std::size_t n) {
#pragma GCC unroll 4
    for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<T>(a[i] + c);
}

}  // namespace

ROOFLINE_BEST_ISA void reference_add(const float* a, const float* b, float* y, std::size_t n) {
    add_loop(a, b, y, n);
}
ROOFLINE_BEST_ISA void reference_add(const std::uint16_t* a, const std::uint16_t* b,
                                  std::uint16_t* y, std::size_t n) {
    add_loop(a, b, y, n);
}
ROOFLINE_BEST_ISA void reference_add(const std::int8_t* a, const std::int8_t* b, std::int8_t* y,
                                  std::size_t n) {
    add_loop(a, b, y, n);
}

ROOFLINE_BEST_ISA void reference_add_scalar(const float* a, float c, float* y, std::size_t n) {
    add_scalar_loop(a, c, y, n);
}
ROOFLINE_BEST_ISA void reference_add_scalar(const std::uint16_t* a, std::uint16_t c,
                                         std::uint16_t* y, std::size_t n) {
    add_scalar_loop(a, c, y, n);
}
ROOFLINE_BEST_ISA void reference_add_scalar(const std::int8_t* a, std::int8_t c, std::int8_t* y,
                                         std::size_t n) {
    add_scalar_loop(a, c, y, n);
}

ROOFLINE_BEST_ISA void reference_write(float* y, std::size_t n) {
    const float* __restrict p = kWritePattern.values;
    float* __restrict out = y;
    std::size_t i = 0;
    for (; i + kWritePatternLength <= n; i += kWritePatternLength) {
        for (std::size_t j = 0; j < kWritePatternLength; ++j) out[i + j] = p[j];
    }
    for (std::size_t j = 0; i + j < n; ++j) out[i + j] = p[j];
}

const char* reference_isa() {
#if ROOFLINE_HAVE_CLONES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return "avx512f";
    if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
    return "baseline";
}

}  // namespace roofline
