// Allocation-failure injection through the C API: for every allocation that
// create, set_param, plan, plan_to and describe make, a run in which exactly
// that allocation fails. The call must answer OUT_OF_MEMORY with a message,
// write nothing, and leave the handle as it was: its parameters, its output
// shape, and its earlier plan, which still executes to the same result. In
// the sanitizer build LeakSanitizer fails the program if any run leaked.
#include <catch2/catch.hpp>

#include <bcast/bcast.h>

#include "faults/failing_allocator.hpp"

#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using Dims = std::vector<int64_t>;

// A two-input op planned under `rule` for (2,3,4) + b, and the bytes of one
// execution of that plan, checked against element-wise float addition done here.
struct PlannedOp {
    bcast_op* op = nullptr;
    std::vector<float> a, b, out;
    Dims out_shape;

    PlannedOp(bcast_rule rule, int64_t axis, bcast_expand_mode mode, const Dims& b_dims,
              const Dims& b_bcast_strides) {
        REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op) == BCAST_OK);
        REQUIRE(bcast_op_set_param(op, BCAST_PARAM_RULE, rule) == BCAST_OK);
        REQUIRE(bcast_op_set_param(op, BCAST_PARAM_AXIS, axis) == BCAST_OK);
        REQUIRE(bcast_op_set_param(op, BCAST_PARAM_EXPAND_MODE, mode) == BCAST_OK);
        const Dims a_dims{2, 3, 4};
        const size_t ranks[] = {a_dims.size(), b_dims.size()};
        const int64_t* dims[] = {a_dims.data(), b_dims.data()};
        REQUIRE(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
        a.resize(24);
        int64_t nb = 1;
        for (int64_t d : b_dims) nb *= d;
        b.resize(static_cast<std::size_t>(nb));
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i) * 0.5f;
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = 100.0f * static_cast<float>(i + 1);
        out = run();
        // The oracle: b laid over (2,3,4) with the given element strides.
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 3; ++j)
                for (int64_t k = 0; k < 4; ++k) {
                    const int64_t flat = (i * 3 + j) * 4 + k;
                    const int64_t at = i * b_bcast_strides[0] + j * b_bcast_strides[1] +
                                       k * b_bcast_strides[2];
                    REQUIRE(out[static_cast<std::size_t>(flat)] ==
                            a[static_cast<std::size_t>(flat)] + b[static_cast<std::size_t>(at)]);
                }
        out_shape = shape();
    }
    ~PlannedOp() { bcast_op_destroy(op); }
    PlannedOp(const PlannedOp&) = delete;
    PlannedOp& operator=(const PlannedOp&) = delete;

    std::vector<float> run() const {
        std::vector<float> result(24, -1.0f);
        const void* in[] = {a.data(), b.data()};
        REQUIRE(bcast_op_execute(op, in, result.data()) == BCAST_OK);
        return result;
    }
    Dims shape() const {
        int64_t d[BCAST_MAX_RANK];
        size_t r = 0;
        REQUIRE(bcast_op_output_shape(op, BCAST_MAX_RANK, &r, d) == BCAST_OK);
        return Dims(d, d + r);
    }
    int64_t param(bcast_param p) const {
        int64_t v = 0;
        REQUIRE(bcast_op_get_param(op, p, &v) == BCAST_OK);
        return v;
    }
};

// The op's parameters and its earlier plan, of (2,3,4) + b.
struct Fixture {
    bcast_rule rule;
    int64_t axis;
    Dims b_dims, b_strides;  // b and its element strides over (2,3,4)
    bcast_expand_mode mode = BCAST_EXPAND_NUMPY;

    PlannedOp make() const { return PlannedOp(rule, axis, mode, b_dims, b_strides); }
};

const Fixture kNumpy{BCAST_RULE_NUMPY, -1, {3, 1}, {0, 1, 0}};
const Fixture kPdpd{BCAST_RULE_PDPD, 1, {3}, {0, 1, 0}};
const Fixture kNcnn{BCAST_RULE_NCNN, -1, {4}, {0, 0, 1}};

// Runs `call` on a freshly planned op once per allocation it makes, failing
// that allocation; checks the handle after each, then that the call succeeds
// (or ends as `final_status`) once no allocation fails. Returns the number
// of allocations the call makes.
int64_t fail_each_allocation(const Fixture& fx, const std::function<bcast_status(bcast_op*)>& call,
                             bcast_status final_status = BCAST_OK) {
    int64_t total = 0;
    {
        PlannedOp fresh = fx.make();
        const faults::AllocationCount c = faults::count_allocations([&] {
            CHECK(call(fresh.op) == final_status);
        });
        total = c.calls;
    }
    for (int64_t n = 1; n <= total; ++n) {
        INFO("allocation " << n << " of " << total << " fails");
        PlannedOp p = fx.make();
        bcast_status st = BCAST_OK;
        const faults::AllocationCount c = faults::count_allocations([&] { st = call(p.op); }, n);
        REQUIRE(c.failed);
        CHECK(st == BCAST_ERROR_OUT_OF_MEMORY);
        CHECK_THAT(std::string(bcast_last_error()), Catch::Contains("out of memory"));
        // The handle is as it was, and its plan still runs to the same bytes.
        CHECK(p.param(BCAST_PARAM_RULE) == fx.rule);
        CHECK(p.param(BCAST_PARAM_AXIS) == fx.axis);
        CHECK(p.param(BCAST_PARAM_EXPAND_MODE) == fx.mode);
        CHECK(p.shape() == p.out_shape);
        CHECK(p.run() == p.out);
    }
    return total;
}

// A bcast_op_plan call of two inputs, its arguments built before any
// allocation is counted.
std::function<bcast_status(bcast_op*)> plan2(Dims a, Dims b, const int64_t* const* strides = nullptr,
                                             const int64_t* out_strides = nullptr) {
    return [=](bcast_op* op) {
        const size_t ranks[] = {a.size(), b.size()};
        const int64_t* dims[] = {a.data(), b.data()};
        return bcast_op_plan(op, 2, ranks, dims, strides, out_strides);
    };
}

}  // namespace

TEST_CASE("the injector sees the library's allocations and execute makes none",
          "[faults]") {
    PlannedOp p = kNumpy.make();
    const auto call = plan2({2, 3, 4}, {3, 1});
    const auto planning = faults::count_allocations([&] { CHECK(call(p.op) == BCAST_OK); });
    CHECK(planning.calls > 0);
    std::vector<float> out(24);
    const void* in[] = {p.a.data(), p.b.data()};
    const auto executing = faults::count_allocations([&] {
        CHECK(bcast_op_execute(p.op, in, out.data()) == BCAST_OK);
    });
    CHECK(executing.calls == 0);  // the header: execute allocates nothing
    CHECK(out == p.out);
}

TEST_CASE("create answers OUT_OF_MEMORY and writes nothing", "[faults]") {
    const auto total = faults::count_allocations([] {
        bcast_op* op = nullptr;
        REQUIRE(bcast_op_create(BCAST_OP_MUL, BCAST_DTYPE_I32, &op) == BCAST_OK);
        bcast_op_destroy(op);
    });
    REQUIRE(total.calls > 0);
    for (int64_t n = 1; n <= total.calls; ++n) {
        static char marker;
        bcast_op* const sentinel = reinterpret_cast<bcast_op*>(&marker);
        bcast_op* out = sentinel;
        bcast_status st = BCAST_OK;
        const auto c = faults::count_allocations(
            [&] { st = bcast_op_create(BCAST_OP_MUL, BCAST_DTYPE_I32, &out); }, n);
        REQUIRE(c.failed);
        CHECK(st == BCAST_ERROR_OUT_OF_MEMORY);
        CHECK(out == sentinel);
    }
}

TEST_CASE("plan under numpy, pdpd and ncnn keeps the earlier plan", "[faults]") {
    const int64_t b_strides[] = {2};
    const int64_t* strides[] = {nullptr, b_strides};
    const int64_t out_strides[] = {80, 16, 1};  // padded rows
    CHECK(fail_each_allocation(kNumpy, plan2({4, 1, 3}, {2, 1})) > 0);
    CHECK(fail_each_allocation(kNumpy, plan2({5, 4, 7}, {7}, strides, out_strides)) > 0);
    CHECK(fail_each_allocation(kPdpd, plan2({2, 3, 4, 5}, {3, 4})) > 0);
    CHECK(fail_each_allocation(kNcnn, plan2({2, 3, 4}, {2})) > 0);
}

TEST_CASE("a refused plan under allocation failure", "[faults]") {
    // Shapes the rule refuses: while building the refusal's message fails,
    // OUT_OF_MEMORY with the handle unchanged; then the refusal itself.
    CHECK(fail_each_allocation(kNumpy, plan2({2, 3}, {4}), BCAST_ERROR_INCOMPATIBLE_SHAPES) > 0);
}

TEST_CASE("plan_to under every expand mode keeps the earlier plan", "[faults]") {
    struct Expand {
        bcast_expand_mode mode;
        Dims data, target, mapping;
    };
    const Expand cases[] = {{BCAST_EXPAND_NUMPY, {3, 1}, {2, 3, 4}, {}},
                            {BCAST_EXPAND_BIDIRECTIONAL, {3, 1}, {2, 1, 4}, {}},
                            {BCAST_EXPAND_EXPLICIT, {3}, {2, 3, 4}, {1}},
                            {BCAST_EXPAND_PDPD, {3}, {2, 3, 4}, {}}};
    for (const Expand& e : cases) {
        INFO("expand mode " << e.mode);
        Fixture fx = e.mode == BCAST_EXPAND_PDPD ? kPdpd : kNumpy;
        fx.mode = e.mode;  // set before the earlier plan: set_param drops plans
        CHECK(fail_each_allocation(fx, [&](bcast_op* op) {
                  const size_t ranks[] = {e.data.size(), e.data.size()};
                  const int64_t* dims[] = {e.data.data(), e.data.data()};
                  return bcast_op_plan_to(op, 2, ranks, dims, nullptr, e.target.size(),
                                          e.target.data(),
                                          e.mapping.empty() ? nullptr : e.mapping.data(),
                                          e.mapping.size(), nullptr);
              }) > 0);
    }
}

TEST_CASE("set_param allocates only for its refusal message", "[faults]") {
    // A valid value allocates nothing (so nothing can fail).
    PlannedOp p = kPdpd.make();
    const auto ok = faults::count_allocations(
        [&] { CHECK(bcast_op_set_param(p.op, BCAST_PARAM_AXIS, 2) == BCAST_OK); });
    CHECK(ok.calls == 0);
    // An invalid one: each allocation of its message may fail; the op keeps
    // its parameters and plan either way.
    CHECK(fail_each_allocation(
              kPdpd, [](bcast_op* op) { return bcast_op_set_param(op, BCAST_PARAM_AXIS, -7); },
              BCAST_ERROR_INVALID_ARGUMENT) > 0);
    CHECK(fail_each_allocation(
              kNumpy, [](bcast_op* op) { return bcast_op_set_param(op, BCAST_PARAM_RULE, 99); },
              BCAST_ERROR_INVALID_ARGUMENT) > 0);
}

TEST_CASE("describe returns 0 and writes an empty string", "[faults]") {
    char buf[512];
    CHECK(fail_each_allocation(kNumpy, [&](bcast_op* op) {
              std::memset(buf, 'x', sizeof buf);
              const size_t n = bcast_op_describe(op, buf, sizeof buf);
              if (n == 0) {
                  // The header: 0 and "" when describing fails (out of memory).
                  return buf[0] == '\0' ? BCAST_ERROR_OUT_OF_MEMORY : BCAST_ERROR_INTERNAL;
              }
              return n < sizeof buf && std::strlen(buf) == n ? BCAST_OK : BCAST_ERROR_INTERNAL;
          }) > 0);
}
