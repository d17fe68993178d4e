// `bcast bench`: time one planned op against a same-run roofline loop.
//
// The roofline is a plain streaming pass over the same bytes an execute reads
// (every input buffer once) and writes (the output once). Batches of the two
// alternate, so both see the same machine state; the ratio says how close
// bcast gets to simply moving its data.
#include "cli_commands.hpp"
#include "cli_common.hpp"
#include "cli_options.hpp"
#include "cli_parse.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace bcast_cli {

const char* const kBenchHelp =
    "usage: bcast bench [--op OP] [--dtype DT] [--rule RULE] [--axis N] [--seconds S]\n"
    "                   [--isa NAME] SHAPE SHAPE...\n"
    "\n"
    "Plans one op for the input shapes once, then executes it repeatedly for about\n"
    "S seconds (default 1), alternating with a roofline loop that reads and writes\n"
    "the same number of bytes. Prints the time per execute, the throughput in GB/s\n"
    "(input bytes read + output bytes written, per second) and the ratio to the\n"
    "roofline. Runs longer than a second show progress on stderr.\n"
    "\n"
    "  --op OP       opcode name or number (default add; see `bcast plan --help`)\n"
    "  --dtype DT    f32 (default) f64 f16 bf16 i8 u8 i16 u16 i32 u32 i64 u64 bool\n"
    "  --rule RULE   none, numpy (default), unidirectional, pdpd, onnx_legacy, ncnn\n"
    "  --axis N      axis for pdpd / onnx_legacy (default -1)\n"
    "  --seconds S   measuring time (default 1)\n"
    "  --isa NAME    cap the kernel set first (bcast_set_max_isa)\n"
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

// One roofline pass: read every input byte, write every output byte.
[[gnu::noinline]] uint64_t roofline_pass(const std::vector<std::vector<unsigned char>>& inputs,
                                         std::vector<unsigned char>& out, uint64_t seed) {
    uint64_t acc = seed;
    for (const std::vector<unsigned char>& in : inputs) {
        const size_t words = in.size() / 8;
        for (size_t i = 0; i < words; ++i) {
            uint64_t w;
            std::memcpy(&w, &in[i * 8], 8);
            acc ^= w;
        }
        for (size_t i = words * 8; i < in.size(); ++i) acc ^= in[i];
    }
    const size_t words = out.size() / 8;
    for (size_t i = 0; i < words; ++i) std::memcpy(&out[i * 8], &acc, 8);
    std::memset(out.data() + words * 8, static_cast<int>(acc & 0xFF), out.size() - words * 8);
    return acc;
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
                                                       kSecondsOption | kIsaOption);
    if (o.help) {
        std::fputs(kBenchHelp, stdout);
        return kExitOk;
    }
    const std::vector<Shape> shapes = shapes_of(o);
    if (shapes.size() > BCAST_MAX_INPUTS)
        usage_error("at most " + std::to_string(BCAST_MAX_INPUTS) + " shapes");
    if (!apply_isa(o)) return kExitRefused;

    OpHandle h;
    const ShapeTable table(shapes);
    bcast_status st = create_op(o, o.dtype, &h);
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

    st = bcast_op_execute(h.op, pointers.data(), out.data());
    if (st != BCAST_OK) return refused(st);
    // Batches of about 20 ms (or less for short runs), found by doubling.
    const double batch_target = o.seconds / 10 < 0.02 ? o.seconds / 10 : 0.02;
    uint64_t batch = 1;
    for (;;) {
        const Clock::time_point t0 = Clock::now();
        for (uint64_t r = 0; r < batch; ++r) bcast_op_execute(h.op, pointers.data(), out.data());
        if (seconds_since(t0) >= batch_target || batch >= (uint64_t{1} << 40)) break;
        batch *= 2;
    }

    Totals lib, roof;
    uint64_t sink = 0;
    Progress progress(o.seconds);
    const Clock::time_point start = Clock::now();
    while (seconds_since(start) < o.seconds) {
        Clock::time_point t0 = Clock::now();
        for (uint64_t r = 0; r < batch; ++r) {
            st = bcast_op_execute(h.op, pointers.data(), out.data());
            if (st != BCAST_OK) return refused(st);
        }
        lib.seconds += seconds_since(t0);
        lib.runs += batch;
        t0 = Clock::now();
        for (uint64_t r = 0; r < batch; ++r) sink += roofline_pass(inputs, out, r);
        roof.seconds += seconds_since(t0);
        roof.runs += batch;
        progress.update(seconds_since(start));
    }
    progress.finish();
    const std::string plan = describe(h.op);
    const auto field = [&plan](const char* key) {  // a string field of the plan's JSON
        const std::string k = std::string("\"") + key + "\":\"";
        const size_t at = plan.find(k);
        if (at == std::string::npos) return std::string("?");
        return plan.substr(at + k.size(), plan.find('"', at + k.size()) - at - k.size());
    };

    const double lib_ns = 1e9 * lib.seconds / static_cast<double>(lib.runs);
    const double roof_ns = 1e9 * roof.seconds / static_cast<double>(roof.runs);
    std::string inputs_text;
    for (const Shape& s : shapes) inputs_text += format_shape(s, false) + " ";
    std::printf("case:     %s %s %s %s-> %s, kernel %s, isa %s, %zu bytes per execute\n",
                field("op").c_str(), dtype_name(o.dtype), field("rule").c_str(),
                inputs_text.c_str(), format_shape(out_shape, false).c_str(),
                field("kernel").c_str(), field("isa").c_str(), bytes);
    std::printf("bcast:    %.1f ns/execute, %.2f GB/s (%llu executes)\n", lib_ns,
                static_cast<double>(bytes) / lib_ns, static_cast<unsigned long long>(lib.runs));
    std::printf("roofline: %.1f ns/pass, %.2f GB/s (%llu passes)\n", roof_ns,
                static_cast<double>(bytes) / roof_ns, static_cast<unsigned long long>(roof.runs));
    std::printf("ratio:    %.2f of roofline\n", roof_ns / lib_ns);
    volatile uint64_t keep = sink;  // the roofline's result is used
    (void)keep;
    return kExitOk;
}

}  // namespace bcast_cli
