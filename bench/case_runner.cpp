#include "case_runner.hpp"

#include "operands.hpp"
#include "oracle.hpp"
#include "planned_op.hpp"
#include "reference_loops.hpp"
#include "reference_streaming.hpp"

namespace bench {
namespace {

template <class T>
Batch typed_reference(const Case& c, const Operands& ops, bool streaming) {
    const T* a = ops.a.as<const T>();
    const T* b = ops.b.as<const T>();
    T* out = ops.out.as<T>();
    const std::size_t n = static_cast<std::size_t>(ops.out_count);
    if (c.reference == Reference::AddStreams) {
        if (streaming) return repeated([=] { roofline::reference_add_streaming(a, b, out, n); });
        return repeated([=] { roofline::reference_add(a, b, out, n); });
    }
    if (streaming) {
        return repeated([=] { roofline::reference_add_scalar_streaming(a, T(3), out, n); });
    }
    return repeated([=] { roofline::reference_add_scalar(a, T(3), out, n); });
}

Batch write_reference(const Operands& ops, bool streaming) {
    float* out = ops.out.as<float>();
    const std::size_t n = static_cast<std::size_t>(ops.out_count);
    if (streaming) return repeated([=] { roofline::reference_write_streaming(out, n); });
    return repeated([=] { roofline::reference_write(out, n); });
}

// The reference loop moving the case's bytes (16-bit integers stand in for f16).
Batch make_reference(const Case& c, const Operands& ops, bool streaming) {
    if (c.reference == Reference::WriteMostly) return write_reference(ops, streaming);
    switch (c.dtype) {
        case BCAST_DTYPE_F32: return typed_reference<float>(c, ops, streaming);
        case BCAST_DTYPE_F16: return typed_reference<std::uint16_t>(c, ops, streaming);
        case BCAST_DTYPE_I8: return typed_reference<std::int8_t>(c, ops, streaming);
        default: return nullptr;
    }
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
                    const MachineInfo& machine) {
    CaseResult result;
    result.c = c;
    result.layout = layout;
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
    }

    // Variants: normal-store reference, streaming reference, then one per cap.
    const bool streaming = roofline::streaming_available();
    const std::size_t first_plan = streaming ? 2 : 1;
    std::vector<Batch> variants{make_reference(c, ops, false)};
    if (streaming) variants.push_back(make_reference(c, ops, true));
    for (const PlannedOp& op : plans) {
        const PlannedOp* p = &op;
        const void* a = ops.a.data();
        const void* b = ops.b.data();
        void* out = ops.out.data();
        variants.push_back(repeated([=] { (void)p->execute(a, b, out); }));
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
    return result;
}

}  // namespace bench
