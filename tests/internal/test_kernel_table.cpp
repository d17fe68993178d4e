// Internal consistency tests of the portable kernel table: which pairs have
// kernels, every kernel shape agreeing bit for bit with the strided kernel,
// the variadic fold, a few semantic corner cases, and the f16/bf16
// conversions against hand-computed bit patterns. (The value oracle through
// the C API lives in tests/api.)
#include <catch2/catch.hpp>

#include "core/op_info.hpp"
#include "kernel_test_data.hpp"
#include "kernels/half.hpp"
#include "kernels/kernel_table.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using bcast::kernels::OpKernels;
using bcast::kernels::portable_kernels;
namespace hk = bcast::kernels::portable;  // half conversions
using bcast_test::Bytes;
using bcast_test::mismatch;
using bcast_test::pair_name;
using bcast_test::put;
using bcast_test::random_elems;

bool is_binary(const bcast::OpInfo& info) { return info.min_inputs == 2; }

// ------------------------------------------------- strided layouts for tests

// Logical elements 0..n-1 laid out with `stride` (0: one element, shared) in a
// buffer full of a fill byte; `base` is the byte offset of element 0.
struct Layout {
    Bytes buf;
    std::size_t base = 0;
    std::ptrdiff_t stride = 1;
    std::size_t es = 1;
    unsigned char* ptr() { return buf.data() + base; }
    std::size_t offset(std::size_t i) const {
        return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(base) +
                                        static_cast<std::ptrdiff_t>(i) * stride *
                                            static_cast<std::ptrdiff_t>(es));
    }
};

constexpr unsigned char kFill = 0xCD;

Layout lay_out(const Bytes& logical, std::size_t n, std::ptrdiff_t stride, std::size_t es) {
    Layout l;
    l.stride = stride;
    l.es = es;
    const std::size_t mag = static_cast<std::size_t>(stride < 0 ? -stride : stride);
    const std::size_t count = (n == 0 || stride == 0) ? 1 : (n - 1) * mag + 1;
    l.buf.assign(count * es, kFill);
    l.base = stride < 0 && n > 0 ? (n - 1) * mag * es : 0;
    const std::size_t elems = stride == 0 ? (logical.empty() ? 0 : 1) : n;
    for (std::size_t i = 0; i < elems; ++i)
        std::memcpy(l.buf.data() + l.offset(i), logical.data() + i * es, es);
    return l;
}

// Runs k.strided on logical inputs (each with its stride; stride 0 inputs hold
// one element) into an output of out_stride; returns the logical output and
// checks that no byte outside the output elements was touched.
Bytes run_strided(const OpKernels& k, std::size_t n, const std::vector<const Bytes*>& inputs,
                  const std::vector<std::ptrdiff_t>& strides, std::vector<std::size_t> in_sizes,
                  std::size_t os, std::ptrdiff_t out_stride) {
    std::vector<Layout> ls;
    for (std::size_t j = 0; j < inputs.size(); ++j)
        ls.push_back(lay_out(*inputs[j], n, strides[j], in_sizes[j]));
    std::vector<const void*> ptrs;
    for (Layout& l : ls) ptrs.push_back(l.ptr());
    Layout out = lay_out(Bytes(n * os, kFill), n, out_stride, os);
    k.strided(n, inputs.size(), ptrs.data(), strides.data(), out.ptr(), out_stride);
    Bytes result(n * os);
    std::vector<bool> touched(out.buf.size(), false);
    for (std::size_t i = 0; i < n; ++i) {
        std::memcpy(result.data() + i * os, out.buf.data() + out.offset(i), os);
        for (std::size_t b = 0; b < os; ++b) touched[out.offset(i) + b] = true;
    }
    std::size_t stray = 0;
    for (std::size_t b = 0; b < out.buf.size(); ++b)
        if (!touched[b] && out.buf[b] != kFill) ++stray;
    CHECK(stray == 0);  // bytes written outside the output elements
    return result;
}

const bcast_opcode kAllOps = static_cast<bcast_opcode>(bcast::kNumOpcodes);
const bcast_dtype kAllDtypes = static_cast<bcast_dtype>(bcast::kNumDtypes);

}  // namespace

// ------------------------------------------------------------------ (a) table

TEST_CASE("portable kernels exist exactly for the supported pairs", "[kernels]") {
    for (bcast_opcode op = 0; op < kAllOps; ++op) {
        const bcast::OpInfo* info = bcast::op_info(op);
        for (bcast_dtype dt = 0; dt < kAllDtypes; ++dt) {
            INFO(pair_name(op, dt));
            const OpKernels* k = portable_kernels(op, dt);
            if (info->swapped || !bcast::op_supports(op, dt)) {
                CHECK(k == nullptr);
                continue;
            }
            REQUIRE(k != nullptr);
            CHECK(k->strided != nullptr);
            const bool binary = is_binary(*info);
            CHECK((k->vv != nullptr) == binary);
            CHECK((k->vs != nullptr) == binary);
            CHECK((k->sv != nullptr) == binary);
            CHECK((k->periodic_y != nullptr) == binary);
            CHECK((k->periodic_x != nullptr) == binary);
            CHECK((k->copy != nullptr) == (op == BCAST_OP_COPY));
            CHECK((k->fill != nullptr) == (op == BCAST_OP_COPY));
        }
    }
    CHECK(portable_kernels(-1, BCAST_DTYPE_F32) == nullptr);
    CHECK(portable_kernels(kAllOps, BCAST_DTYPE_F32) == nullptr);
    CHECK(portable_kernels(BCAST_OP_ADD, -1) == nullptr);
    CHECK(portable_kernels(BCAST_OP_ADD, kAllDtypes) == nullptr);
}

// ------------------------------------------------- (b) shapes agree with strided

TEST_CASE("binary kernel shapes match the strided kernel bit for bit", "[kernels]") {
    std::mt19937_64 rng(20240611);
    const std::vector<std::vector<std::ptrdiff_t>> stride_sets = {
        {1, 1, 1}, {-1, 2, -1}, {3, -2, 2}, {-2, -1, -3}};
    const std::size_t periods[] = {1, 2, 3, 4, 7, 13};
    for (bcast_opcode op = 0; op < kAllOps; ++op) {
        const bcast::OpInfo* info = bcast::op_info(op);
        if (info->swapped || !is_binary(*info)) continue;
        for (bcast_dtype dt = 0; dt < kAllDtypes; ++dt) {
            if (!bcast::op_supports(op, dt)) continue;
            const OpKernels& k = *portable_kernels(op, dt);
            const std::size_t es = bcast::dtype_size(dt);
            const bcast_dtype odt = bcast::output_dtype(op, dt);
            const std::size_t os = bcast::dtype_size(odt);
            const bool in_place_ok = es == os;
            for (std::size_t n = 0; n <= 40; ++n) {
                INFO(pair_name(op, dt) << " n=" << n);
                const Bytes x = random_elems(dt, n, rng);
                const Bytes y = random_elems(dt, n, rng);
                const Bytes s = random_elems(dt, 1, rng);

                Bytes vv(n * os), vs(n * os), sv(n * os);
                k.vv(n, x.data(), y.data(), vv.data(), false);
                k.vs(n, x.data(), s.data(), vs.data(), false);
                k.sv(n, s.data(), y.data(), sv.data(), false);
                for (const auto& st : stride_sets) {
                    INFO("strides " << st[0] << "," << st[1] << " -> " << st[2]);
                    const std::vector<std::size_t> sizes = {es, es};
                    CHECK(mismatch(odt, vv,
                                   run_strided(k, n, {&x, &y}, {st[0], st[1]}, sizes, os, st[2])) ==
                          "");
                    CHECK(mismatch(odt, vs,
                                   run_strided(k, n, {&x, &s}, {st[0], 0}, sizes, os, st[2])) ==
                          "");
                    CHECK(mismatch(odt, sv,
                                   run_strided(k, n, {&s, &y}, {0, st[1]}, sizes, os, st[2])) ==
                          "");
                }

                for (std::size_t period : periods) {
                    INFO("period " << period);
                    const Bytes p = random_elems(dt, period, rng);
                    Bytes py(n * os), px(n * os), want_y(n * os), want_x(n * os);
                    k.periodic_y(n, period, x.data(), p.data(), py.data(), false);
                    k.periodic_x(n, period, p.data(), y.data(), px.data(), false);
                    // Oracle: the strided kernel, one period at a time.
                    const std::ptrdiff_t unit[2] = {1, 1};
                    for (std::size_t start = 0; start < n; start += period) {
                        const std::size_t len = std::min(period, n - start);
                        const void* in_y[2] = {x.data() + start * es, p.data()};
                        const void* in_x[2] = {p.data(), y.data() + start * es};
                        k.strided(len, 2, in_y, unit, want_y.data() + start * os, 1);
                        k.strided(len, 2, in_x, unit, want_x.data() + start * os, 1);
                    }
                    CHECK(mismatch(odt, py, want_y) == "");
                    CHECK(mismatch(odt, px, want_x) == "");
                    if (in_place_ok) {
                        Bytes io = x;
                        k.periodic_y(n, period, io.data(), p.data(), io.data(), false);
                        CHECK(mismatch(odt, io, py) == "");
                        io = y;
                        k.periodic_x(n, period, p.data(), io.data(), io.data(), false);
                        CHECK(mismatch(odt, io, px) == "");
                    }
                }

                if (in_place_ok) {
                    Bytes io = x;
                    k.vv(n, io.data(), y.data(), io.data(), false);
                    CHECK(mismatch(odt, io, vv) == "");
                    io = y;
                    k.vv(n, x.data(), io.data(), io.data(), false);
                    CHECK(mismatch(odt, io, vv) == "");
                    io = x;
                    k.vs(n, io.data(), s.data(), io.data(), false);
                    CHECK(mismatch(odt, io, vs) == "");
                    io = y;
                    k.sv(n, s.data(), io.data(), io.data(), false);
                    CHECK(mismatch(odt, io, sv) == "");
                    io = x;
                    const void* ins[2] = {io.data(), y.data()};
                    const std::ptrdiff_t st[2] = {1, 1};
                    k.strided(n, 2, ins, st, io.data(), 1);
                    CHECK(mismatch(odt, io, vv) == "");
                }
            }
        }
    }
}

// ------------------------------------------------------- variadic fold

TEST_CASE("exchanged ops give the same bits with the operands exchanged", "[kernels]") {
    // The plan relies on it to run sv and periodic_x as vs and periodic_y
    // (op_info.hpp): x op y == y op' x, byte for byte, specials included.
    std::mt19937_64 rng(11);
    int pairs = 0;
    for (bcast_opcode op = 0; op < kAllOps; ++op) {
        for (bcast_dtype dt = 0; dt < kAllDtypes; ++dt) {
            const int ex = bcast::exchanged_op(op, dt);
            if (ex < 0) continue;
            INFO(pair_name(op, dt) << " as " << pair_name(ex, dt));
            const OpKernels* k = portable_kernels(op, dt);
            const OpKernels* e = portable_kernels(ex, dt);
            REQUIRE(k != nullptr);
            REQUIRE(e != nullptr);
            const std::size_t n = 1000;
            const Bytes x = random_elems(dt, n, rng), y = random_elems(dt, n, rng);
            const std::size_t os = bcast::dtype_size(bcast::output_dtype(op, dt));
            Bytes direct(n * os), exchanged(n * os);
            k->vv(n, x.data(), y.data(), direct.data(), false);
            e->vv(n, y.data(), x.data(), exchanged.data(), false);
            CHECK(direct == exchanged);
            ++pairs;
        }
    }
    // == != < <= > >= on all 13 dtypes, logical on BOOL, bitwise on the 8
    // integers and BOOL, + * max min on the 8 integers.
    CHECK(pairs == 6 * 13 + 3 + 3 * 9 + 4 * 8);
    CHECK(bcast::exchanged_op(BCAST_OP_LESS, BCAST_DTYPE_F16) == BCAST_OP_GREATER);
    for (bcast_dtype dt : {BCAST_DTYPE_F32, BCAST_DTYPE_F64, BCAST_DTYPE_F16, BCAST_DTYPE_BF16}) {
        for (bcast_opcode op : {BCAST_OP_ADD, BCAST_OP_MUL, BCAST_OP_MAX, BCAST_OP_MIN}) {
            CHECK(bcast::exchanged_op(op, dt) == -1);  // NaN payloads, +-0
        }
    }
    CHECK(bcast::exchanged_op(BCAST_OP_SUB, BCAST_DTYPE_I32) == -1);
    CHECK(bcast::exchanged_op(BCAST_OP_LOGICAL_AND, BCAST_DTYPE_I32) == -1);  // unsupported
}

TEST_CASE("variadic strided kernels fold left to right", "[kernels]") {
    std::mt19937_64 rng(77);
    const bcast_opcode variadic[] = {BCAST_OP_ADD, BCAST_OP_MUL, BCAST_OP_MAX, BCAST_OP_MIN,
                                     BCAST_OP_MEAN};
    for (bcast_opcode op : variadic) {
        for (bcast_dtype dt = 0; dt < kAllDtypes; ++dt) {
            // f16/bf16 round once at the end, unlike a chain of binary kernels.
            if (!bcast::op_supports(op, dt) || dt == BCAST_DTYPE_F16 || dt == BCAST_DTYPE_BF16)
                continue;
            const OpKernels& k = *portable_kernels(op, dt);
            const OpKernels& add = *portable_kernels(BCAST_OP_ADD, dt);
            const OpKernels& div = *portable_kernels(BCAST_OP_DIV, dt);
            const std::size_t es = bcast::dtype_size(dt);
            for (std::size_t count = 2; count <= BCAST_MAX_INPUTS; ++count) {
                for (std::size_t n : {0u, 1u, 5u, 17u}) {
                    INFO(pair_name(op, dt) << " inputs=" << count << " n=" << n);
                    std::vector<Bytes> in;
                    std::vector<const Bytes*> ptrs;
                    std::vector<std::ptrdiff_t> strides;
                    for (std::size_t j = 0; j < count; ++j) {
                        // strides -1, 0, 1, 2 in turn
                        const std::ptrdiff_t st = static_cast<std::ptrdiff_t>(j % 4) - 1;
                        in.push_back(random_elems(dt, st == 0 ? 1 : n, rng));
                        strides.push_back(st);
                    }
                    for (const Bytes& b : in) ptrs.push_back(&b);
                    const Bytes got = run_strided(k, n, ptrs, strides,
                                                  std::vector<std::size_t>(count, es), es, -1);
                    // Reference: a chain of binary kernels (ADD then DIV for MEAN).
                    const OpKernels& step = op == BCAST_OP_MEAN ? add : k;
                    Bytes want(n * es);
                    for (std::size_t i = 0; i < n; ++i) {
                        auto elem = [&](std::size_t j) {
                            return in[j].data() + (strides[j] == 0 ? 0 : i) * es;
                        };
                        Bytes acc(elem(0), elem(0) + es);
                        for (std::size_t j = 1; j < count; ++j)
                            step.vv(1, acc.data(), elem(j), acc.data(), false);
                        if (op == BCAST_OP_MEAN) {
                            Bytes c(es);
                            if (dt == BCAST_DTYPE_F32) put(c, 0, static_cast<float>(count));
                            else put(c, 0, static_cast<double>(count));
                            div.vs(1, acc.data(), c.data(), acc.data(), false);
                        }
                        std::memcpy(want.data() + i * es, acc.data(), es);
                    }
                    CHECK(mismatch(dt, got, want) == "");
                }
            }
        }
    }
}

TEST_CASE("f16 ADD and MEAN of three inputs round once", "[kernels]") {
    // 2048 + 1 + 1: rounding after each step gives 2048 (2049 ties to even);
    // rounding once gives 2050 = 0x6801. 2050 / 3 = 683.33 -> 683.5 = 0x6157.
    const std::uint16_t a = 0x6800, one = 0x3C00;
    const void* ins[3] = {&a, &one, &one};
    const std::ptrdiff_t st[3] = {0, 0, 0};
    std::uint16_t out = 0;
    portable_kernels(BCAST_OP_ADD, BCAST_DTYPE_F16)->strided(1, 3, ins, st, &out, 1);
    CHECK(out == 0x6801);
    portable_kernels(BCAST_OP_MEAN, BCAST_DTYPE_F16)->strided(1, 3, ins, st, &out, 1);
    CHECK(out == 0x6157);
}

// ------------------------------------------------------- COPY and SELECT

TEST_CASE("COPY copy/fill and SELECT agree with their strided kernels", "[kernels]") {
    std::mt19937_64 rng(5);
    for (bcast_dtype dt = 0; dt < kAllDtypes; ++dt) {
        const std::size_t es = bcast::dtype_size(dt);
        const OpKernels& copy = *portable_kernels(BCAST_OP_COPY, dt);
        const OpKernels& select = *portable_kernels(BCAST_OP_SELECT, dt);
        for (std::size_t n = 0; n <= 20; ++n) {
            INFO(bcast::dtype_name(dt) << " n=" << n);
            const Bytes x = random_elems(dt, n, rng), y = random_elems(dt, n, rng);
            const Bytes s = random_elems(dt, 1, rng);
            const Bytes cond = random_elems(BCAST_DTYPE_BOOL, n, rng);
            Bytes c(n * es), f(n * es);
            copy.copy(n, x.data(), c.data(), false);
            copy.fill(n, s.data(), f.data(), false);
            CHECK(c == x);
            CHECK(c == run_strided(copy, n, {&x}, {-2}, {es}, es, 3));
            CHECK(f == run_strided(copy, n, {&s}, {0}, {es}, es, -1));
            Bytes want(n * es);
            for (std::size_t i = 0; i < n; ++i)
                std::memcpy(want.data() + i * es, (cond[i] != 0 ? x : y).data() + i * es, es);
            CHECK(want == run_strided(select, n, {&cond, &x, &y}, {1, -1, 2}, {1, es, es}, es, -1));
        }
    }
}

// ------------------------------------------------------- semantic corners

namespace {

template <class T>
T binop(bcast_opcode op, bcast_dtype dt, T x, T y) {
    const OpKernels* k = portable_kernels(op, dt);
    REQUIRE(k != nullptr);
    const void* ins[2] = {&x, &y};
    const std::ptrdiff_t st[2] = {1, 1};
    T out{};
    k->strided(1, 2, ins, st, &out, 1);
    return out;
}

template <class T>
std::uint8_t cmp(bcast_opcode op, bcast_dtype dt, T x, T y) {
    const OpKernels* k = portable_kernels(op, dt);
    REQUIRE(k != nullptr);
    std::uint8_t out = 7;
    k->vv(1, &x, &y, &out, false);
    return out;
}

}  // namespace

TEST_CASE("integer corner cases never trap and follow the decisions", "[kernels]") {
    using I32 = std::int32_t;
    const I32 kMin = std::numeric_limits<I32>::min();
    const bcast_dtype i32 = BCAST_DTYPE_I32;
    CHECK(binop<I32>(BCAST_OP_DIV, i32, kMin, -1) == kMin);
    CHECK(binop<I32>(BCAST_OP_DIV, i32, 5, 0) == 0);
    CHECK(binop<I32>(BCAST_OP_DIV, i32, -7, 2) == -3);
    CHECK(binop<I32>(BCAST_OP_FLOOR_DIVIDE, i32, -7, 2) == -4);
    CHECK(binop<I32>(BCAST_OP_FLOOR_DIVIDE, i32, kMin, -1) == kMin);
    CHECK(binop<I32>(BCAST_OP_FLOOR_DIVIDE, i32, 7, 0) == 0);
    CHECK(binop<I32>(BCAST_OP_MOD, i32, -7, 2) == 1);
    CHECK(binop<I32>(BCAST_OP_MOD, i32, 7, -2) == -1);
    CHECK(binop<I32>(BCAST_OP_MOD, i32, kMin, -1) == 0);
    CHECK(binop<I32>(BCAST_OP_MOD, i32, 7, 0) == 0);
    CHECK(binop<I32>(BCAST_OP_FMOD, i32, -7, 2) == -1);
    CHECK(binop<I32>(BCAST_OP_FMOD, i32, kMin, -1) == 0);
    CHECK(binop<I32>(BCAST_OP_POW, i32, 2, 10) == 1024);
    CHECK(binop<I32>(BCAST_OP_POW, i32, 0, 0) == 1);
    CHECK(binop<I32>(BCAST_OP_POW, i32, 3, -1) == 0);
    CHECK(binop<I32>(BCAST_OP_POW, i32, 1, -5) == 1);
    CHECK(binop<I32>(BCAST_OP_POW, i32, -1, -3) == -1);
    CHECK(binop<I32>(BCAST_OP_POW, i32, -1, -4) == 1);
    CHECK(binop<I32>(BCAST_OP_POW, i32, 2, 31) == kMin);
    CHECK(binop<std::int8_t>(BCAST_OP_POW, BCAST_DTYPE_I8, 3, 5) == -13);  // 243 wraps
    CHECK(binop<std::int8_t>(BCAST_OP_DIV, BCAST_DTYPE_I8, -128, -1) == -128);
    CHECK(binop<std::uint16_t>(BCAST_OP_MUL, BCAST_DTYPE_U16, 65535, 65535) == 1);
    CHECK(binop<I32>(BCAST_OP_ADD, i32, std::numeric_limits<I32>::max(), 1) == kMin);
    CHECK(binop<std::int8_t>(BCAST_OP_SQUARED_DIFFERENCE, BCAST_DTYPE_I8, -128, 127) == 1);
    CHECK(binop<I32>(BCAST_OP_PRELU, i32, -3, 4) == -12);
    CHECK(binop<std::uint8_t>(BCAST_OP_PRELU, BCAST_DTYPE_U8, 200, 4) == 200);
    CHECK(binop<std::int8_t>(BCAST_OP_SHIFT_LEFT, BCAST_DTYPE_I8, 1, 7) == -128);
    CHECK(binop<std::int8_t>(BCAST_OP_SHIFT_LEFT, BCAST_DTYPE_I8, 1, 8) == 0);
    CHECK(binop<I32>(BCAST_OP_SHIFT_LEFT, i32, -1, 31) == kMin);
    CHECK(binop<I32>(BCAST_OP_SHIFT_LEFT, i32, 1, -1) == 0);
    CHECK(binop<I32>(BCAST_OP_SHIFT_RIGHT, i32, -8, 1) == -4);
    CHECK(binop<I32>(BCAST_OP_SHIFT_RIGHT, i32, -1, 31) == -1);
    CHECK(binop<I32>(BCAST_OP_SHIFT_RIGHT, i32, -8, 32) == 0);
    CHECK(binop<std::uint64_t>(BCAST_OP_SHIFT_RIGHT, BCAST_DTYPE_U64, ~0ull, 63) == 1);
    CHECK(binop<std::uint64_t>(BCAST_OP_SHIFT_RIGHT, BCAST_DTYPE_U64, ~0ull, 64) == 0);
}

TEST_CASE("float corner cases follow numpy", "[kernels]") {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const bcast_dtype f64 = BCAST_DTYPE_F64;
    CHECK(std::isnan(binop(BCAST_OP_MAX, f64, nan, 1.0)));
    CHECK(std::isnan(binop(BCAST_OP_MAX, f64, 1.0, nan)));
    CHECK(std::isnan(binop(BCAST_OP_MIN, f64, 1.0, nan)));
    CHECK(std::signbit(binop(BCAST_OP_MAX, f64, -0.0, 0.0)));
    CHECK(!std::signbit(binop(BCAST_OP_MAX, f64, 0.0, -0.0)));
    CHECK(!std::signbit(binop(BCAST_OP_MIN, f64, 0.0, -0.0)));
    CHECK(binop(BCAST_OP_FLOOR_DIVIDE, f64, -7.0, 2.0) == -4.0);
    CHECK(binop(BCAST_OP_FLOOR_DIVIDE, f64, 7.0, -0.0) == -inf);
    CHECK(binop(BCAST_OP_FLOOR_DIVIDE, f64, 1.0, 0.1) == 9.0);  // 0.1 is a bit above 1/10
    CHECK(std::signbit(binop(BCAST_OP_FLOOR_DIVIDE, f64, -0.0, 3.0)));
    CHECK(binop(BCAST_OP_MOD, f64, -7.0, 2.0) == 1.0);
    CHECK(binop(BCAST_OP_MOD, f64, 7.0, -2.0) == -1.0);
    CHECK(std::signbit(binop(BCAST_OP_MOD, f64, 4.0, -2.0)));
    CHECK(!std::signbit(binop(BCAST_OP_MOD, f64, -4.0, 2.0)));
    CHECK(std::isnan(binop(BCAST_OP_MOD, f64, 1.0, 0.0)));
    CHECK(binop(BCAST_OP_FMOD, f64, -7.0, 2.0) == -1.0);
    CHECK(binop(BCAST_OP_REMAINDER, f64, 7.0, 2.0) == -1.0);
    CHECK(std::signbit(binop(BCAST_OP_PRELU, f64, -0.0, 5.0)));
    CHECK(binop(BCAST_OP_PRELU, f64, -2.0, 0.5) == -1.0);
    CHECK(binop(BCAST_OP_LOGADDEXP, f64, inf, inf) == inf);
    CHECK(binop(BCAST_OP_LOGADDEXP, f64, -inf, -inf) == -inf);
    CHECK(binop(BCAST_OP_LOGADDEXP, f64, 0.0, 0.0) == Approx(0.6931471805599453));
    CHECK(binop(BCAST_OP_LOGADDEXP, f64, 1000.0, 0.0) == 1000.0);
    CHECK(std::isnan(binop(BCAST_OP_LOGADDEXP, f64, nan, 0.0)));
    CHECK(binop(BCAST_OP_ATAN2, f64, 1.0, 0.0) == Approx(1.5707963267948966));
    CHECK(binop(BCAST_OP_POW, BCAST_DTYPE_F32, 2.0f, 10.0f) == 1024.0f);
    CHECK(std::isnan(binop(BCAST_OP_POW, BCAST_DTYPE_F32, -8.0f, 1.0f / 3.0f)));  // C powf
    CHECK(cmp(BCAST_OP_NOT_EQUAL, f64, nan, nan) == 1);
    CHECK(cmp(BCAST_OP_EQUAL, f64, nan, nan) == 0);
    CHECK(cmp(BCAST_OP_LESS_EQUAL, f64, nan, 1.0) == 0);
    CHECK(cmp(BCAST_OP_EQUAL, f64, -0.0, 0.0) == 1);
}

TEST_CASE("BOOL operands read any non-zero byte as true and write 0/1", "[kernels]") {
    const bcast_dtype b = BCAST_DTYPE_BOOL;
    using U8 = std::uint8_t;
    CHECK(cmp<U8>(BCAST_OP_EQUAL, b, 2, 1) == 1);
    CHECK(cmp<U8>(BCAST_OP_LESS, b, 0, 255) == 1);
    CHECK(cmp<U8>(BCAST_OP_GREATER, b, 2, 1) == 0);
    CHECK(cmp<U8>(BCAST_OP_LOGICAL_XOR, b, 2, 1) == 0);
    CHECK(cmp<U8>(BCAST_OP_LOGICAL_AND, b, 2, 4) == 1);
    CHECK(cmp<U8>(BCAST_OP_LOGICAL_OR, b, 0, 0) == 0);
    CHECK(binop<U8>(BCAST_OP_BITWISE_AND, b, 2, 1) == 1);
    CHECK(binop<U8>(BCAST_OP_BITWISE_XOR, b, 2, 1) == 0);
    CHECK(binop<U8>(BCAST_OP_BITWISE_OR, b, 0, 6) == 1);
}

// ------------------------------------------------------- (c) f16 / bf16

TEST_CASE("f32 -> f16 rounds to nearest even", "[kernels][half]") {
    const float inf = std::numeric_limits<float>::infinity();
    struct Case {
        float in;
        std::uint16_t out;
    };
    const Case cases[] = {
        {1.0f, 0x3C00},
        {-2.0f, 0xC000},
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {1.0f + 0x1p-11f, 0x3C00},           // tie -> even (down)
        {1.0f + 3 * 0x1p-11f, 0x3C02},       // tie -> even (up)
        {1.0f + 0x1p-11f + 0x1p-20f, 0x3C01},  // just above the tie
        {0.1f, 0x2E66},
        {65504.0f, 0x7BFF},                  // largest finite
        {65519.0f, 0x7BFF},                  // below the tie
        {65520.0f, 0x7C00},                  // tie between 65504 (odd) and 2^16 -> inf
        {1e6f, 0x7C00},
        {-1e6f, 0xFC00},
        {inf, 0x7C00},
        {-inf, 0xFC00},
        {0x1p-14f, 0x0400},                  // smallest normal
        {0x1p-14f - 0x1p-24f, 0x03FF},       // largest subnormal, exact
        {0x1p-24f, 0x0001},                  // smallest subnormal, exact
        {-0x1p-24f, 0x8001},
        {0x1p-25f, 0x0000},                  // tie -> even zero
        {0x1.8p-25f, 0x0001},                // above the tie
        {3 * 0x1p-25f, 0x0002},              // 1.5 units: tie -> even 2
        {5 * 0x1p-25f, 0x0002},              // 2.5 units: tie -> even 2
        {0x1.ffcp-15f, 0x0400},              // 1023.5 units: tie -> 1024 = smallest normal
        {1e-10f, 0x0000},
        {-1e-10f, 0x8000},
        {0x1p-149f, 0x0000},                 // f32 subnormal
    };
    for (const Case& c : cases) {
        INFO("in " << c.in);
        CHECK(hk::f32_to_f16(c.in) == c.out);
    }
    // NaNs stay NaN (quiet), including one whose payload is only in low bits.
    for (std::uint32_t bits : {0x7FC00000u, 0x7F800001u, 0xFF800001u, 0x7FBFFFFFu}) {
        float f;
        std::memcpy(&f, &bits, 4);
        const std::uint16_t h = hk::f32_to_f16(f);
        INFO("bits " << bits);
        CHECK((h & 0x7C00u) == 0x7C00u);
        CHECK((h & 0x0200u) != 0);
        CHECK((h & 0x8000u) == ((bits >> 16) & 0x8000u));
    }
}

TEST_CASE("f16 -> f32 is exact", "[kernels][half]") {
    CHECK(hk::f16_to_f32(0x3C00) == 1.0f);
    CHECK(hk::f16_to_f32(0xC000) == -2.0f);
    CHECK(hk::f16_to_f32(0x3555) == 0.333251953125f);
    CHECK(hk::f16_to_f32(0x7BFF) == 65504.0f);
    CHECK(hk::f16_to_f32(0x0001) == 0x1p-24f);
    CHECK(hk::f16_to_f32(0x03FF) == 1023 * 0x1p-24f);
    CHECK(hk::f16_to_f32(0x0400) == 0x1p-14f);
    CHECK(hk::f16_to_f32(0x7C00) == std::numeric_limits<float>::infinity());
    CHECK(hk::f16_to_f32(0xFC00) == -std::numeric_limits<float>::infinity());
    CHECK(std::signbit(hk::f16_to_f32(0x8000)));
    const float nan = hk::f16_to_f32(0x7C01);  // signalling -> quiet
    std::uint32_t bits;
    std::memcpy(&bits, &nan, 4);
    CHECK(std::isnan(nan));
    CHECK((bits & 0x400000u) != 0);
}

TEST_CASE("every f16 and bf16 value round-trips", "[kernels][half]") {
    for (std::uint32_t i = 0; i <= 0xFFFF; ++i) {
        const auto h = static_cast<std::uint16_t>(i);
        const bool f16_nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0;
        const bool bf16_nan = (h & 0x7F80u) == 0x7F80u && (h & 0x7Fu) != 0;
        const std::uint16_t f16_back = hk::f32_to_f16(hk::f16_to_f32(h));
        const std::uint16_t bf16_back = hk::f32_to_bf16(hk::bf16_to_f32(h));
        if (f16_nan) {
            if (f16_back != (h | 0x200u)) FAIL_CHECK("f16 NaN " << i << " -> " << f16_back);
        } else if (f16_back != h) {
            FAIL_CHECK("f16 " << i << " -> " << f16_back);
        }
        if (bf16_nan) {
            if (bf16_back != (h | 0x40u)) FAIL_CHECK("bf16 NaN " << i << " -> " << bf16_back);
        } else if (bf16_back != h) {
            FAIL_CHECK("bf16 " << i << " -> " << bf16_back);
        }
    }
}

TEST_CASE("f32 -> bf16 rounds to nearest even", "[kernels][half]") {
    struct Case {
        std::uint32_t in;
        std::uint16_t out;
    };
    const Case cases[] = {
        {0x3F800000u, 0x3F80},  // 1.0
        {0x3F808000u, 0x3F80},  // 1.00390625 = 1 + 2^-8: tie -> even 1.0
        {0x3F818000u, 0x3F82},  // 1.01171875 = 1 + 3*2^-8: tie -> even 1.015625
        {0x3F808001u, 0x3F81},  // just above the tie
        {0x3F80FFFFu, 0x3F81},
        {0x7F7FFFFFu, 0x7F80},  // FLT_MAX rounds up to inf
        {0x7F7F7FFFu, 0x7F7F},  // below the tie stays the largest finite
        {0xFF7FFFFFu, 0xFF80},
        {0x7F800000u, 0x7F80},
        {0x00000001u, 0x0000},  // f32 subnormal: far below half a bf16 unit
        {0x00008000u, 0x0000},  // tie -> even zero
        {0x00018000u, 0x0002},  // tie -> even
        {0x00010000u, 0x0001},  // bf16 subnormal, exact
        {0x80000000u, 0x8000},
        {0xFFC00000u, 0xFFC0},  // quiet NaN kept
    };
    for (const Case& c : cases) {
        float f;
        std::memcpy(&f, &c.in, 4);
        INFO("bits " << c.in);
        CHECK(hk::f32_to_bf16(f) == c.out);
    }
    for (std::uint32_t bits : {0x7F800001u, 0xFF800001u, 0x7FFFFFFFu}) {
        float f;
        std::memcpy(&f, &bits, 4);
        const std::uint16_t h = hk::f32_to_bf16(f);
        INFO("bits " << bits);
        CHECK((h & 0x7F80u) == 0x7F80u);
        CHECK((h & 0x0040u) != 0);  // NaN, quiet (never inf)
    }
    CHECK(hk::bf16_to_f32(0x3F80) == 1.0f);
    CHECK(hk::bf16_to_f32(0x3F82) == 1.015625f);
    CHECK(hk::bf16_to_f32(0xC040) == -3.0f);
    CHECK(hk::bf16_to_f32(0x0001) == 0x1p-133f);
}
