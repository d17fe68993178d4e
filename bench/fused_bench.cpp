// bcast_fused_bench: fused expressions (bcast_expr_*) against the same ops
// run one by one with bcast_op_* and against the two-stream roofline (the
// reference loop y = x + c: one stream in, one out, the least any chain over
// x can move), timed interleaved in the same rounds. Also: a 2-node chain
// against the slower of its two ops alone, and the time to plan an 8-node
// chain. numpy's side is bench/compare_numpy_fused.py.
//
//   bcast_fused_bench [--budget-ms N] [--offset BYTES] [--smoke]
#include "aligned_buffer.hpp"
#include "bench_options.hpp"
#include "machine_info.hpp"
#include "offset_buffer.hpp"
#include "reference_loops.hpp"
#include "reference_streaming.hpp"
#include "timing.hpp"

#include <bcast/bcast.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Dims = std::vector<int64_t>;

[[noreturn]] void die(const char* what) {
    std::fprintf(stderr, "bcast_fused_bench: %s: %s\n", what, bcast_last_error());
    std::exit(1);
}

void ok(bcast_status st, const char* what) {
    if (st != BCAST_OK) die(what);
}

int64_t numel(const Dims& d) {
    int64_t n = 1;
    for (int64_t e : d) n *= e;
    return n;
}

// A chain x -> op_1(., p_1) -> ... -> op_k(., p_k), every p of `param` shape
// but the last, of `last_param` shape when that is given.
struct Chain {
    const char* label;
    Dims x, param;
    std::vector<bcast_opcode> ops;
    Dims last_param = {};

    const Dims& param_of(std::size_t k) const {
        return k + 1 == ops.size() && !last_param.empty() ? last_param : param;
    }
};

bcast_expr* make_expr(const Chain& c) {
    bcast_expr* e = nullptr;
    ok(bcast_expr_create(BCAST_DTYPE_F32, c.ops.size() + 1, &e), "bcast_expr_create");
    size_t value = 0;
    for (std::size_t k = 0; k < c.ops.size(); ++k) {
        const size_t operands[2] = {k == 0 ? 0 : value, k + 1};
        ok(bcast_expr_add_node(e, c.ops[k], BCAST_RULE_NUMPY, -1, 2, operands, &value), "add_node");
    }
    std::vector<size_t> ranks{c.x.size()};
    std::vector<const int64_t*> dims{c.x.data()};
    for (std::size_t k = 0; k < c.ops.size(); ++k) {
        ranks.push_back(c.param_of(k).size());
        dims.push_back(c.param_of(k).data());
    }
    ok(bcast_expr_plan(e, ranks.size(), ranks.data(), dims.data(), nullptr, nullptr), "bcast_expr_plan");
    return e;
}

bcast_op* make_op(bcast_opcode opcode, const Dims& x, const Dims& p) {
    bcast_op* op = nullptr;
    ok(bcast_op_create(opcode, BCAST_DTYPE_F32, &op), "bcast_op_create");
    const size_t ranks[2] = {x.size(), p.size()};
    const int64_t* dims[2] = {x.data(), p.data()};
    ok(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr), "bcast_op_plan");
    return op;
}

void run_chain(const Chain& c, const bench::Budget& budget, std::size_t offset) {
    const std::size_t n = static_cast<std::size_t>(numel(c.x));
    bench::OffsetBuffer x(n * 4, offset), y(n * 4, offset), t(n * 4, offset);
    std::vector<bench::OffsetBuffer> params;
    for (std::size_t k = 0; k < c.ops.size(); ++k) {
        const std::size_t np = static_cast<std::size_t>(numel(c.param_of(k)));
        params.emplace_back(np * 4, offset);
        for (std::size_t i = 0; i < np; ++i) params[k].as<float>()[i] = 1.f + 0.01f * static_cast<float>((i + k) % 13);
    }
    float* xf = x.as<float>();
    for (std::size_t i = 0; i < n; ++i) xf[i] = static_cast<float>(i % 97) * 0.25f - 3.f;
    bcast_expr* e = make_expr(c);
    std::vector<bcast_op*> ops;
    for (std::size_t k = 0; k < c.ops.size(); ++k) ops.push_back(make_op(c.ops[k], c.x, c.param_of(k)));
    std::vector<const void*> in{x.data()};
    for (auto& p : params) in.push_back(p.data());

    // Check: the fused result is the unfused one, byte for byte.
    ok(bcast_expr_execute(e, in.data(), y.data()), "bcast_expr_execute");
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const void* pair[2] = {k == 0 ? x.data() : t.data(), params[k].data()};
        ok(bcast_op_execute(ops[k], pair, t.data()), "bcast_op_execute");
    }
    if (std::memcmp(y.data(), t.data(), n * 4) != 0) {
        std::fprintf(stderr, "bcast_fused_bench: %s: fused and unfused results differ\n", c.label);
        std::exit(1);
    }

    const float* xp = xf;
    float* yp = y.as<float>();
    std::vector<bench::Batch> variants{
        bench::repeated([=] { roofline::reference_add_scalar(xp, 3.f, yp, n); }),
        bench::repeated([=] { roofline::reference_add_scalar_streaming(xp, 3.f, yp, n); }),
        bench::repeated([&] { (void)bcast_expr_execute(e, in.data(), y.data()); }),
        bench::repeated([&] {
            for (std::size_t k = 0; k < ops.size(); ++k) {
                const void* pair[2] = {k == 0 ? x.data() : t.data(), params[k].data()};
                (void)bcast_op_execute(ops[k], pair, t.data());
            }
        }),
    };
    if (!roofline::streaming_available()) variants[1] = variants[0];
    const bench::Interleaved timed = bench::run_interleaved(variants, budget);
    const std::vector<double> roof = bench::per_round_min(timed.per_call_ns[0], timed.per_call_ns[1]);
    const double fused_x_roof = bench::median_ratio(timed.per_call_ns[2], roof);
    const double unfused_over_fused = timed.paired_ratio(3, 2);
    std::printf("| %s | %zu | +%zu | %s | %s | %s | %.2fx | %.2fx |\n", c.label, c.ops.size(), offset,
                bench::format_time(bench::summarize(roof).min_ns).c_str(), bench::format_time(timed.stats(2).min_ns).c_str(),
                bench::format_time(timed.stats(3).min_ns).c_str(), fused_x_roof, unfused_over_fused);
    std::fflush(stdout);
    for (bcast_op* op : ops) bcast_op_destroy(op);
    bcast_expr_destroy(e);
}

// A 2-node chain against each of its ops alone, all timed interleaved.
void run_pair(const Chain& c, float second_value, const bench::Budget& budget) {
    const std::size_t n = static_cast<std::size_t>(numel(c.x));
    const std::size_t np0 = static_cast<std::size_t>(numel(c.param_of(0)));
    const std::size_t np1 = static_cast<std::size_t>(numel(c.param_of(1)));
    bench::AlignedBuffer x(n * 4), y(n * 4), p0(np0 * 4), p1(np1 * 4);
    std::memset(x.data(), 0, n * 4);
    for (std::size_t i = 0; i < np0; ++i) p0.as<float>()[i] = 1.5f;
    for (std::size_t i = 0; i < np1; ++i) p1.as<float>()[i] = second_value;
    bcast_expr* e = make_expr(c);
    bcast_op* a = make_op(c.ops[0], c.x, c.param_of(0));
    bcast_op* b = make_op(c.ops[1], c.x, c.param_of(1));
    const void* in3[3] = {x.data(), p0.data(), p1.data()};
    const void* in_a[2] = {x.data(), p0.data()};
    const void* in_b[2] = {x.data(), p1.data()};
    const std::vector<bench::Batch> variants{
        bench::repeated([&] { (void)bcast_expr_execute(e, in3, y.data()); }),
        bench::repeated([&] { (void)bcast_op_execute(a, in_a, y.data()); }),
        bench::repeated([&] { (void)bcast_op_execute(b, in_b, y.data()); }),
    };
    const bench::Interleaved timed = bench::run_interleaved(variants, budget);
    // Per round, the slower op: a round's ratio cancels the host's drift
    // between rounds, as the other ratio columns do.
    std::vector<double> slower(timed.per_call_ns[1].size());
    for (std::size_t r = 0; r < slower.size(); ++r) {
        slower[r] = std::max(timed.per_call_ns[1][r], timed.per_call_ns[2][r]);
    }
    std::printf("| %s | %s | %s | %s | %.2fx |\n", c.label, bench::format_time(timed.stats(0).min_ns).c_str(),
                bench::format_time(timed.stats(1).min_ns).c_str(), bench::format_time(timed.stats(2).min_ns).c_str(),
                bench::median_ratio(timed.per_call_ns[0], slower));
    bcast_op_destroy(a);
    bcast_op_destroy(b);
    bcast_expr_destroy(e);
}

// Planning an 8-node chain over rank-4 shapes, as bcast_expr_plan.
void run_planning(const bench::Budget& budget) {
    Chain c{"plan", {8, 64, 112, 112}, {1, 64, 1, 1},
            {BCAST_OP_SUB, BCAST_OP_MUL, BCAST_OP_MUL, BCAST_OP_ADD, BCAST_OP_MAX, BCAST_OP_MIN,
             BCAST_OP_MUL, BCAST_OP_ADD}};
    bcast_expr* e = make_expr(c);
    std::vector<size_t> ranks(9, 4);
    std::vector<const int64_t*> dims(9, c.param.data());
    dims[0] = c.x.data();
    const std::vector<bench::Batch> variants{bench::repeated(
        [&] { (void)bcast_expr_plan(e, 9, ranks.data(), dims.data(), nullptr, nullptr); })};
    const bench::Interleaved timed = bench::run_interleaved(variants, budget);
    std::printf("\nPlanning an 8-node chain over (8,64,112,112) and (1,64,1,1): %s min, %s median "
                "(target 10 us)\n", bench::format_time(timed.stats(0).min_ns).c_str(),
                bench::format_time(timed.stats(0).median_ns).c_str());
    bcast_expr_destroy(e);
}

}  // namespace

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 2000);
    const bench::Budget& budget = options.budget;
    const bool smoke = options.smoke;
    const std::size_t offset = options.offset;
    const bench::MachineInfo m = bench::machine_info();
    std::printf("# Fused expressions (f32)\n\n- CPU: %s; %s; bcast %s, kernel set %s\n", m.cpu_model.c_str(),
                m.date_utc.c_str(), bcast_version_string(), bcast_isa());
    std::printf("- roofline: y = x + c (one stream in, one out), the faster of normal and streaming "
                "stores per round; `x roofline` = fused time / roofline (median of per-round ratios); "
                "`unfused / fused`: the same ops run one by one through bcast_op_execute, in place on a "
                "temporary; `fused / slower op`: median of per-round ratios to the slower op of the "
                "round\n\n");
    const Dims big = smoke ? Dims{2, 64, 8, 8} : Dims{8, 64, 112, 112};
    const Dims nhwc = smoke ? Dims{2, 8, 8, 64} : Dims{8, 112, 112, 64};
    const std::vector<bcast_opcode> tail{BCAST_OP_SUB, BCAST_OP_MUL, BCAST_OP_MUL, BCAST_OP_ADD};
    const Chain chains[] = {
        {"(x - mean) * rstd * gamma + beta, NCHW (1,64,1,1)", big, {1, 64, 1, 1}, tail},
        {"(x - mean) * rstd * gamma + beta, NHWC (64)", nhwc, {64}, tail},
        {"x * scale + shift, NCHW (1,64,1,1)", big, {1, 64, 1, 1}, {BCAST_OP_MUL, BCAST_OP_ADD}},
    };
    std::printf("| chain | nodes | offset | roofline | fused | unfused | x roofline | unfused / fused |\n");
    std::printf("|---|---:|---|---:|---:|---:|---:|---:|\n");
    for (const Chain& c : chains) run_chain(c, budget, offset);
    std::printf("\n| 2-node chain | fused | first op alone | second op alone | fused / slower op |\n");
    std::printf("|---|---:|---:|---:|---:|\n");
    run_pair(chains[2], 1.5f, budget);
    // Bias and ReLU: b as large as x, the 0 a scalar.
    run_pair({"x + b, then max(., 0), (1M)+(1M), then (1)", smoke ? Dims{4096} : Dims{1 << 20},
              smoke ? Dims{4096} : Dims{1 << 20}, {BCAST_OP_ADD, BCAST_OP_MAX}, Dims{1}},
             0.f, budget);
    run_planning(budget);
    return 0;
}
