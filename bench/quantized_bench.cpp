// bcast_quantized_bench: quantized u8/i8 ADD and MUL (bcast_op_set_quantization)
// against the roofline that moves the same bytes (the int8 reference loops:
// y = a + b for two streams in, y = a + c where the other operand is small),
// and against bcast's own f32 ADD on the same element count, on one thread
// and on two (bcast's pool against a two-thread roofline that uses both
// threads), timed interleaved in the same rounds (the f32 op in a second
// run beside the quantized one). Buffers at a byte offset
// from 64-byte alignment (--offset; numpy's and malloc's 16 bytes: 16).
//
//   bcast_quantized_bench [--budget-ms N] [--offset BYTES] [--smoke]
#include "bench_options.hpp"
#include "machine_info.hpp"
#include "offset_buffer.hpp"
#include "reference_loops.hpp"
#include "reference_streaming.hpp"
#include "thread_team.hpp"
#include "timing.hpp"

#include <bcast/bcast.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Dims = std::vector<int64_t>;

[[noreturn]] void die(const char* what) {
    std::fprintf(stderr, "bcast_quantized_bench: %s: %s\n", what, bcast_last_error());
    std::exit(1);
}

void ok(bcast_status st, const char* what) {
    if (st != BCAST_OK) die(what);
}

std::size_t numel(const Dims& d) {
    int64_t n = 1;
    for (int64_t e : d) n *= e;
    return static_cast<std::size_t>(n);
}

struct Case {
    const char* label;
    Dims a, b;
};

bcast_op* make_op(bcast_opcode opcode, bcast_dtype dtype, const Case& c, bool quantized) {
    bcast_op* op = nullptr;
    ok(bcast_op_create(opcode, dtype, &op), "bcast_op_create");
    if (quantized) {
        const int32_t zp = dtype == BCAST_DTYPE_I8 ? -3 : 128;
        ok(bcast_op_set_quantization(op, 0, 0.0213f, zp), "set_quantization a");
        ok(bcast_op_set_quantization(op, 1, 0.0371f, zp + 5), "set_quantization b");
        ok(bcast_op_set_quantization(op, BCAST_OUTPUT, 0.0517f, zp - 2), "set_quantization y");
    }
    const size_t ranks[2] = {c.a.size(), c.b.size()};
    const int64_t* dims[2] = {c.a.data(), c.b.data()};
    ok(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr), "bcast_op_plan");
    return op;
}

// The same-bytes roofline of one case on `team`'s threads: each share runs
// the int8 loop (two streams in where b is as large as a, else one and a
// constant), normal or streaming stores.
bench::Batch roofline_batch(roofline::ThreadTeam& team, const int8_t* a, const int8_t* b,
                            int8_t* y, std::size_t n, bool two_streams, bool streaming) {
    return bench::repeated([=, &team] {
        team.run([=](int share, int shares) {
            std::size_t begin = 0, end = 0;
            roofline::share_range(n, 1, share, shares, begin, end);
            const std::size_t m = end - begin;
            if (two_streams) {
                if (streaming) roofline::reference_add_streaming(a + begin, b + begin, y + begin, m);
                else roofline::reference_add(a + begin, b + begin, y + begin, m);
            } else {
                if (streaming) roofline::reference_add_scalar_streaming(a + begin, 3, y + begin, m);
                else roofline::reference_add_scalar(a + begin, 3, y + begin, m);
            }
        });
    });
}

void run_case(const Case& c, bcast_opcode opcode, bcast_dtype dtype, const bench::Budget& budget,
              std::size_t offset, roofline::ThreadTeam& one, roofline::ThreadTeam& all,
              bcast_pool* pool) {
    const std::size_t n = numel(c.a), nb = numel(c.b);
    bench::OffsetBuffer a(n, offset), b(nb, offset), y(n, offset);
    bench::OffsetBuffer fa(n * 4, offset), fb(nb * 4, offset), fy(n * 4, offset);
    for (std::size_t i = 0; i < n; ++i) a.as<unsigned char>()[i] = static_cast<unsigned char>(i * 7 + 1);
    for (std::size_t i = 0; i < nb; ++i) b.as<unsigned char>()[i] = static_cast<unsigned char>(i * 13 + 5);
    std::memset(fa.data(), 0, n * 4);
    std::memset(fb.data(), 0, nb * 4);
    bcast_op* q = make_op(opcode, dtype, c, true);
    bcast_op* f = make_op(BCAST_OP_ADD, BCAST_DTYPE_F32, c, false);
    const void* qin[2] = {a.data(), b.data()};
    const void* fin[2] = {fa.data(), fb.data()};
    const auto* a8 = a.as<int8_t>();
    const auto* b8 = b.as<int8_t>();
    auto* y8 = y.as<int8_t>();
    const bool two_streams = nb == n;
    // Two runs: the roofline's, then bcast's f32 op against the quantized
    // one. In one run the f32 operands (4x the bytes) would evict from the
    // LLC the bytes the roofline and the quantized op share, and bcast's
    // cached stores pay for that while the roofline may pick streaming.
    const auto quantized = [&] { (void)bcast_op_execute(q, qin, y.data()); };
    std::vector<bench::Batch> roofline_variants{
        roofline_batch(one, a8, b8, y8, n, two_streams, false),
        roofline_batch(one, a8, b8, y8, n, two_streams, true),
        bench::repeated(quantized),
        roofline_batch(all, a8, b8, y8, n, two_streams, false),
        roofline_batch(all, a8, b8, y8, n, two_streams, true),
        bench::repeated([&] { (void)bcast_op_execute_pool(q, qin, y.data(), pool); }),
    };
    if (!roofline::streaming_available()) {
        roofline_variants[1] = roofline_variants[0];
        roofline_variants[4] = roofline_variants[3];
    }
    const bench::Interleaved t = bench::run_interleaved(roofline_variants, budget);
    const bench::Interleaved f32 = bench::run_interleaved(
        {bench::repeated(quantized), bench::repeated([&] { (void)bcast_op_execute(f, fin, fy.data()); })},
        budget);
    const std::vector<double> roof1 = bench::per_round_min(t.per_call_ns[0], t.per_call_ns[1]);
    const std::vector<double> roof2 = bench::per_round_min(t.per_call_ns[3], t.per_call_ns[4]);
    std::printf("| %s | %s %s | +%zu | %s | %s | %.2fx | %.2fx | %s | %.2fx |\n", c.label,
                dtype == BCAST_DTYPE_I8 ? "i8" : "u8", opcode == BCAST_OP_ADD ? "add" : "mul", offset,
                bench::format_time(bench::summarize(roof1).min_ns).c_str(), bench::format_time(t.stats(2).min_ns).c_str(),
                bench::median_ratio(t.per_call_ns[2], roof1), f32.paired_ratio(1, 0),
                bench::format_time(t.stats(5).min_ns).c_str(), bench::median_ratio(t.per_call_ns[5], roof2));
    std::fflush(stdout);
    bcast_op_destroy(q);
    bcast_op_destroy(f);
}

}  // namespace

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1500);
    const bench::Budget& budget = options.budget;
    const bool smoke = options.smoke;
    const std::size_t offset = options.offset;
    bcast_pool* pool = nullptr;
    ok(bcast_pool_create(0, &pool), "bcast_pool_create");
    roofline::ThreadTeam one(1), all(static_cast<int>(bcast_pool_threads(pool)));
    const bench::MachineInfo m = bench::machine_info();
    std::printf("# Quantized ops (u8, i8)\n\n- CPU: %s; %s; bcast %s, kernel set %s; %d threads\n",
                m.cpu_model.c_str(), m.date_utc.c_str(), bcast_version_string(), bcast_isa(),
                all.threads());
    std::printf("- roofline: the int8 loop moving the same bytes (two streams in where b is as "
                "large as a, else one), the faster of normal and streaming stores per round; "
                "`x roofline`: median of per-round ratios; `f32 add / quantized`: bcast's f32 ADD "
                "on the same element count over the quantized op's time; the two-thread columns "
                "run bcast's pool against the roofline on every thread\n\n");
    const Case cases[] = {
        {"(16M)+(16M)", smoke ? Dims{4096} : Dims{1 << 24}, smoke ? Dims{4096} : Dims{1 << 24}},
        {"NHWC (8,112,112,64)+(64)", smoke ? Dims{2, 4, 4, 64} : Dims{8, 112, 112, 64}, {64}},
        {"NCHW (8,64,112,112)+(1,64,1,1)", smoke ? Dims{2, 64, 4, 4} : Dims{8, 64, 112, 112},
         {1, 64, 1, 1}},
        {"(16M)+scalar", smoke ? Dims{4096} : Dims{1 << 24}, {1}},
    };
    std::printf("| case | op | offset | roofline | bcast 1T | x roofline | f32 add / quantized | "
                "bcast 2T | x roofline 2T |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (const Case& c : cases) {
        for (bcast_dtype dt : {BCAST_DTYPE_U8, BCAST_DTYPE_I8}) {
            for (bcast_opcode op : {BCAST_OP_ADD, BCAST_OP_MUL}) {
                run_case(c, op, dt, budget, offset, one, all, pool);
            }
        }
    }
    bcast_pool_destroy(pool);
    return 0;
}
