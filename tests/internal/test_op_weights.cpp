// What the task split weighs each op's element at: the op table's weight
// column, checked against the costs the split was tuned with (a plain + is
// 1; division-like ops 4; transcendentals 16), written out here by name.
#include "core/op_info.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

TEST_CASE("op weights: the split's cost per element of every op", "[tasks][op_info]") {
    const std::set<std::string> transcendental = {"POW", "RPOW", "ATAN2", "RATAN2", "LOGADDEXP"};
    const std::set<std::string> division = {"DIV",       "RDIV",       "FMOD", "RFMOD", "FLOOR_DIVIDE",
                                            "RFLOOR_DIVIDE", "REMAINDER", "RREMAINDER", "MOD"};
    for (int op = 0; op < bcast::kNumOpcodes; ++op) {
        const std::string name = bcast::op_info(op)->name;
        INFO(name);
        const uint64_t expected = transcendental.count(name) ? 16 : division.count(name) ? 4 : 1;
        CHECK(bcast::op_info(op)->weight == expected);
        CHECK(bcast::op_weight(op) == expected);
    }
    CHECK(bcast::op_weight(-1) == 1);  // never asked, but no out-of-range read
    CHECK(bcast::op_weight(bcast::kNumOpcodes) == 1);
}
