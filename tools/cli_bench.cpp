// `bcast bench`: time one planned op against a same-run roofline loop.
//
// The roofline is the reference bench/bcast_bench uses (roofline/): the
// plainest vector loop moving the case's bytes, per round the faster of its
// normal-store and streaming-store forms, on the case's own buffers. Batches
// of bcast and of the loops alternate, so all see the same machine state; the
// ratio bcast / roofline says how close bcast gets to simply moving its data.
#include "cli_commands.hpp"
#include "cli_common.hpp"
#include "cli_options.hpp"
#include "cli_names.hpp"
#include "cli_parse.hpp"
#include "cli_roofline.hpp"

#include "reference_loops.hpp"
#include "thread_team.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace bcast_cli {

const char* const kBenchHelp =
    "usage: bcast bench [--op OP] [--dtype DT] [--rule RULE] [--axis N] [--seconds S]\n"
    "                   [--isa NAME] [--threads N] [--quant S:Z...] SHAPE SHAPE...\n"
    "\n"
    "Plans one op for the input shapes once, then executes it repeatedly for about\n"
    "S seconds (default 1), alternating with a roofline loop on the same buffers:\n"
    "the reference of bench/bcast_bench, y=a+b when two inputs are as large as the\n"
    "output, y=a+c when one is, else a write stream, over the output's bytes, at\n"
    "the widest vector ISA, per round the faster of normal and non-temporal\n"
    "stores. Prints the time per execute, the throughput in GB/s (input bytes\n"
    "read + output bytes written, per second), the reference used, and the ratio\n"
    "bcast time / roofline time (1.00x = at the roofline). When the loop moves\n"
    "other bytes than the case (a bool output, a partly broadcast input), the\n"
    "roofline time is scaled to the case's bytes, i.e. the ratio is roofline\n"
    "GB/s / bcast GB/s. Runs longer than a second show progress on stderr.\n"
    "\n"
    "  --op OP       opcode name or number (default add; see `bcast plan --help`)\n"
    "  --dtype DT    {DTYPES}\n"
    "                (default f32)\n"
    "  --rule RULE   {RULES}\n"
    "                (default numpy)\n"
    "  --axis N      axis for pdpd / onnx_legacy (default -1)\n"
    "  --seconds S   measuring time (default 1)\n"
    "  --isa NAME    cap the kernel set first (bcast_set_max_isa)\n"
    "  --threads N   bcast on a bcast_pool of N threads (0: every CPU this process\n"
    "                may use; default 1), and the roofline loop on as many\n"
    "                threads, each on its share of the output\n"
    "  --quant S:Z   quantized u8/i8 (bcast_op_set_quantization): each input's\n"
    "                scale and zero point in order, then the output's\n"
    "\n"
    "Inputs hold the value 1 (true for bool), so every op runs its ordinary path.\n";

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A buffer of `count` elements of `dtype`, each holding 1.
std::vector<unsigned char> ones(int32_t dtype, size_t count) {
    const size_t size = bcast_dtype_size(dtype);
    unsigned char one[8] = {1};  // integers (little-endian) and bool
    const float f32 = 1.0f;
    const double f64 = 1.0;
    const uint16_t f16 = 0x3C00, bf16 = 0x3F80;  // 1.0 in binary16 and bfloat16
    if (dtype == BCAST_DTYPE_F32) std::memcpy(one, &f32, sizeof f32);
    if (dtype == BCAST_DTYPE_F64) std::memcpy(one, &f64, sizeof f64);
    if (dtype == BCAST_DTYPE_F16) std::memcpy(one, &f16, sizeof f16);
    if (dtype == BCAST_DTYPE_BF16) std::memcpy(one, &bf16, sizeof bf16);
    std::vector<unsigned char> buf(size * count);
    for (size_t i = 0; i < count; ++i) std::memcpy(&buf[i * size], one, size);
    return buf;
}

// Shows elapsed progress once a second: a percentage on a terminal, dots otherwise.
class Progress {
public:
    explicit Progress(double total) : total_(total), tty_(isatty(STDERR_FILENO) != 0) {}
    void update(double elapsed) {
        if (elapsed < next_) return;
        next_ = static_cast<double>(static_cast<int>(elapsed)) + 1.0;
        if (tty_) {
            const int pct = static_cast<int>(100.0 * elapsed / total_);
            std::fprintf(stderr, "\rbench: %3d%%", pct > 100 ? 100 : pct);
        } else {
            std::fputc('.', stderr);
        }
        std::fflush(stderr);
        shown_ = true;
    }
    void finish() {
        if (shown_) std::fputs(tty_ ? "\rbench: done\n" : "\n", stderr);
        shown_ = false;
    }

private:
    double total_;
    double next_ = 1.0;
    bool tty_;
    bool shown_ = false;
};

struct Totals {
    double seconds = 0;
    uint64_t runs = 0;
};

}  // namespace

int cmd_bench(int argc, char** argv) {
    const Options o = parse_options(argc, argv, 2, kRuleOptions | kOpOption | kDtypeOption |
                                                       kSecondsOption | kIsaOption |
                                                       kThreadsOption | kQuantOption);
    if (o.help) {
        std::fputs(with_names(kBenchHelp).c_str(), stdout);
        return kExitOk;
    }
    const std::vector<Shape> shapes = shapes_of(o);
    if (shapes.size() > BCAST_MAX_INPUTS)
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " shapes");
    if (!apply_isa(o)) return kExitRefused;

    OpHandle h;
    PoolHandle pool;
    const ShapeTable table(shapes);
    bcast_status st = make_pool(o, &pool);
    if (st == BCAST_OK) st = create_op(o, o.dtype, shapes.size(), &h);
    if (st == BCAST_OK)
        st = bcast_op_plan(h.op, shapes.size(), table.ranks.data(), table.dims.data(), nullptr,
                           nullptr);
    int64_t dims[BCAST_MAX_RANK];
    size_t rank = 0;
    if (st == BCAST_OK) st = bcast_op_output_shape(h.op, BCAST_MAX_RANK, &rank, dims);
    if (st != BCAST_OK) return refused(st);
    const Shape out_shape(dims, dims + rank);

    // The plan has checked that every size fits.
    const auto count = [](const Shape& s) {
        size_t n = 1;
        for (int64_t d : s) n *= static_cast<size_t>(d);
        return n;
    };
    std::vector<std::vector<unsigned char>> inputs;
    std::vector<const void*> pointers;
    size_t bytes = 0;
    for (size_t i = 0; i < shapes.size(); ++i) {
        const bool condition = o.op == BCAST_OP_SELECT && i == 0;
        inputs.push_back(ones(condition ? BCAST_DTYPE_BOOL : o.dtype, count(shapes[i])));
        bytes += inputs.back().size();
    }
    for (const auto& in : inputs) pointers.push_back(in.data());
    std::vector<unsigned char> out(count(out_shape) *
                                   bcast_dtype_size(output_dtype(o.op, o.dtype)));
    bytes += out.size();

    const auto execute = [&] {
        return bcast_op_execute_pool(h.op, pointers.data(), out.data(), pool.pool);
    };
    st = execute();
    if (st != BCAST_OK) return refused(st);
    // Batches of about 20 ms (or less for short runs), found by doubling,
    // for bcast and the roofline apart: on more threads than CPUs a small
    // roofline pass costs thousands of small executes.
    const double batch_target = o.seconds / 10 < 0.02 ? o.seconds / 10 : 0.02;
    const auto calibrate = [batch_target](const auto& once) {
        uint64_t batch = 1;
        for (;;) {
            const Clock::time_point t0 = Clock::now();
            for (uint64_t r = 0; r < batch; ++r) once();
            if (seconds_since(t0) >= batch_target || batch >= (uint64_t{1} << 40)) return batch;
            batch *= 2;
        }
    };
    const uint64_t batch = calibrate(execute);

    CaseBuffers buffers;
    for (const auto& in : inputs) {
        buffers.inputs.push_back(in.data());
        buffers.input_bytes.push_back(in.size());
    }
    buffers.output = out.data();
    buffers.output_bytes = out.size();
    buffers.output_dtype = output_dtype(o.op, o.dtype);
    const Roofline roofline(buffers);
    const bool streaming = Roofline::streaming_available();
    // With --threads, the loop runs on as many threads, each on its share.
    const size_t threads = pool.pool ? bcast_pool_threads(pool.pool) : 1;
    roofline::ThreadTeam team(static_cast<int>(threads));
    const auto run_roofline = [&](bool nt) { roofline.run(nt, team); };
    const uint64_t roof_batch = calibrate([&] { run_roofline(false); });

    // Each round: one batch of bcast, of the normal-store loop and of the
    // streaming-store loop, in an order that alternates between rounds; the
    // roofline's share of the round is the faster loop's batch.
    const auto timed = [](uint64_t runs, const auto& once) {
        const Clock::time_point t0 = Clock::now();
        for (uint64_t r = 0; r < runs; ++r) once();
        return seconds_since(t0);
    };
    Totals lib, roof;
    uint64_t streaming_rounds = 0, rounds = 0;
    bcast_status failure = BCAST_OK;
    Progress progress(o.seconds);
    const Clock::time_point start = Clock::now();
    // At least one round, however short the time asked: the figures divide by it.
    while ((rounds == 0 || seconds_since(start) < o.seconds) && failure == BCAST_OK) {
        const auto run_bcast = [&] {
            lib.seconds += timed(batch, [&] {
                const bcast_status status = execute();
                if (status != BCAST_OK) failure = status;
            });
        };
        if (rounds % 2 == 0) run_bcast();
        const double normal = timed(roof_batch, [&] { run_roofline(false); });
        const double nt = streaming ? timed(roof_batch, [&] { run_roofline(true); }) : normal;
        if (rounds % 2 == 1) run_bcast();
        roof.seconds += nt < normal ? nt : normal;
        streaming_rounds += nt < normal ? 1 : 0;
        lib.runs += batch;
        roof.runs += roof_batch;
        ++rounds;
        progress.update(seconds_since(start));
    }
    progress.finish();
    if (failure != BCAST_OK) return refused(failure);
    const std::string plan = describe(h.op);
    const auto field = [&plan](const char* key) {  // a string field of the plan's JSON
        const std::string k = std::string("\"") + key + "\":\"";
        const size_t at = plan.find(k);
        if (at == std::string::npos) return std::string("?");
        return plan.substr(at + k.size(), plan.find('"', at + k.size()) - at - k.size());
    };

    const double lib_ns = 1e9 * lib.seconds / static_cast<double>(lib.runs);
    const double roof_ns = 1e9 * roof.seconds / static_cast<double>(roof.runs);
    const double roof_bytes = static_cast<double>(roofline.bytes());
    std::string inputs_text;
    for (const Shape& s : shapes) inputs_text += format_shape(s, false) + " ";
    std::printf("case:      %s %s %s %s-> %s, kernel %s, isa %s, %zu bytes per execute\n",
                field("op").c_str(), dtype_name(o.dtype), field("rule").c_str(),
                inputs_text.c_str(), format_shape(out_shape, false).c_str(),
                field("kernel").c_str(), field("isa").c_str(), bytes);
    if (threads > 1) {
        size_t tasks = 1;
        bcast_op_task_count(h.op, threads, &tasks);
        std::printf("threads:   %zu (bcast_pool: %zu tasks per execute; the roofline loop on %zu "
                    "threads)\n", threads, tasks, threads);
    }
    std::printf("bcast:     %.1f ns/execute, %.2f GB/s (%llu executes)\n", lib_ns,
                static_cast<double>(bytes) / lib_ns, static_cast<unsigned long long>(lib.runs));
    if (roofline.bytes() == 0) {
        std::printf("roofline:  none (the output is too small for a reference loop)\n");
        return kExitOk;
    }
    std::printf("roofline:  %.1f ns/pass, %.2f GB/s (%llu passes)\n", roof_ns, roof_bytes / roof_ns,
                static_cast<unsigned long long>(roof.runs));
    std::printf("reference: %s, %s clone, %zu bytes per pass%s; ", roofline.loop().c_str(),
                roofline::reference_isa(), roofline.bytes(),
                roofline.bytes() == bytes ? " (as the case)" : " (time scaled to the case's bytes)");
    if (streaming) {
        std::printf("per round the faster of normal and non-temporal stores (non-temporal in "
                    "%llu of %llu rounds)\n",
                    static_cast<unsigned long long>(streaming_rounds),
                    static_cast<unsigned long long>(rounds));
    } else {
        std::printf("normal stores (no non-temporal store loop on this CPU)\n");
    }
    // The roofline's time for the case's bytes; equal to roof_ns when the
    // loop moves exactly the case's bytes.
    const double roof_case_ns = roof_ns * static_cast<double>(bytes) / roof_bytes;
    std::printf("ratio:     %.2fx of roofline (bcast / roofline; 1.00x = at the roofline)\n",
                lib_ns / roof_case_ns);
    // A reference that bcast beats by far is not one: at this size the
    // team's wake-ups are its time.
    if (threads > 1 && lib_ns * 2 < roof_case_ns) {
        std::printf("note:      the %zu-thread roofline is slower than bcast here (waking its threads "
                    "costs more than the bytes): no reference at this size\n", threads);
    }
    return kExitOk;
}

}  // namespace bcast_cli
