// bcast_tuning_load_string and bcast_tuning_describe: a text for this host is
// put in force and said so; any other is refused with the reason and
// changes nothing; no tuning changes a result.
#include <catch2/catch.hpp>

#include <bcast/bcast.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

std::string tuning_describe() {
    const size_t n = bcast_tuning_describe(nullptr, 0);
    std::string s(n + 1, '\0');
    REQUIRE(bcast_tuning_describe(&s[0], s.size()) == n);
    s.resize(n);
    return s;
}

// The "key":{...} member of the description: this host's key.
std::string host_key_member() {
    const std::string d = tuning_describe();
    const std::size_t at = d.find("\"key\":{");
    REQUIRE(at != std::string::npos);
    return d.substr(at, d.find('}', at) + 1 - at);
}

std::string text_for(const std::string& key_member, const std::string& choices) {
    return "{\"format\":1,\"kernel_gen\":1," + key_member + ",\"choices\":{" + choices + "}}";
}

bcast_status load(const std::string& text) { return bcast_tuning_load_string(text.data(), text.size()); }

// Restores the looked-up tuning whatever a test does.
struct Restore {
    ~Restore() { bcast_tuning_load_string(nullptr, 0); }
};

// out = a + b over (rows, n) + (n) f32, planned and executed under the
// tuning in force; the op's description into `described`.
std::vector<float> add_rows(std::size_t rows, std::size_t n, std::string& described) {
    std::vector<float> a(rows * n), b(n), out(rows * n, -1.0f);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 1000) * 0.5f;
    for (std::size_t j = 0; j < n; ++j) b[j] = static_cast<float>(j) * 0.25f - 3.0f;
    bcast_op* op = nullptr;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op) == BCAST_OK);
    const int64_t da[2] = {static_cast<int64_t>(rows), static_cast<int64_t>(n)};
    const int64_t db[1] = {static_cast<int64_t>(n)};
    const size_t ranks[2] = {2, 1};
    const int64_t* dims[2] = {da, db};
    REQUIRE(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    const void* inputs[2] = {a.data(), b.data()};
    REQUIRE(bcast_op_execute(op, inputs, out.data()) == BCAST_OK);
    described.assign(bcast_op_describe(op, nullptr, 0) + 1, '\0');
    bcast_op_describe(op, &described[0], described.size());
    bcast_op_destroy(op);
    // Checked here against the plain sum: exact in f32.
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t j = 0; j < n; ++j) {
            if (out[r * n + j] != a[r * n + j] + b[j]) {
                FAIL("element (" << r << "," << j << "): " << out[r * n + j]);
            }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("tuning: the description names a source and this host's key", "[tuning]") {
    const std::string d = tuning_describe();
    CHECK(d.rfind("{\"format\":1,\"kernel_gen\":1,", 0) == 0);
    CHECK(d.find("\"isa\":\"" + std::string(bcast_isa()) + "\"") != std::string::npos);
    CHECK(d.find("\"source\":\"") != std::string::npos);
    CHECK(d.find("\"defaults\":{\"prefetch.rows.hint\":") != std::string::npos);
    // snprintf semantics: a short buffer gets a prefix and its NUL.
    char small[8];
    CHECK(bcast_tuning_describe(small, sizeof small) == d.size());
    CHECK(std::string(small) == d.substr(0, 7));
}

TEST_CASE("tuning: texts that are not for this host change nothing", "[tuning]") {
    Restore restore;
    const std::string before = tuning_describe();
    CHECK(bcast_tuning_load_string("{\"format\":1", 11) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()).rfind("tuning text ignored: not a tuning text: ", 0) == 0);
    CHECK(load("{\"format\":2,\"kernel_gen\":1}") == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()) == "tuning text ignored: format 2, this library reads 1");
    const std::string other_cpu = text_for(
        R"("key":{"vendor":"NoSuchVendor","family":99,"model":1,"isa":")" + std::string(bcast_isa()) + "\"}",
        "");
    CHECK(load(other_cpu) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()).find("for NoSuchVendor family 99 model 1") != std::string::npos);
    CHECK(load(text_for(host_key_member(), "\"task_min_bytes\":1")) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()).find("task_min_bytes is not an integer in") != std::string::npos);
    // A choice or the choices of another JSON type are refused, not skipped.
    for (const char* choice : {"\"chain_block\":[64]", "\"chain_block\":{\"x\":1}", "\"chain_block\":\"64\""}) {
        CHECK(load(text_for(host_key_member(), choice)) == BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(std::string(bcast_last_error()).find("chain_block is not an integer in") != std::string::npos);
    }
    for (const char* choices : {"5", "[]", "\"x\""}) {
        CHECK(load("{\"format\":1,\"kernel_gen\":1," + host_key_member() + ",\"choices\":" + choices + "}") ==
              BCAST_ERROR_INVALID_ARGUMENT);
        CHECK(std::string(bcast_last_error()).find("\"choices\" is not an object") != std::string::npos);
    }
    CHECK(tuning_describe() == before);
}

TEST_CASE("tuning: a text for this host is in force and named, and results never change", "[tuning]") {
    Restore restore;
    std::string described;
    const std::vector<float> untuned = add_rows(64, 4096, described);
    const std::string key = host_key_member();
    // Streaming from the smallest size on, every hint and two distances:
    // (64,4096)+(4096) streams its repeated rows with prefetches.
    for (const char* hint : {"none", "nta", "t2", "t1", "t0"}) {
        for (const char* distance : {"64", "65536"}) {
            INFO(hint << " " << distance);
            const std::string choices = std::string("\"prefetch.rows.hint\":\"") + hint +
                                        "\",\"prefetch.rows.distance\":" + distance +
                                        ",\"nt_min_bytes.1t\":4096,\"nt_min_bytes.nt\":4096";
            REQUIRE(load(text_for(key, choices)) == BCAST_OK);
            const std::string d = tuning_describe();
            CHECK(d.find("\"source\":\"string\"") != std::string::npos);
            CHECK(d.find(std::string("\"prefetch.rows.hint\":\"") + hint + "\"") != std::string::npos);
            CHECK(add_rows(64, 4096, described) == untuned);
            CHECK(described.find("\"tuning\":\"string\"") != std::string::npos);
            CHECK(described.find("\"streaming_stores\":true") != std::string::npos);
        }
    }
    // Never streaming: the same sums.
    REQUIRE(load(text_for(key, "\"nt_min_bytes.1t\":1099511627776")) == BCAST_OK);
    CHECK(add_rows(64, 4096, described) == untuned);
    CHECK(described.find("\"streaming_stores\":false") != std::string::npos);
    // NULL: back to the lookup.
    REQUIRE(bcast_tuning_load_string(nullptr, 0) == BCAST_OK);
    CHECK(tuning_describe().find("\"source\":\"string\"") == std::string::npos);
}

namespace {

// Whether an f32 ADD of these two shapes, planned under the tuning in
// force, streams its stores (its description says).
bool streams(std::vector<int64_t> a, std::vector<int64_t> b) {
    bcast_op* op = nullptr;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op) == BCAST_OK);
    const size_t ranks[2] = {a.size(), b.size()};
    const int64_t* dims[2] = {a.data(), b.data()};
    REQUIRE(bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) == BCAST_OK);
    std::string d(bcast_op_describe(op, nullptr, 0) + 1, '\0');
    bcast_op_describe(op, &d[0], d.size());
    bcast_op_destroy(op);
    REQUIRE(d.find("\"streaming_stores\":") != std::string::npos);
    return d.find("\"streaming_stores\":true") != std::string::npos;
}

}  // namespace

TEST_CASE("tuning: an op whose output is 2/5 or more of what it touches streams from the one_input threshold",
          "[tuning]") {
    Restore restore;
    const std::string key = host_key_member();
    const std::string never = "1099511627776";
    // (65536)+(65536): output 1/3 of 768 KiB; (65536)+(1) and
    // (64,1024)+(1024): 1/2; (4096,1)+(1,64): 1 MiB out of 1 MiB + 16.25 KiB.
    const auto two = [] { return streams({65536}, {65536}); };
    const auto ones = [] {
        return std::vector<bool>{streams({65536}, {1}), streams({64, 1024}, {1024}), streams({4096, 1}, {1, 64})};
    };
    REQUIRE(load(text_for(key, "\"nt_min_bytes.1t\":4096,\"nt_min_bytes.1t.one_input\":" + never)) == BCAST_OK);
    CHECK(tuning_describe().find("\"nt_min_bytes.1t.one_input\":" + never) != std::string::npos);
    CHECK(two());
    CHECK(ones() == std::vector<bool>{false, false, false});
    REQUIRE(load(text_for(key, "\"nt_min_bytes.1t\":" + never + ",\"nt_min_bytes.1t.one_input\":4096")) == BCAST_OK);
    CHECK_FALSE(two());
    CHECK(ones() == std::vector<bool>{true, true, true});
    // A file with only the first value of the pair (from before one_input):
    // both follow it.
    REQUIRE(load(text_for(key, "\"nt_min_bytes.1t\":4096")) == BCAST_OK);
    CHECK(tuning_describe().find("\"nt_min_bytes.1t.one_input\":4096") != std::string::npos);
    CHECK(two());
    CHECK(ones() == std::vector<bool>{true, true, true});
    REQUIRE(load(text_for(key, "\"nt_min_bytes.nt\":8192")) == BCAST_OK);
    CHECK(tuning_describe().find("\"nt_min_bytes.nt.one_input\":8192") != std::string::npos);
    REQUIRE(load(text_for(key, "\"nt_min_bytes.1t.one_input\":4095")) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()).find("nt_min_bytes.1t.one_input is not an integer in") != std::string::npos);
}

namespace {

// ((x - m) * s) + t over x (rows, 64) and m, s, t (64), f32, planned and
// executed under the tuning in force; the description into `described`.
std::vector<float> channels_last_chain(std::size_t rows, std::string& described) {
    const std::size_t c = 64;
    std::vector<float> x(rows * c), m(c), s(c), t(c), out(rows * c, -1.0f);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 997) * 0.25f;
    for (std::size_t j = 0; j < c; ++j) {
        m[j] = static_cast<float>(j) * 0.5f;
        s[j] = 1.0f + static_cast<float>(j % 7) * 0.125f;
        t[j] = static_cast<float>(j % 5) - 2.0f;
    }
    bcast_expr* e = nullptr;
    REQUIRE(bcast_expr_create(BCAST_DTYPE_F32, 4, &e) == BCAST_OK);
    const size_t sub[2] = {0, 1}, mul[2] = {4, 2}, add[2] = {5, 3};
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_SUB, BCAST_RULE_NUMPY, -1, 2, sub, nullptr) == BCAST_OK);
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_MUL, BCAST_RULE_NUMPY, -1, 2, mul, nullptr) == BCAST_OK);
    REQUIRE(bcast_expr_add_node(e, BCAST_OP_ADD, BCAST_RULE_NUMPY, -1, 2, add, nullptr) == BCAST_OK);
    const int64_t dx[2] = {static_cast<int64_t>(rows), static_cast<int64_t>(c)};
    const int64_t dc[1] = {static_cast<int64_t>(c)};
    const size_t ranks[4] = {2, 1, 1, 1};
    const int64_t* dims[4] = {dx, dc, dc, dc};
    REQUIRE(bcast_expr_plan(e, 4, ranks, dims, nullptr, nullptr) == BCAST_OK);
    const void* inputs[4] = {x.data(), m.data(), s.data(), t.data()};
    REQUIRE(bcast_expr_execute(e, inputs, out.data()) == BCAST_OK);
    described.assign(bcast_expr_describe(e, nullptr, 0) + 1, '\0');
    bcast_expr_describe(e, &described[0], described.size());
    bcast_expr_destroy(e);
    // Checked here against the nodes one by one, each rounded to f32.
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::size_t j = i % c;
        const float d = x[i] - m[j];
        const float p = d * s[j];
        REQUIRE(out[i] == p + t[j]);
    }
    return out;
}

}  // namespace

TEST_CASE("tuning: chain_block sets a fused expression's block, and results never change", "[tuning]") {
    Restore restore;
    const std::string key = host_key_member();
    std::string described;
    REQUIRE(load(text_for(key, "\"chain_block\":1024")) == BCAST_OK);
    const std::vector<float> at_1024 = channels_last_chain(300, described);
    CHECK(described.find("\"elements_per_block\":1024") != std::string::npos);
    // Multiples of 64 as given, others rounded down to one; the 32 KiB
    // scratch bounds long blocks (five f32 slots here, three patterns and
    // two steps, of a block and a period each: 1536).
    for (const auto& [given, block] : {std::pair<const char*, const char*>{"256", "256"}, {"100", "64"},
                                       {"1536", "1536"}, {"8192", "1536"}}) {
        INFO("chain_block " << given);
        REQUIRE(load(text_for(key, std::string("\"chain_block\":") + given)) == BCAST_OK);
        CHECK(channels_last_chain(300, described) == at_1024);
        CHECK(described.find(std::string("\"elements_per_block\":") + block) != std::string::npos);
    }
    REQUIRE(load(text_for(key, "\"chain_block\":32")) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()).find("chain_block is not an integer in [64, 8192]") != std::string::npos);
}
