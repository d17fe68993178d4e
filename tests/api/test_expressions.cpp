// Fused expressions through the public C API only: results against the same
// ops run one by one with bcast_op_* (the contract: bit for bit), plans,
// tasks, pools, describe, and the refusals with their statuses and messages.
#include <catch2/catch.hpp>

#include <bcast/bcast.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;

int64_t numel(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

// One op over (a, b) of these shapes, contiguous, into a new vector.
std::vector<float> run_op(bcast_opcode opcode, const std::vector<float>& a, const Shape& as,
                          const std::vector<float>& b, const Shape& bs, Shape& out_shape) {
    bcast_op* op = nullptr;
    REQUIRE(bcast_op_create(opcode, BCAST_DTYPE_F32, &op) == BCAST_OK);
    const size_t ranks[2] = {as.size(), bs.size()};
    const int64_t* dims[2] = {as.data(), bs.data()};
    REQUIRE(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    int64_t od[BCAST_MAX_RANK];
    size_t rank = 0;
    REQUIRE(bcast_op_output_shape(op, BCAST_MAX_RANK, &rank, od) == BCAST_OK);
    out_shape.assign(od, od + rank);
    std::vector<float> out(static_cast<std::size_t>(numel(out_shape)));
    const void* in[2] = {a.data(), b.data()};
    REQUIRE(bcast_op_execute(op, in, out.data()) == BCAST_OK);
    bcast_op_destroy(op);
    return out;
}

std::vector<float> random_floats(std::size_t n, std::mt19937& rng) {
    std::uniform_real_distribution<float> d(-3.f, 3.f);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

// (x - mean) * rstd * gamma + beta, inputs x, mean, rstd, gamma, beta.
bcast_expr* normalisation_tail() {
    bcast_expr* e = nullptr;
    REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 5, &e) == BCAST_OK);
    size_t v = 0;
    size_t ops[2] = {0, 1};
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_SUB, BCAST_RULE_NUMPY, -1, 2, ops, &v) == BCAST_OK);
    CHECK(v == 5);
    ops[0] = v, ops[1] = 2;
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_MUL, BCAST_RULE_NUMPY, -1, 2, ops, &v) == BCAST_OK);
    ops[0] = v, ops[1] = 3;
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_MUL, BCAST_RULE_NUMPY, -1, 2, ops, &v) == BCAST_OK);
    ops[0] = v, ops[1] = 4;
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, ops, &v) == BCAST_OK);
    CHECK(v == 8);
    return e;
}

struct Case {
    Shape x, param;
};

}  // namespace

TEST_CASE("a fused normalisation tail writes what its four ops write", "[expr]") {
    std::mt19937 rng(11);
    for (const Case& c : {Case{{2, 16, 9, 13}, {1, 16, 1, 1}}, Case{{2, 9, 13, 16}, {16}},
                          Case{{3, 1000}, {1000}}, Case{{5, 7}, {5, 1}}}) {
        INFO("x " << c.x.size() << "-d, " << numel(c.x) << " elements");
        const std::vector<float> x = random_floats(static_cast<std::size_t>(numel(c.x)), rng);
        std::vector<std::vector<float>> p;
        for (int k = 0; k < 4; ++k) p.push_back(random_floats(static_cast<std::size_t>(numel(c.param)), rng));
        Shape s;
        std::vector<float> want = run_op(BCAST_OP_SUB, x, c.x, p[0], c.param, s);
        want = run_op(BCAST_OP_MUL, want, s, p[1], c.param, s);
        want = run_op(BCAST_OP_MUL, want, s, p[2], c.param, s);
        want = run_op(BCAST_OP_ADD, want, s, p[3], c.param, s);

        bcast_expr* e = normalisation_tail();
        const size_t ranks[5] = {c.x.size(), c.param.size(), c.param.size(), c.param.size(), c.param.size()};
        const int64_t* dims[5] = {c.x.data(), c.param.data(), c.param.data(), c.param.data(), c.param.data()};
        REQUIRE(bcast_expr_plan(e, 5, ranks, dims, nullptr, nullptr) == BCAST_OK);
        int64_t od[BCAST_MAX_RANK];
        size_t rank = 0;
        REQUIRE(bcast_expr_output_shape(e, BCAST_MAX_RANK, &rank, od) == BCAST_OK);
        CHECK(Shape(od, od + rank) == s);
        const void* in[5] = {x.data(), p[0].data(), p[1].data(), p[2].data(), p[3].data()};
        std::vector<float> got(want.size(), -1.f);
        REQUIRE(bcast_expr_execute(e, in, got.data()) == BCAST_OK);
        CHECK(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0);

        // Tasks in reverse order, and a pool of 3.
        std::vector<float> tasks(want.size(), -1.f);
        for (size_t t = 5; t-- > 0;) REQUIRE(bcast_expr_execute_task(e, in, tasks.data(), t, 5) == BCAST_OK);
        CHECK(std::memcmp(tasks.data(), want.data(), want.size() * sizeof(float)) == 0);
        bcast_pool* pool = nullptr;
        REQUIRE(bcast_pool_create(3, &pool) == BCAST_OK);
        std::vector<float> pooled(want.size(), -1.f);
        REQUIRE(bcast_expr_execute_pool(e, in, pooled.data(), pool) == BCAST_OK);
        CHECK(std::memcmp(pooled.data(), want.data(), want.size() * sizeof(float)) == 0);
        bcast_pool_destroy(pool);

        // In place on x.
        std::vector<float> x_out = x;
        in[0] = x_out.data();
        REQUIRE(bcast_expr_execute(e, in, x_out.data()) == BCAST_OK);
        CHECK(std::memcmp(x_out.data(), want.data(), want.size() * sizeof(float)) == 0);
        bcast_expr_destroy(e);
    }
}

TEST_CASE("a comparison feeding SELECT, fused, is where(x < t, x, fill)", "[expr]") {
    bcast_expr* e = nullptr;
    REQUIRE(bcast_expr_create(BCAST_DTYPE_I16, 3, &e) == BCAST_OK);  // x, t, fill
    size_t less = 0, out = 0;
    const size_t cmp[2] = {0, 1};
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_LESS, BCAST_RULE_NUMPY, -1, 2, cmp, &less) == BCAST_OK);
    const size_t sel[3] = {less, 0, 2};
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_SELECT, BCAST_RULE_NUMPY, -1, 3, sel, &out) == BCAST_OK);
    const Shape xs{4, 5}, ts{4, 1}, fs{};
    const size_t ranks[3] = {2, 2, 0};
    const int64_t* dims[3] = {xs.data(), ts.data(), fs.data()};
    REQUIRE(bcast_expr_plan(e, 3, ranks, dims, nullptr, nullptr) == BCAST_OK);
    std::vector<int16_t> x(20), t{0, 5, -3, 100}, y(20, 77);
    for (int i = 0; i < 20; ++i) x[static_cast<std::size_t>(i)] = static_cast<int16_t>(i * 7 % 23 - 9);
    const int16_t fill = -1000;
    const void* in[3] = {x.data(), t.data(), &fill};
    REQUIRE(bcast_expr_execute(e, in, y.data()) == BCAST_OK);
    for (std::size_t r = 0; r < 4; ++r) {
        for (std::size_t c = 0; c < 5; ++c) {
            const int16_t xv = x[r * 5 + c];
            CHECK(y[r * 5 + c] == (xv < t[r] ? xv : fill));
        }
    }
    bcast_expr_destroy(e);
}

TEST_CASE("describe names the inputs read as a repeated row and their period", "[expr]") {
    // ((2,3) + (3)) * (2,3): input1 repeats along the one coalesced loop,
    // whose stride for it reads 0 as a scalar's would; (2,300) + (300) keeps
    // two loops. (A single node runs such rows through its 2-D kernel, as a
    // single op does: no pattern, blocks of lines.)
    for (const int64_t n : {int64_t{3}, int64_t{300}}) {
        bcast_expr* e = nullptr;
        REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 2, &e) == BCAST_OK);
        const size_t ops[2] = {0, 1};
        size_t sum = 0;
        REQUIRE(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, ops, &sum) == BCAST_OK);
        const size_t times_x[2] = {sum, 0};
        REQUIRE(bcast_expr_add_node(e, BCAST_OP_MUL, BCAST_RULE_NUMPY, -1, 2, times_x, nullptr) == BCAST_OK);
        const int64_t a[2] = {2, n}, b[1] = {n};
        const size_t ranks[2] = {2, 1};
        const int64_t* dims[2] = {a, b};
        REQUIRE(bcast_expr_plan(e, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
        char buf[2048];
        REQUIRE(bcast_expr_describe(e, buf, sizeof buf) > 0);
        const std::string json(buf);
        const bool one_loop = json.find("\"loops\":[{\"extent\":" + std::to_string(2 * n) + ",\"strides\":[1,0,1]}]") !=
                              std::string::npos;
        CHECK(one_loop == (n == 3));
        CHECK((json.find("\"patterns\":[{\"operand\":\"input1\",\"period\":3}]") != std::string::npos) == (n == 3));
        CHECK((json.find("\"patterns\"") != std::string::npos) == one_loop);
        bcast_expr_destroy(e);
        REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 2, &e) == BCAST_OK);
        REQUIRE(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, ops, nullptr) == BCAST_OK);
        REQUIRE(bcast_expr_plan(e, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
        REQUIRE(bcast_expr_describe(e, buf, sizeof buf) > 0);
        const std::string single(buf);
        // (The scalar kernel set has no 2-D kernels: its single node reads
        // patterns as a chain does.)
        if (std::string(bcast_isa()) == "scalar") {
            CHECK((single.find("\"patterns\"") != std::string::npos) == (n == 3));
            bcast_expr_destroy(e);
            continue;
        }
        CHECK(single.find("\"patterns\"") == std::string::npos);
        CHECK(single.find("\"loops\":[{\"extent\":2,\"strides\":[" + std::to_string(n) + ",0," + std::to_string(n) +
                          "]},{\"extent\":" + std::to_string(n) + ",\"strides\":[1,1,1]}]") != std::string::npos);
        CHECK(single.find("\"lines_per_block\":2") != std::string::npos);
        bcast_expr_destroy(e);
    }
}

TEST_CASE("expressions refuse bad calls with a status and a message naming the node", "[expr]") {
    const auto last_error = [] { return std::string(bcast_last_error()); };
    bcast_expr* e = nullptr;
    CHECK(bcast_expr_create(BCAST_DTYPE_F32, 0, &e) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_expr_create(BCAST_DTYPE_F32, 2, nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
    REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 2, &e) == BCAST_OK);
    size_t ops[2] = {0, 2};  // value 2 does not exist yet
    CHECK(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, ops, nullptr) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(last_error().find("node 0 (ADD)") != std::string::npos);
    CHECK(bcast_expr_add_node(nullptr, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, ops, nullptr) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(last_error() == "expr is NULL");
    const void* in[2] = {nullptr, nullptr};
    float y = 0;
    CHECK(bcast_expr_execute(e, in, &y) == BCAST_ERROR_INVALID_STATE);  // no nodes, no plan
    CHECK(bcast_expr_set_output(e, 2) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(last_error() == "output: value 2 is not a node (there are no nodes yet)");
    ops[1] = 1;
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, ops, nullptr) == BCAST_OK);
    size_t mul = 0;
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_MUL, BCAST_RULE_UNIDIRECTIONAL, -1, 2, ops, &mul) == BCAST_OK);
    // (3) + (4) is refused by node 0, as ADD run alone would refuse it.
    const Shape a{3}, b{4}, c{2, 3}, d{3};
    size_t ranks[2] = {1, 1};
    const int64_t* dims[2] = {a.data(), b.data()};
    CHECK(bcast_expr_plan(e, 2, ranks, dims, nullptr, nullptr) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    CHECK(last_error().find("node 0 (ADD)") != std::string::npos);
    // (3) and (2,3): ADD broadcasts, but MUL under UNIDIRECTIONAL cannot put
    // (2,3) into (3).
    ranks[1] = 2;
    dims[1] = c.data();
    CHECK(bcast_expr_plan(e, 2, ranks, dims, nullptr, nullptr) == BCAST_ERROR_INCOMPATIBLE_SHAPES);
    CHECK(last_error().find("node 1 (MUL)") != std::string::npos);
    CHECK(bcast_expr_plan(e, 1, ranks, dims, nullptr, nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
    ranks[1] = 1;
    dims[1] = d.data();
    REQUIRE(bcast_expr_plan(e, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    const float xa[3] = {1, 2, 3}, xb[3] = {4, 5, 6};
    float out[3] = {0, 0, 0};
    const void* good[2] = {xa, xb};
    CHECK(bcast_expr_execute_task(e, good, out, 2, 2) == BCAST_ERROR_INVALID_ARGUMENT);
    size_t count = 0;
    CHECK(bcast_expr_task_count(e, 0, &count) == BCAST_ERROR_INVALID_ARGUMENT);
    REQUIRE(bcast_expr_task_count(e, 8, &count) == BCAST_OK);
    CHECK(count == 1);  // three elements do not split
    REQUIRE(bcast_expr_execute(e, good, out) == BCAST_OK);
    CHECK(out[0] == 1.f * 4.f);  // the output is the last node, MUL(a, b)
    CHECK(out[2] == 3.f * 6.f);
    // Changing the expression discards the plan.
    REQUIRE(bcast_expr_set_output(e, mul - 1) == BCAST_OK);
    CHECK(bcast_expr_execute(e, good, out) == BCAST_ERROR_INVALID_STATE);
    CHECK(bcast_expr_set_output(e, 0) == BCAST_ERROR_INVALID_ARGUMENT);  // an input
    CHECK(last_error() == "output: value 0 is not a node (nodes are values 2 to 3)");
    CHECK(bcast_expr_set_input_dtype(e, 0, BCAST_DTYPE_F64) == BCAST_ERROR_INVALID_STATE);
    // describe: nodes always, the plan once planned.
    char buf[2048];
    const size_t len = bcast_expr_describe(e, buf, sizeof buf);
    CHECK(len > 0);
    CHECK(std::string(buf).find("\"op\":\"MUL\",\"rule\":\"unidirectional\"") != std::string::npos);
    CHECK(std::string(buf).find("\"planned\":false") != std::string::npos);
    REQUIRE(bcast_expr_plan(e, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    bcast_expr_describe(e, buf, sizeof buf);
    CHECK(std::string(buf).find("\"kernel\":\"fused\"") != std::string::npos);
    CHECK(bcast_expr_describe(nullptr, buf, sizeof buf) == 0);
    bcast_expr_destroy(e);
    bcast_expr_destroy(nullptr);
}

TEST_CASE("an input the output does not depend on is not read, and may be NULL", "[expr]") {
    // Inputs x, y, z; nodes x + x, then y * z; the output is node 0, so
    // neither y nor z is read.
    bcast_expr* e = nullptr;
    REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 3, &e) == BCAST_OK);
    const size_t twice[2] = {0, 0}, other[2] = {1, 2};
    size_t sum = 0;
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, twice, &sum) == BCAST_OK);
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_MUL, BCAST_RULE_NUMPY, -1, 2, other, nullptr) == BCAST_OK);
    REQUIRE(bcast_expr_set_output(e, sum) == BCAST_OK);
    const Shape s{4};
    const size_t ranks[3] = {1, 1, 1};
    const int64_t* dims[3] = {s.data(), s.data(), s.data()};
    REQUIRE(bcast_expr_plan(e, 3, ranks, dims, nullptr, nullptr) == BCAST_OK);
    const float x[4] = {1, 2, 3, 4};
    float out[4] = {0, 0, 0, 0};
    const void* in[3] = {x, nullptr, nullptr};
    REQUIRE(bcast_expr_execute(e, in, out) == BCAST_OK);
    CHECK(std::vector<float>(out, out + 4) == std::vector<float>{2, 4, 6, 8});
    bcast_expr_destroy(e);
}

// A quantized n-ary node (the strided kernel) writes its f32 result into the
// block's slot, which is contiguous whatever the output's stride: the
// quantize step alone walks the output. With scales 1 the QDQ graph is
// integer arithmetic, (a - 3) + (b - 5) + (c - 7) + 9, saturated to u8.
TEST_CASE("quantized n-ary ops and nodes into outputs of any inner stride", "[expr][quantized]") {
    const int64_t n = 1024;
    std::vector<uint8_t> a(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] = static_cast<uint8_t>(i * 7 % 251);
    const uint8_t b = 40, c = 60;
    const auto want = [&](int64_t i) {
        const int v = (a[static_cast<std::size_t>(i)] - 3) + (b - 5) + (c - 7) + 9;
        return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
    };
    const int64_t da[1] = {n}, d1[1] = {1};
    const int64_t* dims[3] = {da, d1, d1};
    const size_t ranks[3] = {1, 1, 1};
    const void* in[3] = {a.data(), &b, &c};
    const int32_t zero_points[3] = {3, 5, 7};
    for (const int64_t stride : {int64_t{1}, int64_t{-1}, int64_t{2}, int64_t{3}, int64_t{64}}) {
        INFO("output stride " << stride);
        const int64_t out_strides[1] = {stride};
        const std::size_t span = static_cast<std::size_t>((n - 1) * (stride < 0 ? -stride : stride) + 1);
        std::vector<uint8_t> buf(span + 64, 0xEE);
        uint8_t* y = buf.data() + 32 + (stride < 0 ? span - 1 : 0);
        const auto check_output = [&] {
            for (int64_t i = 0; i < n; ++i) {
                INFO("element " << i);
                REQUIRE(y[i * stride] == want(i));
            }
            for (std::size_t k = 0; k < 32; ++k) REQUIRE((buf[k] == 0xEE && buf[buf.size() - 1 - k] == 0xEE));
        };
        {  // the op
            bcast_op* op = nullptr;
            REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_U8, &op) == BCAST_OK);
            for (size_t k = 0; k < 3; ++k) REQUIRE(bcast_op_set_quantization(op, k, 1.0f, zero_points[k]) == BCAST_OK);
            REQUIRE(bcast_op_set_quantization(op, BCAST_OUTPUT, 1.0f, 9) == BCAST_OK);
            REQUIRE(bcast_op_plan(op, 3, ranks, dims, nullptr, out_strides) == BCAST_OK);
            REQUIRE(bcast_op_execute(op, in, y) == BCAST_OK);
            bcast_op_destroy(op);
            check_output();
        }
        std::fill(buf.begin(), buf.end(), uint8_t{0xEE});
        {  // the one-node expression
            bcast_expr* e = nullptr;
            REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 3, &e) == BCAST_OK);
            for (size_t k = 0; k < 3; ++k) {
                REQUIRE(bcast_expr_set_quantization(e, k, BCAST_DTYPE_U8, 1.0f, zero_points[k]) == BCAST_OK);
            }
            const size_t operands[3] = {0, 1, 2};
            REQUIRE(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 3, operands, nullptr) == BCAST_OK);
            REQUIRE(bcast_expr_set_quantization(e, BCAST_OUTPUT, BCAST_DTYPE_U8, 1.0f, 9) == BCAST_OK);
            REQUIRE(bcast_expr_plan(e, 3, ranks, dims, nullptr, out_strides) == BCAST_OK);
            REQUIRE(bcast_expr_execute(e, in, y) == BCAST_OK);
            bcast_expr_destroy(e);
            check_output();
        }
    }
}

// A quantized op is planned as a one-node expression; its refusals must read
// as the same op's unquantized ones, naming no node the caller never made.
TEST_CASE("quantized ops refuse overflowing shapes and strides as the op itself does", "[expr][quantized]") {
    const int64_t huge = INT64_MAX;
    const Shape big{huge, 2}, row{2}, small{3};
    const int64_t wild[1] = {INT64_MAX};  // 2 steps of it overflow
    struct Case {
        const Shape* a;
        const Shape* b;
        const int64_t* a_strides;
    } cases[] = {{&big, &row, nullptr}, {&small, &small, wild}};
    for (const Case& c : cases) {
        std::string messages[2];
        bcast_status statuses[2];
        for (int quantized = 0; quantized < 2; ++quantized) {
            bcast_op* op = nullptr;
            REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_U8, &op) == BCAST_OK);
            if (quantized) {
                for (size_t k : {size_t{0}, size_t{1}, size_t{BCAST_OUTPUT}})
                    REQUIRE(bcast_op_set_quantization(op, k, 0.5f, 3) == BCAST_OK);
            }
            const size_t ranks[2] = {c.a->size(), c.b->size()};
            const int64_t* dims[2] = {c.a->data(), c.b->data()};
            const int64_t* strides[2] = {c.a_strides, nullptr};
            statuses[quantized] = bcast_op_plan(op, 2, ranks, dims, c.a_strides ? strides : nullptr, nullptr);
            messages[quantized] = bcast_last_error();
            bcast_op_destroy(op);
        }
        CHECK(statuses[0] == BCAST_ERROR_SIZE_OVERFLOW);
        CHECK(statuses[1] == statuses[0]);
        CHECK(messages[1] == messages[0]);
        CHECK(messages[1].find("node") == std::string::npos);
    }
}

TEST_CASE("quantized handles: the later input setter decides; a refused plan_to leaves no plan",
          "[expr][quantized]") {
    bcast_expr* e = nullptr;
    REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 2, &e) == BCAST_OK);
    REQUIRE(bcast_expr_set_quantization(e, 0, BCAST_DTYPE_I8, 0.5f, 10) == BCAST_OK);
    REQUIRE(bcast_expr_set_input_dtype(e, 0, BCAST_DTYPE_I8) == BCAST_OK);
    CHECK(bcast_expr_get_quantization(e, 0, nullptr, nullptr, nullptr) == BCAST_ERROR_INVALID_STATE);
    REQUIRE(bcast_expr_set_quantization(e, 0, BCAST_DTYPE_I8, 0.5f, 10) == BCAST_OK);
    float scale = 0;
    CHECK(bcast_expr_get_quantization(e, 0, nullptr, &scale, nullptr) == BCAST_OK);
    CHECK(scale == 0.5f);
    bcast_expr_destroy(e);

    // plan_to refuses a quantized op; like every refusal, the earlier plan goes.
    bcast_op* op = nullptr;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_U8, &op) == BCAST_OK);
    for (size_t k : {size_t{0}, size_t{1}, BCAST_OUTPUT}) {
        REQUIRE(bcast_op_set_quantization(op, k, 0.5f, 3) == BCAST_OK);
    }
    const int64_t d[1] = {4};
    const int64_t* dims[2] = {d, d};
    const size_t ranks[2] = {1, 1};
    REQUIRE(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    CHECK(bcast_op_plan_to(op, 2, ranks, dims, nullptr, 1, d, nullptr, 0, nullptr) == BCAST_ERROR_UNSUPPORTED);
    const uint8_t a[4] = {1, 2, 3, 4};
    uint8_t y[4] = {0xEE, 0xEE, 0xEE, 0xEE};
    const void* in[2] = {a, a};
    CHECK(bcast_op_execute(op, in, y) == BCAST_ERROR_INVALID_STATE);
    CHECK(y[0] == 0xEE);
    bcast_op_destroy(op);
}
