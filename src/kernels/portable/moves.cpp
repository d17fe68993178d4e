// Portable kernels that move elements without looking at them: COPY (copy,
// fill, strided) and SELECT. They work on element bytes, so dtypes of one size
// share a kernel, a NaN payload or a non-0/1 BOOL byte is copied as is, and
// f16/bf16 never go through f32.
#include "kernels/portable/loops.hpp"

#include "core/op_info.hpp"

#include <cstring>

namespace bcast::kernels::portable {
namespace {

// Element i of a strided byte operand of Size-byte elements.
template <std::size_t Size, class Byte>
Byte* elem(Byte* base, std::size_t i, std::ptrdiff_t stride) {
    return base + static_cast<std::ptrdiff_t>(i) * stride * static_cast<std::ptrdiff_t>(Size);
}

template <std::size_t Size>
void copy(std::size_t n, const void* x, void* out, Stores /*stores*/) {
    // memmove: out == x (in place) is allowed. n == 0 may come with NULLs.
    if (n != 0) std::memmove(out, x, n * Size);
}

template <std::size_t Size>
void fill(std::size_t n, const void* x, void* out, Stores /*stores*/) {
    if (n == 0) return;
    unsigned char value[Size];
    std::memcpy(value, x, Size);  // x may be inside out
    auto* o = static_cast<unsigned char*>(out);
    for (std::size_t i = 0; i < n; ++i) std::memcpy(o + i * Size, value, Size);
}

template <std::size_t Size>
void strided_copy(std::size_t n, std::size_t /*num_inputs*/, const void* const* in,
                  const std::ptrdiff_t* in_strides, void* out, std::ptrdiff_t out_stride) {
    const auto* x = static_cast<const unsigned char*>(in[0]);
    auto* o = static_cast<unsigned char*>(out);
    for (std::size_t i = 0; i < n; ++i)
        std::memmove(elem<Size>(o, i, out_stride), elem<Size>(x, i, in_strides[0]), Size);
}

// in[0] is the BOOL condition (any non-zero byte is true); in[1], in[2] are x, y.
template <std::size_t Size>
void strided_select(std::size_t n, std::size_t /*num_inputs*/, const void* const* in,
                    const std::ptrdiff_t* in_strides, void* out, std::ptrdiff_t out_stride) {
    const auto* cond = static_cast<const unsigned char*>(in[0]);
    const auto* x = static_cast<const unsigned char*>(in[1]);
    const auto* y = static_cast<const unsigned char*>(in[2]);
    auto* o = static_cast<unsigned char*>(out);
    for (std::size_t i = 0; i < n; ++i) {
        const bool c = *elem<1>(cond, i, in_strides[0]) != 0;
        const unsigned char* src =
            c ? elem<Size>(x, i, in_strides[1]) : elem<Size>(y, i, in_strides[2]);
        std::memmove(elem<Size>(o, i, out_stride), src, Size);
    }
}

template <std::size_t Size>
constexpr OpKernels make_copy_kernels() {
    OpKernels k;
    k.copy = &copy<Size>;
    k.fill = &fill<Size>;
    k.strided = &strided_copy<Size>;
    return k;
}

template <std::size_t Size>
constexpr OpKernels make_select_kernels() {
    OpKernels k;
    k.strided = &strided_select<Size>;
    return k;
}

constexpr OpKernels kCopy[] = {make_copy_kernels<1>(), make_copy_kernels<2>(),
                               make_copy_kernels<4>(), make_copy_kernels<8>()};
constexpr OpKernels kSelect[] = {make_select_kernels<1>(), make_select_kernels<2>(),
                                 make_select_kernels<4>(), make_select_kernels<8>()};

// 1, 2, 4, 8 bytes -> 0, 1, 2, 3; -1 for anything else.
int size_index(std::size_t size) {
    switch (size) {
        case 1: return 0;
        case 2: return 1;
        case 4: return 2;
        case 8: return 3;
        default: return -1;
    }
}

}  // namespace

const OpKernels* copy_kernels(bcast_dtype dt) {
    const int index = size_index(dtype_size(dt));
    return index < 0 ? nullptr : &kCopy[index];
}

const OpKernels* select_kernels(bcast_dtype dt) {
    const int index = size_index(dtype_size(dt));
    return index < 0 ? nullptr : &kSelect[index];
}

}  // namespace bcast::kernels::portable
