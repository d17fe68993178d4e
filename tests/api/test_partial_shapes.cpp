// Strict partial-shape inference through the public C API against the static
// rules (tests/partial_property.hpp): seeded random partial shapes for every
// rule and expand mode, each checked on every assignment that can matter.
#include "partial_property.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <random>

namespace {

struct Seeded {
    std::mt19937_64 rng;
    int64_t range(int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    }
};

}  // namespace

TEST_CASE("partial strict: sound and complete on random partial shapes", "[partial]") {
    Seeded src{std::mt19937_64(20261127)};
    // BCAST_PARTIAL_CASES=1000000 for a long run; the default keeps ctest short.
    const char* env = std::getenv("BCAST_PARTIAL_CASES");
    const long total = env ? std::atol(env) : 3000;
    uint64_t cases = 0, assignments = 0;
    for (long k = 0; k < total; ++k) {
        const partial_property::Case c = partial_property::random_case(src);
        const partial_property::Outcome o = partial_property::check(c, 3000);
        if (!o.checked) continue;
        ++cases;
        assignments += o.assignments;
        INFO(o.violation);
        REQUIRE(o.violation.empty());
    }
    WARN(cases << " cases checked, " << assignments << " assignments");
    CHECK(cases * 2 > static_cast<uint64_t>(total));
}
