// Shapes (src/core/shape.cpp) and broadcast rules (src/rules): every example
// of the spec documents, every rule's refusals (status and message), the
// framework quirks that decisions.md settles, and seeded random comparisons
// against small oracles written independently of src/rules.
#include "core/error.hpp"
#include "core/shape.hpp"
#include "rules/rules.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using bcast::Error;
using bcast::Shape;
using bcast::rules::Resolution;
using Dims = std::vector<int64_t>;

namespace Catch {
template <>
struct StringMaker<bcast::Shape> {
    static std::string convert(const bcast::Shape& s) { return bcast::to_string(s); }
};
}  // namespace Catch

namespace {

Shape sh(const Dims& d) {
    Shape s;
    s.rank = d.size();
    for (std::size_t i = 0; i < d.size(); ++i) s.dims[i] = d[i];
    return s;
}

// Every input axis of extent != 1 must run along an output axis of the same
// extent; extent-1 axes may be dropped (-1). Unless `shared` (EXPLICIT), the
// placed axes of one input are strictly increasing.
void check_placements(const Resolution& r, const Shape* in, std::size_t n, bool shared) {
    REQUIRE(r.num_inputs == n);
    for (std::size_t j = 0; j < n; ++j) {
        int last = -1;
        for (std::size_t i = 0; i < in[j].rank; ++i) {
            const int a = r.inputs[j].out_axis[i];
            INFO("input " << j << " axis " << i << " -> " << a << ", out " << to_string(r.out));
            REQUIRE(a >= -1);
            REQUIRE(a < static_cast<int>(r.out.rank));
            if (in[j][i] != 1) {
                REQUIRE(a >= 0);
                CHECK(r.out[static_cast<std::size_t>(a)] == in[j][i]);
            }
            if (a >= 0 && !shared) {
                CHECK(a > last);
                last = a;
            }
        }
    }
}

Resolution res(bcast_rule rule, const std::vector<Shape>& in, int64_t axis = -1,
               std::size_t primary = 0) {
    Resolution r = bcast::rules::resolve(rule, axis, in.data(), in.size(), primary);
    check_placements(r, in.data(), in.size(), false);
    return r;
}

Shape out(bcast_rule rule, const std::vector<Dims>& in, int64_t axis = -1) {
    std::vector<Shape> shapes;
    for (const Dims& d : in) shapes.push_back(sh(d));
    return res(rule, shapes, axis).out;
}

Resolution expand(bcast_expand_mode mode, const Dims& data, const Dims& target,
                  const Dims& axes = {}, int64_t axis = -1) {
    const Shape d = sh(data);
    Resolution r = bcast::rules::resolve_expand(mode, d, sh(target),
                                                axes.empty() ? nullptr : axes.data(),
                                                axes.size(), axis);
    check_placements(r, &d, 1, mode == BCAST_EXPAND_EXPLICIT);
    return r;
}

template <class F>
Error error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected a bcast::Error, got success");
    throw std::logic_error("unreachable");
}

}  // namespace

// Refused with `status`, and the message contains every listed part.
#define CHECK_REFUSED(expr, want_status, ...)                                     \
    do {                                                                          \
        const Error err_ = error_of([&] { (void)(expr); });                      \
        INFO("message: " << err_.what());                                         \
        CHECK(err_.status() == (want_status));                                    \
        for (const char* part_ : {__VA_ARGS__})                                   \
            CHECK_THAT(std::string(err_.what()), Catch::Matchers::Contains(part_)); \
    } while (0)

constexpr bcast_status kInvalid = BCAST_ERROR_INVALID_ARGUMENT;
constexpr bcast_status kIncompatible = BCAST_ERROR_INCOMPATIBLE_SHAPES;

// ---------------------------------------------------------------------------
// Shape
// ---------------------------------------------------------------------------

TEST_CASE("make_shape validates rank, NULL dims and extents", "[shape]") {
    const Dims d32(32, 1), d33(33, 1);
    CHECK(bcast::make_shape(32, d32.data(), "input 0").rank == 32);
    CHECK_REFUSED(bcast::make_shape(33, d33.data(), "input 1"), kInvalid,
                  "input 1: rank 33 exceeds the maximum of 32");
    CHECK_REFUSED(bcast::make_shape(33, nullptr, "input 1"), kInvalid, "rank 33");
    CHECK_REFUSED(bcast::make_shape(2, nullptr, "input 0"), kInvalid, "input 0", "NULL");
    CHECK(bcast::make_shape(0, nullptr, "input 0").rank == 0);
    const Dims neg = {2, -3, 4};
    CHECK_REFUSED(bcast::make_shape(3, neg.data(), "input 2"), kInvalid, "input 2", "axis 1",
                  "-3");
    const Dims ok = {2, 0, 5};
    CHECK(bcast::make_shape(3, ok.data(), "x") == sh({2, 0, 5}));
}

TEST_CASE("to_string and operator==", "[shape]") {
    CHECK(bcast::to_string(sh({2, 3, 5})) == "(2,3,5)");
    CHECK(bcast::to_string(sh({})) == "()");
    CHECK(bcast::to_string(sh({7})) == "(7)");
    CHECK(sh({2, 3}) == sh({2, 3}));
    CHECK(sh({2, 3}) != sh({2, 3, 1}));
    CHECK(sh({}) != sh({1}));
    Shape a = sh({2, 3}), b = sh({2, 3});
    a.dims[5] = 9;  // extents past the rank do not count
    CHECK(a == b);
}

TEST_CASE("element_count", "[shape]") {
    CHECK(bcast::element_count(sh({})) == 1);
    CHECK(bcast::element_count(sh({2, 3, 5})) == 30);
    CHECK(bcast::element_count(sh({2, 0, 5})) == 0);
    const int64_t big = int64_t{1} << 40;
    CHECK(bcast::element_count(sh({big, big, 0})) == 0);
    CHECK(bcast::element_count(sh({std::numeric_limits<int64_t>::max()})) ==
          std::numeric_limits<int64_t>::max());
    CHECK_REFUSED(bcast::element_count(sh({big, big})), BCAST_ERROR_SIZE_OVERFLOW,
                  "overflow");
    CHECK_REFUSED(bcast::element_count(sh({3037000500, 3037000500})),
                  BCAST_ERROR_SIZE_OVERFLOW, "(3037000500,3037000500)");
    CHECK(bcast::element_count(sh({3037000499, 3037000499})) == 9223372030926249001);
}

// ---------------------------------------------------------------------------
// resolve(): arguments common to every rule
// ---------------------------------------------------------------------------

TEST_CASE("resolve refuses bad rules, counts, primaries and shapes", "[rules]") {
    const std::vector<Shape> two = {sh({2}), sh({2})};
    CHECK_REFUSED(bcast::rules::resolve(99, -1, two.data(), 2), kInvalid, "rule", "99");
    CHECK_REFUSED(bcast::rules::resolve(-1, -1, two.data(), 2), kInvalid, "rule");
    CHECK_REFUSED(bcast::rules::resolve(BCAST_RULE_NUMPY, -1, two.data(), 0), kInvalid,
                  "numpy", "0 inputs");
    const std::vector<Shape> many(17, sh({2}));
    CHECK_REFUSED(bcast::rules::resolve(BCAST_RULE_NUMPY, -1, many.data(), 17), kInvalid,
                  "17 inputs");
    CHECK(bcast::rules::resolve(BCAST_RULE_NUMPY, -1, many.data(), 16).out == sh({2}));
    CHECK_REFUSED(bcast::rules::resolve(BCAST_RULE_PDPD, -1, two.data(), 2, 2), kInvalid,
                  "primary");
    CHECK_REFUSED(bcast::rules::resolve(BCAST_RULE_NUMPY, -1, nullptr, 2), kInvalid, "NULL");

    std::vector<Shape> bad = {sh({2, 3}), sh({2, -1})};
    CHECK_REFUSED(res(BCAST_RULE_NUMPY, bad), kInvalid, "input 1", "axis 1", "-1");
    bad[1].rank = 33;
    CHECK_REFUSED(res(BCAST_RULE_NUMPY, bad), kInvalid, "input 1: rank 33 exceeds the maximum of 32");
}

TEST_CASE("rank 32 is accepted by every rule that takes it", "[rules]") {
    Dims a(32, 1), b(32, 1);
    a[0] = 2;
    b[31] = 3;
    Dims both(32, 1);
    both[0] = 2;
    both[31] = 3;
    CHECK(out(BCAST_RULE_NUMPY, {a, b}) == sh(both));
    CHECK(out(BCAST_RULE_NUMPY, {a, {}}) == sh(a));
    CHECK(out(BCAST_RULE_NONE, {a, a}) == sh(a));
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {both, b}) == sh(both));
    CHECK(out(BCAST_RULE_PDPD, {both, {3}}) == sh(both));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {both, {3}}) == sh(both));
    CHECK(expand(BCAST_EXPAND_NUMPY, b, both).out == sh(both));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, a, b).out == sh(both));
}

// ---------------------------------------------------------------------------
// NONE
// ---------------------------------------------------------------------------

TEST_CASE("none: identical shapes only, rank included", "[rules][none]") {
    CHECK(out(BCAST_RULE_NONE, {{2, 3}, {2, 3}, {2, 3}}) == sh({2, 3}));
    CHECK(out(BCAST_RULE_NONE, {{}, {}}) == sh({}));
    CHECK(out(BCAST_RULE_NONE, {{0, 3}, {0, 3}}) == sh({0, 3}));
    CHECK(out(BCAST_RULE_NONE, {{4}}) == sh({4}));
    CHECK_REFUSED(out(BCAST_RULE_NONE, {{}, {1}}), kIncompatible, "none", "() and (1)");
    CHECK_REFUSED(out(BCAST_RULE_NONE, {{2, 4}, {1, 2, 4}}), kIncompatible, "none",
                  "(2,4) and (1,2,4)");
    CHECK_REFUSED(out(BCAST_RULE_NONE, {{2, 3}, {2, 4}}), kIncompatible,
                  "none: cannot broadcast dimension 1: 3 vs 4 (shapes (2,3) and (2,4))");
    CHECK_REFUSED(out(BCAST_RULE_NONE, {{2, 3}, {2, 3}, {2, 1}}), kIncompatible, "none",
                  "dimension 1", "3 vs 1");
}

// ---------------------------------------------------------------------------
// NUMPY
// ---------------------------------------------------------------------------

TEST_CASE("numpy: OpenVINO spec examples", "[rules][numpy][spec]") {
    CHECK(out(BCAST_RULE_NUMPY, {{}, {}}) == sh({}));
    CHECK(out(BCAST_RULE_NUMPY, {{2, 3}, {1}}) == sh({2, 3}));
    CHECK(out(BCAST_RULE_NUMPY, {{3}, {2, 3}}) == sh({2, 3}));
    CHECK(out(BCAST_RULE_NUMPY, {{2, 3, 5}, {}}) == sh({2, 3, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{2, 1, 5}, {1, 4, 5}}) == sh({2, 4, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{6, 5}, {2, 1, 5}}) == sh({2, 6, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{2, 1, 5}, {4, 1}}) == sh({2, 4, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{3, 2, 1, 4}, {5, 4}}) == sh({3, 2, 5, 4}));
    CHECK(out(BCAST_RULE_NUMPY, {{1, 5, 3}, {5, 2, 1, 3}}) == sh({5, 2, 5, 3}));
    CHECK_REFUSED(out(BCAST_RULE_NUMPY, {{3}, {2}}), kIncompatible,
                  "numpy: cannot broadcast dimension 0: 3 vs 2 (shapes (3) and (2))");
    CHECK_REFUSED(out(BCAST_RULE_NUMPY, {{3, 1, 5}, {4, 4, 5}}), kIncompatible,
                  "numpy: cannot broadcast dimension 0: 3 vs 4");
}

TEST_CASE("numpy: ONNX multidirectional examples", "[rules][numpy][spec]") {
    CHECK(out(BCAST_RULE_NUMPY, {{2, 3, 4, 5}, {}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{2, 3, 4, 5}, {5}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{4, 5}, {2, 3, 4, 5}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{1, 4, 5}, {2, 3, 1, 1}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_NUMPY, {{3, 4, 5}, {2, 1, 1, 1}}) == sh({2, 3, 4, 5}));
}

TEST_CASE("numpy: the header's message, zero extents, N inputs", "[rules][numpy]") {
    CHECK_REFUSED(out(BCAST_RULE_NUMPY, {{2, 3, 5}, {4, 5}}), kIncompatible,
                  "numpy: cannot broadcast dimension 1: 3 vs 4 (shapes (2,3,5) and (4,5))");
    CHECK(out(BCAST_RULE_NUMPY, {{0}, {1}}) == sh({0}));
    CHECK(out(BCAST_RULE_NUMPY, {{1}, {0}}) == sh({0}));
    CHECK(out(BCAST_RULE_NUMPY, {{2, 0}, {1}}) == sh({2, 0}));
    CHECK(out(BCAST_RULE_NUMPY, {{0, 1}, {0, 0}}) == sh({0, 0}));
    CHECK_REFUSED(out(BCAST_RULE_NUMPY, {{0}, {3}}), kIncompatible, "0 vs 3");
    CHECK_REFUSED(out(BCAST_RULE_NUMPY, {{2, 3}, {2, 0}}), kIncompatible, "dimension 1",
                  "3 vs 0");
    CHECK(out(BCAST_RULE_NUMPY, {{2, 1, 1}, {3, 1}, {4}}) == sh({2, 3, 4}));
    CHECK(out(BCAST_RULE_NUMPY, {{1}, {1, 1}, {}, {5, 1, 1}, {1, 6}, {1}, {1, 1, 7, 1}, {1}}) ==
          sh({1, 5, 7, 6}));
    // The refusal names the two inputs that disagree, not the first two.
    CHECK_REFUSED(out(BCAST_RULE_NUMPY, {{3, 1}, {1, 1}, {2, 1}}), kIncompatible,
                  "numpy: cannot broadcast dimension 0: 3 vs 2 (shapes (3,1) and (2,1))");
    CHECK_REFUSED(out(BCAST_RULE_NUMPY, {{1}, {5, 1}, {1, 4}, {6, 1}}), kIncompatible,
                  "dimension 0: 5 vs 6 (shapes (5,1) and (6,1))");
}

TEST_CASE("numpy: placements are right-aligned", "[rules][numpy][placement]") {
    const Resolution r = res(BCAST_RULE_NUMPY, {sh({2, 3, 4, 5}), sh({4, 5}), sh({}), sh({1, 1, 1, 1})});
    CHECK(r.inputs[0].out_axis[0] == 0);
    CHECK(r.inputs[0].out_axis[3] == 3);
    CHECK(r.inputs[1].out_axis[0] == 2);
    CHECK(r.inputs[1].out_axis[1] == 3);
    CHECK(r.inputs[3].out_axis[2] == 2);
}

namespace {

// Independent numpy oracle: pad on the left, then per column the set of
// extents other than 1 must have at most one member.
std::optional<Dims> numpy_oracle(const std::vector<Dims>& in) {
    std::size_t rank = 0;
    for (const Dims& d : in) rank = std::max(rank, d.size());
    Dims result(rank, 1);
    for (std::size_t a = 0; a < rank; ++a) {
        std::set<int64_t> seen;
        for (const Dims& d : in) {
            const std::size_t pad = rank - d.size();
            if (a >= pad && d[a - pad] != 1) seen.insert(d[a - pad]);
        }
        if (seen.size() > 1) return std::nullopt;
        if (!seen.empty()) result[a] = *seen.begin();
    }
    return result;
}

Dims random_dims(std::mt19937& rng, std::size_t max_rank) {
    static const int64_t kExtents[] = {0, 1, 1, 1, 2, 2, 3, 3};
    Dims d(std::uniform_int_distribution<std::size_t>(0, max_rank)(rng));
    for (int64_t& e : d) e = kExtents[std::uniform_int_distribution<int>(0, 7)(rng)];
    return d;
}

std::vector<Shape> to_shapes(const std::vector<Dims>& in) {
    std::vector<Shape> s;
    for (const Dims& d : in) s.push_back(sh(d));
    return s;
}

}  // namespace

TEST_CASE("numpy: random shapes agree with the oracle", "[rules][numpy][random]") {
    std::mt19937 rng(20240611);
    int accepted = 0, refused = 0;
    for (int iter = 0; iter < 4000; ++iter) {
        std::vector<Dims> in(std::uniform_int_distribution<std::size_t>(1, 5)(rng));
        for (Dims& d : in) d = random_dims(rng, 5);
        const std::optional<Dims> want = numpy_oracle(in);
        const std::vector<Shape> shapes = to_shapes(in);
        if (want) {
            const Resolution r = res(BCAST_RULE_NUMPY, shapes);
            REQUIRE(r.out == sh(*want));
            for (std::size_t j = 0; j < in.size(); ++j)
                for (std::size_t i = 0; i < in[j].size(); ++i)
                    REQUIRE(r.inputs[j].out_axis[i] ==
                            static_cast<int>(want->size() - in[j].size() + i));
            ++accepted;
        } else {
            CHECK_REFUSED(res(BCAST_RULE_NUMPY, shapes), kIncompatible,
                          "numpy: cannot broadcast dimension");
            ++refused;
        }
    }
    CHECK(accepted > 500);
    CHECK(refused > 500);
}

// ---------------------------------------------------------------------------
// UNIDIRECTIONAL
// ---------------------------------------------------------------------------

TEST_CASE("unidirectional: ONNX examples", "[rules][unidirectional][spec]") {
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 3, 4, 5}, {}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 3, 4, 5}, {5}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 3, 4, 5}, {2, 1, 1, 5}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 3, 4, 5}, {1, 3, 1, 5}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 3, 4, 5}, {2, 3, 4, 5}}) == sh({2, 3, 4, 5}));
}

TEST_CASE("unidirectional: refusals and the primary operand", "[rules][unidirectional]") {
    // E-RANK
    CHECK_REFUSED(out(BCAST_RULE_UNIDIRECTIONAL, {{3, 4}, {1, 3, 4}}), kIncompatible,
                  "unidirectional", "rank 3", "(3,4) and (1,3,4)");
    // E-DIR: the primary never stretches.
    CHECK_REFUSED(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 1, 5}, {3, 5}}), kIncompatible,
                  "unidirectional: cannot broadcast dimension 1: 1 vs 3",
                  "(2,1,5) and (3,5)");
    CHECK_REFUSED(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 3}, {4}}), kIncompatible,
                  "dimension 1: 3 vs 4");
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{0, 3}, {1, 3}}) == sh({0, 3}));
    CHECK_REFUSED(out(BCAST_RULE_UNIDIRECTIONAL, {{1, 3}, {0, 3}}), kIncompatible, "1 vs 0");
    CHECK_REFUSED(out(BCAST_RULE_UNIDIRECTIONAL, {{0}, {3}}), kIncompatible, "0 vs 3");
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{}, {}}) == sh({}));
    CHECK(out(BCAST_RULE_UNIDIRECTIONAL, {{2, 3}, {}, {1}, {3}}) == sh({2, 3}));
    CHECK_REFUSED(out(BCAST_RULE_UNIDIRECTIONAL, {{}, {}, {1}}), kIncompatible, "rank 1");
}

TEST_CASE("unidirectional: primary 1 (SELECT's x)", "[rules][unidirectional][placement]") {
    const std::vector<Shape> in = {sh({3}), sh({2, 3}), sh({1, 3})};
    const Resolution r = res(BCAST_RULE_UNIDIRECTIONAL, in, -1, 1);
    CHECK(r.out == sh({2, 3}));
    CHECK(r.inputs[0].out_axis[0] == 1);
    CHECK(r.inputs[1].out_axis[0] == 0);
    CHECK(r.inputs[1].out_axis[1] == 1);
    const std::vector<Shape> grow = {sh({2, 3}), sh({3})};
    CHECK_REFUSED(res(BCAST_RULE_UNIDIRECTIONAL, grow, -1, 1), kIncompatible, "rank 2");
}

TEST_CASE("unidirectional: random shapes agree with the oracle", "[rules][unidirectional][random]") {
    std::mt19937 rng(7);
    for (int iter = 0; iter < 3000; ++iter) {
        const std::vector<Dims> in = {random_dims(rng, 4), random_dims(rng, 4)};
        const std::optional<Dims> merged = numpy_oracle(in);
        const bool fits = in[1].size() <= in[0].size() && merged && *merged == in[0];
        if (fits)
            REQUIRE(out(BCAST_RULE_UNIDIRECTIONAL, in) == sh(in[0]));
        else
            CHECK_REFUSED(out(BCAST_RULE_UNIDIRECTIONAL, in), kIncompatible, "unidirectional");
    }
}

// ---------------------------------------------------------------------------
// PDPD
// ---------------------------------------------------------------------------

TEST_CASE("pdpd: OpenVINO spec examples", "[rules][pdpd][spec]") {
    const Dims a = {2, 3, 4, 5};
    CHECK(out(BCAST_RULE_PDPD, {a, {3, 4}}, 1) == sh(a));
    CHECK(out(BCAST_RULE_PDPD, {a, {3, 1}}, 1) == sh(a));
    CHECK(out(BCAST_RULE_PDPD, {a, {4, 5}}, -1) == sh(a));
    CHECK(out(BCAST_RULE_PDPD, {a, {4, 5}}, 2) == sh(a));
    CHECK(out(BCAST_RULE_PDPD, {a, {1, 3}}, 0) == sh(a));
    CHECK(out(BCAST_RULE_PDPD, {a, {}}) == sh(a));
    CHECK(out(BCAST_RULE_PDPD, {a, {5}}, -1) == sh(a));
    CHECK(out(BCAST_RULE_PDPD, {a, {5}}, 3) == sh(a));
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{8, 1, 6, 1}, {7, 1, 5}}, 1), kIncompatible,
                  "pdpd: cannot broadcast dimension 1: 1 vs 7", "(8,1,6,1) and (7,1,5)");
}

TEST_CASE("pdpd: decisions.md quirks", "[rules][pdpd]") {
    // Trailing 1s dropped before the fit check (OpenVINO's shape inference refuses).
    const Resolution r = res(BCAST_RULE_PDPD, {sh({2, 3}), sh({3, 1})}, 1);
    CHECK(r.out == sh({2, 3}));
    CHECK(r.inputs[1].out_axis[0] == 1);
    CHECK(r.inputs[1].out_axis[1] == -1);
    // B = 1 against A = 0 is accepted (OpenVINO refuses).
    CHECK(out(BCAST_RULE_PDPD, {{2, 0}, {1}}) == sh({2, 0}));
    CHECK(out(BCAST_RULE_PDPD, {{0, 3}, {1, 3}}, 0) == sh({0, 3}));
    // Interior 1s broadcast.
    CHECK(out(BCAST_RULE_PDPD, {{2, 3, 4, 5}, {3, 1, 5}}, 1) == sh({2, 3, 4, 5}));
    // The default axis uses B's full rank: (4,1) lands at axis 1, not 2.
    CHECK(out(BCAST_RULE_PDPD, {{2, 3, 4}, {3, 1}}) == sh({2, 3, 4}));
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{2, 3, 4}, {4, 1}}), kIncompatible,
                  "pdpd: cannot broadcast dimension 1: 3 vs 4");
    // Equal ranks; rank 0 on both sides.
    CHECK(out(BCAST_RULE_PDPD, {{2, 3}, {2, 3}}) == sh({2, 3}));
    CHECK(out(BCAST_RULE_PDPD, {{}, {}}) == sh({}));
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{}, {1, 1}}, 0), kIncompatible, "pdpd", "rank 2");
}

TEST_CASE("pdpd: refusals", "[rules][pdpd]") {
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{2, 3}, {3}}, -2), kInvalid, "pdpd", "axis -2");
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{3}, {2, 3}}), kIncompatible, "pdpd", "rank 2",
                  "(3) and (2,3)");
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{2, 3}, {3, 4}}, 1), kIncompatible, "pdpd", "axis 1",
                  "(2,3) and (3,4)");
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{2, 3}, {3}}, 1000), kIncompatible, "pdpd",
                  "axis 1000");
    // E-DIR: A's 1 never stretches.
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{2, 1}, {3}}), kIncompatible,
                  "pdpd: cannot broadcast dimension 1: 1 vs 3 (shapes (2,1) and (3))");
    CHECK_REFUSED(out(BCAST_RULE_PDPD, {{2, 0}, {3}}), kIncompatible, "0 vs 3");
    // Any non-primary input is checked, and placed.
    const Resolution r = res(BCAST_RULE_PDPD, {sh({2, 3, 4}), sh({2}), sh({2, 3})}, 0);
    CHECK(r.inputs[1].out_axis[0] == 0);
    CHECK(r.inputs[2].out_axis[1] == 1);
    CHECK_REFUSED(res(BCAST_RULE_PDPD, {sh({2, 3, 4}), sh({2}), sh({3})}, 0), kIncompatible,
                  "dimension 0: 2 vs 3");
}

namespace {

// OpenVINO's elementwise PDPD shape inference (openvino-onnx-notes 1.2),
// literally: no trimming, B > A refused.
std::optional<Dims> openvino_pdpd(const Dims& a, const Dims& b, int64_t axis) {
    if (b.size() > a.size() || axis < -1) return std::nullopt;
    const int64_t ax = axis == -1 ? static_cast<int64_t>(a.size() - b.size()) : axis;
    if (ax + static_cast<int64_t>(b.size()) > static_cast<int64_t>(a.size())) return std::nullopt;
    for (std::size_t i = 0; i < b.size(); ++i) {
        const int64_t ai = a[static_cast<std::size_t>(ax) + i];
        if (b[i] > ai) return std::nullopt;
        if (b[i] != 1 && b[i] != ai) return std::nullopt;
    }
    return a;
}

}  // namespace

TEST_CASE("pdpd: agrees with OpenVINO wherever decisions.md does not differ",
          "[rules][pdpd][random]") {
    std::mt19937 rng(99);
    int agreed_accepts = 0;
    for (int iter = 0; iter < 5000; ++iter) {
        Dims a = random_dims(rng, 4), b = random_dims(rng, 3);
        for (int64_t& e : a) e = std::max<int64_t>(e, 1);  // B=1 vs A=0 differs by decision
        const int64_t axis = std::uniform_int_distribution<int64_t>(-1, 3)(rng);
        const std::optional<Dims> ov = openvino_pdpd(a, b, axis);
        const bool trailing_one = !b.empty() && b.back() == 1;
        if (ov) {  // whatever OpenVINO takes, we take with the same result
            REQUIRE(out(BCAST_RULE_PDPD, {a, b}, axis) == sh(*ov));
            ++agreed_accepts;
        } else if (!trailing_one) {  // trailing 1s are the one deliberate widening
            CHECK_REFUSED(out(BCAST_RULE_PDPD, {a, b}, axis), kIncompatible, "pdpd");
        }
    }
    CHECK(agreed_accepts > 300);
}

// ---------------------------------------------------------------------------
// ONNX_LEGACY
// ---------------------------------------------------------------------------

TEST_CASE("onnx_legacy: the Caffe2 behaviour exported models use", "[rules][onnx_legacy]") {
    // test_operator_add_size1_broadcast and ..._singleton_broadcast
    const Resolution r = res(BCAST_RULE_ONNX_LEGACY, {sh({2, 3}), sh({2, 1})}, 0);
    CHECK(r.out == sh({2, 3}));
    CHECK(r.inputs[1].out_axis[0] == 0);
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {1, 3}}, 0) == sh({2, 3}));
    // Suffix alignment by default; explicit axis.
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3, 4, 5}, {4, 5}}) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3, 4, 5}, {5}}) == sh({2, 3, 4, 5}));
    const Resolution mid = res(BCAST_RULE_ONNX_LEGACY, {sh({2, 3, 4, 5}), sh({3, 4})}, 1);
    CHECK(mid.inputs[1].out_axis[0] == 1);
    CHECK(mid.inputs[1].out_axis[1] == 2);
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3, 4, 5}, {2}}, 0) == sh({2, 3, 4, 5}));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3, 4}, {1, 3}}, 0) == sh({2, 3, 4}));
    // One element, any rank <= rank(A), any axis.
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {}}) == sh({2, 3}));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {1, 1}}, 7) == sh({2, 3}));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {1}}, 0) == sh({2, 3}));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 0}, {1}}) == sh({2, 0}));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{2, 0}, {0}}) == sh({2, 0}));
    CHECK(out(BCAST_RULE_ONNX_LEGACY, {{}, {}}) == sh({}));
}

TEST_CASE("onnx_legacy: refusals", "[rules][onnx_legacy]") {
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {3}}, -2), kInvalid, "onnx_legacy",
                  "axis -2");
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {1, 1, 1}}), kIncompatible,
                  "onnx_legacy", "rank 3");
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {3}}, 2), kIncompatible, "onnx_legacy",
                  "axis 2", "[0, 1]");
    // The axis range uses B's full rank, trailing 1s included.
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {3, 1}}, 1), kIncompatible,
                  "onnx_legacy", "axis 1", "[0, 0]");
    // Interior 1s do not stretch (E-LEGACY1).
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 3, 4}, {2, 1, 4}}, 0), kIncompatible,
                  "onnx_legacy: cannot broadcast dimension 1: 3 vs 1",
                  "(2,3,4) and (2,1,4)");
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 3}, {4}}), kIncompatible,
                  "onnx_legacy: cannot broadcast dimension 1: 3 vs 4");
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 3, 4}, {1, 3}}, 1), kIncompatible,
                  "dimension 2: 4 vs 3");
    // A 1 in A does not stretch either.
    CHECK_REFUSED(out(BCAST_RULE_ONNX_LEGACY, {{2, 1}, {3}}), kIncompatible, "1 vs 3");
}

// ---------------------------------------------------------------------------
// NCNN
// ---------------------------------------------------------------------------

namespace {

// ncnn notation [w,h,d,c] (innermost first) <-> numpy order.
Dims rev(Dims d) {
    std::reverse(d.begin(), d.end());
    return d;
}

Shape ncnn_out(const Dims& a_wh, const Dims& b_wh) {
    return out(BCAST_RULE_NCNN, {rev(a_wh), rev(b_wh)});
}

// ncnn notes 3.1 literally, in ncnn notation; ranks 1..4.
std::optional<Dims> ncnn_oracle(Dims a, Dims b) {
    const std::size_t outdims = std::max(a.size(), b.size());
    if (a.size() != b.size()) {
        Dims& x = a.size() < b.size() ? a : b;
        const Dims& y = a.size() < b.size() ? b : a;
        const std::size_t xd = x.size();
        if (outdims == 2 && xd == 1) x = x[0] == y[1] ? Dims{1, x[0]} : Dims{x[0], 1};
        if (outdims == 3 && xd == 1) x = x[0] == y[2] ? Dims{1, 1, x[0]} : Dims{x[0], 1, 1};
        if (outdims == 3 && xd == 2) x = Dims{1, x[0], x[1]};
        if (outdims == 4 && xd == 1)
            x = x[0] == y[3] ? Dims{1, 1, 1, x[0]} : Dims{x[0], 1, 1, 1};
        if (outdims == 4 && xd == 2) x = Dims{1, 1, x[0], x[1]};
        if (outdims == 4 && xd == 3) x = Dims{1, x[0], x[1], x[2]};
    }
    Dims c(outdims);
    for (std::size_t i = 0; i < outdims; ++i) {
        if (a[i] == b[i] || b[i] == 1)
            c[i] = a[i];
        else if (a[i] == 1)
            c[i] = b[i];
        else
            return std::nullopt;
    }
    return c;
}

}  // namespace

TEST_CASE("ncnn: scalar and scalar-like rows", "[rules][ncnn][spec]") {
    const std::vector<Dims> as = {{2}, {2, 3}, {2, 3, 4}, {2, 3, 4, 5}};
    for (const Dims& a : as) {
        INFO("A " << to_string(sh(a)) << " (ncnn notation)");
        CHECK(ncnn_out(a, {}) == sh(rev(a)));  // scalar
        CHECK(ncnn_out({}, a) == sh(rev(a)));
        for (std::size_t r = 1; r <= a.size(); ++r) {
            CHECK(ncnn_out(a, Dims(r, 1)) == sh(rev(a)));
            CHECK(ncnn_out(Dims(r, 1), a) == sh(rev(a)));
        }
    }
    CHECK(ncnn_out({}, {}) == sh({}));
}

TEST_CASE("ncnn: no-broadcast and explicit-broadcast rows", "[rules][ncnn][spec]") {
    const std::vector<Dims> same = {{2}, {2, 3}, {2, 3, 4}, {2, 3, 4, 5}};
    for (const Dims& a : same) CHECK(ncnn_out(a, a) == sh(rev(a)));
    const std::vector<std::pair<Dims, Dims>> rows = {
        {{2, 3}, {1, 3}},          {{2, 3}, {2, 1}},          {{2, 3, 4}, {1, 3, 4}},
        {{2, 3, 4}, {2, 1, 4}},    {{2, 3, 4}, {2, 3, 1}},    {{2, 3, 4}, {1, 1, 4}},
        {{2, 3, 4}, {1, 3, 1}},    {{2, 3, 4}, {2, 1, 1}},    {{2, 3, 4, 5}, {1, 3, 4, 5}},
        {{2, 3, 4, 5}, {2, 1, 4, 5}}, {{2, 3, 4, 5}, {2, 3, 1, 5}}, {{2, 3, 4, 5}, {2, 3, 4, 1}},
        {{2, 3, 4, 5}, {1, 1, 4, 5}}, {{2, 3, 4, 5}, {1, 3, 1, 5}}, {{2, 3, 4, 5}, {1, 3, 4, 1}},
        {{2, 3, 4, 5}, {2, 1, 1, 5}}, {{2, 3, 4, 5}, {2, 1, 4, 1}}, {{2, 3, 4, 5}, {2, 3, 1, 1}},
        {{2, 3, 4, 5}, {1, 1, 1, 5}}, {{2, 3, 4, 5}, {1, 1, 4, 1}}, {{2, 3, 4, 5}, {1, 3, 1, 1}},
        {{2, 3, 4, 5}, {2, 1, 1, 1}},
    };
    for (const auto& row : rows) {
        INFO("ncnn A " << to_string(sh(row.first)) << " B " << to_string(sh(row.second)));
        CHECK(ncnn_out(row.first, row.second) == sh(rev(row.first)));
        CHECK(ncnn_out(row.second, row.first) == sh(rev(row.first)));  // symmetric
    }
}

TEST_CASE("ncnn: implicit broadcast rows (inner and outer)", "[rules][ncnn][spec]") {
    // "implicit broadcast B for inner axis": B's values on the outer axes.
    CHECK(ncnn_out({2, 3}, {3}) == sh({3, 2}));
    CHECK(ncnn_out({2, 3, 4}, {4}) == sh({4, 3, 2}));
    CHECK(ncnn_out({2, 3, 4}, {3, 4}) == sh({4, 3, 2}));
    CHECK(ncnn_out({2, 3, 4, 5}, {5}) == sh({5, 4, 3, 2}));
    CHECK(ncnn_out({2, 3, 4, 5}, {4, 5}) == sh({5, 4, 3, 2}));
    CHECK(ncnn_out({2, 3, 4, 5}, {3, 4, 5}) == sh({5, 4, 3, 2}));
    // "1 dimension rank for outer axis": a 1-D B on w.
    CHECK(ncnn_out({2, 3}, {2}) == sh({3, 2}));
    CHECK(ncnn_out({2, 3, 4}, {2}) == sh({4, 3, 2}));
    CHECK(ncnn_out({2, 3, 4, 5}, {2}) == sh({5, 4, 3, 2}));
    // Symmetric: A may be the lower-rank operand.
    CHECK(ncnn_out({3}, {2, 3}) == sh({3, 2}));
    CHECK(ncnn_out({3, 4}, {2, 3, 4}) == sh({4, 3, 2}));
    CHECK(ncnn_out({2}, {2, 3, 4, 5}) == sh({5, 4, 3, 2}));
}

TEST_CASE("ncnn: placements (outer-axis priority)", "[rules][ncnn][placement]") {
    // [2,2] + [2]: the outermost match wins, B lands on numpy axis 0.
    Resolution r = res(BCAST_RULE_NCNN, {sh({2, 2}), sh({2})});
    CHECK(r.out == sh({2, 2}));
    CHECK(r.inputs[1].out_axis[0] == 0);
    // [4,3,4] + [4] (numpy (4,3,4) + (4)): on c, numpy axis 0.
    r = res(BCAST_RULE_NCNN, {sh({4, 3, 4}), sh({4})});
    CHECK(r.inputs[1].out_axis[0] == 0);
    // A 1-D operand that differs from the outermost extent goes innermost.
    r = res(BCAST_RULE_NCNN, {sh({4, 3, 2}), sh({2})});
    CHECK(r.inputs[1].out_axis[0] == 2);
    // Lower rank A, left-aligned.
    r = res(BCAST_RULE_NCNN, {sh({5, 4}), sh({5, 4, 3, 2})});
    CHECK(r.inputs[0].out_axis[0] == 0);
    CHECK(r.inputs[0].out_axis[1] == 1);
    CHECK(r.inputs[1].out_axis[3] == 3);
}

TEST_CASE("ncnn: rank growth quirks and both sides broadcasting", "[rules][ncnn]") {
    // [2,3] + [1,1,1] -> [1,2,3]: numpy (3,2) + (1,1,1) -> (3,2,1).
    CHECK(out(BCAST_RULE_NCNN, {{3, 2}, {1, 1, 1}}) == sh({3, 2, 1}));
    // [2,3] + [2,1,1] -> [2,2,3]: numpy (3,2) + (1,1,2) -> (3,2,2).
    CHECK(ncnn_out({2, 3}, {2, 1, 1}) == sh({3, 2, 2}));
    CHECK(out(BCAST_RULE_NCNN, {{3, 2}, {1, 1, 2}}) == sh({3, 2, 2}));
    // [1,3] + [2,1] -> [2,3]
    CHECK(ncnn_out({1, 3}, {2, 1}) == sh({3, 2}));
    CHECK(out(BCAST_RULE_NCNN, {{0, 3}, {3}}) == sh({0, 3}));
    CHECK(out(BCAST_RULE_NCNN, {{0, 3}, {1}}) == sh({0, 3}));
}

TEST_CASE("ncnn: refusals", "[rules][ncnn]") {
    // [2,3,4] + [2,3]: aligned to (3,2,1) against (4,3,2), numpy would accept.
    CHECK_REFUSED(ncnn_out({2, 3, 4}, {2, 3}), kIncompatible,
                  "ncnn: cannot broadcast dimension 0: 4 vs 3", "(4,3,2) and (3,2)",
                  "(3,2,1)");
    // [2,3,4] + [3]: a 1-D match on h only is not recognised; lands on w.
    CHECK_REFUSED(ncnn_out({2, 3, 4}, {3}), kIncompatible,
                  "ncnn: cannot broadcast dimension 2: 2 vs 3");
    CHECK_REFUSED(ncnn_out({2, 3, 4, 5}, {3, 4}), kIncompatible, "ncnn", "dimension 0",
                  "5 vs 4", "(4,3,1,1)");
    CHECK_REFUSED(ncnn_out({2}, {3}), kIncompatible, "ncnn", "2 vs 3");
    CHECK_REFUSED(ncnn_out({2, 3}, {100000}), kIncompatible, "ncnn", "2 vs 100000");
    CHECK_REFUSED(out(BCAST_RULE_NCNN, {{1, 2, 3, 4, 5}, {1}}), kInvalid, "ncnn", "rank 5",
                  "4");
    CHECK_REFUSED(out(BCAST_RULE_NCNN, {{1}, {1, 1, 1, 1, 1}}), kInvalid, "ncnn", "input 1");
    CHECK_REFUSED(out(BCAST_RULE_NCNN, {{2}, {2}, {2}}), kInvalid, "ncnn", "2 inputs");
    CHECK_REFUSED(out(BCAST_RULE_NCNN, {{2}}), kInvalid, "ncnn", "2 inputs");
}

TEST_CASE("ncnn: random shapes agree with ncnn's own algorithm", "[rules][ncnn][random]") {
    std::mt19937 rng(4242);
    int accepted = 0;
    for (int iter = 0; iter < 5000; ++iter) {
        Dims a = random_dims(rng, 4), b = random_dims(rng, 4);
        if (a.empty()) a.push_back(2);
        if (b.empty()) b.push_back(3);
        const std::optional<Dims> want = ncnn_oracle(a, b);
        INFO("ncnn A " << to_string(sh(a)) << " B " << to_string(sh(b)));
        if (want) {
            REQUIRE(ncnn_out(a, b) == sh(rev(*want)));
            ++accepted;
        } else {
            CHECK_REFUSED(ncnn_out(a, b), kIncompatible, "ncnn: cannot broadcast dimension");
        }
    }
    CHECK(accepted > 500);
}

// ---------------------------------------------------------------------------
// Expand / Broadcast-to-target
// ---------------------------------------------------------------------------

TEST_CASE("expand numpy: one-directional, output is the target", "[expand][numpy]") {
    Resolution r = expand(BCAST_EXPAND_NUMPY, {3, 1}, {2, 3, 4});
    CHECK(r.out == sh({2, 3, 4}));
    CHECK(r.num_inputs == 1);
    CHECK(r.inputs[0].out_axis[0] == 1);
    CHECK(r.inputs[0].out_axis[1] == 2);
    CHECK(expand(BCAST_EXPAND_NUMPY, {}, {2, 3}).out == sh({2, 3}));
    CHECK(expand(BCAST_EXPAND_NUMPY, {1}, {0}).out == sh({0}));
    CHECK(expand(BCAST_EXPAND_NUMPY, {}, {}).out == sh({}));
    CHECK_REFUSED(expand(BCAST_EXPAND_NUMPY, {5}, {1}), kIncompatible,
                  "broadcast numpy: cannot broadcast dimension 0: 5 vs 1", "(5)", "(1)");
    CHECK_REFUSED(expand(BCAST_EXPAND_NUMPY, {0}, {1}), kIncompatible, "0 vs 1");
    CHECK_REFUSED(expand(BCAST_EXPAND_NUMPY, {1, 4}, {4}), kIncompatible, "broadcast numpy",
                  "rank 2", "rank 1");
    CHECK_REFUSED(expand(BCAST_EXPAND_NUMPY, {3}, {2, 4}), kIncompatible, "dimension 1",
                  "3 vs 4");
}

TEST_CASE("expand bidirectional: OpenVINO and ONNX Expand examples", "[expand][bidirectional][spec]") {
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {5}, {1}).out == sh({5}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {2, 3}, {3}).out == sh({2, 3}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {3, 1}, {3, 4}).out == sh({3, 4}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {3, 4}, {}).out == sh({3, 4}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {3, 1}, {2, 1, 6}).out == sh({2, 3, 6}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {1, 4, 1}, {1, 4}).out == sh({1, 4, 4}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {16, 1, 1}, {1, 1, 50, 50}).out ==
          sh({1, 16, 50, 50}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {1, 3, 1}, {3, 1}).out == sh({1, 3, 1}));
    CHECK(expand(BCAST_EXPAND_BIDIRECTIONAL, {1, 3, 1}, {1, 3}).out == sh({1, 3, 3}));
    const Resolution r = expand(BCAST_EXPAND_BIDIRECTIONAL, {16, 1, 1}, {1, 1, 50, 50});
    CHECK(r.num_inputs == 1);
    CHECK(r.inputs[0].out_axis[0] == 1);
    CHECK_REFUSED(expand(BCAST_EXPAND_BIDIRECTIONAL, {2, 3}, {4}), kIncompatible,
                  "broadcast bidirectional: cannot broadcast dimension 1: 3 vs 4");
}

TEST_CASE("expand numpy/bidirectional: random shapes agree with the oracle", "[expand][random]") {
    std::mt19937 rng(31337);
    for (int iter = 0; iter < 3000; ++iter) {
        const Dims d = random_dims(rng, 4), t = random_dims(rng, 4);
        const std::optional<Dims> both = numpy_oracle({d, t});
        if (both)
            REQUIRE(expand(BCAST_EXPAND_BIDIRECTIONAL, d, t).out == sh(*both));
        else
            CHECK_REFUSED(expand(BCAST_EXPAND_BIDIRECTIONAL, d, t), kIncompatible,
                          "broadcast bidirectional");
        if (d.size() <= t.size() && both && *both == t)
            REQUIRE(expand(BCAST_EXPAND_NUMPY, d, t).out == sh(t));
        else
            CHECK_REFUSED(expand(BCAST_EXPAND_NUMPY, d, t), kIncompatible, "broadcast numpy");
    }
}

TEST_CASE("expand explicit: axes_mapping", "[expand][explicit]") {
    Resolution r = expand(BCAST_EXPAND_EXPLICIT, {3}, {2, 3, 4}, {1});
    CHECK(r.out == sh({2, 3, 4}));
    CHECK(r.inputs[0].out_axis[0] == 1);
    r = expand(BCAST_EXPAND_EXPLICIT, {2, 4}, {2, 3, 4}, {0, 2});
    CHECK(r.inputs[0].out_axis[0] == 0);
    CHECK(r.inputs[0].out_axis[1] == 2);
    CHECK(expand(BCAST_EXPAND_EXPLICIT, {3, 1}, {2, 3, 4}, {1, 2}).out == sh({2, 3, 4}));
    // Duplicates pass, as OpenVINO's std::is_sorted.
    r = expand(BCAST_EXPAND_EXPLICIT, {1, 3}, {2, 3}, {1, 1});
    CHECK(r.out == sh({2, 3}));
    CHECK(r.inputs[0].out_axis[1] == 1);
    // Rank-0 data: no mapping, or one entry whose target extent is 1.
    CHECK(expand(BCAST_EXPAND_EXPLICIT, {}, {2, 3}).out == sh({2, 3}));
    CHECK(expand(BCAST_EXPAND_EXPLICIT, {}, {2, 1}, {1}).out == sh({2, 1}));
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {}, {2, 3}, {1}), kIncompatible,
                  "broadcast explicit", "1 vs 3");
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {}, {1, 1}, {0, 1}), kInvalid,
                  "broadcast explicit");
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {}, {2, 1}, {2}), kInvalid, "[0, 2)");
}

TEST_CASE("expand explicit: refusals", "[expand][explicit]") {
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {2, 4}, {2, 3, 4}, {2, 0}), kInvalid,
                  "broadcast explicit", "sorted", "transposes");
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {3}, {2, 3, 4}, {3}), kInvalid,
                  "axes_mapping[0] = 3", "[0, 3)");
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {3}, {2, 3, 4}, {-1}), kInvalid, "-1");
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {3, 4}, {2, 3, 4}, {1}), kInvalid,
                  "1 entries", "rank is 2");
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {3}, {2, 3, 4}), kInvalid, "0 entries");
    CHECK_REFUSED(expand(BCAST_EXPAND_EXPLICIT, {5}, {2, 3, 4}, {1}), kIncompatible,
                  "broadcast explicit: cannot broadcast dimension 1: 5 vs 3");
    const Shape d = sh({3}), t = sh({2, 3});
    CHECK_REFUSED(bcast::rules::resolve_expand(BCAST_EXPAND_EXPLICIT, d, t, nullptr, 1, -1),
                  kInvalid, "NULL");
}

TEST_CASE("expand pdpd: the Broadcast op's own algorithm", "[expand][pdpd]") {
    Resolution r = expand(BCAST_EXPAND_PDPD, {3, 1}, {2, 1, 6}, {}, 1);
    CHECK(r.out == sh({2, 3, 6}));
    CHECK(r.inputs[0].out_axis[0] == 1);
    CHECK(r.inputs[0].out_axis[1] == 2);
    CHECK(expand(BCAST_EXPAND_PDPD, {3}, {2, 3}).out == sh({2, 3}));
    CHECK(expand(BCAST_EXPAND_PDPD, {3}, {2, 1}).out == sh({2, 3}));
    CHECK(expand(BCAST_EXPAND_PDPD, {3}, {2, 3, 4}, {}, 1).out == sh({2, 3, 4}));
    CHECK(expand(BCAST_EXPAND_PDPD, {1}, {0}).out == sh({0}));
    CHECK(expand(BCAST_EXPAND_PDPD, {0}, {1}).out == sh({0}));
    CHECK(expand(BCAST_EXPAND_PDPD, {}, {2, 3}).out == sh({2, 3}));
    // A trailing 1 past the target's end is fine (placed at -1).
    r = expand(BCAST_EXPAND_PDPD, {3, 1}, {2, 3}, {}, 1);
    CHECK(r.out == sh({2, 3}));
    CHECK(r.inputs[0].out_axis[1] == -1);
    CHECK(expand(BCAST_EXPAND_PDPD, {1, 1}, {2, 3}, {}, int64_t{1} << 62).out == sh({2, 3}));
}

TEST_CASE("expand pdpd: refusals", "[expand][pdpd]") {
    CHECK_REFUSED(expand(BCAST_EXPAND_PDPD, {3}, {2, 3}, {}, -2), kInvalid, "broadcast pdpd",
                  "axis -2");
    CHECK_REFUSED(expand(BCAST_EXPAND_PDPD, {3, 4}, {2}), kIncompatible, "broadcast pdpd",
                  "rank 2");
    CHECK_REFUSED(expand(BCAST_EXPAND_PDPD, {3, 4}, {2, 3}, {}, 1), kIncompatible,
                  "broadcast pdpd", "data axis 1", "extent 4", "past the end");
    CHECK_REFUSED(expand(BCAST_EXPAND_PDPD, {3}, {2, 4}, {}, 1), kIncompatible,
                  "broadcast pdpd: cannot broadcast dimension 1: 3 vs 4");
    CHECK_REFUSED(expand(BCAST_EXPAND_PDPD, {2}, {2, 3}, {}, int64_t{1} << 62), kIncompatible,
                  "past the end");
}

TEST_CASE("expand: mode and argument checks", "[expand]") {
    const Shape d = sh({3}), t = sh({2, 3});
    CHECK_REFUSED(bcast::rules::resolve_expand(7, d, t, nullptr, 0, -1), kInvalid, "mode", "7");
    const int64_t axes[1] = {1};
    for (bcast_expand_mode m : {BCAST_EXPAND_NUMPY, BCAST_EXPAND_BIDIRECTIONAL, BCAST_EXPAND_PDPD})
        CHECK_REFUSED(bcast::rules::resolve_expand(m, d, t, axes, 1, -1), kInvalid,
                      "axes_mapping");
    Shape bad = sh({2, -4});
    CHECK_REFUSED(bcast::rules::resolve_expand(BCAST_EXPAND_NUMPY, d, bad, nullptr, 0, -1),
                  kInvalid, "target", "-4");
    bad.rank = 33;
    CHECK_REFUSED(bcast::rules::resolve_expand(BCAST_EXPAND_NUMPY, bad, t, nullptr, 0, -1),
                  kInvalid, "data: rank 33");
}
