// The memory of one case: inputs filled with small exact values (every sum is
// exact in the case's dtype), output allocated; each at its layout's offset
// from a 64-byte boundary (default: aligned), every page touched.
#pragma once

#include "cases.hpp"
#include "offset_buffer.hpp"
#include "offset_layouts.hpp"

namespace bench {

struct Operands {
    explicit Operands(const Case& c, const OffsetLayout& layout = {});

    std::size_t element_size;
    std::int64_t a_count, b_count, out_count;
    OffsetBuffer a, b, out;

    // Bytes read and written, counting each input once and the output once.
    double bytes_moved() const;
};

// Numpy broadcast of two shapes (the oracle's own, independent of bcast).
Dims numpy_output_shape(const Dims& a, const Dims& b);

}  // namespace bench
