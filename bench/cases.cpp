#include "cases.hpp"

#include <algorithm>

namespace bench {
namespace {

constexpr std::int64_t K = 1024;
constexpr std::int64_t M = 1024 * 1024;

Case numpy_case(bcast_dtype dtype, Dims a, Dims b, Reference reference) {
    Case c;
    c.label = shape_label(a) + "+" + shape_label(b);
    c.dtype = dtype;
    c.b_as_numpy = b;
    c.a = std::move(a);
    c.b = std::move(b);
    c.reference = reference;
    return c;
}

}  // namespace

std::vector<Case> benchmark_cases() {
    using R = Reference;
    std::vector<Case> cases;
    const auto add_first_four = [&cases](bcast_dtype dtype) {
        // Same shape: reads a and b, writes y, all of equal size.
        cases.push_back(numpy_case(dtype, {16 * M}, {16 * M}, R::AddStreams));
        cases.push_back(numpy_case(dtype, {64 * K}, {64 * K}, R::AddStreams));
        cases.push_back(numpy_case(dtype, {16}, {16}, R::AddStreams));
        // Scalar b: reads a, writes y.
        cases.push_back(numpy_case(dtype, {16 * M}, {}, R::ScalarStream));
    };
    const bcast_dtype f32 = BCAST_DTYPE_F32;
    add_first_four(f32);
    // Per-channel b (64 values, stays in L1): reads a, writes y.
    cases.push_back(numpy_case(f32, {8, 64, 112, 112}, {1, 64, 1, 1}, R::ScalarStream));
    // A 64-value row repeated over every pixel: reads a, writes y.
    cases.push_back(numpy_case(f32, {8, 112, 112, 64}, {64}, R::ScalarStream));
    // Per-channel b over 7x7 planes (cache-resident): reads a, writes y.
    cases.push_back(numpy_case(f32, {1, 512, 7, 7}, {1, 512, 1, 1}, R::ScalarStream));
    // A few MiB, cache-resident: where a second thread pays the most.
    cases.push_back(numpy_case(f32, {256 * K}, {256 * K}, R::AddStreams));
    cases.push_back(numpy_case(f32, {1, 256, 56, 56}, {1, 256, 1, 1}, R::ScalarStream));
    // Row broadcast (16 KiB row in L1): reads a, writes y.
    cases.push_back(numpy_case(f32, {4096, 4096}, {4096}, R::ScalarStream));
    // Column broadcast (one b per row): reads a, writes y.
    cases.push_back(numpy_case(f32, {4096, 4096}, {4096, 1}, R::ScalarStream));
    // Outer product: 32 KiB of inputs, 64 MiB written: write-mostly.
    cases.push_back(numpy_case(f32, {4096, 1}, {1, 4096}, R::WriteMostly));
    // Short periodic rows (b has 3 or 7 values): reads a, writes y.
    cases.push_back(numpy_case(f32, {4 * M, 3}, {3}, R::ScalarStream));
    cases.push_back(numpy_case(f32, {1 * M, 7}, {1, 7}, R::ScalarStream));
    cases.push_back(numpy_case(f32, {1, 112, 112, 3}, {3}, R::ScalarStream));
    // Two-sided: 1 MiB of a and 256 B of b make 64 MiB of output: write-mostly.
    cases.push_back(numpy_case(f32, {64, 1, 4096}, {1, 64, 1}, R::WriteMostly));
    // PDPD: b (64,1) goes in at axis 1, i.e. numpy's (1,64,1,1): reads a, writes y.
    Case pdpd = numpy_case(f32, {8, 64, 112, 112}, {64, 1}, R::ScalarStream);
    pdpd.rule = BCAST_RULE_PDPD;
    pdpd.axis = 1;
    pdpd.b_as_numpy = {1, 64, 1, 1};
    pdpd.label += " pdpd axis 1";
    cases.push_back(pdpd);
    add_first_four(BCAST_DTYPE_F16);
    add_first_four(BCAST_DTYPE_I8);
    return cases;
}

Case shrunk(const Case& c, std::int64_t cap) {
    Case s = c;
    for (Dims* dims : {&s.a, &s.b, &s.b_as_numpy}) {
        for (std::int64_t& d : *dims) d = std::min(d, cap);
    }
    return s;
}

const char* dtype_name(bcast_dtype dtype) {
    switch (dtype) {
        case BCAST_DTYPE_F32: return "f32";
        case BCAST_DTYPE_F16: return "f16";
        case BCAST_DTYPE_I8: return "i8";
        default: return "?";
    }
}

const char* reference_name(Reference reference) {
    switch (reference) {
        case Reference::AddStreams: return "y=a+b";
        case Reference::ScalarStream: return "y=a+c";
        case Reference::WriteMostly: return "y=p[i%64]";
    }
    return "?";
}

std::string shape_label(const Dims& dims) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ",";
        const std::int64_t d = dims[i];
        if (d >= 64 * K && d % M == 0) {
            s += std::to_string(d / M) + "M";
        } else if (d >= 64 * K && d % K == 0) {
            s += std::to_string(d / K) + "K";
        } else {
            s += std::to_string(d);
        }
    }
    return s + ")";
}

std::string dims_csv(const Dims& dims) {
    std::string s;
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
    return s;
}

std::int64_t element_count(const Dims& dims) {
    std::int64_t n = 1;
    for (std::int64_t d : dims) n *= d;
    return n;
}

}  // namespace bench
