#include "overheads.hpp"

#include "cases.hpp"
#include "operands.hpp"
#include "planned_op.hpp"

namespace bench {
namespace {

constexpr double kExecuteTargetNs = 50;
constexpr double kPlanTargetNs = 2000;

// Short batches and many of them: the distribution, not one long average.
Budget overhead_budget(bool smoke) {
    Budget b;
    b.sample_ns = 5e3;
    b.total_ns = smoke ? 2e6 : 3e8;
    b.min_rounds = smoke ? 5 : 1001;
    b.max_rounds = smoke ? 5 : 20001;
    return b;
}

Case small_case() {
    Case c;
    c.label = "(16)+(16)";
    c.dtype = BCAST_DTYPE_F32;
    c.a = c.b = c.b_as_numpy = {16};
    c.reference = Reference::AddStreams;
    return c;
}

Case rank4_case() {
    Case c;
    c.label = "(8,64,112,112)+(1,64,1,1)";
    c.dtype = BCAST_DTYPE_F32;
    c.a = {8, 64, 112, 112};
    c.b = c.b_as_numpy = {1, 64, 1, 1};
    c.reference = Reference::ScalarStream;
    return c;
}

OverheadResult execute_time(const std::string& cap, const Budget& budget,
                            const Parallel& parallel = {}) {
    const Case c = small_case();
    const std::string how =
        parallel.pool ? " on a pool of " + std::to_string(parallel.threads) : std::string();
    OverheadResult r{"execute " + c.label + " f32" + how, cap, "", {}, kExecuteTargetNs, ""};
    Operands ops(c);
    PlannedOp op;
    r.error = op.plan(c);
    if (!r.error.empty()) return r;
    r.isa = op.described("isa");
    const void* a = ops.a.data();
    const void* b = ops.b.data();
    void* out = ops.out.data();
    bcast_pool* pool = parallel.pool;
    r.stats = run_interleaved({repeated([&] { (void)op.execute(a, b, out, pool); })}, budget).stats(0);
    return r;
}

OverheadResult plan_time(const std::string& cap, const Budget& budget) {
    const Case c = rank4_case();
    OverheadResult r{"plan " + c.label + " f32", cap, "", {}, kPlanTargetNs, ""};
    PlannedOp op;
    r.error = op.plan(c);
    if (!r.error.empty()) return r;
    r.isa = op.described("isa");
    r.stats = run_interleaved({repeated([&] { (void)op.replan(c); })}, budget).stats(0);
    return r;
}

}  // namespace

std::vector<OverheadResult> measure_overheads(const std::vector<std::string>& caps, bool smoke,
                                              const std::vector<Parallel>& parallels) {
    const Budget budget = overhead_budget(smoke);
    std::vector<OverheadResult> results;
    for (const std::string& cap : caps) {
        if (!cap.empty() && bcast_set_max_isa(cap.c_str()) != BCAST_OK) continue;
        results.push_back(execute_time(cap, budget));
        for (const Parallel& p : parallels) {
            if (p.pool) results.push_back(execute_time(cap, budget, p));
        }
        results.push_back(plan_time(cap, budget));
    }
    return results;
}

}  // namespace bench
