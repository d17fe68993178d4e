// The benchmark matrix of issue "bcast fast" (shapes in numpy order), with the
// roofline reference each case is compared with.
#pragma once

#include <bcast/bcast.h>

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

using Dims = std::vector<std::int64_t>;

// A plain streaming loop with the same bytes read and written as the case.
enum class Reference {
    AddStreams,    // y[i] = a[i] + b[i]: two big reads, one big write
    ScalarStream,  // y[i] = a[i] + c: one big read, one big write
    WriteMostly    // y[i] = p[i % 64], p in L1: one big write
};

struct Case {
    std::string label;  // e.g. "(16M)+(16M)", named after the full-size shapes
    bcast_dtype dtype;
    Dims a, b;
    bcast_rule rule = BCAST_RULE_NUMPY;
    std::int64_t axis = -1;
    Dims b_as_numpy;  // where b lands under numpy rules (the oracle's view)
    Reference reference;
};

// The full matrix: f32 for every case, plus f16 and i8 rows of the first four.
std::vector<Case> benchmark_cases();

// The same case with every extent above `cap` lowered to `cap`, which keeps the
// broadcast structure (1 stays 1, equal extents stay equal) at a tiny size.
Case shrunk(const Case& c, std::int64_t cap);

const char* dtype_name(bcast_dtype dtype);    // "f32", "f16", "i8"
const char* reference_name(Reference reference);
std::string shape_label(const Dims& dims);    // "(4M,3)"
std::string dims_csv(const Dims& dims);       // "4194304,3" ("" for a scalar)
std::int64_t element_count(const Dims& dims);

}  // namespace bench
