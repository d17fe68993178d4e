// Tasks with streaming stores on and off. A task decides streaming on the
// split threshold, execute on the op's own, so one op may store one way in
// execute and the other in its tasks; either way the bytes must be
// execute's, at output offsets that put task cuts and streamed heads
// mid-line. (The API tests' ops are too small to stream; here the
// thresholds are forced.)
#include "exec/fused_execute.hpp"
#include "exec/tasks.hpp"
#include "kernel_test_data.hpp"
#include "kernels/simd/stream_threshold.hpp"
#include "handles/operator.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <vector>

using namespace bcast;

namespace {

Shape shape(std::initializer_list<int64_t> dims) {
    Shape s;
    for (int64_t d : dims) s[s.rank++] = d;
    return s;
}

std::size_t elements(const Shape& s) {
    std::size_t n = 1;
    for (std::size_t d = 0; d < s.rank; ++d) n *= static_cast<std::size_t>(s[d]);
    return n;
}

struct Case {
    const char* name;
    std::vector<Shape> inputs;
};

// The output written by `write` at a byte offset of `offset` into a fresh
// buffer, filled first with a pattern no op here produces.
template <class Write>
bcast_test::Bytes output_of(std::size_t out_bytes, std::size_t offset, Write write) {
    std::vector<unsigned char> buffer(out_bytes + 64 + offset, 0xA5);
    auto base = reinterpret_cast<std::uintptr_t>(buffer.data());
    unsigned char* out = buffer.data() + ((64 - base % 64) % 64) + offset;
    write(out);
    return bcast_test::Bytes(out, out + out_bytes);
}

}  // namespace

TEST_CASE("tasks write what execute writes with streaming stores on and off", "[tasks]") {
    struct ThresholdGuard {
        ~ThresholdGuard() { kernels::set_stream_threshold_bytes_for_testing(0); }
    } restore;
    const Case cases[] = {
        {"vv", {shape({5000}), shape({5000})}},
        {"vs rows", {shape({3, 5, 777}), shape({1, 5, 1})}},
        {"vv over a repeated row", {shape({300, 64}), shape({64})}},
        {"periodic", {shape({700, 7}), shape({7})}},
        {"sv", {shape({1}), shape({4099})}},
    };
    std::mt19937_64 rng(7);
    const std::size_t never = std::numeric_limits<std::size_t>::max();
    for (const std::size_t threshold : {std::size_t{1}, never}) {
        kernels::set_stream_threshold_bytes_for_testing(threshold);
        for (const Case& c : cases) {
            Operator op(BCAST_OP_SUB, BCAST_DTYPE_F32);
            const std::size_t ranks[] = {c.inputs[0].rank, c.inputs[1].rank};
            const int64_t* dims[] = {c.inputs[0].dims.data(), c.inputs[1].dims.data()};
            op.plan(2, ranks, dims, nullptr, nullptr);
            const plan::FusedPlan& p = op.planned();
            REQUIRE(p.stream == (threshold == 1));
            REQUIRE(p.stream_split == p.stream);
            std::vector<bcast_test::Bytes> data;
            std::vector<const void*> in;
            for (const Shape& s : c.inputs) {
                data.push_back(bcast_test::random_elems(BCAST_DTYPE_F32, elements(s), rng));
            }
            for (const auto& d : data) in.push_back(d.data());
            const std::size_t out_bytes = elements(p.out) * sizeof(float);
            for (const std::size_t offset : {0, 4, 20}) {
                const auto want =
                    output_of(out_bytes, offset, [&](void* out) { exec::run(p, in.data(), out); });
                for (const std::size_t count : {2, 3, 7}) {
                    std::vector<std::size_t> order(count);
                    for (std::size_t i = 0; i < count; ++i) order[i] = i;
                    std::shuffle(order.begin(), order.end(), rng);
                    const auto got = output_of(out_bytes, offset, [&](void* out) {
                        for (const std::size_t t : order) exec::run_task(p, in.data(), out, t, count);
                    });
                    INFO(c.name << ", streaming " << p.stream << ", output +" << offset
                                << " bytes, " << count << " tasks");
                    CHECK(bcast_test::mismatch(BCAST_DTYPE_F32, got, want) == "");
                }
            }
        }
    }
}
