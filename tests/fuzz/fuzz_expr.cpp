// Fuzzes fused expressions through the C API: a random dtype, inputs of
// random shapes (extents 0, 1, small, huge; sometimes a shared long inner
// axis, so lines span blocks) and dtypes, random nodes (any opcode, rule,
// axis and operand numbers, valid or not), a random output, random input
// strides (padded, reversed), planned and executed whole, as tasks and in
// place on input 0, and replanned into a padded or reversed output; over
// f32, now and then quantized u8/i8 inputs and a
// quantized output. The oracle is the same graph run node by node with
// bcast_op_* and materialised intermediates (quantized inputs dequantized
// and the output quantized here, as DequantizeLinear and QuantizeLinear
// nodes would, from the header's definition): every add_node
// refusal must leave the graph as it was, a plan refusal must be a node's
// refusal run alone (same status), and what runs must write the oracle's
// bytes (any NaN matching any NaN) and nothing outside the output elements.
#include <bcast/bcast.h>

#include "fuzz_input.hpp"
#include "qdq_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace {

using Dims = std::vector<int64_t>;
constexpr unsigned char kCanary = 0xC5;
constexpr int64_t kMaxElements = 1 << 13;  // larger plans are planned, not run

struct Value {
    Dims dims, strides;        // strides empty: contiguous
    bcast_dtype dtype = BCAST_DTYPE_F32;
    std::vector<unsigned char> buf;
    int64_t origin = 0;        // element (0,...,0) inside buf, in elements
    const unsigned char* base() const { return buf.data() + origin * static_cast<int64_t>(bcast_dtype_size(dtype)); }
};

int64_t count_of(const Dims& d) {
    int64_t n = 1;
    for (int64_t e : d) {
        if (e != 0 && n > kMaxElements / e) return kMaxElements + 1;
        n *= e;
    }
    return n;
}

// Strides for dims (contiguous, padded or reversed) and a buffer of random
// bytes that holds them.
void lay_out(fuzz::Input& in, Value& v, bool random_strides) {
    const std::size_t es = bcast_dtype_size(v.dtype);
    v.strides.assign(v.dims.size(), 1);
    for (int64_t d : v.dims) {
        if (d == 0) return;  // nothing is read: any strides, no storage
    }
    int64_t step = 1;
    for (std::size_t k = v.dims.size(); k-- > 0;) {
        v.strides[k] = random_strides && in.chance(15) ? -step : step;
        step *= v.dims[k] + (random_strides && in.chance(20) ? in.range(1, 2) : 0);
    }
    int64_t lo = 0, hi = 0;
    for (std::size_t k = 0; k < v.dims.size(); ++k) {
        if (v.dims[k] == 0) return;
        const int64_t span = v.strides[k] * (v.dims[k] - 1);
        (span < 0 ? lo : hi) += span;
    }
    v.origin = -lo;
    v.buf.resize(static_cast<std::size_t>(hi - lo + 1) * es);
    uint64_t state = in.u64() | 1;  // the data: xorshift from one input word
    for (unsigned char& b : v.buf) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        b = static_cast<unsigned char>(state >> 56);
    }
    if (v.dtype == BCAST_DTYPE_BOOL) {
        for (unsigned char& b : v.buf) b &= 1;
    }
}

bool is_nan(bcast_dtype dt, const unsigned char* p) {
    uint64_t bits = 0;
    std::memcpy(&bits, p, bcast_dtype_size(dt));
    switch (dt) {
        case BCAST_DTYPE_F32: return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFFu);
        case BCAST_DTYPE_F64:
            return (bits & 0x7FF0000000000000u) == 0x7FF0000000000000u && (bits & 0xFFFFFFFFFFFFFu);
        case BCAST_DTYPE_F16: return (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu);
        case BCAST_DTYPE_BF16: return (bits & 0x7F80u) == 0x7F80u && (bits & 0x7Fu);
        default: return false;
    }
}

bool same_bytes(bcast_dtype dt, const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
    const std::size_t es = bcast_dtype_size(dt);
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i + es <= a.size(); i += es) {
        if (std::memcmp(&a[i], &b[i], es) == 0) continue;
        if (!(is_nan(dt, &a[i]) && is_nan(dt, &b[i]))) return false;
    }
    return true;
}

// A quantized tensor: its dtype, scale and zero point.
struct Quant {
    bcast_dtype dtype = BCAST_DTYPE_U8;
    float scale = 1;
    int32_t zero_point = 0;
};

Quant random_quant(fuzz::Input& in) {
    Quant q;
    q.dtype = in.chance(50) ? BCAST_DTYPE_U8 : BCAST_DTYPE_I8;
    q.scale = std::ldexp(1.0f + static_cast<float>(in.range(0, 255)) / 256.0f, static_cast<int>(in.range(-9, 2)));
    q.zero_point = static_cast<int32_t>(q.dtype == BCAST_DTYPE_I8 ? in.range(-128, 127) : in.range(0, 255));
    return q;
}

// Every index of dims in row-major order, as element offsets along strides
// (empty: contiguous).
template <class Fn>
void for_each_offset(const Dims& dims, const Dims& strides, Fn fn) {
    const int64_t n = count_of(dims);
    Dims idx(dims.size(), 0);
    for (int64_t flat = 0; flat < n; ++flat) {
        int64_t at = 0, step = 1;
        for (std::size_t k = dims.size(); k-- > 0;) {
            at += idx[k] * (strides.empty() ? step : strides[k]);
            step *= dims[k];
        }
        fn(at);
        for (std::size_t k = dims.size(); k-- > 0;) {
            if (++idx[k] < dims[k]) break;
            idx[k] = 0;
        }
    }
}

// DequantizeLinear of every element, contiguous (qdq_reference.hpp).
Value dequantized(const Value& v, const Quant& q, bool with_data) {
    Value f;
    f.dims = v.dims;
    f.dtype = BCAST_DTYPE_F32;
    if (!with_data) return f;
    f.buf.reserve(static_cast<std::size_t>(count_of(v.dims)) * 4);
    for_each_offset(v.dims, v.strides, [&](int64_t at) {
        const float x = fuzz::dequantize(v.base()[at], q.dtype == BCAST_DTYPE_I8, q.scale, q.zero_point);
        unsigned char b[4];
        std::memcpy(b, &x, 4);
        f.buf.insert(f.buf.end(), b, b + 4);
    });
    return f;
}

// QuantizeLinear of contiguous f32 values.
std::vector<unsigned char> quantized(const std::vector<unsigned char>& f32, const Quant& q) {
    std::vector<unsigned char> out;
    for (std::size_t i = 0; i + 4 <= f32.size(); i += 4) {
        float v;
        std::memcpy(&v, &f32[i], 4);
        out.push_back(fuzz::quantize(v, q.dtype == BCAST_DTYPE_I8, q.scale, q.zero_point));
    }
    return out;
}

struct NodeSpec {
    bcast_opcode op;
    bcast_rule rule;
    int64_t axis;
    std::vector<size_t> operands;
};

// Runs the accepted nodes one by one; values[] gains each node's result
// (contiguous). Returns the first refusal's status, or BCAST_OK.
bcast_status run_unfused(const std::vector<NodeSpec>& nodes, std::vector<Value>& values,
                         bool execute) {
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const NodeSpec& n = nodes[k];
        const bcast_dtype dt = values[n.operands[n.op == BCAST_OP_SELECT ? 1 : 0]].dtype;
        bcast_op* op = nullptr;
        bcast_status st = bcast_op_create(n.op, dt, &op);
        if (st == BCAST_OK) st = bcast_op_set_param(op, BCAST_PARAM_RULE, n.rule);
        if (st == BCAST_OK) st = bcast_op_set_param(op, BCAST_PARAM_AXIS, n.axis);
        std::vector<size_t> ranks;
        std::vector<const int64_t*> dims, strides;
        std::vector<const void*> data;
        for (size_t v : n.operands) {
            ranks.push_back(values[v].dims.size());
            dims.push_back(values[v].dims.data());
            strides.push_back(values[v].strides.empty() ? nullptr : values[v].strides.data());
            data.push_back(values[v].base());
        }
        if (st == BCAST_OK) {
            st = bcast_op_plan(op, n.operands.size(), ranks.data(), dims.data(), strides.data(), nullptr);
        }
        Value result;
        if (st == BCAST_OK) {
            int64_t od[BCAST_MAX_RANK];
            size_t rank = 0;
            FUZZ_CHECK(bcast_op_output_shape(op, BCAST_MAX_RANK, &rank, od) == BCAST_OK);
            result.dims.assign(od, od + rank);
            const bool boolean = n.op >= BCAST_OP_EQUAL && n.op <= BCAST_OP_LOGICAL_XOR;
            result.dtype = boolean ? BCAST_DTYPE_BOOL : dt;
            if (execute) {
                result.buf.assign(static_cast<std::size_t>(count_of(result.dims)) * bcast_dtype_size(result.dtype) + 1, 0);
                FUZZ_CHECK(bcast_op_execute(op, data.data(), result.buf.data()) == BCAST_OK);
            }
        }
        bcast_op_destroy(op);
        if (st != BCAST_OK) return st;
        values.push_back(std::move(result));
    }
    return BCAST_OK;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::Input in(data, size);
    static const bcast_dtype kDtypes[] = {BCAST_DTYPE_F32, BCAST_DTYPE_F16, BCAST_DTYPE_I8,
                                          BCAST_DTYPE_I32, BCAST_DTYPE_U16, BCAST_DTYPE_F64};
    const bcast_dtype dt = in.pick(kDtypes);
    const std::size_t num_inputs = static_cast<std::size_t>(in.range(1, 4));
    bcast_expr* e = nullptr;
    FUZZ_CHECK(bcast_expr_create(dt, num_inputs, &e) == BCAST_OK);
    std::vector<Value> values(num_inputs);
    for (std::size_t i = 0; i < num_inputs; ++i) {
        values[i].dtype = dt;
        if (in.chance(15)) {
            values[i].dtype = BCAST_DTYPE_BOOL;
            FUZZ_CHECK(bcast_expr_set_input_dtype(e, i, BCAST_DTYPE_BOOL) == BCAST_OK);
        }
        const std::size_t rank = static_cast<std::size_t>(in.range(0, 4));
        for (std::size_t k = 0; k < rank; ++k) values[i].dims.push_back(fuzz::extent(in));
    }
    // Sometimes one long innermost axis that the inputs share or broadcast:
    // lines that span several blocks (and patterns several periods).
    if (in.chance(30)) {
        const int64_t line = in.range(60, 1100);
        for (Value& v : values) {
            if (!v.dims.empty()) v.dims.back() = in.chance(70) ? line : 1;
        }
    }
    // Quantized inputs (before any node uses them) and output, over f32 and
    // small inputs only: the oracle's f32 copies must plan as the bytes do.
    bool all_small = true;
    for (const Value& v : values) all_small = all_small && count_of(v.dims) <= kMaxElements;
    const bool quantizing = dt == BCAST_DTYPE_F32 && all_small && in.chance(30);
    std::vector<std::optional<Quant>> input_quant(num_inputs);
    for (std::size_t i = 0; i < num_inputs && quantizing; ++i) {
        if (values[i].dtype == BCAST_DTYPE_BOOL || !in.chance(60)) continue;
        const Quant q = random_quant(in);
        FUZZ_CHECK(bcast_expr_set_quantization(e, i, q.dtype, q.scale, q.zero_point) == BCAST_OK);
        values[i].dtype = q.dtype;
        input_quant[i] = q;
    }
    // Nodes: a refused add_node must leave the graph as it was.
    std::vector<NodeSpec> nodes;
    const std::size_t tries = static_cast<std::size_t>(in.range(1, 10));
    for (std::size_t t = 0; t < tries; ++t) {
        NodeSpec n;
        n.op = static_cast<bcast_opcode>(in.chance(95) ? in.range(0, 38) : in.range(-2, 45));
        n.rule = static_cast<bcast_rule>(in.chance(60) ? BCAST_RULE_NUMPY : in.range(0, 6));
        n.axis = in.chance(70) ? -1 : in.range(-2, 4);
        const std::size_t arity = static_cast<std::size_t>(in.range(1, 3));
        for (std::size_t j = 0; j < arity; ++j) {
            n.operands.push_back(static_cast<size_t>(in.range(0, static_cast<int64_t>(num_inputs + nodes.size()))));
        }
        size_t value = 12345;
        const bcast_status st = bcast_expr_add_node(e, n.op, n.rule, n.axis, n.operands.size(),
                                                    n.operands.data(), &value);
        if (st == BCAST_OK) {
            FUZZ_CHECK(value == num_inputs + nodes.size());
            nodes.push_back(n);
        } else {
            FUZZ_CHECK(value == 12345);
            FUZZ_CHECK(bcast_last_error()[0] != '\0');
        }
    }
    if (nodes.empty()) {
        const void* none[4] = {};
        FUZZ_CHECK(bcast_expr_execute(e, none, nullptr) == BCAST_ERROR_INVALID_STATE);
        bcast_expr_destroy(e);
        return 0;
    }
    std::size_t output = num_inputs + nodes.size() - 1;
    if (in.chance(20)) {
        output = static_cast<std::size_t>(in.range(num_inputs, static_cast<int64_t>(output)));
        FUZZ_CHECK(bcast_expr_set_output(e, output) == BCAST_OK);
    }
    std::optional<Quant> output_quant;
    if (quantizing && in.chance(50)) {
        output_quant = random_quant(in);
        FUZZ_CHECK(bcast_expr_set_quantization(e, BCAST_OUTPUT, output_quant->dtype, output_quant->scale,
                                               output_quant->zero_point) == BCAST_OK);
    }
    // The oracle's inputs: quantized ones as their dequantized f32 values.
    const auto oracle_inputs = [&](bool with_data) {
        std::vector<Value> o = values;
        for (std::size_t i = 0; i < num_inputs; ++i) {
            if (input_quant[i]) o[i] = dequantized(values[i], *input_quant[i], with_data);
        }
        return o;
    };
    const bool random_strides = in.chance(40);
    bool small = true;
    for (Value& v : values) {
        small = small && count_of(v.dims) <= kMaxElements;
        if (small) lay_out(in, v, random_strides);
    }
    std::vector<size_t> ranks;
    std::vector<const int64_t*> dims, strides;
    for (const Value& v : values) {
        ranks.push_back(v.dims.size());
        dims.push_back(v.dims.data());
        strides.push_back(v.strides.empty() ? nullptr : v.strides.data());
    }
    const bcast_status planned = bcast_expr_plan(e, num_inputs, ranks.data(), dims.data(), strides.data(), nullptr);
    std::vector<Value> oracle = oracle_inputs(false);
    bcast_status unfused = run_unfused(nodes, oracle, false);
    // Only an f32 result is quantized (the header).
    if (unfused == BCAST_OK && output_quant && oracle[output].dtype != BCAST_DTYPE_F32) unfused = BCAST_ERROR_UNSUPPORTED;
    if (planned != unfused) {
        std::fprintf(stderr, "fused plan %d (%s), unfused %d\n", planned, bcast_last_error(), unfused);
    }
    FUZZ_CHECK(planned == unfused);
    if (planned != BCAST_OK || !small) {
        bcast_expr_destroy(e);
        return 0;
    }
    bool runs = true;  // every node small enough to materialise
    for (std::size_t v = num_inputs; v < oracle.size(); ++v) runs = runs && count_of(oracle[v].dims) <= kMaxElements;
    if (!runs) {
        bcast_expr_destroy(e);
        return 0;
    }
    oracle = oracle_inputs(true);
    FUZZ_CHECK(run_unfused(nodes, oracle, true) == BCAST_OK);
    const bcast_dtype out_dt = output_quant ? output_quant->dtype : oracle[output].dtype;
    const int64_t n_out = count_of(oracle[output].dims);
    const std::size_t out_bytes = static_cast<std::size_t>(n_out) * bcast_dtype_size(out_dt);
    const std::size_t result_bytes = static_cast<std::size_t>(n_out) * bcast_dtype_size(oracle[output].dtype);
    std::vector<unsigned char> want(oracle[output].buf.begin(),
                                    oracle[output].buf.begin() + static_cast<std::ptrdiff_t>(result_bytes));
    if (output_quant) want = quantized(want, *output_quant);
    std::vector<const void*> pointers;
    for (const Value& v : values) pointers.push_back(v.base());
    std::vector<unsigned char> got(out_bytes + 64, kCanary);
    FUZZ_CHECK(bcast_expr_execute(e, pointers.data(), got.data() + 32) == BCAST_OK || n_out == 0);
    for (std::size_t i = 0; i < 32; ++i) FUZZ_CHECK(got[i] == kCanary && got[32 + out_bytes + i] == kCanary);
    const std::vector<unsigned char> fused(got.begin() + 32, got.begin() + 32 + static_cast<std::ptrdiff_t>(out_bytes));
    // POW/ATAN2/LOGADDEXP on floats are within 2 ulp, not bit-exact between
    // layouts (the header): a chain through one is only run, not compared.
    bool exact = true;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const bcast_opcode op = nodes[k].op;
        const bool transcendental = op == BCAST_OP_POW || op == BCAST_OP_RPOW || op == BCAST_OP_ATAN2 ||
                                    op == BCAST_OP_RATAN2 || op == BCAST_OP_LOGADDEXP;
        const bcast_dtype t = oracle[num_inputs + k].dtype;
        const bool floating = t == BCAST_DTYPE_F32 || t == BCAST_DTYPE_F64 || t == BCAST_DTYPE_F16 ||
                              t == BCAST_DTYPE_BF16;
        exact = exact && !(transcendental && floating);
    }
    if (!exact) {
        bcast_expr_destroy(e);
        return 0;
    }
    if (!same_bytes(out_dt, fused, want)) {
        char text[8192];
        bcast_expr_describe(e, text, sizeof text);
        std::fprintf(stderr, "fused output differs from the ops run one by one:\n%s\n", text);
        for (std::size_t i = 0; i < out_bytes; ++i) {
            if (fused[i] != want[i]) {
                std::fprintf(stderr, "first different byte %zu: %02x, want %02x\n", i, fused[i], want[i]);
                break;
            }
        }
    }
    FUZZ_CHECK(same_bytes(out_dt, fused, want));
    const std::size_t tasks = static_cast<std::size_t>(in.range(1, 9));
    std::vector<unsigned char> split(out_bytes + 1, kCanary);
    for (std::size_t t = tasks; t-- > 0;) {
        FUZZ_CHECK(bcast_expr_execute_task(e, pointers.data(), split.data(), t, tasks) == BCAST_OK || n_out == 0);
    }
    FUZZ_CHECK(split[out_bytes] == kCanary);
    split.resize(out_bytes);
    FUZZ_CHECK(same_bytes(out_dt, split, want));
    // Replanned into a padded or reversed output: the same elements where
    // its strides put them, every other byte untouched.
    if (n_out > 0 && in.chance(40)) {
        Value o;
        o.dims = oracle[output].dims;
        o.dtype = out_dt;
        lay_out(in, o, true);
        std::fill(o.buf.begin(), o.buf.end(), kCanary);
        FUZZ_CHECK(bcast_expr_plan(e, num_inputs, ranks.data(), dims.data(), strides.data(), o.strides.data()) ==
                   BCAST_OK);
        FUZZ_CHECK(bcast_expr_execute(e, pointers.data(), const_cast<unsigned char*>(o.base())) == BCAST_OK);
        const std::size_t es = bcast_dtype_size(out_dt);
        std::vector<bool> element(o.buf.size(), false);
        std::size_t k = 0;
        for_each_offset(o.dims, o.strides, [&](int64_t at) {
            const std::size_t byte = static_cast<std::size_t>(o.origin + at) * es;
            const bool same = std::memcmp(&o.buf[byte], &want[k * es], es) == 0 ||
                              (is_nan(out_dt, &o.buf[byte]) && is_nan(out_dt, &want[k * es]));
            if (!same) std::fprintf(stderr, "strided output: element %zu differs\n", k);
            FUZZ_CHECK(same);
            std::fill(element.begin() + static_cast<std::ptrdiff_t>(byte),
                      element.begin() + static_cast<std::ptrdiff_t>(byte + es), true);
            ++k;
        });
        for (std::size_t b = 0; b < o.buf.size(); ++b) FUZZ_CHECK(element[b] || o.buf[b] == kCanary);
        FUZZ_CHECK(bcast_expr_plan(e, num_inputs, ranks.data(), dims.data(), strides.data(), nullptr) == BCAST_OK);
    }
    // In place on input 0 where it is laid out as the output: either refused
    // (it is also read along another placement) with nothing written, or
    // the same bytes.
    const Value& first = values[0];
    bool natural = first.dtype == out_dt && first.dims == oracle[output].dims && n_out > 0;
    int64_t step = 1;
    for (std::size_t k = first.dims.size(); natural && k-- > 0;) {
        natural = first.strides[k] == step || first.dims[k] == 1;
        step *= first.dims[k];
    }
    if (natural) {
        std::vector<unsigned char> io(first.base(), first.base() + out_bytes);
        const std::vector<unsigned char> before = io;
        std::vector<const void*> in_place = pointers;
        in_place[0] = io.data();
        const bcast_status st = bcast_expr_execute(e, in_place.data(), io.data());
        FUZZ_CHECK(st == BCAST_OK || st == BCAST_ERROR_INVALID_ARGUMENT);
        FUZZ_CHECK(st == BCAST_OK ? same_bytes(out_dt, io, want) : io == before);
    }
    bcast_expr_destroy(e);
    return 0;
}
