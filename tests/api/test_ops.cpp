// Value tests of every (opcode, dtype) pair through the public C API only,
// checked element by element against the independent scalar reference in
// scalar_reference.cpp (written from the header table and decisions.md).
#include <catch2/catch.hpp>

#include <bcast/bcast.h>

#include "api/scalar_reference.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using bref::Expected;
using bref::Kind;
using Shape = std::vector<int64_t>;

constexpr unsigned char kSentinel = 0xA5;
constexpr int64_t kMargin = 3; // spare output elements on both sides, checked untouched
constexpr int kMaxReportedMismatches = 6;

// ---------------------------------------------------------------------------
// Shapes and indices
// ---------------------------------------------------------------------------

int64_t numel(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

std::string shape_str(const Shape& s) {
    std::string r = "(";
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i) r += ",";
        r += std::to_string(s[i]);
    }
    return r + (s.size() == 1 ? ",)" : ")");
}

Shape contiguous_strides(const Shape& s) {
    Shape st(s.size());
    int64_t acc = 1;
    for (std::size_t k = s.size(); k-- > 0;) {
        st[k] = acc;
        acc *= s[k];
    }
    return st;
}

template <class Fn>
void for_each_index(const Shape& shape, Fn fn) {
    if (numel(shape) == 0) return;
    Shape idx(shape.size(), 0);
    for (;;) {
        fn(static_cast<const Shape&>(idx));
        std::size_t k = shape.size();
        for (;;) {
            if (k == 0) return;
            --k;
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
}

// numpy broadcast of compatible shapes (the tests only use compatible ones).
Shape numpy_broadcast(const std::vector<Shape>& shapes) {
    std::size_t rank = 0;
    for (const Shape& s : shapes) rank = std::max(rank, s.size());
    Shape out(rank, 1);
    for (const Shape& s : shapes) {
        for (std::size_t k = 0; k < s.size(); ++k) {
            int64_t& o = out[rank - s.size() + k];
            if (s[k] != 1) o = s[k]; // 0 vs 1 gives 0 as well
        }
    }
    return out;
}

// Index into an input of shape `in` for output index `oi` under numpy rules.
Shape numpy_index(const Shape& oi, const Shape& in) {
    Shape r(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) r[k] = in[k] == 1 ? 0 : oi[oi.size() - in.size() + k];
    return r;
}

// ---------------------------------------------------------------------------
// Operands in memory (any element strides, sentinel-filled spare room)
// ---------------------------------------------------------------------------

struct Operand {
    bcast_dtype dt = BCAST_DTYPE_F32;
    Shape shape;
    Shape strides;             // element strides, always filled in
    bool pass_strides = false; // hand the strides to the plan (else NULL: contiguous)
    std::vector<unsigned char> mem;
    int64_t origin = 0; // element offset of index (0,...,0) in mem

    std::size_t esize() const { return bref::elem_size(dt); }
    int64_t offset(const Shape& idx) const {
        int64_t o = origin;
        for (std::size_t k = 0; k < idx.size(); ++k) o += idx[k] * strides[k];
        return o;
    }
    uint64_t get(const Shape& idx) const {
        uint64_t b = 0;
        std::memcpy(&b, mem.data() + offset(idx) * static_cast<int64_t>(esize()), esize());
        return b;
    }
    void set(const Shape& idx, uint64_t bits) {
        std::memcpy(mem.data() + offset(idx) * static_cast<int64_t>(esize()), &bits, esize());
    }
    void* ptr() { return mem.empty() ? nullptr : mem.data() + origin * static_cast<int64_t>(esize()); }
};

// An operand with `strides` (empty: contiguous) and `margin` spare elements on
// both sides; every byte starts as `fill`. Inputs use margin 0 so that the
// sanitizer sees any read outside them.
Operand make_operand(bcast_dtype dt, const Shape& shape, const Shape& strides = {},
                     int64_t margin = 0, unsigned char fill = 0) {
    Operand o;
    o.dt = dt;
    o.shape = shape;
    o.pass_strides = !strides.empty();
    o.strides = strides.empty() ? contiguous_strides(shape) : strides;
    int64_t lo = 0, hi = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] > 1) {
            const int64_t span = (shape[k] - 1) * o.strides[k];
            (span < 0 ? lo : hi) += span;
        }
    }
    const int64_t count = (numel(shape) == 0 ? 0 : hi - lo + 1) + 2 * margin;
    o.origin = margin - lo;
    o.mem.assign(static_cast<std::size_t>(count) * o.esize(), fill);
    return o;
}

// Fills the operand in row-major logical order, cycling through `values`.
void fill_values(Operand& o, const std::vector<uint64_t>& values) {
    std::size_t i = 0;
    for_each_index(o.shape, [&](const Shape& idx) { o.set(idx, values[i++ % values.size()]); });
}

Operand make_filled(bcast_dtype dt, const Shape& shape, const std::vector<uint64_t>& values,
                    const Shape& strides = {}) {
    Operand o = make_operand(dt, shape, strides);
    fill_values(o, values);
    return o;
}

// ---------------------------------------------------------------------------
// Test values
// ---------------------------------------------------------------------------

bool is_logical(bcast_opcode op) {
    return op == BCAST_OP_LOGICAL_AND || op == BCAST_OP_LOGICAL_OR || op == BCAST_OP_LOGICAL_XOR;
}

double max_finite(bcast_dtype dt) {
    switch (dt) {
    case BCAST_DTYPE_F32: return std::numeric_limits<float>::max();
    case BCAST_DTYPE_F64: return std::numeric_limits<double>::max();
    case BCAST_DTYPE_F16: return 65504.0;
    default: return bref::bf16_to_double(0x7F7F);
    }
}
double min_normal(bcast_dtype dt) {
    switch (dt) {
    case BCAST_DTYPE_F32: return std::numeric_limits<float>::min();
    case BCAST_DTYPE_F64: return std::numeric_limits<double>::min();
    case BCAST_DTYPE_F16: return std::ldexp(1.0, -14);
    default: return std::ldexp(1.0, -126);
    }
}
double denorm_min(bcast_dtype dt) {
    switch (dt) {
    case BCAST_DTYPE_F32: return std::numeric_limits<float>::denorm_min();
    case BCAST_DTYPE_F64: return std::numeric_limits<double>::denorm_min();
    case BCAST_DTYPE_F16: return std::ldexp(1.0, -24);
    default: return std::ldexp(1.0, -133);
    }
}

void push_unique(std::vector<uint64_t>& v, uint64_t b) {
    if (std::find(v.begin(), v.end(), b) == v.end()) v.push_back(b);
}

// The special values crossed as a grid: NaN, +-inf, -0, denormals, extremes;
// for ints 0, +-1, MIN, MAX, UMAX, shift counts around the width.
std::vector<uint64_t> special_values(bcast_opcode op, bcast_dtype dt) {
    std::vector<uint64_t> v;
    switch (bref::kind_of(dt)) {
    case Kind::Float: {
        const double inf = std::numeric_limits<double>::infinity();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double vals[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 2.0, 3.0, -3.0, 7.0,
                               0.1, -0.75, 100.25, -1000.0, min_normal(dt), -min_normal(dt),
                               denorm_min(dt), -denorm_min(dt), max_finite(dt), -max_finite(dt),
                               inf, -inf, nan};
        for (double d : vals) push_unique(v, bref::float_bits(dt, d));
        push_unique(v, bref::float_bits(dt, -nan));
        break;
    }
    case Kind::Signed:
    case Kind::Unsigned: {
        const int w = bref::bit_width(dt);
        const bref::i128 smin = -(static_cast<bref::i128>(1) << (w - 1));
        const bref::i128 smax = (static_cast<bref::i128>(1) << (w - 1)) - 1;
        const bref::i128 vals[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 100, smin, smin + 1, smax,
                                   smax - 1, w - 1, w, w + 1, -w};
        for (bref::i128 x : vals) push_unique(v, bref::int_bits(dt, x));
        break;
    }
    case Kind::Bool:
        v = {0, 1};
        if (is_logical(op)) v = {0, 1, 2, 0x80, 0xFF};
        break;
    }
    return v;
}

std::vector<uint64_t> random_values(bcast_opcode op, bcast_dtype dt, std::size_t count,
                                    std::mt19937_64& rng) {
    std::vector<uint64_t> out;
    const std::vector<uint64_t> specials = special_values(op, dt);
    std::uniform_real_distribution<double> small(-8.0, 8.0), wide(-1000.0, 1000.0);
    std::uniform_int_distribution<int> cat(0, 9), tiny(-10, 70), smallint(-6, 6);
    for (std::size_t i = 0; i < count; ++i) {
        const int c = cat(rng);
        switch (bref::kind_of(dt)) {
        case Kind::Float: {
            double d;
            if (c <= 5) d = small(rng);
            else if (c == 6) d = wide(rng);
            else if (c == 7) d = smallint(rng);
            else if (c == 8) d = small(rng) / 64.0;
            else {
                out.push_back(specials[rng() % specials.size()]);
                continue;
            }
            out.push_back(bref::float_bits(dt, d));
            break;
        }
        case Kind::Signed:
        case Kind::Unsigned:
            if (c <= 3) out.push_back(bref::int_bits(dt, static_cast<bref::i128>(rng())));
            else if (c <= 8) out.push_back(bref::int_bits(dt, tiny(rng)));
            else out.push_back(specials[rng() % specials.size()]);
            break;
        case Kind::Bool:
            out.push_back(specials[rng() % specials.size()]);
            break;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// The library through the C API
// ---------------------------------------------------------------------------

struct OpHandle {
    bcast_op* p = nullptr;
    OpHandle() = default;
    OpHandle(const OpHandle&) = delete;
    OpHandle& operator=(const OpHandle&) = delete;
    ~OpHandle() { bcast_op_destroy(p); }
};

struct PlanArgs {
    std::vector<std::size_t> ranks;
    std::vector<const int64_t*> dims;
    std::vector<const int64_t*> strides;
    bool any_strides = false;
    explicit PlanArgs(const std::vector<Operand>& ins) {
        for (const Operand& o : ins) {
            ranks.push_back(o.shape.size());
            dims.push_back(o.shape.data());
            strides.push_back(o.pass_strides ? o.strides.data() : nullptr);
            any_strides = any_strides || o.pass_strides;
        }
    }
    const int64_t* const* strides_arg() const { return any_strides ? strides.data() : nullptr; }
};

std::vector<const void*> pointers(std::vector<Operand>& ins) {
    std::vector<const void*> p;
    for (Operand& o : ins) p.push_back(o.ptr());
    return p;
}

std::string label(bcast_opcode op, bcast_dtype dt) {
    return std::string(bref::op_name(op)) + " " + bref::dtype_name(dt);
}

bool create_op(OpHandle& h, bcast_opcode op, bcast_dtype dt) {
    const bcast_status st = bcast_op_create(op, dt, &h.p);
    if (st != BCAST_OK) {
        FAIL_CHECK(label(op, dt) << ": create gave " << bcast_status_string(st) << ": "
                                 << bcast_last_error());
        return false;
    }
    return true;
}

bool plan_numpy(OpHandle& h, bcast_opcode op, bcast_dtype dt, const std::vector<Operand>& ins,
                const Shape& out_strides) {
    const PlanArgs a(ins);
    const bcast_status st = bcast_op_plan(h.p, ins.size(), a.ranks.data(), a.dims.data(),
                                          a.strides_arg(),
                                          out_strides.empty() ? nullptr : out_strides.data());
    if (st != BCAST_OK) {
        FAIL_CHECK(label(op, dt) << ": plan gave " << bcast_status_string(st) << ": "
                                 << bcast_last_error());
        return false;
    }
    return true;
}

// The planned output shape must be `expected`.
bool check_output_shape(const OpHandle& h, const Shape& expected) {
    std::size_t rank = 99;
    int64_t dims[BCAST_MAX_RANK];
    const bcast_status st = bcast_op_output_shape(h.p, BCAST_MAX_RANK, &rank, dims);
    CHECK(st == BCAST_OK);
    if (st != BCAST_OK) return false;
    const Shape got(dims, dims + rank);
    CHECK(shape_str(got) == shape_str(expected));
    return got == expected;
}

bool execute_into(OpHandle& h, bcast_opcode op, bcast_dtype dt, std::vector<Operand>& ins,
                  Operand& out) {
    const std::vector<const void*> p = pointers(ins);
    const bcast_status st = bcast_op_execute(h.p, p.data(), out.ptr());
    if (st != BCAST_OK) {
        FAIL_CHECK(label(op, dt) << ": execute gave " << bcast_status_string(st) << ": "
                                 << bcast_last_error());
        return false;
    }
    return true;
}

// Creates `op`, plans it under the NUMPY rule (the default) and executes it into
// a fresh sentinel-filled output (with `out_strides` if given).
bool run_numpy(bcast_opcode op, bcast_dtype dt, std::vector<Operand>& ins, Operand& out,
               const Shape& out_strides = {}) {
    std::vector<Shape> shapes;
    for (const Operand& o : ins) shapes.push_back(o.shape);
    const Shape shape = numpy_broadcast(shapes);
    OpHandle h;
    if (!create_op(h, op, dt) || !plan_numpy(h, op, dt, ins, out_strides)) return false;
    if (!check_output_shape(h, shape)) return false;
    out = make_operand(bref::output_dtype(op, dt), shape, out_strides, kMargin, kSentinel);
    return execute_into(h, op, dt, ins, out);
}

// ---------------------------------------------------------------------------
// Checking outputs
// ---------------------------------------------------------------------------

using IndexMap = std::function<Shape(std::size_t input, const Shape& out_index)>;

IndexMap numpy_map(const std::vector<Operand>& ins) {
    std::vector<Shape> shapes;
    for (const Operand& o : ins) shapes.push_back(o.shape);
    return [shapes](std::size_t i, const Shape& oi) { return numpy_index(oi, shapes[i]); };
}

// Compares every output element with the reference; reports the first few
// mismatches and returns how many there were.
std::size_t compare_with_reference(bcast_opcode op, bcast_dtype dt, const std::vector<Operand>& ins,
                                   const Operand& out, const IndexMap& map) {
    std::size_t bad = 0;
    const bcast_dtype odt = bref::output_dtype(op, dt);
    for_each_index(out.shape, [&](const Shape& oi) {
        uint64_t in[BCAST_MAX_INPUTS];
        for (std::size_t i = 0; i < ins.size(); ++i) in[i] = ins[i].get(map(i, oi));
        const Expected e = bref::reference(op, dt, in, ins.size());
        const uint64_t got = out.get(oi);
        std::string why;
        if (bref::matches(odt, e, got, &why)) return;
        if (++bad > kMaxReportedMismatches) return;
        std::string msg = label(op, dt) + " at " + shape_str(oi) + ": inputs [";
        for (std::size_t i = 0; i < ins.size(); ++i) {
            if (i) msg += ", ";
            msg += bref::format_bits(ins[i].dt, in[i]);
        }
        msg += "] expected " + bref::format_bits(odt, e.bits) +
               (e.any_nan ? " (any NaN)" : "") +
               (e.ulp ? " (+-" + std::to_string(e.ulp) + " ulp)" : std::string()) + " got " +
               bref::format_bits(odt, got) + ": " + why;
        FAIL_CHECK(msg);
    });
    return bad;
}

// Every byte of `out` that is not part of an output element still holds the sentinel.
void check_untouched(const Operand& out) {
    std::vector<bool> covered(out.mem.size(), false);
    const auto es = static_cast<int64_t>(out.esize());
    for_each_index(out.shape, [&](const Shape& idx) {
        for (int64_t b = 0; b < es; ++b) covered[static_cast<std::size_t>(out.offset(idx) * es + b)] = true;
    });
    std::size_t stray = 0;
    for (std::size_t i = 0; i < out.mem.size(); ++i) stray += (!covered[i] && out.mem[i] != kSentinel);
    CHECK(stray == 0);
}

// The one generic helper: run under NUMPY and compare every element.
void run_and_check(bcast_opcode op, bcast_dtype dt, std::vector<Operand> ins,
                   const Shape& out_strides = {}) {
    INFO(label(op, dt));
    Operand out;
    if (!run_numpy(op, dt, ins, out, out_strides)) return;
    CHECK(compare_with_reference(op, dt, ins, out, numpy_map(ins)) == 0);
    check_untouched(out);
}

// x values along axis 0, y values along axis 1: shapes (n,1) and (1,m).
void check_grid(bcast_opcode op, bcast_dtype dt) {
    const std::vector<uint64_t> xs = special_values(op, bref::input_dtype(op, dt, 0));
    const std::vector<uint64_t> ys = special_values(op, bref::input_dtype(op, dt, 1));
    std::vector<Operand> ins;
    ins.push_back(make_filled(dt, {static_cast<int64_t>(xs.size()), 1}, xs));
    ins.push_back(make_filled(dt, {1, static_cast<int64_t>(ys.size())}, ys));
    run_and_check(op, dt, std::move(ins));
}

void check_random(bcast_opcode op, bcast_dtype dt, const std::vector<Shape>& shapes, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Operand> ins;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const bcast_dtype idt = bref::input_dtype(op, dt, i);
        ins.push_back(make_filled(idt, shapes[i],
                                  random_values(op, idt, static_cast<std::size_t>(std::max<int64_t>(numel(shapes[i]), 1)), rng)));
    }
    run_and_check(op, dt, std::move(ins));
}

template <class Fn>
void for_each_supported(Fn fn) {
    for (int op = 0; op < bref::kNumOpcodes; ++op) {
        for (int dt = 0; dt < bref::kNumDtypes; ++dt) {
            if (bref::expected_support(op, dt)) fn(static_cast<bcast_opcode>(op), static_cast<bcast_dtype>(dt));
        }
    }
}

bool is_binary_value_op(bcast_opcode op) { return op != BCAST_OP_SELECT && op != BCAST_OP_COPY; }

std::string lower_no_space(const std::string& s) {
    std::string r;
    for (char c : s) {
        if (c != ' ' && c != '\n' && c != '\t') r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return r;
}

} // namespace

// ===========================================================================
// The reference itself (so that a wrong reference cannot hide behind the library)
// ===========================================================================

TEST_CASE("reference: binary16 and bfloat16 codec", "[ops][reference]") {
    CHECK(bref::f16_from_double(1.0) == 0x3C00);
    CHECK(bref::f16_from_double(-2.0) == 0xC000);
    CHECK(bref::f16_from_double(65504.0) == 0x7BFF);
    CHECK(bref::f16_from_double(65519.99) == 0x7BFF);
    CHECK(bref::f16_from_double(65520.0) == 0x7C00); // tie rounds to even = overflow
    CHECK(bref::f16_from_double(std::ldexp(1.0, -24)) == 0x0001);
    CHECK(bref::f16_from_double(std::ldexp(1.0, -25)) == 0x0000);       // tie to even (0)
    CHECK(bref::f16_from_double(std::ldexp(3.0, -26)) == 0x0001);       // 0.75 quanta -> 1
    CHECK(bref::f16_from_double(std::ldexp(3.0, -25)) == 0x0002);       // 1.5 quanta, tie -> 2
    CHECK(bref::f16_from_double(-std::ldexp(1.0, -26)) == 0x8000);
    CHECK(bref::f16_from_double(1.0 + std::ldexp(1.0, -11)) == 0x3C00); // tie to even
    CHECK(bref::f16_from_double(1.0 + std::ldexp(3.0, -11)) == 0x3C02); // tie to even (up)
    CHECK(bref::f16_from_double(std::ldexp(1023.0, -24)) == 0x03FF);    // largest subnormal
    CHECK(bref::f16_from_double(std::ldexp(2047.0, -25)) == 0x0400);    // rounds up to min normal
    CHECK(bref::f16_to_double(0x0001) == std::ldexp(1.0, -24));
    CHECK(bref::f16_to_double(0x3555) == 0.333251953125);
    CHECK(std::isnan(bref::f16_to_double(0x7E00)));
    CHECK(bref::bf16_from_double(1.0) == 0x3F80);
    CHECK(bref::bf16_from_double(1.0 + std::ldexp(1.0, -8)) == 0x3F80); // tie to even
    CHECK(bref::bf16_from_double(1.0 + std::ldexp(3.0, -8)) == 0x3F82);
    CHECK(bref::bf16_to_double(0x7F7F) == std::ldexp(255.0, 120)); // largest finite
    CHECK(bref::bf16_from_double(std::numeric_limits<double>::infinity()) == 0x7F80);
    CHECK(bref::bf16_from_double(-0.0) == 0x8000);
    // Every binary16 and bfloat16 value survives decode + encode.
    std::size_t bad = 0;
    for (uint32_t b = 0; b < 0x10000; ++b) {
        const double h = bref::f16_to_double(static_cast<uint16_t>(b));
        const double g = bref::bf16_to_double(static_cast<uint16_t>(b));
        if (std::isnan(h) != std::isnan(bref::f16_to_double(bref::f16_from_double(h)))) ++bad;
        if (!std::isnan(h) && bref::f16_from_double(h) != b) ++bad;
        if (!std::isnan(g) && bref::bf16_from_double(g) != b) ++bad;
        // bfloat16 is the top half of a float: compare with float's own bits.
        float f;
        const uint32_t fb = b << 16;
        std::memcpy(&f, &fb, 4);
        if (!std::isnan(g) && static_cast<double>(f) != g) ++bad;
    }
    CHECK(bad == 0);
}

TEST_CASE("reference: hand-computed values", "[ops][reference]") {
    auto f64 = [](bcast_opcode op, double x, double y) {
        const uint64_t in[2] = {bref::float_bits(BCAST_DTYPE_F64, x), bref::float_bits(BCAST_DTYPE_F64, y)};
        return bref::float_value(BCAST_DTYPE_F64, bref::reference(op, BCAST_DTYPE_F64, in, 2).bits);
    };
    auto i8 = [](bcast_opcode op, int x, int y) {
        const uint64_t in[2] = {bref::int_bits(BCAST_DTYPE_I8, x), bref::int_bits(BCAST_DTYPE_I8, y)};
        return static_cast<int>(bref::int_value(BCAST_DTYPE_I8, bref::reference(op, BCAST_DTYPE_I8, in, 2).bits));
    };
    CHECK(f64(BCAST_OP_FLOOR_DIVIDE, 1.0, 0.1) == 9.0); // numpy: 1 // 0.1 == 9
    // numpy evaluates f32 in float: a - fmod(a, b) rounds when the remainder
    // is tiny, giving one below the true floor 16125673 (found by fuzzing;
    // numpy 1.24: np.float32(4.6549576e-36) // np.float32(2.89e-43)).
    const uint64_t tiny_mod[2] = {0x04c60000, 0x000000ce};
    CHECK(bref::reference(BCAST_OP_FLOOR_DIVIDE, BCAST_DTYPE_F32, tiny_mod, 2).bits ==
          bref::float_bits(BCAST_DTYPE_F32, 16125672.0));
    CHECK(f64(BCAST_OP_FLOOR_DIVIDE, -7.0, 2.0) == -4.0);
    CHECK(std::signbit(f64(BCAST_OP_FLOOR_DIVIDE, -0.0, 5.0)));
    CHECK(std::signbit(f64(BCAST_OP_FLOOR_DIVIDE, 0.5, -3.0)) == true); // -1
    CHECK(f64(BCAST_OP_FLOOR_DIVIDE, 0.5, -3.0) == -1.0);
    CHECK(f64(BCAST_OP_FLOOR_DIVIDE, 1.0, 0.0) == std::numeric_limits<double>::infinity());
    CHECK(f64(BCAST_OP_MOD, -1.0, 3.0) == 2.0);
    CHECK(f64(BCAST_OP_MOD, 1.0, -3.0) == -2.0);
    CHECK(std::signbit(f64(BCAST_OP_MOD, 3.0, -3.0)));
    CHECK(std::isnan(f64(BCAST_OP_MOD, 3.0, 0.0)));
    CHECK(f64(BCAST_OP_MOD, -1.0, std::numeric_limits<double>::infinity()) == std::numeric_limits<double>::infinity());
    CHECK(f64(BCAST_OP_FMOD, -7.0, 2.0) == -1.0);
    CHECK(f64(BCAST_OP_REMAINDER, 7.0, 2.0) == -1.0);
    CHECK(std::signbit(f64(BCAST_OP_MAX, -0.0, 0.0)));   // a >= b keeps a
    CHECK(!std::signbit(f64(BCAST_OP_MIN, 0.0, -0.0)));  // a <= b keeps a
    CHECK(std::isnan(f64(BCAST_OP_MAX, 1.0, std::nan(""))));
    CHECK(std::isnan(f64(BCAST_OP_MIN, std::nan(""), 1.0)));
    CHECK(f64(BCAST_OP_RSUB, 1.0, 5.0) == 4.0);
    CHECK(f64(BCAST_OP_PRELU, -2.0, 0.25) == -0.5);
    CHECK(std::signbit(f64(BCAST_OP_PRELU, -0.0, 5.0)));
    CHECK(std::fabs(f64(BCAST_OP_LOGADDEXP, 0.0, 0.0) - std::log(2.0)) < 1e-15);
    CHECK(f64(BCAST_OP_LOGADDEXP, 1000.0, 0.0) == 1000.0);
    CHECK(i8(BCAST_OP_DIV, -7, 2) == -3);
    CHECK(i8(BCAST_OP_DIV, -128, -1) == -128);
    CHECK(i8(BCAST_OP_DIV, 5, 0) == 0);
    CHECK(i8(BCAST_OP_FLOOR_DIVIDE, -7, 2) == -4);
    CHECK(i8(BCAST_OP_FLOOR_DIVIDE, -128, -1) == -128);
    CHECK(i8(BCAST_OP_FMOD, -7, 2) == -1);
    CHECK(i8(BCAST_OP_MOD, -7, 2) == 1);
    CHECK(i8(BCAST_OP_MOD, 7, -2) == -1);
    CHECK(i8(BCAST_OP_MOD, -128, -1) == 0);
    CHECK(i8(BCAST_OP_MOD, 3, 0) == 0);
    CHECK(i8(BCAST_OP_ADD, 127, 1) == -128);
    CHECK(i8(BCAST_OP_MUL, 16, 16) == 0);
    CHECK(i8(BCAST_OP_POW, 3, 5) == (243 - 256));
    CHECK(i8(BCAST_OP_POW, 2, -1) == 0);
    CHECK(i8(BCAST_OP_POW, -1, -3) == -1);
    CHECK(i8(BCAST_OP_POW, -1, -4) == 1);
    CHECK(i8(BCAST_OP_POW, 0, 0) == 1);
    CHECK(i8(BCAST_OP_SHIFT_LEFT, 1, 7) == -128);
    CHECK(i8(BCAST_OP_SHIFT_LEFT, 1, 8) == 0);
    CHECK(i8(BCAST_OP_SHIFT_LEFT, 1, -1) == 0);
    CHECK(i8(BCAST_OP_SHIFT_RIGHT, -128, 7) == -1);
    CHECK(i8(BCAST_OP_SHIFT_RIGHT, -128, 8) == 0);
    CHECK(i8(BCAST_OP_SQUARED_DIFFERENCE, -128, 127) == 1); // 255^2 = 65025 = 0xFE01
    CHECK(i8(BCAST_OP_PRELU, -3, 5) == -15);
    const uint64_t u8in[2] = {0x80, 7};
    CHECK(bref::reference(BCAST_OP_SHIFT_RIGHT, BCAST_DTYPE_U8, u8in, 2).bits == 1); // logical
    const uint64_t u64in[2] = {~uint64_t{0}, ~uint64_t{0}};
    CHECK(bref::reference(BCAST_OP_MUL, BCAST_DTYPE_U64, u64in, 2).bits == 1);
    CHECK(bref::reference(BCAST_OP_LESS, BCAST_DTYPE_U64, u64in, 2).bits == 0);
    // f16: 1 + 2^-11 is not representable; 2048 + 1 in f32 then round to f16.
    const uint64_t h[2] = {bref::f16_from_double(2048.0), bref::f16_from_double(1.0)};
    CHECK(bref::reference(BCAST_OP_ADD, BCAST_DTYPE_F16, h, 2).bits == bref::f16_from_double(2048.0));
    // f32 product rounded once.
    const uint64_t f[2] = {bref::float_bits(BCAST_DTYPE_F32, 1.0 + std::ldexp(1.0, -23)),
                           bref::float_bits(BCAST_DTYPE_F32, 1.0 + std::ldexp(1.0, -23))};
    CHECK(bref::reference(BCAST_OP_MUL, BCAST_DTYPE_F32, f, 2).bits ==
          bref::float_bits(BCAST_DTYPE_F32, 1.0 + std::ldexp(1.0, -22)));
}

// ===========================================================================
// Support table
// ===========================================================================

TEST_CASE("ops: bcast_op_supports matches the header table", "[ops][support]") {
    for (int op = 0; op < bref::kNumOpcodes; ++op) {
        for (int dt = 0; dt < bref::kNumDtypes; ++dt) {
            INFO(label(op, dt));
            CHECK(bcast_op_supports(op, dt) == (bref::expected_support(op, dt) ? 1 : 0));
        }
    }
    for (int op : {-1, bref::kNumOpcodes, 1000}) CHECK(bcast_op_supports(op, BCAST_DTYPE_F32) == 0);
    for (int dt : {-1, bref::kNumDtypes, 1000}) CHECK(bcast_op_supports(BCAST_OP_ADD, dt) == 0);
}

TEST_CASE("ops: create refuses unsupported pairs and writes nothing", "[ops][support]") {
    for (int op = 0; op < bref::kNumOpcodes; ++op) {
        for (int dt = 0; dt < bref::kNumDtypes; ++dt) {
            INFO(label(op, dt));
            bcast_op* const marker = reinterpret_cast<bcast_op*>(static_cast<uintptr_t>(0x1234));
            bcast_op* out = marker;
            const bcast_status st = bcast_op_create(op, dt, &out);
            if (bref::expected_support(op, dt)) {
                CHECK(st == BCAST_OK);
                if (st == BCAST_OK) {
                    CHECK(out != marker);
                    CHECK(out != nullptr);
                    bcast_op_destroy(out);
                }
            } else {
                CHECK(st == BCAST_ERROR_UNSUPPORTED);
                CHECK(out == marker);
                CHECK(std::strlen(bcast_last_error()) > 0);
            }
        }
    }
}

TEST_CASE("ops: create refuses unknown values", "[ops][support]") {
    bcast_op* const marker = reinterpret_cast<bcast_op*>(static_cast<uintptr_t>(0x1234));
    bcast_op* out = marker;
    CHECK(bcast_op_create(bref::kNumOpcodes, BCAST_DTYPE_F32, &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_create(-1, BCAST_DTYPE_F32, &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_create(BCAST_OP_ADD, bref::kNumDtypes, &out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(out == marker);
    CHECK(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("ops: arity outside the table is refused at plan time", "[ops][support]") {
    auto plan_with = [](bcast_opcode op, bcast_dtype dt, std::size_t n) {
        OpHandle h;
        REQUIRE(bcast_op_create(op, dt, &h.p) == BCAST_OK);
        std::vector<std::size_t> ranks(n, 1);
        const int64_t dim = 3;
        std::vector<const int64_t*> dims(n, &dim);
        return bcast_op_plan(h.p, n, ranks.data(), dims.data(), nullptr, nullptr);
    };
    CHECK(plan_with(BCAST_OP_SUB, BCAST_DTYPE_F32, 3) == BCAST_ERROR_UNSUPPORTED);
    CHECK(plan_with(BCAST_OP_ADD, BCAST_DTYPE_F32, 1) == BCAST_ERROR_UNSUPPORTED);
    CHECK(plan_with(BCAST_OP_SELECT, BCAST_DTYPE_F32, 2) == BCAST_ERROR_UNSUPPORTED);
    CHECK(plan_with(BCAST_OP_COPY, BCAST_DTYPE_F32, 2) == BCAST_ERROR_UNSUPPORTED);
    CHECK(plan_with(BCAST_OP_ADD, BCAST_DTYPE_F32, 16) == BCAST_OK);
    CHECK(plan_with(BCAST_OP_ADD, BCAST_DTYPE_F32, 17) != BCAST_OK);
}

// ===========================================================================
// Values: every supported (op, dtype) pair
// ===========================================================================

TEST_CASE("ops: special-value grid for every op and dtype", "[ops][values]") {
    for_each_supported([](bcast_opcode op, bcast_dtype dt) {
        if (is_binary_value_op(op)) check_grid(op, dt);
    });
}

namespace {
// Small shapes for every broadcasting pattern, and longer rows (67 is no
// multiple of any vector width) so that vector bodies and tails both run.
const std::vector<std::vector<Shape>>& random_shape_cases() {
    static const std::vector<std::vector<Shape>> cases = {
        {{17}, {17}},      {{3, 5}, {5}},      {{4, 1, 3}, {2, 1}},  {{5}, {3, 5}},
        {{2, 3, 4}, {1}},  {{1, 4}, {3, 1}},   {{2, 1, 3, 1}, {4, 1, 5}},
        {{3, 67}, {67}},   {{67}, {1}},        {{1}, {67}},          {{2, 33}, {2, 1}},
        {{130}, {130}},    {{140}, {3, 140}}};
    return cases;
}

void check_all_random(uint64_t seed) {
    for_each_supported([&](bcast_opcode op, bcast_dtype dt) {
        if (!is_binary_value_op(op)) return;
        for (const auto& shapes : random_shape_cases()) check_random(op, dt, shapes, seed++);
    });
}
} // namespace

TEST_CASE("ops: seeded random data at several broadcast shapes", "[ops][values]") {
    check_all_random(1);
}

TEST_CASE("ops: values are the same under every kernel set (ISA cap)", "[ops][values][isa]") {
    const std::string original = bcast_isa();
    std::vector<std::string> seen;
    for (const char* cap : {"scalar", "sse2", "avx2", "avx512", "neon"}) {
        REQUIRE(bcast_set_max_isa(cap) == BCAST_OK);
        const std::string isa = bcast_isa();
        if (std::find(seen.begin(), seen.end(), isa) != seen.end()) continue;
        seen.push_back(isa);
        INFO("kernel set " << isa << " (cap " << cap << ")");
        for_each_supported([](bcast_opcode op, bcast_dtype dt) {
            if (is_binary_value_op(op)) check_grid(op, dt);
        });
        check_all_random(90000);
    }
    CHECK(bcast_set_max_isa(original.c_str()) == BCAST_OK);
    CHECK(bcast_isa() == original);
}

TEST_CASE("ops: LOGADDEXP where the result is near zero (cancellation)", "[ops][values]") {
    // exp(x) + exp(y) close to 1: y = log(1 - exp(x)), then nudged; the result
    // is tiny, so the 2-ulp bound needs more than a plain x + log1p(exp(y - x)).
    for (int d = 0; d < bref::kNumDtypes; ++d) {
        const auto dt = static_cast<bcast_dtype>(d);
        if (bref::kind_of(dt) != Kind::Float) continue;
        std::vector<uint64_t> xs, ys;
        for (int i = 0; i < 60; ++i) {
            const double x = -0.3 - 0.025 * i;
            for (double nudge : {0.0, 1e-3, -1e-3, 3e-6}) {
                xs.push_back(bref::float_bits(dt, static_cast<double>(static_cast<float>(x))));
                const double y = std::log1p(-std::exp(x)) + nudge;
                ys.push_back(bref::float_bits(dt, dt == BCAST_DTYPE_F64 ? y : static_cast<double>(static_cast<float>(y))));
            }
        }
        const auto n = static_cast<int64_t>(xs.size());
        run_and_check(BCAST_OP_LOGADDEXP, dt, {make_filled(dt, {n}, xs), make_filled(dt, {n}, ys)});
        run_and_check(BCAST_OP_LOGADDEXP, dt, {make_filled(dt, {n}, ys), make_filled(dt, {n}, xs)});
    }
}

TEST_CASE("ops: reversed ops equal the base op with swapped operands", "[ops][values]") {
    for_each_supported([](bcast_opcode op, bcast_dtype dt) {
        if (!bref::is_reversed(op)) return;
        INFO(label(op, dt));
        std::mt19937_64 rng(77 + static_cast<uint64_t>(op) * 13 + static_cast<uint64_t>(dt));
        const Operand a = make_filled(dt, {6, 7}, random_values(op, dt, 42, rng));
        const Operand b = make_filled(dt, {7}, random_values(op, dt, 7, rng));
        std::vector<Operand> rev_in = {a, b}, base_in = {b, a};
        Operand rev_out, base_out;
        if (!run_numpy(op, dt, rev_in, rev_out) ||
            !run_numpy(bref::base_of_reversed(op), dt, base_in, base_out))
            return;
        std::size_t bad = 0;
        for_each_index(rev_out.shape, [&](const Shape& idx) {
            Expected e;
            e.bits = base_out.get(idx);
            e.any_nan = std::isnan(bref::float_value(dt, e.bits)) && bref::kind_of(dt) == Kind::Float;
            bad += !bref::matches(dt, e, rev_out.get(idx), nullptr);
        });
        CHECK(bad == 0);
    });
}

TEST_CASE("ops: variadic ADD MUL MAX MIN MEAN with 3 5 and 8 inputs", "[ops][values]") {
    const std::vector<Shape> shapes = {{3, 1}, {2, 1, 4}, {4},    {},
                                       {1, 3, 1}, {2, 3, 4}, {1, 1, 1, 4}, {2, 1, 1}};
    const bcast_opcode ops[] = {BCAST_OP_ADD, BCAST_OP_MUL, BCAST_OP_MAX, BCAST_OP_MIN, BCAST_OP_MEAN};
    uint64_t seed = 1000;
    for (bcast_opcode op : ops) {
        for (int dt = 0; dt < bref::kNumDtypes; ++dt) {
            if (!bref::expected_support(op, dt)) continue;
            for (std::size_t n : {3u, 5u, 8u}) {
                INFO(n << " inputs");
                check_random(op, dt, std::vector<Shape>(shapes.begin(), shapes.begin() + static_cast<std::ptrdiff_t>(n)), seed++);
            }
        }
    }
}

TEST_CASE("ops: SELECT picks x where cond else y for every dtype", "[ops][values]") {
    for (int d = 0; d < bref::kNumDtypes; ++d) {
        const auto dt = static_cast<bcast_dtype>(d);
        const std::vector<uint64_t> vals = special_values(BCAST_OP_SELECT, dt);
        std::vector<uint64_t> rev(vals.rbegin(), vals.rend());
        std::vector<Operand> ins;
        ins.push_back(make_filled(BCAST_DTYPE_BOOL, {2, 1, 1}, {0, 1}));
        ins.push_back(make_filled(dt, {static_cast<int64_t>(vals.size()), 1}, vals));
        ins.push_back(make_filled(dt, {1, static_cast<int64_t>(rev.size())}, rev));
        run_and_check(BCAST_OP_SELECT, dt, std::move(ins));
        // And a random condition broadcast the other way.
        check_random(BCAST_OP_SELECT, dt, {{3, 4}, {4}, {3, 1}}, 600 + static_cast<uint64_t>(d));
    }
}

// ===========================================================================
// COPY via bcast_op_plan_to
// ===========================================================================

namespace {

// Plans COPY of `data` to `target` under `mode` and checks every output element
// against the input element that `map` names.
void check_copy_to(bcast_dtype dt, bcast_expand_mode mode, Operand data, const Shape& target,
                   const Shape& expected_out, const std::vector<int64_t>& axes_mapping,
                   const IndexMap& map) {
    INFO("COPY " << bref::dtype_name(dt) << " " << shape_str(data.shape) << " to "
                 << shape_str(target) << " mode " << mode);
    OpHandle h;
    if (!create_op(h, BCAST_OP_COPY, dt)) return;
    REQUIRE(bcast_op_set_param(h.p, BCAST_PARAM_EXPAND_MODE, mode) == BCAST_OK);
    std::vector<Operand> ins = {std::move(data)};
    const PlanArgs a(ins);
    const bcast_status st = bcast_op_plan_to(
        h.p, 1, a.ranks.data(), a.dims.data(), a.strides_arg(), target.size(), target.data(),
        axes_mapping.empty() ? nullptr : axes_mapping.data(), axes_mapping.size(), nullptr);
    INFO(bcast_last_error());
    REQUIRE(st == BCAST_OK);
    if (!check_output_shape(h, expected_out)) return;
    Operand out = make_operand(dt, expected_out, {}, kMargin, kSentinel);
    if (!execute_into(h, BCAST_OP_COPY, dt, ins, out)) return;
    CHECK(compare_with_reference(BCAST_OP_COPY, dt, ins, out, map) == 0);
    check_untouched(out);
}

} // namespace

TEST_CASE("ops: COPY materialises a broadcast for every dtype", "[ops][copy]") {
    for (int d = 0; d < bref::kNumDtypes; ++d) {
        const auto dt = static_cast<bcast_dtype>(d);
        const std::vector<uint64_t> vals = special_values(BCAST_OP_COPY, dt);
        const auto n = static_cast<int64_t>(vals.size());
        SECTION(std::string("numpy target ") + bref::dtype_name(dt)) {
            const Operand data = make_filled(dt, {n, 1}, vals);
            check_copy_to(dt, BCAST_EXPAND_NUMPY, data, {2, n, 3}, {2, n, 3}, {},
                          [](std::size_t, const Shape& oi) { return Shape{oi[1], 0}; });
        }
        SECTION(std::string("bidirectional ") + bref::dtype_name(dt)) {
            const Operand data = make_filled(dt, {3, 1}, vals);
            check_copy_to(dt, BCAST_EXPAND_BIDIRECTIONAL, data, {2, 1, 4}, {2, 3, 4}, {},
                          [](std::size_t, const Shape& oi) { return Shape{oi[1], 0}; });
        }
        SECTION(std::string("explicit ") + bref::dtype_name(dt)) {
            const Operand data = make_filled(dt, {3}, vals);
            check_copy_to(dt, BCAST_EXPAND_EXPLICIT, data, {2, 3, 4}, {2, 3, 4}, {1},
                          [](std::size_t, const Shape& oi) { return Shape{oi[1]}; });
            const Operand data2 = make_filled(dt, {2, 4}, vals);
            check_copy_to(dt, BCAST_EXPAND_EXPLICIT, data2, {2, 3, 4}, {2, 3, 4}, {0, 2},
                          [](std::size_t, const Shape& oi) { return Shape{oi[0], oi[2]}; });
        }
    }
}

// ===========================================================================
// Layouts: strided inputs, padded outputs, in place, refused overlaps
// ===========================================================================

TEST_CASE("ops: strided inputs (negative zero and transposed strides)", "[ops][layout]") {
    const std::pair<bcast_opcode, bcast_dtype> pairs[] = {
        {BCAST_OP_SUB, BCAST_DTYPE_F32}, {BCAST_OP_DIV, BCAST_DTYPE_I16},
        {BCAST_OP_MUL, BCAST_DTYPE_F16}, {BCAST_OP_MAX, BCAST_DTYPE_U64},
        {BCAST_OP_LESS, BCAST_DTYPE_F64}, {BCAST_OP_SELECT, BCAST_DTYPE_I8}};
    uint64_t seed = 4000;
    for (const auto& p : pairs) {
        const bcast_opcode op = p.first;
        const bcast_dtype dt = p.second;
        std::mt19937_64 rng(seed++);
        auto vals = [&](std::size_t i, std::size_t n) {
            return random_values(op, bref::input_dtype(op, dt, i), n, rng);
        };
        auto dtype_of = [&](std::size_t i) { return bref::input_dtype(op, dt, i); };
        const std::size_t arity = bref::min_arity(op);
        SECTION(label(op, dt) + ": reversed view (pointer to the last element, stride -1)") {
            std::vector<Operand> ins;
            for (std::size_t i = 0; i < arity; ++i)
                ins.push_back(make_filled(dtype_of(i), {17}, vals(i, 17), i == 0 ? Shape{-1} : Shape{}));
            REQUIRE(ins[0].origin == 16);
            run_and_check(op, dt, std::move(ins));
        }
        SECTION(label(op, dt) + ": zero stride and a transposed view") {
            std::vector<Operand> ins;
            ins.push_back(make_filled(dtype_of(0), {4, 3}, vals(0, 12), {0, 1}));
            ins.push_back(make_filled(dtype_of(1), {4, 3}, vals(1, 12), {1, 4}));
            if (arity == 3) ins.push_back(make_filled(dtype_of(2), {3}, vals(2, 3), {-2}));
            run_and_check(op, dt, std::move(ins));
        }
        SECTION(label(op, dt) + ": every other element, negative inner stride with broadcasting") {
            std::vector<Operand> ins;
            ins.push_back(make_filled(dtype_of(0), {3, 5}, vals(0, 15), {10, 2}));
            ins.push_back(make_filled(dtype_of(1), {5}, vals(1, 5), {-3}));
            if (arity == 3) ins.push_back(make_filled(dtype_of(2), {3, 1}, vals(2, 3), {-1, 7}));
            run_and_check(op, dt, std::move(ins));
        }
    }
}

TEST_CASE("ops: channel-padded output (ncnn cstep) leaves padding untouched", "[ops][layout]") {
    const Shape out_strides = {16, 5, 1}; // shape (2,3,5), cstep 16
    const std::pair<bcast_opcode, bcast_dtype> pairs[] = {
        {BCAST_OP_MUL, BCAST_DTYPE_F32}, {BCAST_OP_ADD, BCAST_DTYPE_I8},
        {BCAST_OP_EQUAL, BCAST_DTYPE_BF16}, {BCAST_OP_POW, BCAST_DTYPE_F64}};
    uint64_t seed = 5000;
    for (const auto& p : pairs) {
        std::mt19937_64 rng(seed++);
        std::vector<Operand> ins;
        ins.push_back(make_filled(p.second, {2, 3, 5}, random_values(p.first, p.second, 30, rng)));
        ins.push_back(make_filled(p.second, {3, 1}, random_values(p.first, p.second, 3, rng)));
        run_and_check(p.first, p.second, std::move(ins), out_strides); // checks the padding too
    }
    SECTION("negative output strides (data below the output pointer)") {
        std::mt19937_64 rng(5100);
        std::vector<Operand> ins;
        ins.push_back(make_filled(BCAST_DTYPE_F32, {3, 5}, random_values(BCAST_OP_SUB, BCAST_DTYPE_F32, 15, rng)));
        ins.push_back(make_filled(BCAST_DTYPE_F32, {5}, random_values(BCAST_OP_SUB, BCAST_DTYPE_F32, 5, rng)));
        run_and_check(BCAST_OP_SUB, BCAST_DTYPE_F32, ins, {-5, -1});
        run_and_check(BCAST_OP_SUB, BCAST_DTYPE_F32, ins, {1, -3});
    }
    SECTION("output strides that alias two elements are refused") {
        OpHandle h;
        REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &h.p) == BCAST_OK);
        const Shape s = {2, 3, 5};
        const std::size_t ranks[2] = {3, 3};
        const int64_t* dims[2] = {s.data(), s.data()};
        const Shape bad = {0, 5, 1};
        CHECK(bcast_op_plan(h.p, 2, ranks, dims, nullptr, bad.data()) == BCAST_ERROR_INVALID_ARGUMENT);
        const Shape bad2 = {5, 2, 1}; // rows overlap within a channel
        CHECK(bcast_op_plan(h.p, 2, ranks, dims, nullptr, bad2.data()) == BCAST_ERROR_INVALID_ARGUMENT);
    }
}

namespace {

// Executes `op` with the output at input `which` (same layout) and checks the
// result against the reference applied to a snapshot of the inputs.
void check_in_place(bcast_opcode op, bcast_dtype dt, std::vector<Operand> ins, std::size_t which,
                    const Shape& out_strides = {}) {
    INFO(label(op, dt) << " in place on input " << which);
    const std::vector<Operand> before = ins;
    OpHandle h;
    if (!create_op(h, op, dt) || !plan_numpy(h, op, dt, ins, out_strides)) return;
    const std::vector<const void*> p = pointers(ins);
    const bcast_status st = bcast_op_execute(h.p, p.data(), ins[which].ptr());
    INFO(bcast_last_error());
    REQUIRE(st == BCAST_OK);
    CHECK(compare_with_reference(op, dt, before, ins[which], numpy_map(before)) == 0);
}

} // namespace

TEST_CASE("ops: in-place execution (output is an input with the same layout)", "[ops][layout]") {
    std::mt19937_64 rng(6000);
    auto filled = [&](bcast_opcode op, bcast_dtype dt, const Shape& s, const Shape& strides = {}) {
        return make_filled(dt, s, random_values(op, dt, static_cast<std::size_t>(numel(s)), rng), strides);
    };
    const std::pair<bcast_opcode, bcast_dtype> pairs[] = {
        {BCAST_OP_ADD, BCAST_DTYPE_F32}, {BCAST_OP_SUB, BCAST_DTYPE_I32},
        {BCAST_OP_DIV, BCAST_DTYPE_U8},  {BCAST_OP_SQUARED_DIFFERENCE, BCAST_DTYPE_F16},
        {BCAST_OP_MAX, BCAST_DTYPE_F64}, {BCAST_OP_SHIFT_LEFT, BCAST_DTYPE_I64}};
    for (const auto& p : pairs) {
        check_in_place(p.first, p.second,
                       {filled(p.first, p.second, {3, 5}), filled(p.first, p.second, {5})}, 0);
    }
    // On input 1, and with a transposed (strided) layout shared by input and output.
    check_in_place(BCAST_OP_RSUB, BCAST_DTYPE_F32,
                   {filled(BCAST_OP_RSUB, BCAST_DTYPE_F32, {5}), filled(BCAST_OP_RSUB, BCAST_DTYPE_F32, {3, 5})}, 1);
    check_in_place(BCAST_OP_MUL, BCAST_DTYPE_I16,
                   {filled(BCAST_OP_MUL, BCAST_DTYPE_I16, {3, 5}, {1, 3}),
                    filled(BCAST_OP_MUL, BCAST_DTYPE_I16, {3, 1})},
                   0, {1, 3});
}

namespace {

// Executes with an output that overlaps an input in a different layout: must be
// INVALID_ARGUMENT with a message, and no byte of `watched` may change.
void expect_overlap_refused(OpHandle& h, std::vector<Operand>& ins, void* output,
                            const std::vector<unsigned char>& watched_before,
                            const std::vector<unsigned char>& watched_after_ref) {
    const std::vector<const void*> p = pointers(ins);
    const bcast_status st = bcast_op_execute(h.p, p.data(), output);
    CHECK(st == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::strlen(bcast_last_error()) > 0);
    CHECK(watched_before == watched_after_ref);
}

} // namespace

TEST_CASE("ops: overlapping output in a different layout is refused", "[ops][layout]") {
    std::mt19937_64 rng(7000);
    const bcast_dtype dt = BCAST_DTYPE_F32;
    OpHandle h;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, dt, &h.p) == BCAST_OK);

    SECTION("output = input 0 shifted by one element") {
        // input 0: (3,5) contiguous with one spare element after it.
        std::vector<Operand> ins = {make_operand(dt, {16}), make_filled(dt, {5}, random_values(BCAST_OP_ADD, dt, 5, rng))};
        fill_values(ins[0], random_values(BCAST_OP_ADD, dt, 16, rng));
        Operand view = ins[0];
        view.shape = {3, 5};
        view.strides = {5, 1};
        std::vector<Operand> planned = {view, ins[1]};
        REQUIRE(plan_numpy(h, BCAST_OP_ADD, dt, planned, {}));
        const std::vector<unsigned char> before = planned[0].mem;
        auto* out = static_cast<unsigned char*>(planned[0].ptr()) + 4;
        expect_overlap_refused(h, planned, out, before, planned[0].mem);
    }
    SECTION("output = input 0 shifted back by two elements") {
        std::vector<Operand> ins = {make_operand(dt, {3, 5}, {}, 2, kSentinel),
                                    make_filled(dt, {5}, random_values(BCAST_OP_ADD, dt, 5, rng))};
        fill_values(ins[0], random_values(BCAST_OP_ADD, dt, 15, rng));
        REQUIRE(plan_numpy(h, BCAST_OP_ADD, dt, ins, {}));
        const std::vector<unsigned char> before = ins[0].mem;
        auto* out = static_cast<unsigned char*>(ins[0].ptr()) - 8;
        expect_overlap_refused(h, ins, out, before, ins[0].mem);
    }
    SECTION("output = a broadcast input") {
        // input 1 is (1,5) but lives in a 15-element buffer, so the output fits there.
        std::vector<Operand> ins = {make_filled(dt, {3, 5}, random_values(BCAST_OP_ADD, dt, 15, rng)),
                                    make_operand(dt, {15}, {}, 0, kSentinel)};
        fill_values(ins[1], random_values(BCAST_OP_ADD, dt, 15, rng));
        Operand view = ins[1];
        view.shape = {1, 5};
        view.strides = {5, 1};
        std::vector<Operand> planned = {ins[0], view};
        REQUIRE(plan_numpy(h, BCAST_OP_ADD, dt, planned, {}));
        const std::vector<unsigned char> before = planned[1].mem;
        expect_overlap_refused(h, planned, planned[1].ptr(), before, planned[1].mem);
    }
    SECTION("output = input 0 but transposed") {
        std::vector<Operand> ins = {make_filled(dt, {3, 5}, random_values(BCAST_OP_ADD, dt, 15, rng), {1, 3}),
                                    make_filled(dt, {5}, random_values(BCAST_OP_ADD, dt, 5, rng))};
        REQUIRE(plan_numpy(h, BCAST_OP_ADD, dt, ins, {}));
        const std::vector<unsigned char> before = ins[0].mem;
        expect_overlap_refused(h, ins, ins[0].ptr(), before, ins[0].mem);
    }
    SECTION("output = input 0 but a narrower output dtype (EQUAL -> BOOL)") {
        OpHandle eq;
        REQUIRE(bcast_op_create(BCAST_OP_EQUAL, dt, &eq.p) == BCAST_OK);
        std::vector<Operand> ins = {make_filled(dt, {3, 5}, random_values(BCAST_OP_EQUAL, dt, 15, rng)),
                                    make_filled(dt, {3, 5}, random_values(BCAST_OP_EQUAL, dt, 15, rng))};
        REQUIRE(plan_numpy(eq, BCAST_OP_EQUAL, dt, ins, {}));
        const std::vector<unsigned char> before = ins[0].mem;
        expect_overlap_refused(eq, ins, ins[0].ptr(), before, ins[0].mem);
    }
}

// ===========================================================================
// States, NULLs, empty and rank-0 shapes
// ===========================================================================

TEST_CASE("ops: execute needs a current plan", "[ops][state]") {
    OpHandle h;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &h.p) == BCAST_OK);
    float a[3] = {1, 2, 3}, b[3] = {4, 5, 6}, out[3] = {-7, -7, -7};
    const void* in[2] = {a, b};
    CHECK(bcast_op_execute(h.p, in, out) == BCAST_ERROR_INVALID_STATE);
    CHECK(out[0] == -7);

    const std::size_t ranks[2] = {1, 1};
    const int64_t three = 3, four = 4;
    const int64_t* dims[2] = {&three, &three};
    REQUIRE(bcast_op_plan(h.p, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    CHECK(bcast_op_execute(h.p, in, out) == BCAST_OK);
    CHECK(out[2] == 9);

    SECTION("set_param discards the plan") {
        REQUIRE(bcast_op_set_param(h.p, BCAST_PARAM_RULE, BCAST_RULE_NUMPY) == BCAST_OK);
        out[0] = -7;
        CHECK(bcast_op_execute(h.p, in, out) == BCAST_ERROR_INVALID_STATE);
        CHECK(out[0] == -7);
    }
    SECTION("a failed plan leaves no plan") {
        const int64_t* bad[2] = {&three, &four};
        CHECK(bcast_op_plan(h.p, 2, ranks, bad, nullptr, nullptr) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
        out[0] = -7;
        CHECK(bcast_op_execute(h.p, in, out) == BCAST_ERROR_INVALID_STATE);
        CHECK(out[0] == -7);
    }
}

TEST_CASE("ops: NULL pointers are refused for a non-empty output", "[ops][state]") {
    OpHandle h;
    REQUIRE(bcast_op_create(BCAST_OP_MUL, BCAST_DTYPE_I32, &h.p) == BCAST_OK);
    const std::size_t ranks[2] = {1, 1};
    const int64_t three = 3;
    const int64_t* dims[2] = {&three, &three};
    REQUIRE(bcast_op_plan(h.p, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    int32_t a[3] = {1, 2, 3}, out[3] = {-7, -7, -7};
    const void* in0[2] = {a, nullptr};
    const void* in1[2] = {nullptr, a};
    const void* ok[2] = {a, a};
    CHECK(bcast_op_execute(h.p, in0, out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::strlen(bcast_last_error()) > 0);
    CHECK(bcast_op_execute(h.p, in1, out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_execute(h.p, ok, nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_execute(h.p, nullptr, out) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_execute(nullptr, ok, out) != BCAST_OK);
    CHECK((out[0] == -7 && out[1] == -7 && out[2] == -7));
    CHECK(bcast_op_execute(h.p, ok, out) == BCAST_OK);
    CHECK((out[0] == 1 && out[1] == 4 && out[2] == 9));
}

TEST_CASE("ops: a zero-size output executes with NULL pointers", "[ops][state]") {
    for (const auto& shapes : std::vector<std::vector<Shape>>{{{0, 3}, {3}}, {{0}, {1}}, {{2, 0, 4}, {1, 1, 4}}}) {
        INFO(shape_str(shapes[0]) << " + " << shape_str(shapes[1]));
        OpHandle h;
        REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &h.p) == BCAST_OK);
        const std::vector<Operand> ins = {make_operand(BCAST_DTYPE_F32, shapes[0]),
                                          make_operand(BCAST_DTYPE_F32, shapes[1])};
        REQUIRE(plan_numpy(h, BCAST_OP_ADD, BCAST_DTYPE_F32, ins, {}));
        check_output_shape(h, numpy_broadcast({shapes[0], shapes[1]}));
        const void* in[2] = {nullptr, nullptr};
        CHECK(bcast_op_execute(h.p, in, nullptr) == BCAST_OK);
    }
}

TEST_CASE("ops: rank-0 inputs", "[ops][values]") {
    std::mt19937_64 rng(8000);
    auto scalar = [&](bcast_opcode op, bcast_dtype dt) {
        return make_filled(dt, {}, random_values(op, dt, 1, rng));
    };
    run_and_check(BCAST_OP_ADD, BCAST_DTYPE_F64, {scalar(BCAST_OP_ADD, BCAST_DTYPE_F64), scalar(BCAST_OP_ADD, BCAST_DTYPE_F64)});
    run_and_check(BCAST_OP_SUB, BCAST_DTYPE_I32,
                  {scalar(BCAST_OP_SUB, BCAST_DTYPE_I32), make_filled(BCAST_DTYPE_I32, {3}, random_values(BCAST_OP_SUB, BCAST_DTYPE_I32, 3, rng))});
    run_and_check(BCAST_OP_LESS, BCAST_DTYPE_F16,
                  {make_filled(BCAST_DTYPE_F16, {2, 2}, random_values(BCAST_OP_LESS, BCAST_DTYPE_F16, 4, rng)), scalar(BCAST_OP_LESS, BCAST_DTYPE_F16)});
    run_and_check(BCAST_OP_SELECT, BCAST_DTYPE_U16,
                  {make_filled(BCAST_DTYPE_BOOL, {}, {1}), scalar(BCAST_OP_SELECT, BCAST_DTYPE_U16),
                   make_filled(BCAST_DTYPE_U16, {4}, random_values(BCAST_OP_SELECT, BCAST_DTYPE_U16, 4, rng))});
    check_copy_to(BCAST_DTYPE_I64, BCAST_EXPAND_NUMPY, scalar(BCAST_OP_COPY, BCAST_DTYPE_I64), {2, 3},
                  {2, 3}, {}, [](std::size_t, const Shape&) { return Shape{}; });
}

// ===========================================================================
// describe
// ===========================================================================

TEST_CASE("ops: bcast_op_describe has snprintf semantics", "[ops][describe]") {
    CHECK(bcast_op_describe(nullptr, nullptr, 0) == 0);
    char nbuf[8];
    std::memset(nbuf, 'x', sizeof nbuf);
    CHECK(bcast_op_describe(nullptr, nbuf, sizeof nbuf) == 0);

    OpHandle h;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &h.p) == BCAST_OK);

    SECTION("unplanned") {
        const std::size_t n = bcast_op_describe(h.p, nullptr, 0);
        REQUIRE(n > 0);
        std::vector<char> buf(n + 1, 'x');
        CHECK(bcast_op_describe(h.p, buf.data(), buf.size()) == n);
        CHECK(buf[n] == '\0');
        const std::string s(buf.data());
        CHECK(s.size() == n);
        CHECK(lower_no_space(s).find("\"planned\":false") != std::string::npos);
    }
    SECTION("planned") {
        const std::size_t ranks[2] = {2, 1};
        const int64_t a[2] = {3, 5}, b[1] = {5};
        const int64_t* dims[2] = {a, b};
        REQUIRE(bcast_op_plan(h.p, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
        const std::size_t n = bcast_op_describe(h.p, nullptr, 0);
        REQUIRE(n > 10);
        std::vector<char> full(n + 1, 'x');
        CHECK(bcast_op_describe(h.p, full.data(), full.size()) == n);
        const std::string s(full.data());
        CHECK(s.size() == n);
        CHECK(s.front() == '{');
        CHECK(s.back() == '}');
        CHECK(s.find("\"loops\"") != std::string::npos);
        CHECK(s.find("\"kernel\"") != std::string::npos);

        // Truncated: size 8 writes 7 characters and a NUL, nothing beyond.
        std::vector<char> small(16, 'x');
        CHECK(bcast_op_describe(h.p, small.data(), 8) == n);
        CHECK(std::string(small.data()) == s.substr(0, 7));
        CHECK(small[7] == '\0');
        CHECK(small[8] == 'x');
        // Size 1: just the NUL.
        std::vector<char> one(4, 'x');
        CHECK(bcast_op_describe(h.p, one.data(), 1) == n);
        CHECK(one[0] == '\0');
        CHECK(one[1] == 'x');
        // Size 0 with a buffer: nothing written.
        CHECK(bcast_op_describe(h.p, one.data() + 2, 0) == n);
        CHECK(one[2] == 'x');
        // Exactly the length: the last character is dropped for the NUL.
        std::vector<char> exact(n + 1, 'x');
        CHECK(bcast_op_describe(h.p, exact.data(), n) == n);
        CHECK(exact[n - 1] == '\0');
        CHECK(exact[n] == 'x');
        CHECK(std::string(exact.data()) == s.substr(0, n - 1));
    }
}

TEST_CASE("ops: bcast_op_describe names the kernel op and operand order it runs", "[ops][describe]") {
    const auto describe = [](bcast_opcode op, const int64_t* a, std::size_t ra, const int64_t* b,
                             std::size_t rb) {
        OpHandle h;
        REQUIRE(bcast_op_create(op, BCAST_DTYPE_F32, &h.p) == BCAST_OK);
        const std::size_t ranks[2] = {ra, rb};
        const int64_t* dims[2] = {a, b};
        REQUIRE(bcast_op_plan(h.p, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
        std::vector<char> buf(bcast_op_describe(h.p, nullptr, 0) + 1);
        bcast_op_describe(h.p, buf.data(), buf.size());
        return std::string(buf.data());
    };
    const int64_t row[2] = {1, 7}, rows[2] = {100, 7};
    // x repeats along the rows: LESS runs as GREATER with the inputs
    // exchanged, the rows of its 2-D kernel; a kernel set without 2-D
    // kernels reads x as a pattern instead.
    std::string s = describe(BCAST_OP_LESS, row, 2, rows, 2);
    if (s.find("\"kernel\":\"periodic\"") != std::string::npos) {
        CHECK(s.find("\"pattern\":\"x\"") != std::string::npos);
    } else {
        CHECK(s.find("\"kernel_op\":\"GREATER\"") != std::string::npos);
        CHECK(s.find("\"operands\":[\"input1\",\"input0\",\"output\"]") != std::string::npos);
    }
    // y repeats: nothing to exchange, no kernel_op.
    s = describe(BCAST_OP_LESS, rows, 2, row, 2);
    CHECK(s.find("kernel_op") == std::string::npos);
    CHECK(s.find("\"operands\":[\"input0\",\"input1\",\"output\"]") != std::string::npos);
    // A reversed op names its base op.
    s = describe(BCAST_OP_RSUB, rows, 2, row, 2);
    CHECK(s.find("\"kernel_op\":\"SUB\"") != std::string::npos);
}

TEST_CASE("ops: POW of a signalling NaN to the power 0 is 1 under every kernel set", "[ops][values][isa]") {
    // C Annex F and numpy: pow(x, +-0) = 1 for any x. glibc's pow answers
    // NaN for a signalling NaN, which the portable kernels (f32 and f64) and
    // the AVX-512 f64 kernel's special-value lanes once passed on (both found
    // by fuzzing).
    const std::string original = bcast_isa();
    const uint32_t snan_f32 = 0xffa461a8u;
    const uint64_t snan_f64 = 0xfff7f7f7f7f7f7f7u;
    const int64_t n = 19;  // SIMD bodies and a tail
    for (const char* cap : {"scalar", "sse2", "avx2", "avx512", "neon"}) {
        REQUIRE(bcast_set_max_isa(cap) == BCAST_OK);
        for (const int64_t exponent_extent : {n, int64_t{1}}) {  // vv and vs loops
            INFO("cap " << cap << ", exponent extent " << exponent_extent);
            const size_t ranks[] = {1, 1};
            const int64_t* dims[] = {&n, &exponent_extent};
            bcast_op* op = nullptr;

            REQUIRE(bcast_op_create(BCAST_OP_POW, BCAST_DTYPE_F32, &op) == BCAST_OK);
            REQUIRE(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
            float snan;
            std::memcpy(&snan, &snan_f32, sizeof snan);
            std::vector<float> base(n, snan), exponent(n, 0.0f), out(n, -1.0f);
            exponent[3] = -0.0f;
            const void* f32_inputs[] = {base.data(), exponent.data()};
            REQUIRE(bcast_op_execute(op, f32_inputs, out.data()) == BCAST_OK);
            for (float v : out) CHECK(v == 1.0f);
            bcast_op_destroy(op);

            REQUIRE(bcast_op_create(BCAST_OP_POW, BCAST_DTYPE_F64, &op) == BCAST_OK);
            REQUIRE(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
            double dnan;
            std::memcpy(&dnan, &snan_f64, sizeof dnan);
            std::vector<double> dbase(n, dnan), dexponent(n, 0.0), dout(n, -1.0);
            dexponent[3] = -0.0;
            dbase[5] = 2.0;  // one regular lane among the special ones
            dexponent[5] = 3.0;
            const void* f64_inputs[] = {dbase.data(), dexponent.data()};
            REQUIRE(bcast_op_execute(op, f64_inputs, dout.data()) == BCAST_OK);
            for (int64_t i = 0; i < n; ++i) CHECK(dout[i] == (i == 5 && exponent_extent == n ? 8.0 : 1.0));
            bcast_op_destroy(op);
        }
    }
    REQUIRE(bcast_set_max_isa(original.c_str()) == BCAST_OK);
}
