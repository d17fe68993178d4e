// Fuzzes strict partial-shape inference (bcast_infer_partial_shape,
// bcast_infer_partial_expand_shape) with the property of
// tests/partial_property.hpp: on every assignment that can matter, the
// returned conditions hold exactly when the static rule accepts, the output
// lies inside the inferred shape, and a refusal means nothing is accepted.
#include <bcast/bcast.h>

#include "fuzz_input.hpp"
#include "partial_property.hpp"

#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::Input in(data, size);
    const partial_property::Case c = partial_property::random_case(in);
    const partial_property::Outcome o = partial_property::check(c, 4000);
    if (!o.violation.empty()) std::fprintf(stderr, "%s\n", o.violation.c_str());
    FUZZ_CHECK(o.violation.empty());
    return 0;
}
