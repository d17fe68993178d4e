// Pins a single op's plan (its one-node expression's): alignment,
// coalescing, loop descriptors and the kernel its one step runs, for the
// patterns the SIMD kernels are built around.
#include "core/error.hpp"
#include "handles/operator.hpp"
#include "kernels/dispatch.hpp"
#include "plan/loop_nest.hpp"
#include "kernels/simd/stream_threshold.hpp"
#include "plan/fused_plan.hpp"
#include "tuning/active_tuning.hpp"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <vector>

using namespace bcast;

namespace {

Shape shape(std::initializer_list<int64_t> dims) {
    Shape s;
    for (int64_t d : dims) s[s.rank++] = d;
    return s;
}

// The plan bcast_op_plan makes.
plan::FusedPlan make_plan(bcast_opcode op, std::vector<Shape> inputs,
                          const std::vector<const int64_t*>& strides = {},
                          const int64_t* out_strides = nullptr, bcast_rule rule = BCAST_RULE_NUMPY,
                          int64_t axis = -1, bcast_dtype dtype = BCAST_DTYPE_F32) {
    Operator o(op, dtype);
    o.set_param(BCAST_PARAM_RULE, rule);
    o.set_param(BCAST_PARAM_AXIS, axis);
    std::vector<std::size_t> ranks;
    std::vector<const int64_t*> dims;
    for (const Shape& s : inputs) {
        ranks.push_back(s.rank);
        dims.push_back(s.dims.data());
    }
    o.plan(inputs.size(), ranks.data(), dims.data(), strides.empty() ? nullptr : strides.data(),
           out_strides);
    return o.planned();
}

// Operand k of the step's kernel (x, y; num_reads: the output) as the
// layout's operand: what bcast_op_describe lists.
std::size_t column(const plan::FusedPlan& p, std::size_t k) {
    const plan::Step& step = p.steps[0];
    if (k >= p.num_reads) return p.num_reads;
    const std::size_t j = step.swap && k < 2 ? 1 - k : k;
    return step.operands[j].index;
}

std::vector<int64_t> extents(const plan::FusedPlan& p) {
    std::vector<int64_t> e;
    for (std::size_t l = 0; l < p.nest.num_loops; ++l) e.push_back(p.nest.loops[l].extent);
    return e;
}

// Strides of kernel operand k (the output: num_reads).
std::vector<int64_t> strides_of(const plan::FusedPlan& p, std::size_t k) {
    std::vector<int64_t> s;
    for (std::size_t l = 0; l < p.nest.num_loops; ++l) s.push_back(p.nest.loops[l].stride[column(p, k)]);
    return s;
}

// A field of bcast_op_describe's JSON, as text ("vs", 49, ...); "" if absent.
std::string field(const plan::FusedPlan& p, const char* name, bcast_opcode op = BCAST_OP_ADD) {
    const std::string d = plan::describe_op_json(op, BCAST_DTYPE_F32, BCAST_RULE_NUMPY, -1, &p);
    const std::string key = std::string("\"") + name + "\":";
    const std::size_t at = d.find(key);
    if (at == std::string::npos) return "";
    std::size_t from = at + key.size(), to = d.find_first_of(",}", from);
    if (d[from] == '"') to = d.find('"', ++from);
    return d.substr(from, to - from);
}

std::string kernel(const plan::FusedPlan& p, bcast_opcode op = BCAST_OP_ADD) { return field(p, "kernel", op); }

// Rows of a 2-D kernel per call where the ISA has one (otherwise the rows
// run one kernel call each).
bool runs_rows(const plan::FusedPlan& p) { return p.block_rows > 0 && p.steps[0].binary2d != nullptr; }

using V = std::vector<int64_t>;

}  // namespace

TEST_CASE("per-channel NCHW bias is 3 loops with a vector-scalar inner loop", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({8, 64, 112, 112}), shape({1, 64, 1, 1})});
    CHECK(extents(p) == V{8, 64, 112 * 112});
    CHECK(strides_of(p, 0) == V{64 * 112 * 112, 112 * 112, 1});
    CHECK(strides_of(p, 1) == V{0, 1, 0});
    CHECK(strides_of(p, 2) == V{64 * 112 * 112, 112 * 112, 1});
    CHECK(kernel(p) == "vs");
    CHECK(field(p, "elements_per_call") == "12544");
    // A walk's call is the channel loop's rows: one 2-D call where the ISA
    // has the kernel.
    CHECK(p.outer_loops == 1);
    CHECK(p.block_rows > 0);
    CHECK(field(p, "rows_per_call") == (runs_rows(p) ? "64" : ""));
}

TEST_CASE("a column operand makes rows of vector-scalar", "[plan]") {
    const auto p = make_plan(BCAST_OP_SUB, {shape({4096, 4096}), shape({4096, 1})});
    CHECK(extents(p) == V{4096, 4096});
    CHECK(strides_of(p, 1) == V{1, 0});
    CHECK(kernel(p, BCAST_OP_SUB) == "vs");
}

TEST_CASE("a reversed op swaps the operands instead of copying", "[plan]") {
    const auto p = make_plan(BCAST_OP_RSUB, {shape({4096, 4096}), shape({4096, 1})});
    CHECK(p.input_order[column(p, 0)] == 1);
    CHECK(p.input_order[column(p, 1)] == 0);
    CHECK(strides_of(p, 0) == V{1, 0});  // kernel x is the user's column
    CHECK(kernel(p, BCAST_OP_RSUB) == "sv");
    CHECK(field(p, "kernel_op", BCAST_OP_RSUB) == "SUB");
    CHECK(field(p, "operands", BCAST_OP_RSUB) == "[\"input1\"");
}

// A short row that one operand repeats while the other runs on: the rows'
// 2-D call over it (one periodic run in the kernel), or without 2-D
// kernels a pattern merged into one line.
TEST_CASE("a short repeated row is one periodic run", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({1000, 3}), shape({3})});
    if (runs_rows(p)) {
        CHECK(kernel(p) == "vv");
        CHECK(extents(p) == V{1000, 3});
        CHECK(strides_of(p, 1) == V{0, 1});
        CHECK(field(p, "rows_per_call") == "1000");
    } else {
        CHECK(kernel(p) == "periodic");
        CHECK(field(p, "period") == "3");
        CHECK(field(p, "pattern") == "y");
        CHECK(extents(p) == V{3000});
    }

    const auto q = make_plan(BCAST_OP_ADD, {shape({1, 7}), shape({100, 7})});
    CHECK(kernel(q) == (runs_rows(q) ? "vv" : "periodic"));
    CHECK(field(q, "pattern") == (runs_rows(q) ? "" : "x"));

    const auto r = make_plan(BCAST_OP_MUL, {shape({1, 112, 112, 3}), shape({3})});
    CHECK(extents(r) == (runs_rows(r) ? V{112 * 112, 3} : V{112 * 112 * 3}));
}

TEST_CASE("a long trailing operand stays rows of vector-vector", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({4096, 4096}), shape({4096})});
    CHECK(kernel(p) == "vv");
    CHECK(extents(p) == V{4096, 4096});
    CHECK(strides_of(p, 1) == V{0, 1});
}

TEST_CASE("identical shapes coalesce into one contiguous loop", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({2, 3, 4, 5}), shape({2, 3, 4, 5})});
    CHECK(extents(p) == V{120});
    CHECK(kernel(p) == "vv");
    CHECK(field(p, "elements_per_call") == "120");
}

TEST_CASE("outer product runs scalar-vector rows", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({4096, 1}), shape({1, 4096})});
    CHECK(extents(p) == V{4096, 4096});
    CHECK(strides_of(p, 0) == V{1, 0});
    CHECK(strides_of(p, 1) == V{0, 1});
    CHECK(kernel(p) == "sv");
}

TEST_CASE("exchangeable ops put the broadcast operand on the right", "[plan]") {
    // Integer ADD commutes bit for bit: the outer product runs as vs rows
    // with the user's inputs exchanged; f32 ADD does not (NaN payloads).
    const auto p = make_plan(BCAST_OP_ADD, {shape({4096, 1}), shape({1, 4096})}, {}, nullptr,
                             BCAST_RULE_NUMPY, -1, BCAST_DTYPE_I32);
    CHECK(p.input_order[column(p, 0)] == 1);
    CHECK(p.input_order[column(p, 1)] == 0);
    CHECK(strides_of(p, 0) == V{0, 1});
    CHECK(strides_of(p, 1) == V{1, 0});
    CHECK(kernel(p) == "vs");
    const auto f = make_plan(BCAST_OP_ADD, {shape({4096, 1}), shape({1, 4096})});
    CHECK(p.input_order[column(f, 0)] == 0);
    CHECK(kernel(f) == "sv");

    // LESS on a scalar x is GREATER on a scalar y.
    const auto c = make_plan(BCAST_OP_LESS, {shape({4096, 1}), shape({1, 4096})});
    CHECK(kernel(c, BCAST_OP_LESS) == "vs");
    CHECK(field(c, "kernel_op", BCAST_OP_LESS) == "GREATER");
    CHECK(c.steps[0].binary == kernels::select_kernels(BCAST_OP_GREATER, BCAST_DTYPE_F32).kernels.vs);

    // LESS over a row x repeats is GREATER over a row y repeats (the 2-D
    // kernel's periodic run), or without 2-D kernels a pattern.
    const auto q = make_plan(BCAST_OP_LESS, {shape({1, 7}), shape({100, 7})});
    if (runs_rows(q)) {
        CHECK(kernel(q, BCAST_OP_LESS) == "vv");
        CHECK(field(q, "kernel_op", BCAST_OP_LESS) == "GREATER");
        CHECK(strides_of(q, 0) == V{7, 1});
        CHECK(strides_of(q, 1) == V{0, 1});
    } else {
        CHECK(kernel(q, BCAST_OP_LESS) == "periodic");
        CHECK(field(q, "pattern", BCAST_OP_LESS) == "x");
        CHECK(field(q, "period", BCAST_OP_LESS) == "7");
    }

    // A reversed op is not exchanged back: RSUB has no exchanged op.
    const auto s = make_plan(BCAST_OP_RSUB, {shape({4096, 1}), shape({1, 4096})}, {}, nullptr,
                             BCAST_RULE_NUMPY, -1, BCAST_DTYPE_I32);
    CHECK(s.input_order[column(s, 0)] == 1);
    CHECK(kernel(s, BCAST_OP_RSUB) == "vs");
}

TEST_CASE("two-sided broadcast keeps every distinct stride pattern", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({64, 1, 4096}), shape({1, 64, 1})});
    CHECK(extents(p) == V{64, 64, 4096});
    CHECK(strides_of(p, 0) == V{4096, 0, 1});
    CHECK(strides_of(p, 1) == V{0, 1, 0});
    CHECK(kernel(p) == "vs");
}

TEST_CASE("a scalar operand is vector-scalar over one loop", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({16}), shape({})});
    CHECK(extents(p) == V{16});
    CHECK(kernel(p) == "vs");
}

TEST_CASE("rank 0 and all-ones shapes are one element", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({}), shape({})});
    CHECK(extents(p) == V{1});
    CHECK(field(p, "elements_per_call") == "1");
    CHECK(kernel(p) == "vv");
    const auto q = make_plan(BCAST_OP_ADD, {shape({1, 1}), shape({1})});
    CHECK(extents(q) == V{1});
}

TEST_CASE("a zero extent gives an empty plan", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({0, 3}), shape({3})});
    CHECK(kernel(p) == "empty");
    CHECK(p.out.rank == 2);
    CHECK(p.out[0] == 0);
}

TEST_CASE("channel-padded output strides (ncnn cstep) need no copy", "[plan]") {
    const int64_t out_strides[] = {16, 5, 1};  // (c,h,w) = (2,3,5), cstep 16
    const auto p = make_plan(BCAST_OP_ADD, {shape({2, 3, 5}), shape({2, 3, 5})}, {}, out_strides);
    CHECK(extents(p) == V{2, 15});  // rows stay whole, channels keep their padding
    CHECK(strides_of(p, 2) == V{16, 1});
    CHECK(strides_of(p, 0) == V{15, 1});
    CHECK(kernel(p) == "vv");  // 15 elements a row, one row per channel
    CHECK(field(p, "elements_per_call") == "15");

    // A broadcast row repeats inside each padded channel.
    const auto q = make_plan(BCAST_OP_ADD, {shape({2, 3, 5}), shape({5})}, {}, out_strides);
    CHECK(strides_of(q, 2) == (runs_rows(q) ? V{16, 5, 1} : V{16, 1}));
    CHECK(kernel(q) == (runs_rows(q) ? "vv" : "periodic"));
    CHECK(q.outer_loops == 1);
}

TEST_CASE("negative input strides fall back to the strided kernel", "[plan]") {
    const int64_t reversed[] = {-1};
    const auto p = make_plan(BCAST_OP_ADD, {shape({10}), shape({10})}, {reversed, nullptr});
    CHECK(strides_of(p, 0) == V{-1});
    CHECK(kernel(p) == "strided");
    CHECK(p.lo_byte[0] == -9 * 4);
    CHECK(p.hi_byte[0] == 4);
}

TEST_CASE("a permuted output puts its smallest stride innermost", "[plan]") {
    const int64_t transposed[] = {1, 3};  // out (3,4) stored column-major
    const auto p = make_plan(BCAST_OP_ADD, {shape({3, 4}), shape({3, 4})}, {}, transposed);
    CHECK(extents(p) == V{4, 3});
    CHECK(strides_of(p, 2) == V{3, 1});
    CHECK(strides_of(p, 0) == V{1, 4});
}

TEST_CASE("output strides that alias elements are refused", "[plan]") {
    const int64_t zero[] = {0, 1};
    REQUIRE_THROWS_AS(make_plan(BCAST_OP_ADD, {shape({3, 4}), shape({4})}, {}, zero), Error);
    const int64_t overlapping[] = {2, 1};
    try {
        make_plan(BCAST_OP_ADD, {shape({3, 4}), shape({4})}, {}, overlapping);
        FAIL("overlapping output strides were accepted");
    } catch (const Error& e) {
        CHECK(e.status() == BCAST_ERROR_INVALID_ARGUMENT);
    }
}

TEST_CASE("in-place needs the output's exact layout", "[plan]") {
    const auto p = make_plan(BCAST_OP_ADD, {shape({4, 5}), shape({5})});
    CHECK(p.same_layout_as_output[0]);
    CHECK_FALSE(p.same_layout_as_output[1]);
    const auto cmp = make_plan(BCAST_OP_LESS, {shape({4, 5}), shape({4, 5})});
    CHECK_FALSE(cmp.same_layout_as_output[0]);  // f32 in, bool out
}

TEST_CASE("coalesce merges only where every operand agrees", "[plan]") {
    plan::AlignedStrides st;
    st.num_operands = 2;
    const Shape out = shape({2, 3, 4});
    st.axis[0] = {12, 12};
    st.axis[1] = {4, 0};
    st.axis[2] = {1, 0};
    const auto rows = plan::coalesce(out, st);  // inner (3,4) is one run for both
    REQUIRE(rows.num_loops == 2);
    CHECK(rows.loops[0].extent == 2);
    CHECK(rows.loops[1].extent == 12);
    CHECK(rows.loops[1].stride[1] == 0);

    st.axis[0] = {12, 0};
    st.axis[1] = {4, 1};
    st.axis[2] = {1, 0};
    CHECK(plan::coalesce(out, st).num_loops == 3);  // nothing merges

    st.axis[1] = {4, 0};
    const auto all = plan::coalesce(out, st);  // operand 1 is a scalar
    REQUIRE(all.num_loops == 1);
    CHECK(all.loops[0].extent == 24);
}

// The streaming decision is the op's: what all operands touch together
// against the threshold, however little one kernel call moves.
TEST_CASE("non-temporal stores are decided once per op from the bytes it touches",
          "[plan]") {
    struct ThresholdGuard {
        ~ThresholdGuard() { kernels::set_stream_threshold_bytes_for_testing(0); }
    } restore;
    kernels::set_stream_threshold_bytes_for_testing(1000);
    // Output 250 f32 = 1000 bytes on its own: streams.
    CHECK(make_plan(BCAST_OP_ADD, {shape({250}), shape({})}).stream);
    // 400 + 4 + 400 bytes: does not.
    CHECK_FALSE(make_plan(BCAST_OP_ADD, {shape({100}), shape({1})}).stream);
    // A two-sided broadcast whose calls each move 16 elements: (4,1,16) +
    // (1,4,1) touches 256 + 16 + 1024 bytes, and streams as one op.
    CHECK(make_plan(BCAST_OP_ADD, {shape({4, 1, 16}), shape({1, 4, 1})}).stream);
    // Broadcast inputs count once, not per use: (1,16) + (16,1) touch 64 +
    // 64 + 1024 bytes.
    CHECK(make_plan(BCAST_OP_ADD, {shape({1, 16}), shape({16, 1})}).stream);
    kernels::set_stream_threshold_bytes_for_testing(1200);
    CHECK_FALSE(make_plan(BCAST_OP_ADD, {shape({1, 16}), shape({16, 1})}).stream);
    kernels::set_stream_threshold_bytes_for_testing(0);
    // The default (5/4 of the L2, at least hundreds of KiB) keeps a
    // cache-sized op out of it and puts a 64 MiB one in.
    CHECK_FALSE(make_plan(BCAST_OP_ADD, {shape({1, 512, 7, 7}), shape({1, 512, 1, 1})}).stream);
    CHECK(make_plan(BCAST_OP_ADD, {shape({64, 1, 4096}), shape({1, 64, 1})}).stream);
}

// The output's share picks the pair of thresholds: 2/5 or more of the bytes
// touched (one running input) reads the one_input values, on one thread
// (stream) and split into tasks (stream_split).
TEST_CASE("an op whose output is 2/5 of what it touches streams from the one_input thresholds", "[plan]") {
    struct Restore {
        ~Restore() { tuning::restore_lookup(); }
    } restore;
    const std::string d = tuning::describe_json();
    const std::size_t at = d.find("\"key\":{");
    REQUIRE(at != std::string::npos);
    const std::string key = d.substr(at, d.find('}', at) + 1 - at);
    const auto load = [&](const char* one_thread, const char* split, const char* one_input_1t,
                          const char* one_input_nt) {
        return tuning::load_text(std::string("{\"format\":1,\"kernel_gen\":1,") + key + ",\"choices\":{" +
                                 "\"nt_min_bytes.1t\":" + one_thread + ",\"nt_min_bytes.nt\":" + split +
                                 ",\"nt_min_bytes.1t.one_input\":" + one_input_1t +
                                 ",\"nt_min_bytes.nt.one_input\":" + one_input_nt + "}}");
    };
    const char* never = "1099511627776";
    // Output 1/3 (two running inputs), exactly 2/5 ((2,512) + (512): 4 KiB of
    // 10 KiB) and 1/2.
    const auto plan_of = [](int i) {
        return i == 0   ? make_plan(BCAST_OP_ADD, {shape({65536}), shape({65536})})
               : i == 1 ? make_plan(BCAST_OP_ADD, {shape({2, 512}), shape({512})})
                        : make_plan(BCAST_OP_ADD, {shape({65536}), shape({1})});
    };
    REQUIRE(load("4096", never, never, "4096") == "");
    for (int i = 0; i < 3; ++i) {
        INFO(i);
        const plan::FusedPlan p = plan_of(i);
        CHECK(p.stream == (i == 0));
        CHECK(p.stream_split == (i != 0));
    }
    REQUIRE(load(never, "4096", "4096", never) == "");
    for (int i = 0; i < 3; ++i) {
        INFO(i);
        const plan::FusedPlan p = plan_of(i);
        CHECK(p.stream == (i != 0));
        CHECK(p.stream_split == (i == 0));
    }
}

// Split into tasks, an op streams only from a larger size (the cores' cached
// stores meet in the shared cache), never from a smaller one.
TEST_CASE("an op run as tasks streams from the split threshold", "[plan]") {
    struct ThresholdGuard {
        ~ThresholdGuard() { kernels::set_stream_threshold_bytes_for_testing(0); }
    } restore;
    const std::size_t one = kernels::stream_threshold_bytes(false);
    const std::size_t split = kernels::split_stream_threshold_bytes(false);
    CHECK(split >= one);
    CHECK(split <= (std::size_t{32} << 20));  // the cap against misreported caches
    // (n) + (n) f32 touches 12n bytes: just below and at each threshold.
    for (const std::size_t bytes : {one, split}) {
        const auto n = static_cast<int64_t>(bytes / 12 + 1);
        const auto at = make_plan(BCAST_OP_ADD, {shape({n}), shape({n})});
        CHECK(at.stream);
        CHECK(at.stream_split == (12 * static_cast<std::size_t>(n) >= split));
        const auto below = make_plan(BCAST_OP_ADD, {shape({n - 2}), shape({n - 2})});
        CHECK(below.stream == (12 * static_cast<std::size_t>(n - 2) >= one));
        CHECK_FALSE(below.stream_split);
    }
    // The testing override sets both.
    kernels::set_stream_threshold_bytes_for_testing(1000);
    const auto p = make_plan(BCAST_OP_ADD, {shape({250}), shape({})});
    CHECK(p.stream);
    CHECK(p.stream_split);
}
