// The memory of one case: inputs filled with small exact values (every sum is
// exact in the case's dtype), output allocated; all 64-byte aligned and touched.
#pragma once

#include "aligned_buffer.hpp"
#include "cases.hpp"

namespace bench {

struct Operands {
    explicit Operands(const Case& c);

    std::size_t element_size;
    std::int64_t a_count, b_count, out_count;
    AlignedBuffer a, b, out;

    // Bytes read and written, counting each input once and the output once.
    double bytes_moved() const;
};

// Numpy broadcast of two shapes (the oracle's own, independent of bcast).
Dims numpy_output_shape(const Dims& a, const Dims& b);

}  // namespace bench
