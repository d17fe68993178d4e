// Portable quantization kernels: the element definitions of
// kernels/quantize.hpp in plain loops, the reference the ISA kernels are
// tested against, and the fallback for strided operands.
#include "kernels/quantize.hpp"

namespace bcast::kernels {
namespace {

template <class Q>
void dequantize(std::size_t n, const void* q, std::ptrdiff_t stride, float* out, const QuantParams& p) {
    const auto* in = static_cast<const Q*>(q);
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = dequantize_one(in[static_cast<std::ptrdiff_t>(i) * stride], p);
    }
}

template <class Q>
void quantize(std::size_t n, const float* v, void* q, std::ptrdiff_t stride, const QuantParams& p) {
    auto* out = static_cast<Q*>(q);
    for (std::size_t i = 0; i < n; ++i) {
        out[static_cast<std::ptrdiff_t>(i) * stride] = static_cast<Q>(quantize_one(v[i], p));
    }
}

constexpr QuantKernels kU8{&dequantize<uint8_t>, &quantize<uint8_t>};
constexpr QuantKernels kI8{&dequantize<int8_t>, &quantize<int8_t>};

}  // namespace

const QuantKernels* portable_quant_kernels(bcast_dtype dtype) {
    switch (dtype) {
        case BCAST_DTYPE_U8: return &kU8;
        case BCAST_DTYPE_I8: return &kI8;
        default: return nullptr;
    }
}

}  // namespace bcast::kernels
