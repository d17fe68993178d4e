// The SIMD kernel tables against the portable kernels, bit for bit (any NaN
// matches any NaN; atan2 and logaddexp within 2 ulp), on every ISA
// this host can run, switched in-process:
//  - every slot an ISA fills (vv, vs, sv, periodic, 2-D rows, copy, fill),
//  - lengths 0 to 2 vector widths + 1 and a few long ones, operands 64-byte
//    aligned and one element off, in place into either input,
//  - periods 1..16 around multiples of the pattern length, and longer ones,
//  - the non-temporal store path (a test-only threshold of one byte),
//  - no byte written outside the output,
// plus dispatch (caps, the merged table, plans keeping their kernels) and
// whole plans with 2-D rows against a scalar plan.
#include <catch2/catch.hpp>

#include "core/op_info.hpp"
#include "exec/fused_execute.hpp"
#include "handles/operator.hpp"
#include "kernel_test_data.hpp"
#include "kernels/cpu/cpu_features.hpp"
#include "kernels/dispatch.hpp"
#include "kernels/half.hpp"
#include "kernels/isas.hpp"
#include "kernels/kernel_table.hpp"
#include "kernels/simd/isa_kernels.hpp"
#include "kernels/simd/tuning.hpp"
#include "rules/rules.hpp"
#include "tuning/builtin_tuning.hpp"

#include <algorithm>
#include <cctype>
#include <cfenv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using bcast::kernels::OpKernels;
using bcast_test::Bytes;
using bcast_test::host_isas;
using bcast_test::mismatch;
using bcast_test::pair_name;
using bcast_test::random_elems;

const bcast_opcode kAllOps = static_cast<bcast_opcode>(bcast::kNumOpcodes);
const bcast_dtype kAllDtypes = static_cast<bcast_dtype>(bcast::kNumDtypes);

// Restores the ISA cap a test changed.
struct CapGuard {
    std::string saved = bcast::kernels::active_isa_name();
    ~CapGuard() { bcast::kernels::set_max_isa(saved.c_str()); }
};

// ------------------------------------------------------------------ buffers

constexpr unsigned char kGuard = 0xA5;
constexpr std::size_t kSlack = 128;

// `data` placed `offset` bytes past a 64-byte boundary, guard bytes around.
struct Buffer {
    Bytes raw;
    unsigned char* p;
    std::size_t size;

    Buffer(const Bytes& data, std::size_t offset) : raw(data.size() + 2 * kSlack, kGuard) {
        const auto addr = reinterpret_cast<std::uintptr_t>(raw.data()) + 64;
        p = raw.data() + (64 - addr % 64) + offset;
        size = data.size();
        if (size != 0) std::memcpy(p, data.data(), size);
    }
    Buffer(std::size_t bytes, std::size_t offset) : Buffer(Bytes(bytes, kGuard), offset) {}

    // The first `bytes` bytes; CHECKs that nothing past them changed.
    Bytes read(std::size_t bytes) const {
        const auto begin = static_cast<std::size_t>(p - raw.data());
        std::size_t stray = 0;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if ((i < begin || i >= begin + std::max(bytes, size)) && raw[i] != kGuard) ++stray;
        }
        CHECK(stray == 0);
        return Bytes(p, p + bytes);
    }
};

// What one test run looks at: the pair, its dtypes and the two tables.
struct Pair {
    bcast_opcode op;
    bcast_dtype dt;
    std::size_t es, os;  // input and output element sizes
    bcast_dtype odt;
    const OpKernels* fast;
    const OpKernels* port;
    bool stream;  // passed to the SIMD kernels: non-temporal stores allowed
};

// The SIMD transcendentals compute in double lanes and round once, the
// portable ones call libm: both within 2 ulp of the exact value
// (decisions.md), not always equal. Every other op matches bit for bit.
int allowed_ulps(bcast_opcode op) {
    return op == BCAST_OP_POW || op == BCAST_OP_ATAN2 || op == BCAST_OP_LOGADDEXP ? 2 : 0;
}

std::string differs(const Pair& pr, const Bytes& got, const Bytes& want) {
    return mismatch(pr.odt, got, want, allowed_ulps(pr.op));
}

enum class Kind { VV, VS, SV };

// Runs fn with x, y laid out at `offset`; the output in a buffer of its own
// (in_place < 0) or over input in_place. VS's y and SV's x are one element.
Bytes run_binary(bcast::kernels::BinaryFn fn, Kind kind, const Pair& pr, std::size_t n,
                 const Bytes& x, const Bytes& y, std::size_t offset, int in_place) {
    Buffer bx(Bytes(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(
                                              (kind == Kind::SV ? 1 : n) * pr.es)),
              offset);
    Buffer by(Bytes(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(
                                              (kind == Kind::VS ? 1 : n) * pr.es)),
              offset);
    Buffer bo(n * pr.os, offset);
    Buffer& out = in_place == 0 ? bx : in_place == 1 ? by : bo;
    fn(n, bx.p, by.p, out.p, pr.stream);
    return out.read(n * pr.os);
}

Bytes run_periodic(bcast::kernels::PeriodicFn fn, bool pattern_x, const Pair& pr, std::size_t n,
                   std::size_t period, const Bytes& full, const Bytes& pattern,
                   std::size_t offset, bool in_place) {
    Buffer bf(Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n * pr.es)), offset);
    Buffer bp(Bytes(pattern.begin(), pattern.begin() + static_cast<std::ptrdiff_t>(period * pr.es)),
              offset);
    Buffer bo(n * pr.os, offset);
    Buffer& out = in_place ? bf : bo;
    if (pattern_x) fn(n, period, bp.p, bf.p, out.p, pr.stream);
    else fn(n, period, bf.p, bp.p, out.p, pr.stream);
    return out.read(n * pr.os);
}

const std::size_t kLong[] = {1000, 4099};

// 0 .. 2 * (widest vector in elements) + 1, then a few long ones.
std::vector<std::size_t> lengths(std::size_t es) {
    std::vector<std::size_t> ns;
    for (std::size_t n = 0; n <= 2 * (64 / es) + 1; ++n) ns.push_back(n);
    ns.insert(ns.end(), std::begin(kLong), std::end(kLong));
    return ns;
}

// Lengths around multiples of every pattern length a period <= 16 can have.
std::vector<std::size_t> periodic_lengths(std::size_t period, std::size_t es) {
    std::vector<std::size_t> ns = {0, 1, 2, period, period + 1};
    for (std::size_t step : {std::size_t{4}, 64 / es}) {
        const std::size_t len = period * step / std::gcd(period, step);  // lcm
        for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
            for (std::size_t d : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
                ns.push_back(k * len - 1 + d);
            }
        }
    }
    // 4099 is long enough that the pattern offsets rewind, for every element
    // size: a short period's pattern fills at most 16 + kPatternSpareSteps
    // + 2 steps of at most 64 bytes, and the body needs one step more.
    static_assert((16 + bcast::kernels::tuning::kPatternSpareSteps + 3) * 64 <= 4099);
    ns.push_back(1001);
    ns.push_back(4099);
    std::sort(ns.begin(), ns.end());
    ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
    return ns;
}

void check_binary_slots(const Pair& pr, std::mt19937_64& rng) {
    const std::size_t offsets[] = {0, pr.es};
    struct Slot {
        bcast::kernels::BinaryFn fast, port;
        Kind kind;
        const char* name;
    };
    const Slot slots[] = {{pr.fast->vv, pr.port->vv, Kind::VV, "vv"},
                          {pr.fast->vs, pr.port->vs, Kind::VS, "vs"},
                          {pr.fast->sv, pr.port->sv, Kind::SV, "sv"}};
    const bool can_alias = pr.es == pr.os;
    for (std::size_t n : lengths(pr.es)) {
        const Bytes x = random_elems(pr.dt, n + 1, rng);
        const Bytes y = random_elems(pr.dt, n + 1, rng);
        for (const Slot& s : slots) {
            if (!s.fast) continue;
            const Bytes want = run_binary(s.port, s.kind, pr, n, x, y, 0, -1);
            for (std::size_t off : offsets) {
                INFO(s.name << " n=" << n << " offset=" << off);
                CHECK(differs(pr, run_binary(s.fast, s.kind, pr, n, x, y, off, -1), want) ==
                      "");
                if (!can_alias) continue;
                if (s.kind != Kind::SV) {
                    CHECK(differs(pr, run_binary(s.fast, s.kind, pr, n, x, y, off, 0),
                                   want) == "");
                }
                if (s.kind != Kind::VS) {
                    CHECK(differs(pr, run_binary(s.fast, s.kind, pr, n, x, y, off, 1),
                                   want) == "");
                }
            }
        }
    }
}

// Periods 1..16, then longer ones around the widened halves' block
// (simd_widened.hpp: periods up to a block are widened once, longer ones per
// block, wrapping).
std::vector<std::size_t> periods() {
    constexpr std::size_t kBlock = bcast::kernels::tuning::kWidenedBlock;
    std::vector<std::size_t> ps;
    for (std::size_t p = 1; p <= 16; ++p) ps.push_back(p);
    for (std::size_t p : {std::size_t{100}, kBlock - 1, kBlock, kBlock + 1, kBlock * 3 / 2}) {
        ps.push_back(p);
    }
    return ps;
}

void check_periodic_slots(const Pair& pr, std::mt19937_64& rng) {
    for (bool pattern_x : {false, true}) {
        const auto fast = pattern_x ? pr.fast->periodic_x : pr.fast->periodic_y;
        const auto port = pattern_x ? pr.port->periodic_x : pr.port->periodic_y;
        if (!fast) continue;
        for (std::size_t period : periods()) {
            const Bytes pattern = random_elems(pr.dt, period, rng);
            const std::vector<std::size_t> ns =
                period <= 16 ? periodic_lengths(period, pr.es)
                             : std::vector<std::size_t>{period - 1, 3 * period + 7};
            for (std::size_t n : ns) {
                INFO((pattern_x ? "periodic_x" : "periodic_y") << " period=" << period
                                                               << " n=" << n);
                const Bytes full = random_elems(pr.dt, n, rng);
                const Bytes want = run_periodic(port, pattern_x, pr, n, period, full, pattern, 0,
                                                false);
                const std::size_t off = n % 2 == 0 ? 0 : pr.es;  // both, across lengths
                CHECK(differs(pr,
                               run_periodic(fast, pattern_x, pr, n, period, full, pattern, off,
                                            false),
                               want) == "");
                if (pr.es == pr.os) {
                    CHECK(differs(pr,
                                   run_periodic(fast, pattern_x, pr, n, period, full, pattern,
                                                off, true),
                                   want) == "");
                }
            }
        }
    }
}

// rows x n with padded row strides, or contiguous rows (every row stride
// n: the streaming path that crosses row boundaries, at two output
// alignments); the scalar operand of vs/sv per row (a column) or shared (row
// stride 0); vv with both operands full, or one repeating a single row (row
// stride 0: (8,112,112,64)+(64), one periodic run, and (4096,4096)+(4096),
// whose streamed rows prefetch the other operand past their end). In place:
// out over x (or y for sv).
void check_rows_slots(const Pair& pr, std::mt19937_64& rng) {
    struct Slot {
        bcast::kernels::Binary2dFn fast;
        bcast::kernels::BinaryFn port;
        Kind kind;
        const char* name;
    };
    const Slot slots[] = {{pr.fast->vv2d, pr.port->vv, Kind::VV, "vv2d"},
                          {pr.fast->vs2d, pr.port->vs, Kind::VS, "vs2d"},
                          {pr.fast->sv2d, pr.port->sv, Kind::SV, "sv2d"}};
    const std::size_t es = pr.es, os = pr.os;
    for (const Slot& s : slots) {
        if (!s.fast) continue;
        // The longest row that vv runs as one periodic run when the other
        // operand repeats it, and one more; 49 also with enough rows that the
        // run outgrows the pattern buffer (its offsets rewind).
        const std::size_t longest_row = bcast::kernels::tuning::kMaxRepeatedRowBytes / es;
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{7},
                              std::size_t{49}, 64 / es + 3, std::size_t{257}, longest_row,
                              longest_row + 1}) {
            // vs/sv: the scalar's row stride 0 or 1; vv: none, x or y repeated.
            for (int sharing = 0; sharing < 3; ++sharing) {
                if (s.kind != Kind::VV && sharing == 2) continue;
                const std::ptrdiff_t scalar_row = sharing;
                const bool x_repeated = s.kind == Kind::VV && sharing == 1;
                const bool y_repeated = s.kind == Kind::VV && sharing == 2;
                for (int layout = 0; layout < 3; ++layout) {  // padded, contiguous at 2 offsets
                for (bool in_place : {false, true}) {
                    if (in_place && es != os) continue;
                    const bool contiguous = layout > 0;
                    const std::size_t offset = layout == 1 ? 0 : es;
                    // 49: enough rows to outgrow the row's pattern (the row
                    // repeated over a step, plus the spare and two steps
                    // of at most 64 bytes), so that its offsets rewind.
                    // Rows shorter than a step (1, 3, 7): enough of them
                    // for blocks of expanded rows and a partial one after.
                    const std::size_t rows =
                        n == 49                  ? 64 * (bcast::kernels::tuning::kPatternSpareSteps + 3) / (n * es) + 3
                        : n > 0 && n < 8         ? 2 * 1024 / n + 3
                                                 : 5;
                    const auto full_row = static_cast<std::ptrdiff_t>(contiguous ? n : n + 3);
                    const std::ptrdiff_t x_row = s.kind == Kind::SV ? scalar_row
                                                 : x_repeated      ? 0
                                                                   : full_row;
                    const std::ptrdiff_t y_row = s.kind == Kind::VS ? scalar_row
                                                 : y_repeated      ? 0
                                                                   : full_row;
                    // Same layout as the operand it overwrites in place
                    // (y where x is repeated or a scalar).
                    const std::ptrdiff_t out_row =
                        in_place || contiguous ? full_row : full_row + 2;
                    INFO(s.name << " n=" << n << " sharing=" << sharing << " layout="
                                << layout << " in_place=" << in_place);
                    const auto span = [&](std::ptrdiff_t row, bool scalar) {
                        return (rows - 1) * static_cast<std::size_t>(row) + (scalar ? 1 : n);
                    };
                    const Bytes x = random_elems(pr.dt, span(x_row, s.kind == Kind::SV), rng);
                    const Bytes y = random_elems(pr.dt, span(y_row, s.kind == Kind::VS), rng);
                    const std::size_t out_bytes = span(out_row, false) * os;
                    Buffer bx(x, offset), by(y, offset), bo(out_bytes, offset);
                    Bytes want(bo.raw.begin() + (bo.p - bo.raw.data()),
                               bo.raw.begin() + (bo.p - bo.raw.data()) +
                                   static_cast<std::ptrdiff_t>(out_bytes));
                    const bool over_y = s.kind == Kind::SV || x_repeated;
                    if (in_place) want = over_y ? y : x;
                    for (std::size_t r = 0; r < rows; ++r) {
                        const auto ri = static_cast<std::ptrdiff_t>(r);
                        s.port(n, x.data() + ri * x_row * static_cast<std::ptrdiff_t>(es),
                               y.data() + ri * y_row * static_cast<std::ptrdiff_t>(es),
                               want.data() + ri * out_row * static_cast<std::ptrdiff_t>(os),
                               false);
                    }
                    Buffer& out = !in_place ? bo : over_y ? by : bx;
                    s.fast(rows, n, bx.p, x_row, by.p, y_row, out.p, out_row, pr.stream);
                    CHECK(differs(pr, out.read(want.size()), want) == "");
                }
                }
            }
        }
    }
}

void check_copy_slots(const Pair& pr, std::mt19937_64& rng) {
    for (std::size_t n : lengths(pr.es)) {
        const Bytes x = random_elems(pr.dt, n + 1, rng);
        const Bytes x1(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(pr.es));
        const Bytes xn(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n * pr.es));
        for (std::size_t off : {std::size_t{0}, pr.es}) {
            INFO("n=" << n << " offset=" << off);
            if (pr.fast->copy) {
                Buffer in(xn, off), out(n * pr.es, off);
                pr.fast->copy(n, in.p, out.p, pr.stream);
                CHECK(out.read(n * pr.es) == xn);  // bytes as they are, NaN payloads too
                pr.fast->copy(n, in.p, in.p, pr.stream);
                CHECK(in.read(n * pr.es) == xn);
            }
            if (pr.fast->fill) {
                Buffer in(x1, off), out(n * pr.es, off);
                Buffer want(n * pr.es, 0);
                pr.port->fill(n, in.p, want.p, false);
                pr.fast->fill(n, in.p, out.p, pr.stream);
                CHECK(out.read(n * pr.es) == want.read(n * pr.es));
            }
        }
    }
}

// Each slot of one SIMD table entry against the portable one.
void check_entry(bcast_opcode op, bcast_dtype dt, const OpKernels* fast, bool stream,
                 std::mt19937_64& rng) {
    const OpKernels* port = bcast::kernels::portable_kernels(op, dt);
    REQUIRE(port != nullptr);  // never a fast slot for an unsupported pair
    const bcast_dtype odt = bcast::output_dtype(op, dt);
    const Pair pr{op, dt, bcast::dtype_size(dt), bcast::dtype_size(odt), odt, fast, port, stream};
    if (op == BCAST_OP_COPY) {
        check_copy_slots(pr, rng);
        return;
    }
    check_binary_slots(pr, rng);
    check_periodic_slots(pr, rng);
    check_rows_slots(pr, rng);
}

// Every (op, dtype) the ISA fills, each filled slot against the portable one.
void check_isa(const std::string& isa, bool stream) {
    std::mt19937_64 rng(0x5EED + isa.size());
    std::size_t filled = 0;
    for (bcast_opcode op = 0; op < kAllOps; ++op) {
        for (bcast_dtype dt = 0; dt < kAllDtypes; ++dt) {
            const OpKernels* fast = bcast::kernels::isa_own_kernels(isa.c_str(), op, dt);
            if (!fast) continue;
            INFO(isa << " " << pair_name(op, dt));
            ++filled;
            check_entry(op, dt, fast, stream, rng);
        }
    }
    CHECK(filled > 0);
}

}  // namespace

TEST_CASE("SIMD kernels match the portable kernels on every host ISA",
          "[simd][bit-for-bit]") {
    for (const std::string& isa : host_isas()) {
        SECTION(isa) { check_isa(isa, false); }
    }
}

TEST_CASE("SIMD kernels match with non-temporal stores", "[simd][bit-for-bit]") {
    for (const std::string& isa : host_isas()) {
        SECTION(isa) { check_isa(isa, true); }
    }
}

#if defined(BCAST_TEST_AVX512_KERNELS)
const OpKernels* native_half_kernels(bcast_opcode op, bcast_dtype dt) {
#if defined(BCAST_TEST_AVX512FP16_KERNELS)
    return bcast::kernels::avx512fp16::kernels(op, dt);
#else
    (void)op, (void)dt;
    return nullptr;  // the compiler had no -mavx512fp16
#endif
}

// The CPU vendor, family and model (the tuning's key; the vendor picks the
// built-in prefetch hint, tuning/builtin_tuning.cpp) against the kernel's
// own reading of CPUID. Only where /proc/cpuinfo describes the CPU that runs
// the test: qemu-user shows the host's ([host-cpu]; .ci/steps/qemu-x86.sh
// leaves it out).
TEST_CASE("cpu vendor, family and model match /proc/cpuinfo", "[simd][host-cpu]") {
#if defined(__x86_64__) || defined(__i386__)  // elsewhere no vendor (qemu would show the host's)
    std::ifstream info("/proc/cpuinfo");
    std::string line, vendor;
    long family = -1, model = -1;
    const auto value = [&] { return line.substr(line.find(':') + 2); };
    while (std::getline(info, line) && (vendor.empty() || family < 0 || model < 0)) {
        if (line.rfind("vendor_id", 0) == 0) vendor = value();
        if (line.rfind("cpu family", 0) == 0) family = std::stol(value());
        if (line.rfind("model\t", 0) == 0) model = std::stol(value());
    }
    if (vendor.empty()) return;  // not Linux
    const auto& f = bcast::kernels::cpu::cpu_features();
    CHECK(f.intel == (vendor == "GenuineIntel"));
    CHECK(std::string(f.vendor) == vendor);
    CHECK(static_cast<long>(f.family) == family);
    CHECK(static_cast<long>(f.model) == model);
    const auto builtin = bcast::tuning::builtin_tuning(f).tuning;
    const auto expected = vendor == "GenuineIntel" ? bcast::tuning::PrefetchHint::t1
                                                   : bcast::tuning::PrefetchHint::nta;
    CHECK(builtin.rows.hint == expected);
    CHECK(builtin.chain.hint == expected);
#endif
}

// One running input on Zen 4: cached stores up to the crossovers two guests
// measured (docs/kernels.md, "One running input": 10-19 MiB touched on one
// thread, 22-38 MiB over two, L3 32 MiB); every other family keeps its pair's
// values. The built-in reads this host's LLC, whatever the features say.
TEST_CASE("built-in tuning: one running input streams later on Zen 4 only", "[simd][tuning]") {
    bcast::kernels::cpu::CpuFeatures zen4, zen3;
    std::strcpy(zen4.vendor, "AuthenticAMD");
    std::strcpy(zen3.vendor, "AuthenticAMD");
    zen4.family = zen3.family = 25;
    zen4.model = 17;
    zen3.model = 1;
    constexpr uint64_t kMiB = uint64_t{1} << 20;
    // The LLCs of the measured guests (32 MiB), one a guest may report
    // (480 MiB: capped), and none.
    for (const uint64_t llc : {32 * kMiB, 480 * kMiB, uint64_t{0}}) {
        CAPTURE(llc);
        const auto z3 = bcast::tuning::builtin_tuning(zen3, llc);
        CHECK(std::string(z3.name) == "zen3");
        CHECK(z3.tuning.nt_min_bytes_1t_one_input == z3.tuning.nt_min_bytes_1t);
        CHECK(z3.tuning.nt_min_bytes_nt_one_input == z3.tuning.nt_min_bytes_nt);
        const auto z4 = bcast::tuning::builtin_tuning(zen4, llc);
        CHECK(std::string(z4.name) == "zen4");
        CHECK(z4.tuning.nt_min_bytes_1t == z3.tuning.nt_min_bytes_1t);
        CHECK(z4.tuning.nt_min_bytes_nt == z3.tuning.nt_min_bytes_nt);
        // The two guests' crossovers: 10-19 MiB on one thread, 22-38 split,
        // whatever the one-thread threshold of this host's L2 is below them.
        const uint64_t one = llc == 0 ? 0 : llc == 32 * kMiB ? 14 * kMiB : 32 * kMiB;
        const uint64_t split = llc == 0 ? 0 : llc == 32 * kMiB ? 28 * kMiB : 64 * kMiB;
        CHECK(z4.tuning.nt_min_bytes_1t_one_input == std::max(z4.tuning.nt_min_bytes_1t, one));
        CHECK(z4.tuning.nt_min_bytes_nt_one_input == std::max(z4.tuning.nt_min_bytes_nt, split));
    }
}

// Where the CPU has AVX512-FP16, the avx512 table's f16 + - * / come from
// the native-half kernels (checked above like any slot); the F16C ones they
// hide are checked here, and so is which of the two dispatch picked.
TEST_CASE("avx512 f16 arithmetic: native-half and F16C kernels both match", "[simd]") {
    const auto& cpu = bcast::kernels::cpu::cpu_features();
    if (!cpu.avx512) return;
    std::mt19937_64 rng(0xF16);
    for (bcast_opcode op : {BCAST_OP_ADD, BCAST_OP_SUB, BCAST_OP_MUL, BCAST_OP_DIV}) {
        INFO(pair_name(op, BCAST_DTYPE_F16));
        const OpKernels* f16c = bcast::kernels::avx512::kernels(op, BCAST_DTYPE_F16);
        REQUIRE(f16c != nullptr);
        for (bool stream : {false, true}) check_entry(op, BCAST_DTYPE_F16, f16c, stream, rng);
        const OpKernels* native = native_half_kernels(op, BCAST_DTYPE_F16);
        const OpKernels* picked = bcast::kernels::isa_own_kernels("avx512", op, BCAST_DTYPE_F16);
        CHECK(picked == (cpu.avx512fp16 && native ? native : f16c));
    }
    // In another rounding mode the native table runs the F16C kernels (the
    // portable ones also compute in f32 in that mode, then round to nearest).
    if (cpu.avx512fp16) {
        for (int mode : {FE_UPWARD, FE_TOWARDZERO}) {
            INFO("rounding mode " << mode);
            REQUIRE(std::fesetround(mode) == 0);
            for (bcast_opcode op : {BCAST_OP_ADD, BCAST_OP_SUB, BCAST_OP_MUL, BCAST_OP_DIV}) {
                INFO(pair_name(op, BCAST_DTYPE_F16));
                const OpKernels* native = native_half_kernels(op, BCAST_DTYPE_F16);
                if (native) check_entry(op, BCAST_DTYPE_F16, native, false, rng);
            }
            std::fesetround(FE_TONEAREST);
        }
    }
    // Nothing else comes from the native-half table.
    CHECK(native_half_kernels(BCAST_OP_MAX, BCAST_DTYPE_F16) == nullptr);
    CHECK(native_half_kernels(BCAST_OP_ADD, BCAST_DTYPE_F32) == nullptr);
}
#endif

namespace {

// f16 / bf16 <-> f32 as the widened kernels' claim states them: f16 both
// ways and bf16 narrowing by half.hpp (exact, round to nearest even), bf16
// widening as Bf16Codec loads (a shift: a signalling NaN stays one).
std::vector<float> widened_floats(bcast_dtype dt, const Bytes& b) {
    std::vector<float> f(b.size() / 2);
    for (std::size_t i = 0; i < f.size(); ++i) {
        std::uint16_t h;
        std::memcpy(&h, b.data() + 2 * i, 2);
        f[i] = dt == BCAST_DTYPE_F16 ? bcast::kernels::portable::f16_to_f32(h)
                                     : bcast::kernels::portable::f32_from_bits(std::uint32_t{h} << 16);
    }
    return f;
}

Bytes narrowed_halves(bcast_dtype dt, const std::vector<float>& f) {
    Bytes b(2 * f.size());
    for (std::size_t i = 0; i < f.size(); ++i) {
        const std::uint16_t h = dt == BCAST_DTYPE_F16 ? bcast::kernels::portable::f32_to_f16(f[i])
                                                      : bcast::kernels::portable::f32_to_bf16(f[i]);
        std::memcpy(b.data() + 2 * i, &h, 2);
    }
    return b;
}

}  // namespace

// simd_widened.hpp: a half-float transcendental is its ISA's f32 kernel
// between these conversions, in every 1-D form, across block boundaries, in
// place. Within the ops' 2 ulp (NaN for NaN), not bit for bit: these ops may
// round differently from one layout to another (bcast.h), and the blocks
// group lanes into steps differently from one long run (NEON's ATAN2 f16
// differed so with a period of 3).
TEST_CASE("widened half-float kernels are their f32 kernels between conversions", "[simd]") {
    constexpr std::size_t kBlock = bcast::kernels::tuning::kWidenedBlock;
    std::mt19937_64 rng(0x41DE);
    std::size_t checked = 0;
    for (const std::string& isa : host_isas()) {
        for (bcast_opcode op : {BCAST_OP_POW, BCAST_OP_ATAN2, BCAST_OP_LOGADDEXP}) {
            for (bcast_dtype dt : {BCAST_DTYPE_F16, BCAST_DTYPE_BF16}) {
                const OpKernels* k = bcast::kernels::isa_own_kernels(isa.c_str(), op, dt);
                if (!k) continue;
                const OpKernels* f32 = bcast::kernels::isa_own_kernels(isa.c_str(), op, BCAST_DTYPE_F32);
                INFO(isa << " " << pair_name(op, dt));
                REQUIRE(f32 != nullptr);
                ++checked;
                k->vs(0, nullptr, nullptr, nullptr, false);  // empty: nothing read
                for (std::size_t n : {std::size_t{1}, std::size_t{7}, kBlock - 1, kBlock,
                                      2 * kBlock + 3}) {
                    const Bytes x = random_elems(dt, n, rng), y = random_elems(dt, n, rng);
                    const std::vector<float> xf = widened_floats(dt, x), yf = widened_floats(dt, y);
                    std::vector<float> of(n);
                    // vv, in place into x too.
                    f32->vv(n, xf.data(), yf.data(), of.data(), false);
                    Bytes got(2 * n), in_place = x;
                    k->vv(n, x.data(), y.data(), got.data(), false);
                    CHECK(mismatch(dt, got, narrowed_halves(dt, of), 2) == "");
                    k->vv(n, in_place.data(), y.data(), in_place.data(), false);
                    CHECK(mismatch(dt, in_place, narrowed_halves(dt, of), 2) == "");
                    // vs and sv: y[0], x[0].
                    f32->vs(n, xf.data(), yf.data(), of.data(), false);
                    k->vs(n, x.data(), y.data(), got.data(), false);
                    CHECK(mismatch(dt, got, narrowed_halves(dt, of), 2) == "");
                    f32->sv(n, xf.data(), yf.data(), of.data(), false);
                    k->sv(n, x.data(), y.data(), got.data(), false);
                    CHECK(mismatch(dt, got, narrowed_halves(dt, of), 2) == "");
                    // Periods within a block and longer than one.
                    for (std::size_t period : {std::size_t{3}, std::size_t{100}, kBlock + 5}) {
                        if (period > n) continue;
                        INFO("n=" << n << " period=" << period);
                        f32->periodic_y(n, period, xf.data(), yf.data(), of.data(), false);
                        k->periodic_y(n, period, x.data(), y.data(), got.data(), false);
                        CHECK(mismatch(dt, got, narrowed_halves(dt, of), 2) == "");
                        f32->periodic_x(n, period, xf.data(), yf.data(), of.data(), false);
                        k->periodic_x(n, period, x.data(), y.data(), got.data(), false);
                        CHECK(mismatch(dt, got, narrowed_halves(dt, of), 2) == "");
                    }
                }
            }
        }
    }
    if (bcast::kernels::isa_available("avx2")) CHECK(checked > 0);
}

TEST_CASE("the SIMD tables fill the ops they are meant to", "[simd]") {
    for (const std::string& isa : host_isas()) {
        INFO(isa);
        const auto own = [&](bcast_opcode op, bcast_dtype dt) {
            return bcast::kernels::isa_own_kernels(isa.c_str(), op, dt);
        };
        for (bcast_dtype dt : {BCAST_DTYPE_F32, BCAST_DTYPE_F64, BCAST_DTYPE_BF16,
                               BCAST_DTYPE_I8, BCAST_DTYPE_U64}) {
            INFO(bcast::dtype_name(dt));
            REQUIRE(own(BCAST_OP_ADD, dt) != nullptr);
            CHECK(own(BCAST_OP_ADD, dt)->vv2d != nullptr);
            CHECK(own(BCAST_OP_ADD, dt)->periodic_y != nullptr);
            REQUIRE(own(BCAST_OP_COPY, dt) != nullptr);
            CHECK(own(BCAST_OP_COPY, dt)->fill != nullptr);
        }
        CHECK(own(BCAST_OP_LESS, BCAST_DTYPE_F32) != nullptr);
        CHECK(own(BCAST_OP_LOGICAL_XOR, BCAST_DTYPE_BOOL) != nullptr);
        CHECK(own(BCAST_OP_LOGICAL_XOR, BCAST_DTYPE_I32) == nullptr);
        CHECK(own(BCAST_OP_MAX, BCAST_DTYPE_I16) != nullptr);
        // Left-broadcast forms only where the plan cannot exchange the
        // operands (op_info.hpp: exchanged_op).
        for (bcast_opcode op : {BCAST_OP_ADD, BCAST_OP_MAX, BCAST_OP_SUB, BCAST_OP_LESS}) {
            for (bcast_dtype dt : {BCAST_DTYPE_F32, BCAST_DTYPE_I16, BCAST_DTYPE_U8}) {
                INFO(pair_name(op, dt));
                const OpKernels* k = own(op, dt);
                REQUIRE(k != nullptr);
                const bool left = bcast::exchanged_op(op, dt) < 0;
                CHECK(k->vs != nullptr);
                CHECK(k->periodic_y != nullptr);
                CHECK(k->vs2d != nullptr);
                CHECK((k->sv != nullptr) == left);
                CHECK((k->periodic_x != nullptr) == left);
                CHECK((k->sv2d != nullptr) == left);
            }
        }
        // Transcendentals of f32-computing dtypes, in double lanes; of f64 in
        // double-double, which needs a fused multiply-add and four lanes.
        const bool wide = isa == "avx2" || isa == "avx512";
        for (bcast_opcode op : {BCAST_OP_ATAN2, BCAST_OP_LOGADDEXP}) {
            CHECK(own(op, BCAST_DTYPE_F32) != nullptr);
            CHECK(own(op, BCAST_DTYPE_BF16) != nullptr);
            CHECK((own(op, BCAST_DTYPE_F64) != nullptr) == wide);
        }
        // POW in double lanes where there are four or more of them: on two
        // (SSE2, NEON) it measured slower than glibc's powf; f64 with eight.
        CHECK((own(BCAST_OP_POW, BCAST_DTYPE_F32) != nullptr) == wide);
        CHECK((own(BCAST_OP_POW, BCAST_DTYPE_F16) != nullptr) == wide);
        CHECK((own(BCAST_OP_POW, BCAST_DTYPE_F64) != nullptr) == (isa == "avx512"));
        CHECK(own(BCAST_OP_POW, BCAST_DTYPE_I32) == nullptr);
        // Not bit-exact in vector form, not accurate, or not faster: portable.
        CHECK(own(BCAST_OP_FMOD, BCAST_DTYPE_F32) == nullptr);
        CHECK(own(BCAST_OP_DIV, BCAST_DTYPE_I32) == nullptr);
        // Integer products only where they pay (simd_lanes.hpp,
        // kVectorMultiplies): not on SSE2, not 64-bit on NEON.
        for (bcast_opcode op : {BCAST_OP_MUL, BCAST_OP_SQUARED_DIFFERENCE, BCAST_OP_PRELU}) {
            INFO(pair_name(op, BCAST_DTYPE_I64));
            CHECK((own(op, BCAST_DTYPE_I64) != nullptr) == (isa != "sse2" && isa != "neon"));
            CHECK((own(op, BCAST_DTYPE_I32) != nullptr) == (isa != "sse2"));
            CHECK(own(op, BCAST_DTYPE_F32) != nullptr);
        }
        CHECK((own(BCAST_OP_MUL, BCAST_DTYPE_U64) != nullptr) == (isa != "sse2" && isa != "neon"));
        CHECK(own(BCAST_OP_PRELU, BCAST_DTYPE_U32) != nullptr);  // the identity: no product
        if (isa != "sse2") CHECK(own(BCAST_OP_ADD, BCAST_DTYPE_F16) != nullptr);
        // Half floats: every walker per op, but the vector transcendentals
        // run their f32 kernels over widened blocks (simd_widened.hpp),
        // without 2-D forms.
        for (bcast_dtype dt : {BCAST_DTYPE_F16, BCAST_DTYPE_BF16}) {
            if (dt == BCAST_DTYPE_F16 && isa == "sse2") continue;  // no F16C
            INFO(bcast::dtype_name(dt));
            for (bcast_opcode op : {BCAST_OP_ADD, BCAST_OP_MAX, BCAST_OP_MEAN, BCAST_OP_DIV}) {
                INFO(pair_name(op, dt));
                REQUIRE(own(op, dt) != nullptr);
                CHECK(own(op, dt)->vv2d != nullptr);
            }
            for (bcast_opcode op : {BCAST_OP_ATAN2, BCAST_OP_LOGADDEXP}) {
                INFO(pair_name(op, dt));
                REQUIRE(own(op, dt) != nullptr);
                CHECK(own(op, dt)->vs != nullptr);
                CHECK(own(op, dt)->sv != nullptr);
                CHECK(own(op, dt)->periodic_x != nullptr);
                CHECK(own(op, dt)->vv2d == nullptr);
                CHECK(own(op, dt)->vs2d == nullptr);
            }
        }
    }
    CHECK(bcast::kernels::isa_own_kernels("scalar", BCAST_OP_ADD, BCAST_DTYPE_F32) == nullptr);
    CHECK(bcast::kernels::isa_own_kernels("bogus", BCAST_OP_ADD, BCAST_DTYPE_F32) == nullptr);
}

TEST_CASE("dispatch picks the best ISA under the cap and merges portable slots", "[simd]") {
    const CapGuard restore;
    using bcast::kernels::select_kernels;
    const OpKernels* portable = bcast::kernels::portable_kernels(BCAST_OP_ADD, BCAST_DTYPE_F32);

    REQUIRE(bcast::kernels::set_max_isa("scalar"));
    CHECK(std::string(bcast::kernels::active_isa_name()) == "scalar");
    auto sel = select_kernels(BCAST_OP_ADD, BCAST_DTYPE_F32);
    CHECK(std::string(sel.isa) == "scalar");
    CHECK(sel.kernels.vv == portable->vv);
    CHECK(sel.kernels.vv2d == nullptr);

    for (const std::string& isa : host_isas()) {
        INFO(isa);
        REQUIRE(bcast::kernels::set_max_isa(isa.c_str()));
        CHECK(std::string(bcast::kernels::active_isa_name()) == isa);
        sel = select_kernels(BCAST_OP_ADD, BCAST_DTYPE_F32);
        const OpKernels* own = bcast::kernels::isa_own_kernels(isa.c_str(), BCAST_OP_ADD,
                                                               BCAST_DTYPE_F32);
        CHECK(std::string(sel.isa) == isa);
        CHECK(sel.kernels.vv == own->vv);
        CHECK(sel.kernels.vs2d == own->vs2d);
        CHECK(sel.kernels.strided == portable->strided);  // never filled by an ISA
        // An op no ISA vectorises reports the portable kernels.
        sel = select_kernels(BCAST_OP_FMOD, BCAST_DTYPE_F32);
        CHECK(std::string(sel.isa) == "scalar");
        CHECK(sel.kernels.vv == bcast::kernels::portable_kernels(BCAST_OP_FMOD, BCAST_DTYPE_F32)->vv);
    }
    // ASCII case is ignored, as by the C API's other names; nothing else is.
    REQUIRE(bcast::kernels::set_max_isa("SCALAR"));
    CHECK(std::string(bcast::kernels::active_isa_name()) == "scalar");
    for (const std::string& isa : host_isas()) {
        std::string upper = isa;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        REQUIRE(bcast::kernels::set_max_isa(upper.c_str()));
        CHECK(std::string(bcast::kernels::active_isa_name()) == isa);
    }
    CHECK_FALSE(bcast::kernels::set_max_isa("avx2 "));
    CHECK_FALSE(bcast::kernels::set_max_isa("avx"));
    CHECK_FALSE(bcast::kernels::set_max_isa("avx22"));
    CHECK_FALSE(bcast::kernels::set_max_isa("bogus"));
    CHECK_FALSE(bcast::kernels::set_max_isa(nullptr));
    CHECK(bcast::kernels::select_kernels(BCAST_OP_ADD, -1).kernels.strided == nullptr);
}

// ------------------------------------------------------------- whole plans

namespace {

bcast::Shape shape(std::initializer_list<int64_t> dims) {
    bcast::Shape s;
    for (int64_t d : dims) s[s.rank++] = d;
    return s;
}

// The plan bcast_op_plan makes (numpy rule).
bcast::plan::FusedPlan make_plan(bcast_opcode op, bcast_dtype dt, std::vector<bcast::Shape> inputs,
                                 const int64_t* out_strides = nullptr) {
    bcast::Operator o(op, dt);
    std::vector<std::size_t> ranks;
    std::vector<const int64_t*> dims;
    for (const bcast::Shape& s : inputs) {
        ranks.push_back(s.rank);
        dims.push_back(s.dims.data());
    }
    o.plan(inputs.size(), ranks.data(), dims.data(), nullptr, out_strides);
    return o.planned();
}

// Output bytes of the plan (of `out_elems` elements) on the given inputs.
Bytes execute(const bcast::plan::FusedPlan& p, const std::vector<Bytes>& inputs, std::size_t out_bytes) {
    Bytes out(out_bytes, kGuard);
    std::vector<const void*> ptrs;
    for (const Bytes& b : inputs) ptrs.push_back(b.data());
    bcast::exec::run(p, ptrs.data(), out.data());
    return out;
}

}  // namespace

TEST_CASE("plans with 2-D rows and periodic patterns match a scalar plan", "[simd]") {
    const CapGuard restore;
    struct Case {
        std::vector<bcast::Shape> in;
        std::vector<int64_t> out_strides;  // empty: contiguous
        std::size_t out_elems;
    };
    const std::vector<Case> cases = {
        {{shape({1, 512, 7, 7}), shape({1, 512, 1, 1})}, {}, 512 * 49},  // vs rows
        {{shape({64, 100}), shape({100})}, {}, 6400},                      // vv rows, y_row 0
        {{shape({100, 1}), shape({1, 37})}, {}, 3700},                     // sv rows (outer)
        {{shape({50, 37}), shape({50, 1})}, {}, 1850},                     // vs rows, column
        {{shape({3, 5, 24}), shape({5, 24})}, {}, 360},
        {{shape({1000, 3}), shape({3})}, {}, 3000},                        // periodic
        {{shape({7}), shape({999, 7})}, {}, 6993},                         // periodic, x pattern
        {{shape({100}), shape({64, 100})}, {}, 6400},                      // vv rows, x_row 0
        // ncnn-style padded channels: out strides (c, h, w) = (64, 8, 1) for (4, 7, 8)
        {{shape({4, 7, 8}), shape({4, 1, 1})}, {64, 8, 1}, 4 * 64},
    };
    std::mt19937_64 rng(99);
    for (bcast_dtype dt : {BCAST_DTYPE_F32, BCAST_DTYPE_F16, BCAST_DTYPE_I8, BCAST_DTYPE_F64}) {
        for (bcast_opcode op : {BCAST_OP_SUB, BCAST_OP_LESS, BCAST_OP_RSUB, BCAST_OP_MAX}) {
            for (std::size_t c = 0; c < cases.size(); ++c) {
                const Case& cs = cases[c];
                INFO(pair_name(op, dt) << " case " << c);
                const int64_t* os = cs.out_strides.empty() ? nullptr : cs.out_strides.data();
                std::vector<Bytes> inputs;
                for (const bcast::Shape& s : cs.in) {
                    inputs.push_back(random_elems(dt, static_cast<std::size_t>(bcast::element_count(s)), rng));
                }
                const bcast_dtype odt = bcast::output_dtype(op, dt);
                const std::size_t out_bytes = cs.out_elems * bcast::dtype_size(odt);
                REQUIRE(bcast::kernels::set_max_isa("scalar"));
                const Bytes want = execute(make_plan(op, dt, cs.in, os), inputs, out_bytes);
                for (const std::string& isa : host_isas()) {
                    INFO(isa);
                    REQUIRE(bcast::kernels::set_max_isa(isa.c_str()));
                    const bcast::plan::FusedPlan p = make_plan(op, dt, cs.in, os);
                    if (bcast::kernels::isa_own_kernels(isa.c_str(), bcast::op_info(op)->base, dt)) {
                        CHECK(std::string(p.isa) == isa);
                    }
                    if (c < 4 && p.steps[0].kernels.vv2d) CHECK(p.steps[0].binary2d != nullptr);
                    CHECK(mismatch(odt, execute(p, inputs, out_bytes), want) == "");
                }
            }
        }
    }
}

TEST_CASE("a plan keeps its kernels when the cap changes later", "[simd]") {
    const CapGuard restore;
    const std::vector<std::string> isas = host_isas();
    if (isas.empty()) return;
    REQUIRE(bcast::kernels::set_max_isa(isas.back().c_str()));
    const auto p = make_plan(BCAST_OP_ADD, BCAST_DTYPE_F32, {shape({64, 64}), shape({64, 1})});
    const auto vs = p.steps[0].kernels.vs;
    REQUIRE(bcast::kernels::set_max_isa("scalar"));
    CHECK(p.steps[0].kernels.vs == vs);
    CHECK(std::string(p.isa) == isas.back());
    CHECK(make_plan(BCAST_OP_ADD, BCAST_DTYPE_F32, {shape({64, 64}), shape({64, 1})}).steps[0].kernels.vs ==
          bcast::kernels::portable_kernels(BCAST_OP_ADD, BCAST_DTYPE_F32)->vs);
}
