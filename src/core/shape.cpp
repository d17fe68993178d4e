#include "core/shape.hpp"

#include "core/error.hpp"

namespace bcast {

bool Shape::operator==(const Shape& o) const {
    if (rank != o.rank) return false;
    for (std::size_t i = 0; i < rank; ++i)
        if (dims[i] != o.dims[i]) return false;
    return true;
}

Shape make_shape(std::size_t rank, const int64_t* dims, const char* what) {
    const std::string who = what ? what : "shape";
    // Rank first: nothing is read from dims before the rank is known to fit.
    if (rank > kMaxRank)
        fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": rank " + std::to_string(rank) +
                                               " exceeds the maximum of " +
                                               std::to_string(kMaxRank));
    if (rank > 0 && dims == nullptr)
        fail(BCAST_ERROR_INVALID_ARGUMENT,
             who + ": dims is NULL but the rank is " + std::to_string(rank));
    Shape s;
    s.rank = rank;
    for (std::size_t i = 0; i < rank; ++i) {
        if (dims[i] < 0)
            fail(BCAST_ERROR_INVALID_ARGUMENT, who + ": axis " + std::to_string(i) +
                                                   " has negative extent " +
                                                   std::to_string(dims[i]));
        s.dims[i] = dims[i];
    }
    return s;
}

std::string to_string(const Shape& s) {
    std::string text = "(";
    for (std::size_t i = 0; i < s.rank; ++i) {
        if (i) text += ',';
        text += std::to_string(s.dims[i]);
    }
    return text + ')';
}

int64_t element_count(const Shape& s) {
    // A zero extent makes the tensor empty however large the other extents
    // are, so it is not an overflow (numpy agrees: (2**62, 2**62, 0) has 0).
    for (std::size_t i = 0; i < s.rank; ++i)
        if (s.dims[i] == 0) return 0;
    int64_t count = 1;
    for (std::size_t i = 0; i < s.rank; ++i) {
        if (__builtin_mul_overflow(count, s.dims[i], &count))
            fail(BCAST_ERROR_SIZE_OVERFLOW,
                 "element count of shape " + to_string(s) + " overflows int64");
    }
    return count;
}

std::vector<Shape> make_input_shapes(std::size_t num_inputs, const std::size_t* ranks,
                                     const int64_t* const* dims) {
    if (!ranks || !dims) fail(BCAST_ERROR_INVALID_ARGUMENT, "ranks or dims is NULL");
    std::vector<Shape> shapes(num_inputs);
    for (std::size_t i = 0; i < num_inputs; ++i) {
        const std::string what = "input " + std::to_string(i);
        shapes[i] = make_shape(ranks[i], dims[i], what.c_str());
    }
    return shapes;
}

}  // namespace bcast
