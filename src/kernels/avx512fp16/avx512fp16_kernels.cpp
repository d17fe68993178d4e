// f16 + - * / in native half precision (AVX512-FP16), for CPUs that have it
// on top of the AVX-512 level: dispatch.cpp puts these slots in front of
// the avx512 table's own (which convert through F16C). Built with its own
// flags (the avx512 ones and -mavx512fp16); its code runs only once
// cpu::cpu_features() has reported avx512fp16.
//
// Why: (64K)+(64K) f16 in L2 was 1.3x-1.5x of the memory reference, bound by
// two vcvtph2ps and one vcvtps2ph per 16 elements on the two vector ports.
// vaddph does 32 elements in one instruction.
//
// Same results as the portable kernels, bit for bit: f32 has more than
// 2 * 11 + 2 significand bits, so computing an f16 +, -, * or / in f32 and
// rounding once to f16 gives the correctly rounded f16 result, which is
// what vaddph and its siblings return (same rounding mode, MXCSR's; neither
// path flushes f16 subnormals). Any NaN stays a NaN.
#define BCAST_KERNEL_ISA avx512fp16  // before any kernel header: this ISA's namespace
// GCC 12 warns that the _mm512_undefined_* inside its own intrinsics are
// used uninitialized (GCC bug 105593, fixed in GCC 13): silenced here as in
// avx512_kernels.cpp.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "kernels/avx512/avx512_isa.hpp"
#include "kernels/simd/isa_kernels.hpp"
#include "kernels/simd/simd_table.hpp"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

namespace bcast::kernels::avx512fp16 {
namespace {

// The shared loops carry f16 as uint16_t batches; the op reinterprets them.
template <__m512h (*Native)(__m512h, __m512h)>
struct HalfOp {
    template <class T> static constexpr bool accepts = std::is_same_v<T, std::uint16_t>;
    template <class T, class A>
    static xsimd::batch<T, A> apply(xsimd::batch<T, A> x, xsimd::batch<T, A> y) {
        const __m512h r = Native(_mm512_castsi512_ph(x), _mm512_castsi512_ph(y));
        return _mm512_castph_si512(r);
    }
};

__m512h add(__m512h x, __m512h y) { return _mm512_add_ph(x, y); }
__m512h sub(__m512h x, __m512h y) { return _mm512_sub_ph(x, y); }
__m512h mul(__m512h x, __m512h y) { return _mm512_mul_ph(x, y); }
__m512h div(__m512h x, __m512h y) { return _mm512_div_ph(x, y); }

template <class Op>
const OpKernels* half_kernels() {
    return simd::binary_entry<Avx512Isa, Op, simd::PlainCodec<Avx512Isa, std::uint16_t>>();
}

}  // namespace

const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    if (dtype != BCAST_DTYPE_F16) return nullptr;
    switch (kernel_op) {
        case BCAST_OP_ADD: return half_kernels<HalfOp<&add>>();
        case BCAST_OP_SUB: return half_kernels<HalfOp<&sub>>();
        case BCAST_OP_MUL: return half_kernels<HalfOp<&mul>>();
        case BCAST_OP_DIV: return half_kernels<HalfOp<&div>>();
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::avx512fp16
