// Hostile plans and buffers through the public C API: extreme strides and
// extents, misaligned pointers, empty outputs with huge extents, and the
// header's statements on PDPD / ONNX_LEGACY ranks, axes and output strides.
// Every expectation comes from the header's wording or from arithmetic done
// here in 128 bits, never from the library's own helpers. The sanitizer build
// runs this under UBSan, where any signed overflow in planning aborts.
#include <catch2/catch.hpp>

#include <bcast/bcast.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using Dims = std::vector<int64_t>;
__extension__ typedef __int128 i128;

constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX, k62 = int64_t{1} << 62;

struct Op {
    bcast_op* op = nullptr;
    Op(bcast_opcode code, bcast_dtype dt) { REQUIRE(bcast_op_create(code, dt, &op) == BCAST_OK); }
    ~Op() { bcast_op_destroy(op); }
    Op(const Op&) = delete;
    Op& operator=(const Op&) = delete;

    void set(bcast_param p, int64_t v) { REQUIRE(bcast_op_set_param(op, p, v) == BCAST_OK); }

    // Two inputs; strides per input (empty = contiguous) and for the output.
    bcast_status plan(const Dims& a, const Dims& b, const Dims& sa = {}, const Dims& sb = {},
                      const Dims& so = {}) {
        const size_t ranks[] = {a.size(), b.size()};
        const int64_t* dims[] = {a.data(), b.data()};
        const int64_t* strides[] = {sa.empty() ? nullptr : sa.data(),
                                    sb.empty() ? nullptr : sb.data()};
        return bcast_op_plan(op, 2, ranks, dims, strides, so.empty() ? nullptr : so.data());
    }
    Dims output_shape() const {
        int64_t d[BCAST_MAX_RANK];
        size_t r = 0;
        REQUIRE(bcast_op_output_shape(op, BCAST_MAX_RANK, &r, d) == BCAST_OK);
        return Dims(d, d + r);
    }
};

std::string last_error() { return bcast_last_error(); }

bcast_status infer(bcast_rule rule, int64_t axis, const Dims& a, const Dims& b, Dims* out) {
    const size_t ranks[] = {a.size(), b.size()};
    const int64_t* dims[] = {a.data(), b.data()};
    int64_t d[BCAST_MAX_RANK];
    size_t r = 0;
    const bcast_status st = bcast_infer_shape(rule, axis, 2, ranks, dims, BCAST_MAX_RANK, &r, d);
    if (st == BCAST_OK && out) *out = Dims(d, d + r);
    return st;
}

bool fits_int64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

// The header's promise for one operand laid over `shape` with element
// strides `st`: every offset, in bytes, fits int64, else SIZE_OVERFLOW.
bool byte_offsets_fit(const Dims& shape, const Dims& st, int64_t esz) {
    i128 lo = 0, hi = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] <= 1) continue;
        const i128 span = static_cast<i128>(st[k]) * (shape[k] - 1);
        if (!fits_int64(span)) return false;
        (span < 0 ? lo : hi) += span;
    }
    return fits_int64(lo) && fits_int64(hi) && fits_int64(lo * esz) && fits_int64(hi * esz + esz);
}

// The header's output-stride rule, in 128 bits.
bool output_strides_accepted(const Dims& shape, const Dims& st) {
    std::vector<std::pair<i128, int64_t>> axes;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] > 1) axes.emplace_back(st[k] < 0 ? -static_cast<i128>(st[k]) : st[k], shape[k]);
    }
    std::sort(axes.begin(), axes.end());
    i128 reach = 0;
    for (const auto& [stride, extent] : axes) {
        if (stride <= reach) return false;
        reach += stride * (extent - 1);
    }
    return true;
}

}  // namespace

TEST_CASE("hostile: an INT64_MIN output stride is planned without overflow", "[hostile][strides]") {
    // f32: the byte offset INT64_MIN * 4 does not fit int64.
    Op f32(BCAST_OP_ADD, BCAST_DTYPE_F32);
    CHECK(f32.plan({2, 2}, {2, 2}, {}, {}, {kMin, 1}) == BCAST_ERROR_SIZE_OVERFLOW);
    CHECK_THAT(last_error(), Catch::Contains("overflows"));
    CHECK(f32.plan({2, 2}, {2, 2}, {}, {}, {1, kMin}) == BCAST_ERROR_SIZE_OVERFLOW);
    // u8: offsets 0, 1, INT64_MIN, INT64_MIN + 1 are distinct and fit, so the
    // plan stands; executing it would reach below address 0.
    Op u8(BCAST_OP_ADD, BCAST_DTYPE_U8);
    REQUIRE(u8.plan({2, 2}, {2, 2}, {}, {}, {kMin, 1}) == BCAST_OK);
    unsigned char a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, out[8];
    std::memset(out, 0xA5, sizeof out);
    const void* in[] = {a, b};
    CHECK(bcast_op_execute(u8.op, in, out + 4) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK_THAT(last_error(), Catch::Contains("address space"));
    for (unsigned char c : out) CHECK(c == 0xA5);
    // On an axis of extent 1 the stride is never used.
    CHECK(f32.plan({1, 3}, {1, 3}, {}, {}, {kMin, 1}) == BCAST_OK);
}

TEST_CASE("hostile: input strides near 2^62 are checked, not wrapped", "[hostile][strides]") {
    Op u8(BCAST_OP_ADD, BCAST_DTYPE_U8);
    // (2,2) with strides (1, 2^62): offsets up to 2^62 + 1 fit; the two loops
    // must not be merged (2^62 * 2 overflows, which is not the outer stride).
    REQUIRE(u8.plan({2, 2}, {2, 2}, {1, k62}) == BCAST_OK);
    char json[1024];
    REQUIRE(bcast_op_describe(u8.op, json, sizeof json) < sizeof json);
    CHECK_THAT(std::string(json), Catch::Contains("\"loops\":[{\"extent\":2,") &&
                                      Catch::Contains("},{\"extent\":2,"));
    // (2,3) with strides (1, 2^62): 2^62 * 2 is past int64.
    CHECK(u8.plan({2, 3}, {2, 3}, {1, k62}) == BCAST_ERROR_SIZE_OVERFLOW);
    // u16: 2^62 elements are 2^63 bytes.
    Op u16(BCAST_OP_ADD, BCAST_DTYPE_U16);
    CHECK(u16.plan({2, 2}, {2, 2}, {1, k62}) == BCAST_ERROR_SIZE_OVERFLOW);
    CHECK(u16.plan({2, 2}, {2, 2}, {kMax, 1}) == BCAST_ERROR_SIZE_OVERFLOW);
    CHECK(u16.plan({2, 2}, {2, 2}, {kMin, 1}) == BCAST_ERROR_SIZE_OVERFLOW);
}

TEST_CASE("hostile: extreme strides give OK, SIZE_OVERFLOW or the overlap refusal, as computed "
          "in 128 bits", "[hostile][strides][random]") {
    const int64_t pool[] = {0,       1,        -1,       2,         -2,       3,
                            7,       -64,      1 << 20,  int64_t{1} << 31,
                            k62,     -k62,     k62 + 1,  kMax,      kMin,     kMax / 2,
                            kMin / 2, kMax / 3, -(kMax / 3)};
    const bcast_dtype dtypes[] = {BCAST_DTYPE_U8, BCAST_DTYPE_F16, BCAST_DTYPE_F32,
                                  BCAST_DTYPE_F64};
    std::mt19937_64 rng(12);
    auto pick = [&](auto& arr) { return arr[rng() % (sizeof arr / sizeof arr[0])]; };
    int ok = 0, overflow = 0, overlap = 0;
    for (int iter = 0; iter < 4000; ++iter) {
        const bcast_dtype dt = pick(dtypes);
        const int64_t esz = static_cast<int64_t>(bcast_dtype_size(dt));
        const std::size_t rank = 1 + rng() % 3;
        Dims shape(rank), sa(rank), so(rank);
        for (std::size_t k = 0; k < rank; ++k) {
            shape[k] = 1 + static_cast<int64_t>(rng() % 4);
            sa[k] = pick(pool);
            so[k] = pick(pool);
        }
        const bool with_out = rng() % 2;
        Dims contiguous(rank);
        int64_t step = 1;
        for (std::size_t k = rank; k-- > 0;) contiguous[k] = step, step *= shape[k];
        const Dims& out_st = with_out ? so : contiguous;

        Op op(BCAST_OP_ADD, dt);
        const bcast_status st = op.plan(shape, shape, sa, {}, with_out ? so : Dims{});
        INFO("dtype size " << esz << " iteration " << iter);
        if (!byte_offsets_fit(shape, sa, esz) || !byte_offsets_fit(shape, out_st, esz)) {
            CHECK(st == BCAST_ERROR_SIZE_OVERFLOW);
            ++overflow;
        } else if (!output_strides_accepted(shape, out_st)) {
            CHECK(st == BCAST_ERROR_INVALID_ARGUMENT);
            CHECK_THAT(last_error(), Catch::Contains("share memory"));
            ++overlap;
        } else {
            CHECK(st == BCAST_OK);
            ++ok;
        }
    }
    // The pool reaches all three outcomes often.
    CHECK(ok > 300);
    CHECK(overflow > 300);
    CHECK(overlap > 30);
}

TEST_CASE("hostile: output strides follow the header's rule exactly", "[hostile][strides]") {
    Op f32(BCAST_OP_ADD, BCAST_DTYPE_F32);
    // Interleaved (offsets 0,3,2,5,4,7 are distinct) but not provably so: refused.
    CHECK(f32.plan({3, 2}, {3, 2}, {}, {}, {2, 3}) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK_THAT(last_error(), Catch::Contains("share memory"));
    CHECK(f32.plan({3, 2}, {3, 2}, {}, {}, {1, 1}) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(f32.plan({3, 2}, {3, 2}, {}, {}, {0, 1}) == BCAST_ERROR_INVALID_ARGUMENT);
    // Row-major, column-major, padded, reversed: accepted.
    CHECK(f32.plan({3, 2}, {3, 2}, {}, {}, {2, 1}) == BCAST_OK);
    CHECK(f32.plan({3, 2}, {3, 2}, {}, {}, {1, 3}) == BCAST_OK);
    CHECK(f32.plan({3, 2}, {3, 2}, {}, {}, {16, 1}) == BCAST_OK);
    CHECK(f32.plan({3, 2}, {3, 2}, {}, {}, {-2, -1}) == BCAST_OK);
    // Extent-1 axes may have any stride, even a repeated one.
    CHECK(f32.plan({3, 1, 2}, {3, 1, 2}, {}, {}, {2, 1, 1}) == BCAST_OK);
}

TEST_CASE("hostile: empty outputs with huge extents plan and execute", "[hostile][empty]") {
    Op u8(BCAST_OP_ADD, BCAST_DTYPE_U8);
    REQUIRE(u8.plan({kMax, 0}, {1}) == BCAST_OK);
    CHECK(u8.output_shape() == Dims{kMax, 0});
    const void* none[] = {nullptr, nullptr};
    CHECK(bcast_op_execute(u8.op, none, nullptr) == BCAST_OK);

    REQUIRE(u8.plan({k62, k62, 0}, {1}) == BCAST_OK);
    CHECK(u8.output_shape() == Dims{k62, k62, 0});
    CHECK(bcast_op_execute(u8.op, none, nullptr) == BCAST_OK);

    // Strides of an empty output or input are never used.
    Op f64(BCAST_OP_MUL, BCAST_DTYPE_F64);
    REQUIRE(f64.plan({0, kMax}, {0, kMax}, {kMin, kMax}, {kMax, kMin}, {kMin, kMin}) == BCAST_OK);
    CHECK(f64.output_shape() == Dims{0, kMax});
    // A misaligned pointer is not looked at either.
    double x = 0;
    const void* odd[] = {reinterpret_cast<const char*>(&x) + 1, &x};
    CHECK(bcast_op_execute(f64.op, odd, reinterpret_cast<char*>(&x) + 3) == BCAST_OK);
    // Non-empty and too large is still an overflow.
    CHECK(u8.plan({k62, 4}, {1}) == BCAST_ERROR_SIZE_OVERFLOW);
}

TEST_CASE("hostile: pointers misaligned to their element size are refused on every ISA",
          "[hostile][alignment][isa]") {
    const std::string saved = bcast_isa();
    const bcast_dtype dtypes[] = {BCAST_DTYPE_F16, BCAST_DTYPE_BF16, BCAST_DTYPE_I16,
                                  BCAST_DTYPE_U16, BCAST_DTYPE_F32,  BCAST_DTYPE_I32,
                                  BCAST_DTYPE_U32, BCAST_DTYPE_F64,  BCAST_DTYPE_I64,
                                  BCAST_DTYPE_U64};
    for (const char* cap : {"scalar", "sse2", "avx2", "avx512", "neon"}) {
        REQUIRE(bcast_set_max_isa(cap) == BCAST_OK);
        for (bcast_dtype dt : dtypes) {
            const std::size_t esz = bcast_dtype_size(dt);
            INFO("cap " << cap << " (" << bcast_isa() << "), element size " << esz);
            Op op(BCAST_OP_ADD, dt);
            REQUIRE(op.plan({64}, {64}) == BCAST_OK);
            // 64-byte aligned storage, room for a shifted operand.
            alignas(64) static unsigned char a[8 * 64 + 64], b[8 * 64 + 64], out[8 * 64 + 64];
            std::memset(a, 0, sizeof a);
            std::memset(b, 0, sizeof b);
            for (std::size_t shift = 1; shift < esz; ++shift) {
                for (int which = 0; which < 3; ++which) {
                    std::memset(out, 0xA5, sizeof out);
                    const void* in[] = {a + (which == 0 ? shift : 0), b + (which == 1 ? shift : 0)};
                    CHECK(bcast_op_execute(op.op, in, out + (which == 2 ? shift : 0)) ==
                          BCAST_ERROR_INVALID_ARGUMENT);
                    CHECK_THAT(last_error(), Catch::Contains("aligned"));
                    CHECK(std::all_of(out, out + sizeof out, [](unsigned char c) { return c == 0xA5; }));
                }
            }
        }
    }
    REQUIRE(bcast_set_max_isa(saved.c_str()) == BCAST_OK);
}

TEST_CASE("hostile: element-aligned pointers off every vector boundary give exact results",
          "[hostile][alignment][isa]") {
    // Integer ADD checked against wrapping addition done here; offsets of one
    // element up to one 64-byte line on every operand independently.
    const std::string saved = bcast_isa();
    for (const char* cap : {"scalar", "sse2", "avx2", "avx512", "neon"}) {
        REQUIRE(bcast_set_max_isa(cap) == BCAST_OK);
        for (bcast_dtype dt : {BCAST_DTYPE_I16, BCAST_DTYPE_I32, BCAST_DTYPE_I64}) {
            const std::size_t esz = bcast_dtype_size(dt);
            INFO("cap " << cap << ", element size " << esz);
            for (int64_t n : {int64_t{5}, int64_t{67}, int64_t{1000}}) {
                Op op(BCAST_OP_ADD, dt);
                REQUIRE(op.plan({n}, {n}) == BCAST_OK);
                std::vector<unsigned char> a(static_cast<std::size_t>(n) * esz + 128),
                    b(a.size()), out(a.size());
                for (std::size_t i = 0; i < a.size(); ++i) {
                    a[i] = static_cast<unsigned char>(i * 7 + 1);
                    b[i] = static_cast<unsigned char>(i * 13 + 5);
                }
                // `off` bytes past the buffer's first 64-byte boundary.
                auto at = [](std::vector<unsigned char>& v, std::size_t off) {
                    const std::size_t to_line = (64 - reinterpret_cast<std::uintptr_t>(v.data()) % 64) % 64;
                    return v.data() + to_line + off;
                };
                for (std::size_t oa : {esz, 2 * esz, 16 + esz}) {
                    for (std::size_t oo : {std::size_t{0}, esz, 4 * esz}) {
                        unsigned char* pa = at(a, oa);
                        unsigned char* pb = at(b, oo);
                        unsigned char* po = at(out, (oa + oo) % 64);
                        const void* in[] = {pa, pb};
                        REQUIRE(bcast_op_execute(op.op, in, po) == BCAST_OK);
                        for (int64_t i = 0; i < n; ++i) {
                            uint64_t x = 0, y = 0, z = 0;
                            std::memcpy(&x, pa + i * esz, esz);
                            std::memcpy(&y, pb + i * esz, esz);
                            std::memcpy(&z, po + i * esz, esz);
                            const uint64_t mask = esz == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * esz)) - 1;
                            REQUIRE(z == ((x + y) & mask));
                        }
                    }
                }
            }
        }
    }
    REQUIRE(bcast_set_max_isa(saved.c_str()) == BCAST_OK);
}

TEST_CASE("hostile: PDPD and ONNX_LEGACY ranks and axes as the header states them",
          "[hostile][rules]") {
    Dims out;
    // PDPD: rank(B) <= rank(A) before any trimming of B's trailing 1s.
    CHECK(infer(BCAST_RULE_PDPD, 0, {3}, {1, 1}, &out) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    CHECK(infer(BCAST_RULE_PDPD, 1, {2, 3}, {3, 1, 1}, &out) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    REQUIRE(infer(BCAST_RULE_PDPD, 1, {2, 3}, {3, 1}, &out) == BCAST_OK);
    CHECK(out == Dims{2, 3});
    // ONNX_LEGACY: a one-element B fits only with rank(B) <= rank(A).
    CHECK(infer(BCAST_RULE_ONNX_LEGACY, -1, {}, {1}, &out) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    CHECK(infer(BCAST_RULE_ONNX_LEGACY, 0, {3}, {1, 1}, &out) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    REQUIRE(infer(BCAST_RULE_ONNX_LEGACY, 0, {3}, {1}, &out) == BCAST_OK);
    CHECK(out == Dims{3});
    // Axis below -1: INVALID_ARGUMENT; an axis past A's rank: the shapes do
    // not fit (INCOMPATIBLE_SHAPES), except a one-element B under ONNX_LEGACY.
    for (bcast_rule rule : {BCAST_RULE_PDPD, BCAST_RULE_ONNX_LEGACY}) {
        CHECK(infer(rule, -2, {2, 3}, {3}, &out) == BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(infer(rule, 1000, {2, 3}, {3}, &out) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
        CHECK_THAT(last_error(), Catch::Contains("axis"));
        CHECK(infer(rule, kMax, {2, 3}, {3}, &out) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    }
    REQUIRE(infer(BCAST_RULE_ONNX_LEGACY, 1000, {2, 3}, {1}, &out) == BCAST_OK);
    CHECK(out == Dims{2, 3});
}
