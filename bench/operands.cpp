#include "operands.hpp"

#include "small_half.hpp"

#include <algorithm>

namespace bench {
namespace {

// Values whose sums are exact in f32, f16 and i8 (no rounding, no wrap).
float a_value(std::int64_t i) { return static_cast<float>(i % 64); }
float b_value(std::int64_t i) { return static_cast<float>(i % 31 - 15); }

template <class T>
void fill(void* data, std::int64_t count, float (*value)(std::int64_t)) {
    T* p = static_cast<T*>(data);
    for (std::int64_t i = 0; i < count; ++i) p[i] = static_cast<T>(value(i));
}

void fill_dtype(bcast_dtype dtype, void* data, std::int64_t count,
                float (*value)(std::int64_t)) {
    switch (dtype) {
        case BCAST_DTYPE_F32: fill<float>(data, count, value); break;
        case BCAST_DTYPE_F16: fill<SmallHalf>(data, count, value); break;
        case BCAST_DTYPE_I8: fill<std::int8_t>(data, count, value); break;
        default: break;
    }
}

std::size_t bytes_of(std::int64_t count, std::size_t element_size) {
    return static_cast<std::size_t>(count) * element_size;
}

}  // namespace

Dims numpy_output_shape(const Dims& a, const Dims& b) {
    const std::size_t rank = std::max(a.size(), b.size());
    Dims out(rank, 1);
    for (std::size_t k = 0; k < rank; ++k) {
        const std::int64_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
        const std::int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
        out[rank - 1 - k] = da == 1 ? db : da;
    }
    return out;
}

Operands::Operands(const Case& c, const OffsetLayout& layout)
    : element_size(bcast_dtype_size(c.dtype)),
      a_count(element_count(c.a)),
      b_count(element_count(c.b)),
      out_count(element_count(numpy_output_shape(c.a, c.b_as_numpy))),
      a(bytes_of(a_count, element_size), layout.a),
      b(bytes_of(b_count, element_size), layout.b),
      out(bytes_of(out_count, element_size), layout.out) {
    fill_dtype(c.dtype, a.data(), a_count, a_value);
    fill_dtype(c.dtype, b.data(), b_count, b_value);
}

double Operands::bytes_moved() const {
    return static_cast<double>(element_size) *
           static_cast<double>(a_count + b_count + out_count);
}

}  // namespace bench
