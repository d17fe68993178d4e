// Strict partial-shape inference through the public C API against the static
// rules (tests/partial_property.hpp): seeded random partial shapes for every
// rule and expand mode, each checked on every assignment that can matter.
#include "partial_property.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace {

struct Seeded {
    std::mt19937_64 rng;
    int64_t range(int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    }
};

}  // namespace

TEST_CASE("partial strict: sound and complete on random partial shapes", "[partial]") {
    // BCAST_PARTIAL_CASES=100000 BCAST_PARTIAL_SEED=k for a long run (one per
    // seed, in parallel); the defaults keep ctest short.
    const char* seed = std::getenv("BCAST_PARTIAL_SEED");
    Seeded src{std::mt19937_64(seed ? std::strtoull(seed, nullptr, 10) : 20261127)};
    const char* env = std::getenv("BCAST_PARTIAL_CASES");
    const long total = env ? std::atol(env) : 3000;
    uint64_t cases = 0, assignments = 0;
    // Checked cases with an unknown rank, per rule (0..5) and expand mode
    // (6..9): each must be reached, those that place B from its first axis
    // included.
    std::array<uint64_t, 10> unknown_rank{};
    for (long k = 0; k < total; ++k) {
        const partial_property::Case c = partial_property::random_case(src);
        const partial_property::Outcome o = partial_property::check(c, 3000);
        if (!o.checked) continue;
        ++cases;
        assignments += o.assignments;
        if (std::count(c.rank_known.begin(), c.rank_known.end(), 0) > 0)
            ++unknown_rank[c.expand ? 6 + static_cast<std::size_t>(c.mode)
                                    : static_cast<std::size_t>(c.rule)];
        INFO(o.violation);
        REQUIRE(o.violation.empty());
    }
    WARN(cases << " cases checked, " << assignments << " assignments");
    CHECK(cases * 2 > static_cast<uint64_t>(total));
    for (std::size_t r = 0; r < unknown_rank.size(); ++r) {
        INFO("rule or mode " << r);
        CHECK(unknown_rank[r] > 0);
    }
}

TEST_CASE("partial openvino pdpd: an axis past the rank is refused, never indexed", "[partial]") {
    // (2,3,4) + (3,4) at axis INT64_MAX, INT64_MAX - 1 and 2: B does not fit
    // after the axis; the check must not overflow (UBSan) or index past A.
    const bcast_pdim a[3] = {{2, 2, nullptr}, {3, 3, nullptr}, {4, 4, nullptr}};
    const bcast_pdim b[2] = {{3, 3, nullptr}, {4, 4, nullptr}};
    const bcast_pshape in[2] = {{1, 3, a}, {1, 2, b}};
    bcast_pdim out[BCAST_MAX_RANK];
    size_t n = 0;
    int32_t known = 0;
    bcast_condition conditions[16];
    size_t num_conditions = 0;
    for (const int64_t axis : {INT64_MAX, INT64_MAX - 1, int64_t{2}}) {
        CHECK(bcast_infer_partial_shape(BCAST_SEMANTICS_OPENVINO, BCAST_RULE_PDPD, axis, 2, in, BCAST_MAX_RANK, out,
                                        &n, &known, 16, conditions, &num_conditions) ==
              BCAST_ERROR_INCOMPATIBLE_SHAPES);
    }
    REQUIRE(bcast_infer_partial_shape(BCAST_SEMANTICS_OPENVINO, BCAST_RULE_PDPD, 1, 2, in, BCAST_MAX_RANK, out, &n,
                                      &known, 16, conditions, &num_conditions) == BCAST_OK);
    CHECK(n == 3);
}

TEST_CASE("partial strict: a symbol with a line break is named by its place in the text", "[partial]") {
    // The text has one clause per line: a symbol holding a line break
    // would split its clause, so the dimension is named in0[0] instead.
    const bcast_pdim a[1] = {{0, BCAST_DIM_UNBOUNDED, "A\nB"}};
    const bcast_pdim b[1] = {{0, BCAST_DIM_UNBOUNDED, "M"}};
    const bcast_pshape in[2] = {{1, 1, a}, {1, 1, b}};
    bcast_pdim out[BCAST_MAX_RANK];
    size_t n = 0, num_conditions = 0;
    int32_t known = 0;
    bcast_condition conditions[16];
    REQUIRE(bcast_infer_partial_shape(BCAST_SEMANTICS_STRICT, BCAST_RULE_NUMPY, -1, 2, in, BCAST_MAX_RANK, out, &n,
                                      &known, 16, conditions, &num_conditions) == BCAST_OK);
    char text[256];
    const size_t len = bcast_conditions_format(num_conditions, conditions, 2, in, text, sizeof text);
    REQUIRE(len < sizeof text);
    CHECK(std::string(text) == "in0[0] == 1 or M == 1 or in0[0] == M");
}

TEST_CASE("partial conditions: hold and format refuse the same inputs", "[partial]") {
    // A condition naming a negative input, or one past num_inputs, is a bad
    // argument to both: hold says INVALID_ARGUMENT, format gives 0 (it used
    // to format "in-1[0] == 1"). Without inputs and a count, only negatives.
    const size_t ranks[2] = {2, 1};
    const int64_t d0[2] = {3, 4}, d1[1] = {4};
    const int64_t* dims[2] = {d0, d1};
    char text[64];
    int32_t holds = -1;
    for (const auto& bad : {std::array<int32_t, 3>{-1, 0, BCAST_COND_DIM_EQ_VALUE},
                            std::array<int32_t, 3>{2, 0, BCAST_COND_DIM_EQ_VALUE},
                            std::array<int32_t, 3>{0, 5, BCAST_COND_DIM_EQ_DIM},
                            std::array<int32_t, 3>{0, -3, BCAST_COND_DIM_EQ_DIM}}) {
        const bcast_condition c = {0, static_cast<bcast_cond_kind>(bad[2]), bad[0], bad[1], 0, 1};
        CAPTURE(bad[0], bad[1], bad[2]);
        CHECK(bcast_conditions_hold(1, &c, 2, ranks, dims, &holds) == BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(std::string(bcast_last_error()).rfind("a condition names input ", 0) == 0);
        CHECK(bcast_conditions_format(1, &c, 2, nullptr, text, sizeof text) == 0);
        CHECK(text[0] == '\0');
        const bool negative = bad[0] < 0 || bad[1] < 0;
        CHECK((bcast_conditions_format(1, &c, 0, nullptr, text, sizeof text) == 0) == negative);
    }
    CHECK(holds == -1);
    const bcast_condition ok = {0, BCAST_COND_DIM_EQ_DIM, 1, 0, 0, -1};
    CHECK(bcast_conditions_hold(1, &ok, 2, ranks, dims, &holds) == BCAST_OK);
    CHECK(holds == 1);  // in1[0] == in0[-1]: 4 == 4
    CHECK(bcast_conditions_format(1, &ok, 2, nullptr, text, sizeof text) > 0);
    CHECK(std::string(text) == "in1[0] == in0[-1]");
    // Any axis >= 0 is accepted; of an unknown-rank input (whose dims are
    // the last ones) it names no known dim, without arithmetic on it.
    const bcast_pdim last[1] = {{2, 2, "N"}};
    const bcast_pshape unknown_rank[1] = {{0, 1, last}};
    for (const int64_t axis : {INT64_MAX, int64_t{0}}) {
        const bcast_condition far = {0, BCAST_COND_DIM_EQ_DIM, 0, 0, axis, axis};
        CAPTURE(axis);
        CHECK(bcast_conditions_format(1, &far, 1, unknown_rank, text, sizeof text) > 0);
        CHECK(std::string(text) == "in0[" + std::to_string(axis) + "] == in0[" + std::to_string(axis) + "]");
    }
}

TEST_CASE("partial conditions: clauses out of order are refused, not read as clauses of their own", "[partial]") {
    // (in0[0] == 1 or in0[0] == 3) and in1[0] == 4, with clause 0's second
    // atom after clause 1: read by runs it would be three clauses, and with
    // in0 = (3), in1 = (5) hold would say 0 for a CNF that by numbers is
    // false too, and for in1 = (4) say 0 where the CNF holds.
    const size_t ranks[2] = {1, 1};
    const int64_t d0[1] = {3}, d1[1] = {4};
    const int64_t* dims[2] = {d0, d1};
    const bcast_condition c[3] = {{0, BCAST_COND_DIM_EQ_VALUE, 0, 0, 0, 1},
                                  {1, BCAST_COND_DIM_EQ_VALUE, 1, 0, 0, 4},
                                  {0, BCAST_COND_DIM_EQ_VALUE, 0, 0, 0, 3}};
    int32_t holds = -1;
    CHECK(bcast_conditions_hold(3, c, 2, ranks, dims, &holds) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()) ==
          "condition 2 is of clause 0 after clause 1: atoms come grouped by clause, in order");
    CHECK(holds == -1);
    char text[128];
    CHECK(bcast_conditions_format(3, c, 2, nullptr, text, sizeof text) == 0);
    // In order, the same atoms hold here: in0[0] == 3 and in1[0] == 4.
    const bcast_condition ordered[3] = {c[0], c[2], c[1]};
    CHECK(bcast_conditions_hold(3, ordered, 2, ranks, dims, &holds) == BCAST_OK);
    CHECK(holds == 1);
    REQUIRE(bcast_conditions_format(3, ordered, 2, nullptr, text, sizeof text) > 0);
    CHECK(std::string(text) == "in0[0] == 1 or in0[0] == 3\nin1[0] == 4");
    // Numbers may skip (grouped and in order is what is read).
    const bcast_condition skipping[2] = {{2, BCAST_COND_DIM_EQ_VALUE, 0, 0, 0, 3},
                                         {7, BCAST_COND_DIM_EQ_VALUE, 1, 0, 0, 4}};
    CHECK(bcast_conditions_hold(2, skipping, 2, ranks, dims, &holds) == BCAST_OK);
    CHECK(holds == 1);
}
