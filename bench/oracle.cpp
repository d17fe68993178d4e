#include "oracle.hpp"

#include "small_half.hpp"

#include <cstring>
#include <vector>

namespace bench {
namespace {

// Element strides of `dims` right-aligned into `out`, 0 where it broadcasts.
std::vector<std::int64_t> broadcast_strides(const Dims& dims, const Dims& out) {
    std::vector<std::int64_t> strides(out.size(), 0);
    std::int64_t stride = 1;
    for (std::size_t k = 0; k < dims.size(); ++k) {
        const std::size_t axis_in = dims.size() - 1 - k;
        const std::size_t axis_out = out.size() - 1 - k;
        strides[axis_out] = dims[axis_in] == 1 ? 0 : stride;
        stride *= dims[axis_in];
    }
    return strides;
}

// Integer sums wrap like the C API's; these inputs never reach the wrap.
template <class T>
T add(T x, T y) {
    return static_cast<T>(x + y);
}

template <class T>
std::string check_typed(const Case& c, const Operands& operands) {
    const Dims out_dims = numpy_output_shape(c.a, c.b_as_numpy);
    const std::vector<std::int64_t> sa = broadcast_strides(c.a, out_dims);
    const std::vector<std::int64_t> sb = broadcast_strides(c.b_as_numpy, out_dims);
    const T* a = operands.a.as<const T>();
    const T* b = operands.b.as<const T>();
    const T* out = operands.out.as<const T>();
    std::vector<std::int64_t> index(out_dims.size(), 0);
    std::int64_t ia = 0, ib = 0;
    for (std::int64_t i = 0; i < operands.out_count; ++i) {
        const T expected = add(a[ia], b[ib]);
        if (std::memcmp(&expected, &out[i], sizeof(T)) != 0) {
            return "output element " + std::to_string(i) + " is " +
                   std::to_string(static_cast<double>(out[i])) + ", expected " +
                   std::to_string(static_cast<double>(expected));
        }
        // Odometer step, innermost axis first.
        for (std::size_t k = out_dims.size(); k-- > 0;) {
            ia += sa[k];
            ib += sb[k];
            if (++index[k] < out_dims[k]) break;
            ia -= sa[k] * out_dims[k];
            ib -= sb[k] * out_dims[k];
            index[k] = 0;
        }
    }
    return "";
}

}  // namespace

std::string check_output(const Case& c, const Operands& operands) {
    switch (c.dtype) {
        case BCAST_DTYPE_F32: return check_typed<float>(c, operands);
        case BCAST_DTYPE_F16: return check_typed<SmallHalf>(c, operands);
        case BCAST_DTYPE_I8: return check_typed<std::int8_t>(c, operands);
        default: return "no oracle for this dtype";
    }
}

void poison_output(Operands& operands) {
    // 0x80 bytes: -128 in i8, a tiny negative subnormal in f16 and f32; every
    // sum here is an integer from -15 to 78.
    std::memset(operands.out.data(), 0x80, operands.out.bytes());
}

}  // namespace bench
