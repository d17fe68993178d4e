#include "case_runner.hpp"

#include "operands.hpp"
#include "oracle.hpp"
#include "planned_op.hpp"
#include "reference_loops.hpp"
#include "reference_streaming.hpp"

#include <functional>

namespace bench {
namespace {

// The reference loop over elements [begin, end) of the output (and of a, b).
using RangeLoop = std::function<void(std::size_t begin, std::size_t end)>;

template <class T>
RangeLoop typed_reference(const Case& c, const Operands& ops, bool streaming) {
    const T* a = ops.a.as<const T>();
    const T* b = ops.b.as<const T>();
    T* out = ops.out.as<T>();
    if (c.reference == Reference::AddStreams) {
        if (streaming) {
            return [=](std::size_t i, std::size_t j) {
                roofline::reference_add_streaming(a + i, b + i, out + i, j - i);
            };
        }
        return [=](std::size_t i, std::size_t j) { roofline::reference_add(a + i, b + i, out + i, j - i); };
    }
    if (streaming) {
        return [=](std::size_t i, std::size_t j) {
            roofline::reference_add_scalar_streaming(a + i, T(3), out + i, j - i);
        };
    }
    return [=](std::size_t i, std::size_t j) {
        roofline::reference_add_scalar(a + i, T(3), out + i, j - i);
    };
}

// A share restarts the write pattern: other values, the same bytes moved.
RangeLoop write_reference(const Operands& ops, bool streaming) {
    float* out = ops.out.as<float>();
    if (streaming) {
        return [=](std::size_t i, std::size_t j) { roofline::reference_write_streaming(out + i, j - i); };
    }
    return [=](std::size_t i, std::size_t j) { roofline::reference_write(out + i, j - i); };
}

// The reference loop moving the case's bytes (16-bit integers stand in for f16).
RangeLoop make_range_loop(const Case& c, const Operands& ops, bool streaming) {
    if (c.reference == Reference::WriteMostly) return write_reference(ops, streaming);
    switch (c.dtype) {
        case BCAST_DTYPE_F32: return typed_reference<float>(c, ops, streaming);
        case BCAST_DTYPE_F16: return typed_reference<std::uint16_t>(c, ops, streaming);
        case BCAST_DTYPE_I8: return typed_reference<std::int8_t>(c, ops, streaming);
        default: return nullptr;
    }
}

// The reference as a batch: the whole range on one thread, or each of the
// team's threads on its share.
Batch make_reference(const Case& c, const Operands& ops, bool streaming, roofline::ThreadTeam* team) {
    const RangeLoop loop = make_range_loop(c, ops, streaming);
    if (!loop) return nullptr;
    const std::size_t n = static_cast<std::size_t>(ops.out_count);
    if (!team) return repeated([=] { loop(0, n); });
    const std::size_t es = c.reference == Reference::WriteMostly ? sizeof(float) : ops.element_size;
    const std::function<void(int, int)> share = [=](int i, int shares) {
        std::size_t begin = 0, end = 0;
        roofline::share_range(n, es, i, shares, begin, end);
        if (begin < end) loop(begin, end);
    };
    return repeated([=] { team->run(share); });
}

// Plans under `cap` and checks one execution; "" when all is well.
std::string plan_and_check(const Case& c, const std::string& cap, Operands& ops,
                           PlannedOp& op, IsaResult& result) {
    result.cap = cap;
    if (!cap.empty()) {
        const bcast_status st = bcast_set_max_isa(cap.c_str());
        if (st != BCAST_OK) return "bcast_set_max_isa(" + cap + "): " + api_error(st);
    }
    std::string error = op.plan(c);
    if (!error.empty()) return "plan: " + error;
    result.isa = op.described("isa");
    result.kernel = op.described("kernel");
    poison_output(ops);
    const bcast_status st = op.execute(ops.a.data(), ops.b.data(), ops.out.data());
    if (st != BCAST_OK) return "execute: " + api_error(st);
    error = check_output(c, ops);
    return error.empty() ? "" : "wrong result under " + result.isa + ": " + error;
}

}  // namespace

CaseResult run_case(const Case& c, const OffsetLayout& layout,
                    const std::vector<std::string>& caps, const Budget& budget,
                    const MachineInfo& machine, const Parallel& parallel) {
    CaseResult result;
    result.c = c;
    result.layout = layout;
    result.threads = parallel.threads;
    const std::size_t size = bcast_dtype_size(c.dtype);
    if (layout.a % size || layout.b % size || layout.out % size) {
        result.error = "offsets not a multiple of the element size";
        return result;
    }
    Operands ops(c, layout);
    result.bytes = ops.bytes_moved();
    result.where = residency(result.bytes, machine);

    std::vector<PlannedOp> plans(caps.size());
    result.bcast.resize(caps.size());
    for (std::size_t i = 0; i < caps.size(); ++i) {
        result.error = plan_and_check(c, caps[i], ops, plans[i], result.bcast[i]);
        if (!result.error.empty()) return result;
        if (parallel.threads > 1) {  // the pool's result is checked too
            poison_output(ops);
            const bcast_status st =
                plans[i].execute(ops.a.data(), ops.b.data(), ops.out.data(), parallel.pool);
            const std::string wrong = st == BCAST_OK ? check_output(c, ops) : api_error(st);
            if (!wrong.empty()) {
                result.error = "on " + std::to_string(parallel.threads) + " threads: " + wrong;
                return result;
            }
        }
    }

    // Variants: normal-store reference, streaming reference, then one per cap.
    const bool streaming = roofline::streaming_available();
    const std::size_t first_plan = streaming ? 2 : 1;
    // The reference runs on as many threads as bcast splits the op into: on
    // one when bcast runs it on the caller alone (a small op), so that the
    // ratio never compares bcast with a split too small to pay.
    std::size_t tasks = 1;
    if (parallel.threads > 1 && !plans.empty()) {
        bcast_op_task_count(plans[0].handle(), static_cast<std::size_t>(parallel.threads), &tasks);
    }
    result.tasks = static_cast<int>(tasks);
    roofline::ThreadTeam* team = tasks > 1 ? parallel.team : nullptr;
    std::vector<Batch> variants{make_reference(c, ops, false, team)};
    if (streaming) variants.push_back(make_reference(c, ops, true, team));
    for (const PlannedOp& op : plans) {
        const PlannedOp* p = &op;
        const void* a = ops.a.data();
        const void* b = ops.b.data();
        void* out = ops.out.data();
        bcast_pool* pool = parallel.threads > 1 ? parallel.pool : nullptr;
        variants.push_back(repeated([=] { (void)p->execute(a, b, out, pool); }));
    }
    // On a pool, the first cap's plain execute too, in the same rounds: the
    // speed-up pairs them round by round, free of the drift between rows.
    const std::size_t one_thread = variants.size();
    if (parallel.threads > 1 && !plans.empty()) {
        const PlannedOp* p = &plans[0];
        const void* a = ops.a.data();
        const void* b = ops.b.data();
        void* out = ops.out.data();
        variants.push_back(repeated([=] { (void)p->execute(a, b, out, nullptr); }));
    }
    const Interleaved timed = run_interleaved(variants, budget);
    const std::vector<double>& normal = timed.per_call_ns[0];
    const std::vector<double> roofline =
        streaming ? per_round_min(normal, timed.per_call_ns[1]) : normal;
    result.reference = summarize(roofline);
    result.reference_normal = timed.stats(0);
    if (streaming) {
        result.reference_streaming = timed.stats(1);
        result.streaming_faster = result.reference_streaming.min_ns < result.reference_normal.min_ns;
    }
    for (std::size_t i = 0; i < caps.size(); ++i) {
        result.bcast[i].stats = timed.stats(first_plan + i);
        result.bcast[i].over_reference = median_ratio(timed.per_call_ns[first_plan + i], roofline);
    }
    if (caps.size() >= 2) result.second_over_first = timed.paired_ratio(first_plan + 1, first_plan);
    if (variants.size() > one_thread) result.speedup = timed.paired_ratio(one_thread, first_plan);
    return result;
}

}  // namespace bench
