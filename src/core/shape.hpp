// Fixed-capacity shapes: no allocation, so plans copy cheaply and execute
// never touches the heap.
#pragma once

#include <bcast/bcast.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bcast {

constexpr std::size_t kMaxRank = BCAST_MAX_RANK;
constexpr std::size_t kMaxInputs = BCAST_MAX_INPUTS;

struct Shape {
    std::size_t rank = 0;
    std::array<int64_t, kMaxRank> dims{};

    int64_t operator[](std::size_t i) const { return dims[i]; }
    int64_t& operator[](std::size_t i) { return dims[i]; }
    bool operator==(const Shape& o) const;
    bool operator!=(const Shape& o) const { return !(*this == o); }
};

// Builds a Shape from a caller's (rank, dims); validates rank <= kMaxRank,
// dims != NULL when rank > 0 and every extent >= 0 (INVALID_ARGUMENT otherwise).
// `what` names the operand in messages, e.g. "input 1".
Shape make_shape(std::size_t rank, const int64_t* dims, const char* what);

// The caller's num_inputs (ranks[i], dims[i]) pairs as Shapes named "input i";
// INVALID_ARGUMENT for NULL arrays or any bad shape.
std::vector<Shape> make_input_shapes(std::size_t num_inputs, const std::size_t* ranks,
                                     const int64_t* const* dims);

// "(2,3,5)"; "()" for rank 0.
std::string to_string(const Shape& s);

// Product of the extents; SIZE_OVERFLOW if it does not fit in int64_t.
int64_t element_count(const Shape& s);

}  // namespace bcast
