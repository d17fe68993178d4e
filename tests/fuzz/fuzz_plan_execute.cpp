// Fuzzes plan + execute (and the same execute as tasks): a random op, dtype, ISA cap, rule (none, numpy,
// unidirectional, pdpd, legacy, ncnn) and shapes made to fit it or not,
// inputs with random strides (negative, zero, padded, permuted), a
// random valid or garbage output layout, sometimes in place, and for the
// quantized ops on u8 and i8 now and then random scales and zero points. Every
// output element is checked against the project's scalar reference
// (tests/api/scalar_reference.*; quantized: the QDQ graph around it, written
// here from the header); bytes around and between the output elements are
// canaries; inputs must stay unchanged; a refusal writes nothing.
#include <bcast/bcast.h>

#include "api/scalar_reference.hpp"
#include "fuzz_input.hpp"
#include "qdq_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace {

using Dims = std::vector<int64_t>;
constexpr unsigned char kCanary = 0xC5;

// An operand laid out in its own buffer: element strides over its own dims,
// and the offset (in elements) of element (0,...,0) inside the buffer.
struct Operand {
    Dims dims, strides;
    Dims place;  // output axis of each own axis (-1: none, extent 1)
    std::vector<unsigned char> buf;
    int64_t origin = 0;
    std::size_t esz = 1;

    unsigned char* base() { return buf.data() + origin * static_cast<int64_t>(esz); }
    int64_t offset(const Dims& idx) const {  // idx over dims
        int64_t o = 0;
        for (std::size_t k = 0; k < dims.size(); ++k) o += idx[k] * strides[k];
        return o;
    }
};

// Lays `dims` out with strides from `in`: contiguous, padded, permuted,
// reversed, or any small strides (zero included, when allowed).
void lay_out(fuzz::Input& in, Operand& op, bool allow_any) {
    const std::size_t r = op.dims.size();
    op.strides.assign(r, 0);
    if (allow_any && in.chance(25)) {
        for (int64_t& s : op.strides) s = in.range(-6, 6);
    } else {
        std::vector<std::size_t> order(r);
        std::iota(order.begin(), order.end(), 0);
        if (in.chance(30)) std::rotate(order.begin(), order.begin() + (r ? in.range(0, static_cast<int64_t>(r) - 1) : 0), order.end());
        int64_t step = 1;
        for (std::size_t k = r; k-- > 0;) {  // innermost first
            const std::size_t axis = order[k];
            op.strides[axis] = in.chance(15) ? -step : step;
            step *= op.dims[axis] + (in.chance(20) ? in.range(1, 3) : 0);
        }
    }
    int64_t lo = 0, hi = 0;
    for (std::size_t k = 0; k < r; ++k) {
        if (op.dims[k] == 0) return;  // empty: no storage needed
        const int64_t span = op.strides[k] * (op.dims[k] - 1);
        (span < 0 ? lo : hi) += span;
    }
    op.origin = -lo;
    op.buf.assign(static_cast<std::size_t>(hi - lo + 1) * op.esz, kCanary);
}

// Every index of `dims`, row-major order.
template <class Fn>
void for_each_index(const Dims& dims, Fn fn) {
    for (int64_t d : dims)
        if (d == 0) return;
    Dims idx(dims.size(), 0);
    for (;;) {
        fn(idx);
        std::size_t k = dims.size();
        for (;;) {
            if (k == 0) return;
            --k;
            if (++idx[k] < dims[k]) break;
            idx[k] = 0;
        }
    }
}

std::string dims_text(const Dims& d) {
    std::string s = "(";
    for (std::size_t k = 0; k < d.size(); ++k) s += (k ? "," : "") + std::to_string(d[k]);
    return s + ")";
}

uint64_t load(const unsigned char* p, std::size_t esz) {
    uint64_t v = 0;
    std::memcpy(&v, p, esz);
    return v;
}

// The header's output-stride rule, computed here.
bool output_layout_accepted(const Dims& dims, const Dims& strides) {
    std::vector<std::pair<int64_t, int64_t>> axes;
    for (std::size_t k = 0; k < dims.size(); ++k)
        if (dims[k] > 1) axes.emplace_back(strides[k] < 0 ? -strides[k] : strides[k], dims[k]);
    std::sort(axes.begin(), axes.end());
    int64_t reach = 0;
    for (const auto& [s, e] : axes) {
        if (s <= reach) return false;
        reach += s * (e - 1);
    }
    return true;
}

// The reference resolution of a rule, written from the spec documents and
// decisions.md (not from src/rules): the output shape, and for every input
// the output axis each of its axes runs along (-1 for an extent-1 axis that
// lies along none). Shapes the rule refuses give nullopt.
struct Resolved {
    Dims out;
    std::vector<Dims> places;
};

Dims right_aligned(std::size_t rank, std::size_t out_rank) {
    Dims place(rank);
    for (std::size_t k = 0; k < rank; ++k) place[k] = static_cast<int64_t>(out_rank - rank + k);
    return place;
}

bool identity_place(const Dims& place) {
    for (std::size_t k = 0; k < place.size(); ++k)
        if (place[k] != static_cast<int64_t>(k)) return false;
    return true;
}

// Each input's extents against the output along its placement: equal, or 1.
bool fits_along(const Dims& dims, const Dims& place, const Dims& out) {
    for (std::size_t k = 0; k < dims.size(); ++k) {
        if (dims[k] == 1) continue;
        if (place[k] < 0 || dims[k] != out[static_cast<std::size_t>(place[k])]) return false;
    }
    return true;
}

std::optional<Resolved> resolve(bcast_rule rule, int64_t axis, const std::vector<Dims>& in,
                                 std::size_t primary) {
    Resolved r;
    const std::size_t n = in.size();
    switch (rule) {
        case BCAST_RULE_NONE:
            for (const Dims& d : in)
                if (d != in[0]) return std::nullopt;
            r.out = in[0];
            for (const Dims& d : in) r.places.push_back(right_aligned(d.size(), d.size()));
            return r;
        case BCAST_RULE_NUMPY: {  // right-align; the non-1 extent wins
            std::size_t rank = 0;
            for (const Dims& d : in) rank = std::max(rank, d.size());
            r.out.assign(rank, 1);
            for (const Dims& d : in) {
                r.places.push_back(right_aligned(d.size(), rank));
                for (std::size_t k = 0; k < d.size(); ++k) {
                    int64_t& o = r.out[rank - d.size() + k];
                    if (d[k] != 1 && o != 1 && d[k] != o) return std::nullopt;
                    if (d[k] != 1) o = d[k];
                }
            }
            return r;
        }
        case BCAST_RULE_UNIDIRECTIONAL:
            r.out = in[primary];
            for (const Dims& d : in) {
                if (d.size() > r.out.size()) return std::nullopt;
                r.places.push_back(right_aligned(d.size(), r.out.size()));
                if (!fits_along(d, r.places.back(), r.out)) return std::nullopt;
            }
            return r;
        case BCAST_RULE_PDPD:
        case BCAST_RULE_ONNX_LEGACY: {
            // B starts at `axis` of A (-1: B's rank right-aligned). PDPD
            // ignores B's trailing 1s; legacy lets an all-1 B fit anywhere
            // and needs its other extents to equal A's exactly.
            const Dims& a = in[primary];
            r.out = a;
            for (std::size_t j = 0; j < n; ++j) {
                const Dims& b = in[j];
                if (j == primary) {
                    r.places.push_back(right_aligned(b.size(), b.size()));
                    continue;
                }
                if (b.size() > a.size()) return std::nullopt;
                const bool all_ones = std::all_of(b.begin(), b.end(), [](int64_t d) { return d == 1; });
                Dims place(b.size(), -1);
                if (!(rule == BCAST_RULE_ONNX_LEGACY && all_ones)) {
                    const int64_t start = axis == -1 ? static_cast<int64_t>(a.size() - b.size()) : axis;
                    std::size_t used = b.size();
                    if (rule == BCAST_RULE_PDPD)
                        while (used > 0 && b[used - 1] == 1) --used;
                    if (start + static_cast<int64_t>(used) > static_cast<int64_t>(a.size())) return std::nullopt;
                    for (std::size_t k = 0; k < used; ++k) place[k] = start + static_cast<int64_t>(k);
                    if (!fits_along(b, place, a)) return std::nullopt;
                    if (rule == BCAST_RULE_ONNX_LEGACY) {  // 1s only at B's ends
                        std::size_t lo = 0, hi = b.size();
                        while (b[lo] == 1) ++lo;
                        while (b[hi - 1] == 1) --hi;
                        for (std::size_t k = lo; k < hi; ++k)
                            if (b[k] != a[static_cast<std::size_t>(place[k])]) return std::nullopt;
                    }
                }
                r.places.push_back(place);
            }
            return r;
        }
        case BCAST_RULE_NCNN: {
            // The lower-rank operand goes on the outer axes, except a 1-D one
            // unequal to the other's outermost extent, which goes innermost.
            if (n != 2 || in[0].size() > 4 || in[1].size() > 4) return std::nullopt;
            const std::size_t rank = std::max(in[0].size(), in[1].size());
            r.out.assign(rank, 1);
            for (std::size_t j = 0; j < 2; ++j) {
                const Dims& x = in[j];
                const Dims& y = in[1 - j];
                Dims place(x.size());
                for (std::size_t k = 0; k < x.size(); ++k) place[k] = static_cast<int64_t>(k);
                if (x.size() == 1 && rank > 1 && x[0] != y[0]) place[0] = static_cast<int64_t>(rank - 1);
                r.places.push_back(place);
            }
            for (std::size_t j = 0; j < 2; ++j)
                for (std::size_t k = 0; k < in[j].size(); ++k) {
                    int64_t& o = r.out[static_cast<std::size_t>(r.places[j][k])];
                    const int64_t d = in[j][k];
                    if (d != 1 && o != 1 && d != o) return std::nullopt;
                    if (d != 1) o = d;
                }
            return r;
        }
        default:
            return std::nullopt;
    }
}

// The quantized ops of the header (bcast_op_set_quantization's contract).
bool quantizable(bcast_opcode op) {
    switch (op) {
        case BCAST_OP_ADD: case BCAST_OP_SUB: case BCAST_OP_RSUB: case BCAST_OP_MUL:
        case BCAST_OP_DIV: case BCAST_OP_RDIV: case BCAST_OP_MAX: case BCAST_OP_MIN:
        case BCAST_OP_SQUARED_DIFFERENCE: case BCAST_OP_PRELU: return true;
        default: return false;
    }
}

// A quantized tensor's parameters: a positive normal scale, a zero point in
// the dtype's range.
struct QParams {
    float scale = 1;
    int32_t zero_point = 0;
};

QParams random_qparams(fuzz::Input& in, bool i8) {
    QParams q;
    q.scale = std::ldexp(1.0f + static_cast<float>(in.range(0, 1023)) / 1024.0f,
                         static_cast<int>(in.chance(5) ? in.range(-126, 127) : in.range(-10, 3)));
    q.zero_point = static_cast<int32_t>(i8 ? in.range(-128, 127) : in.range(0, 255));
    return q;
}

// The QDQ graph on one element: each input dequantized, the f32 op (the
// scalar reference), the result quantized (qdq_reference.hpp).
uint64_t quantized_reference(bcast_opcode op, bool i8, const uint64_t* elems, const QParams* q,
                             std::size_t n, const QParams& out) {
    uint64_t f32[BCAST_MAX_INPUTS];
    for (std::size_t j = 0; j < n; ++j) {
        const float x = fuzz::dequantize(static_cast<unsigned char>(elems[j]), i8, q[j].scale, q[j].zero_point);
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        f32[j] = bits;
    }
    const bref::Expected e = bref::reference(op, BCAST_DTYPE_F32, f32, n);
    float v;
    const auto bits = static_cast<uint32_t>(e.bits);
    std::memcpy(&v, &bits, 4);
    return fuzz::quantize(e.any_nan ? NAN : v, i8, out.scale, out.zero_point);
}

// A shape that the rule will most often accept against the primary shape a.
Dims shape_for_rule(fuzz::Input& in, bcast_rule rule, const Dims& a, int64_t axis) {
    auto ones_now_and_then = [&](Dims d) {
        for (int64_t& e : d)
            if (in.chance(25)) e = 1;
        return d;
    };
    const int64_t rank = static_cast<int64_t>(a.size());
    switch (rule) {
        case BCAST_RULE_NONE:
            return a;
        case BCAST_RULE_PDPD:
        case BCAST_RULE_ONNX_LEGACY: {
            const int64_t start = axis == -1 ? in.range(0, rank) : std::min(axis, rank);
            const int64_t len = in.range(0, rank - start);
            Dims b(a.begin() + start, a.begin() + start + len);
            if (rule == BCAST_RULE_PDPD) {
                b = ones_now_and_then(b);
                for (int64_t t = in.range(0, 2); t > 0 && static_cast<int64_t>(b.size()) < rank; --t) b.push_back(1);
            } else if (!b.empty() && in.chance(30)) {
                b.front() = 1;
            }
            if (axis == -1 && rule == BCAST_RULE_PDPD) {  // keep B a suffix of A's rank
                while (static_cast<int64_t>(b.size()) > rank - start && !b.empty()) b.pop_back();
            }
            return b;
        }
        case BCAST_RULE_NCNN:
            if (rank > 1 && in.chance(30)) return Dims{in.chance(50) ? a.front() : a.back()};
            if (rank > 0 && in.chance(30)) return ones_now_and_then(Dims(a.begin(), a.begin() + in.range(0, rank - 1)));
            return ones_now_and_then(a);
        default: {  // NUMPY, UNIDIRECTIONAL: a suffix of a, with 1s
            const int64_t drop = in.range(0, rank);
            return ones_now_and_then(Dims(a.begin() + drop, a.end()));
        }
    }
}

void run_case(fuzz::Input& in) {
    const auto op = static_cast<bcast_opcode>(in.range(0, bref::kNumOpcodes - 1));
    const auto dt = static_cast<bcast_dtype>(in.range(0, bref::kNumDtypes - 1));
    static const char* const kCaps[] = {"scalar", "sse2", "avx2", "avx512"};
    FUZZ_CHECK(bcast_set_max_isa(in.pick(kCaps)) == BCAST_OK);

    bcast_op* h = nullptr;
    const bcast_status created = bcast_op_create(op, dt, &h);
    if (!bref::expected_support(op, dt)) {
        FUZZ_CHECK(created == BCAST_ERROR_UNSUPPORTED && h == nullptr);
        return;
    }
    FUZZ_CHECK(created == BCAST_OK);

    const std::size_t n = static_cast<std::size_t>(
        in.range(static_cast<int64_t>(bref::min_arity(op)),
                 static_cast<int64_t>(std::min<std::size_t>(bref::max_arity(op), 4))));
    static const bcast_rule kRules[] = {BCAST_RULE_NONE, BCAST_RULE_NUMPY, BCAST_RULE_NUMPY,
                                        BCAST_RULE_UNIDIRECTIONAL, BCAST_RULE_PDPD,
                                        BCAST_RULE_ONNX_LEGACY, BCAST_RULE_NCNN};
    const bcast_rule rule = in.pick(kRules);
    // SELECT's primary operand is x (input 1) under the rules that have one.
    const std::size_t primary = op == BCAST_OP_SELECT ? 1 : 0;
    Dims a(static_cast<std::size_t>(in.range(0, 4)));
    for (int64_t& d : a) d = in.chance(8) ? 0 : in.range(1, 9);
    int64_t count = 1;
    for (int64_t d : a) count *= d;
    if (count > 3000) a.assign(1, 7);
    const int64_t axis = in.chance(40) ? -1 : in.range(0, static_cast<int64_t>(a.size()));

    std::vector<Dims> shapes(n);
    for (std::size_t j = 0; j < n; ++j)
        shapes[j] = j == primary ? a : shape_for_rule(in, rule, a, axis);
    if (in.chance(5)) {  // now and then a shape the rule may refuse
        Dims& victim = shapes[static_cast<std::size_t>(in.range(0, static_cast<int64_t>(n) - 1))];
        if (!victim.empty()) victim[static_cast<std::size_t>(in.range(0, static_cast<int64_t>(victim.size()) - 1))] = in.range(0, 9);
    }
    FUZZ_CHECK(bcast_op_set_param(h, BCAST_PARAM_RULE, rule) == BCAST_OK);
    FUZZ_CHECK(bcast_op_set_param(h, BCAST_PARAM_AXIS, axis) == BCAST_OK);
    const bool i8 = dt == BCAST_DTYPE_I8;
    const bool quantized = (i8 || dt == BCAST_DTYPE_U8) && quantizable(op) && in.chance(40);
    QParams qin[BCAST_MAX_INPUTS], qout;
    if (quantized) {
        for (std::size_t j = 0; j < n; ++j) {
            qin[j] = random_qparams(in, i8);
            FUZZ_CHECK(bcast_op_set_quantization(h, j, qin[j].scale, qin[j].zero_point) == BCAST_OK);
        }
        qout = random_qparams(in, i8);
        FUZZ_CHECK(bcast_op_set_quantization(h, BCAST_OUTPUT, qout.scale, qout.zero_point) == BCAST_OK);
    }
    const std::optional<Resolved> res = resolve(rule, axis, shapes, primary);
    Dims out_dims = res ? res->out : Dims{};
    count = 1;
    for (int64_t d : out_dims) count *= d;

    const bcast_dtype out_dt = bref::output_dtype(op, dt);
    const std::size_t out_esz = bref::elem_size(out_dt);
    std::vector<Operand> inputs(n);
    for (std::size_t j = 0; j < n; ++j) {
        Operand& x = inputs[j];
        x.esz = bref::elem_size(bref::input_dtype(op, dt, j));
        x.dims = shapes[j];
        if (res) x.place = res->places[j];
        lay_out(in, x, true);
        for (unsigned char& b : x.buf) b = in.byte();
        // BOOL holds 0 or 1; only the logical ops and SELECT's condition
        // promise to read any non-zero byte as true (the header).
        const bool any_byte_is_true = op == BCAST_OP_LOGICAL_AND || op == BCAST_OP_LOGICAL_OR ||
                                      op == BCAST_OP_LOGICAL_XOR || (op == BCAST_OP_SELECT && j == 0);
        if (bref::input_dtype(op, dt, j) == BCAST_DTYPE_BOOL)
            for (unsigned char& b : x.buf) b = any_byte_is_true && in.chance(20) ? b : (b & 1);
    }
    const bool in_place = res && in.chance(15);

    // The output: in place over input 0 when their element sizes agree,
    // else a fresh layout (now and then garbage strides).
    Operand out;
    out.dims = out_dims;
    out.esz = out_esz;
    const bool really_in_place = in_place && inputs[0].esz == out_esz && inputs[0].dims == out_dims &&
                                 identity_place(inputs[0].place) &&
                                 output_layout_accepted(out_dims, inputs[0].strides);
    if (really_in_place) {
        out.strides = inputs[0].strides;
    } else {
        lay_out(in, out, in.chance(10));
        out.buf.resize(out.buf.size() + 64, kCanary);  // a tail of canaries too
    }

    std::vector<size_t> ranks;
    std::vector<const int64_t*> dims, strides;
    for (const Operand& x : inputs) {
        ranks.push_back(x.dims.size());
        dims.push_back(x.dims.data());
        strides.push_back(in.chance(10) ? nullptr : x.strides.data());
    }
    // NULL strides are only right for a contiguous layout: check it is one.
    for (std::size_t j = 0; j < n; ++j) {
        if (strides[j]) continue;
        int64_t step = 1;
        for (std::size_t k = inputs[j].dims.size(); k-- > 0;) {
            if (inputs[j].dims[k] > 1 && inputs[j].strides[k] != step) strides[j] = inputs[j].strides.data();
            step *= inputs[j].dims[k];
        }
    }
    const bcast_status planned = bcast_op_plan(h, n, ranks.data(), dims.data(), strides.data(),
                                               res ? out.strides.data() : nullptr);
    if (!res) {  // the reference refuses these shapes under this rule
        if (planned == BCAST_OK) {
            std::fprintf(stderr, "rule %d axis %lld: shapes planned that the reference refuses\n",
                         rule, static_cast<long long>(axis));
            FUZZ_CHECK(false);
        }
        bcast_op_destroy(h);
        return;
    }
    const bool layout_ok = count == 0 || output_layout_accepted(out_dims, out.strides);
    if (!layout_ok) {
        if (planned != BCAST_ERROR_INVALID_ARGUMENT) {
            std::fprintf(stderr, "output layout accepted (%d: %s):", planned, bcast_last_error());
            for (std::size_t k = 0; k < out_dims.size(); ++k)
                std::fprintf(stderr, " %lld/%lld", static_cast<long long>(out_dims[k]),
                             static_cast<long long>(out.strides[k]));
            std::fprintf(stderr, "\n");
            FUZZ_CHECK(false);
        }
        bcast_op_destroy(h);
        return;
    }
    if (planned != BCAST_OK) {
        std::fprintf(stderr, "plan refused: %s\n", bcast_last_error());
        FUZZ_CHECK(false);
    }

    // Snapshot the inputs (input 0 may be overwritten in place).
    std::vector<std::vector<unsigned char>> before;
    for (const Operand& x : inputs) before.push_back(x.buf);
    std::vector<unsigned char> out_before = really_in_place ? inputs[0].buf : out.buf;
    std::vector<const void*> ptrs;
    for (Operand& x : inputs) ptrs.push_back(x.buf.empty() ? nullptr : x.base());
    void* out_ptr = really_in_place ? inputs[0].base() : (out.buf.empty() ? nullptr : out.base());
    const bool misalign = !really_in_place && out_esz > 1 && count > 0 && in.chance(5);
    if (misalign) out_ptr = static_cast<unsigned char*>(out_ptr) + 1;

    const bcast_status st = bcast_op_execute(h, ptrs.data(), out_ptr);
    std::vector<unsigned char>& written = really_in_place ? inputs[0].buf : out.buf;
    if (misalign) {
        FUZZ_CHECK(st == BCAST_ERROR_INVALID_ARGUMENT);
        FUZZ_CHECK(written == out_before);
        bcast_op_destroy(h);
        return;
    }
    if (st != BCAST_OK) {
        std::fprintf(stderr, "execute refused: %s\n", bcast_last_error());
        FUZZ_CHECK(false);
    }
    for (std::size_t j = really_in_place ? 1 : 0; j < n; ++j) FUZZ_CHECK(inputs[j].buf == before[j]);

    // Every output element against the reference; every other byte unchanged.
    std::vector<bool> is_element(written.size(), false);
    const Operand& out_layout = really_in_place ? inputs[0] : out;
    for_each_index(out_dims, [&](const Dims& idx) {
        uint64_t elems[BCAST_MAX_INPUTS];
        for (std::size_t j = 0; j < n; ++j) {
            const Operand& x = inputs[j];
            Dims own(x.dims.size(), 0);
            for (std::size_t k = 0; k < own.size(); ++k)
                if (x.dims[k] != 1) own[k] = idx[static_cast<std::size_t>(x.place[k])];
            const unsigned char* src = before[j].data() + (x.origin + x.offset(own)) * static_cast<int64_t>(x.esz);
            elems[j] = load(src, x.esz);
        }
        const bref::Expected want = quantized ? bref::Expected{quantized_reference(op, i8, elems, qin, n, qout)}
                                              : bref::reference(op, dt, elems, n);
        const int64_t at = out_layout.origin + out_layout.offset(idx);
        const unsigned char* got = written.data() + at * static_cast<int64_t>(out_esz);
        std::string why;
        if (!bref::matches(out_dt, want, load(got, out_esz), &why)) {
            std::fprintf(stderr, "%s %s%s rule %d axis %lld, inputs", bref::op_name(op), bref::dtype_name(dt),
                         quantized ? " quantized" : "", rule, static_cast<long long>(axis));
            for (std::size_t j = 0; j < n; ++j)
                std::fprintf(stderr, " %s=%#llx", dims_text(inputs[j].dims).c_str(),
                             static_cast<unsigned long long>(elems[j]));
            std::fprintf(stderr, ", output %s at %s: %s\n", dims_text(out_dims).c_str(),
                         dims_text(idx).c_str(), why.c_str());
            FUZZ_CHECK(false);
        }
        for (std::size_t b = 0; b < out_esz; ++b) is_element[static_cast<std::size_t>(at) * out_esz + b] = true;
    });
    for (std::size_t b = 0; b < written.size(); ++b)
        if (!is_element[b]) FUZZ_CHECK(written[b] == out_before[b]);

    // The same execute split into tasks, run last to first: the same bytes,
    // except that a NaN computed from two NaNs may carry either's payload
    // (each kernel's operand order is the compiler's).
    const std::vector<unsigned char> serial = written;
    std::copy(out_before.begin(), out_before.end(), written.begin());  // same storage
    const auto tasks = static_cast<std::size_t>(in.range(1, 70));
    for (std::size_t t = tasks; t-- > 0;) {
        FUZZ_CHECK(bcast_op_execute_task(h, ptrs.data(), out_ptr, t, tasks) == BCAST_OK);
    }
    const bool float_out = out_dt == BCAST_DTYPE_F32 || out_dt == BCAST_DTYPE_F64 ||
                           out_dt == BCAST_DTYPE_F16 || out_dt == BCAST_DTYPE_BF16;
    for (std::size_t b = 0; b < written.size(); ++b) {
        if (written[b] == serial[b]) continue;
        FUZZ_CHECK(is_element[b] && float_out);
        const std::size_t at = b / out_esz * out_esz;
        FUZZ_CHECK(std::isnan(bref::float_value(out_dt, load(&written[at], out_esz))) &&
                   std::isnan(bref::float_value(out_dt, load(&serial[at], out_esz))));
    }
    bcast_op_destroy(h);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::Input in(data, size);
    run_case(in);
    return 0;
}
