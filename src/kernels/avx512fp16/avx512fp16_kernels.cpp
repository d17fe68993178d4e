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
// Same results as the portable kernels, bit for bit, in the default
// rounding mode: f32 has more than 2 * 11 + 2 significand bits, so an f16
// +, -, * or / computed in f32 and rounded to nearest f16 is the correctly
// rounded f16 result, which is what vaddph and its siblings return (neither
// path flushes f16 subnormals; any NaN stays a NaN). Under another MXCSR
// rounding mode the two differ (the f32 path rounds in that mode, then to
// nearest), so every call checks the mode and otherwise runs the avx512
// table's F16C kernels.
// BCAST_KERNEL_ISA (avx512fp16: this file's namespace) comes from its object
// library's definitions (src/CMakeLists.txt).
#include "kernels/avx512/avx512_isa.hpp"
#include "kernels/simd/isa_kernels.hpp"
#include "kernels/simd/simd_table.hpp"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

namespace bcast::kernels::avx512fp16 {
namespace {

// The shared loops carry f16 as uint16_t batches; the op reinterprets them.
template <bcast_opcode Code, __m512h (*Native)(__m512h, __m512h)>
struct HalfOp {
    static constexpr bcast_opcode kOpcode = Code;
    template <class T, class A> static constexpr bool accepts = std::is_same_v<T, std::uint16_t>;
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

using Add = HalfOp<BCAST_OP_ADD, &add>;
using Sub = HalfOp<BCAST_OP_SUB, &sub>;
using Mul = HalfOp<BCAST_OP_MUL, &mul>;
using Div = HalfOp<BCAST_OP_DIV, &div>;

// MXCSR's rounding-control bits (13-14) are 0 for round to nearest even.
bool rounds_to_nearest() { return (_mm_getcsr() & 0x6000u) == 0; }

// Float + - * /: no exchanged op (op_info.hpp), so every slot.
template <class Op>
const OpKernels& native_kernels() {
    static_assert(exchanged_op(Op::kOpcode, BCAST_DTYPE_F16) < 0, "the plan never exchanges these");
    return simd::kBinaryKernels<Avx512Isa, Op, simd::PlainCodec<Avx512Isa, std::uint16_t>, true>;
}

// A slot of the table: the native kernel, or in another rounding mode the
// avx512 table's F16C one (same slot, same arguments).
template <class Op, auto Slot, class Fn>
struct Guarded;
template <class Op, auto Slot, class... Args>
struct Guarded<Op, Slot, void (*)(Args...)> {
    static void run(Args... args) {
        const OpKernels& k = rounds_to_nearest()
                                 ? native_kernels<Op>()
                                 : *avx512::kernels(Op::kOpcode, BCAST_DTYPE_F16);
        (k.*Slot)(args...);
    }
};

template <class Op, auto Slot>
constexpr auto guarded() {
    using Fn = std::remove_cv_t<std::remove_reference_t<decltype(OpKernels{}.*Slot)>>;
    return &Guarded<Op, Slot, Fn>::run;
}

template <class Op>
constexpr OpKernels make_guarded_kernels() {
    OpKernels k;
    k.vv = guarded<Op, &OpKernels::vv>();
    k.vs = guarded<Op, &OpKernels::vs>();
    k.sv = guarded<Op, &OpKernels::sv>();
    k.periodic_y = guarded<Op, &OpKernels::periodic_y>();
    k.periodic_x = guarded<Op, &OpKernels::periodic_x>();
    k.vv2d = guarded<Op, &OpKernels::vv2d>();
    k.vs2d = guarded<Op, &OpKernels::vs2d>();
    k.sv2d = guarded<Op, &OpKernels::sv2d>();
    return k;
}

template <class Op>
inline constexpr OpKernels kGuardedKernels = make_guarded_kernels<Op>();

}  // namespace

const OpKernels* kernels(bcast_opcode kernel_op, bcast_dtype dtype) {
    if (dtype != BCAST_DTYPE_F16) return nullptr;
    switch (kernel_op) {
        case BCAST_OP_ADD: return &kGuardedKernels<Add>;
        case BCAST_OP_SUB: return &kGuardedKernels<Sub>;
        case BCAST_OP_MUL: return &kGuardedKernels<Mul>;
        case BCAST_OP_DIV: return &kGuardedKernels<Div>;
        default: return nullptr;
    }
}

}  // namespace bcast::kernels::avx512fp16
