// What the header promises about threads, exercised so that ThreadSanitizer
// (tools/test.sh --tsan) sees every shared access: one planned op executed
// by many threads, per-thread error messages, bcast_set_max_isa racing with
// planning, and independent handles created and destroyed concurrently.
// Results are checked against loops written here, so the tests also fail
// without TSan when a race corrupts data.
#include <bcast/bcast.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 8;

template <class Body>
void run_threads(int count, Body body) {
    std::vector<std::thread> threads;
    for (int t = 0; t < count; ++t) threads.emplace_back(body, t);
    for (auto& thread : threads) thread.join();
}

// (rows, cols) + (cols,) in f32 under numpy broadcasting, planned contiguous;
// nullptr on failure. Worker threads call it: Catch2's assertion macros are
// not thread-safe, so the workers count failures and the main thread checks.
bcast_op* planned_row_add(int64_t rows, int64_t cols) {
    bcast_op* op = nullptr;
    if (bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &op) != BCAST_OK) return nullptr;
    const int64_t a_dims[] = {rows, cols};
    const int64_t b_dims[] = {cols};
    const size_t ranks[] = {2, 1};
    const int64_t* dims[] = {a_dims, b_dims};
    if (bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) != BCAST_OK) {
        bcast_op_destroy(op);
        return nullptr;
    }
    return op;
}

struct RowAddData {
    std::vector<float> a, b;
    RowAddData(int64_t rows, int64_t cols) : a(size_t(rows * cols)), b(size_t(cols)) {
        for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 97) * 0.5f;
        for (size_t j = 0; j < b.size(); ++j) b[j] = float(j) * 0.25f - 3.0f;
    }
    // Small multiples of 1/4: every sum is exact in f32.
    bool matches(const std::vector<float>& out, size_t cols) const {
        for (size_t i = 0; i < a.size(); ++i)
            if (out[i] != a[i] + b[i % cols]) return false;
        return true;
    }
};

} // namespace

TEST_CASE("many threads execute one planned op into their own outputs") {
    const int64_t rows = 67, cols = 129;  // odd sizes: SIMD bodies and tails
    bcast_op* op = planned_row_add(rows, cols);
    REQUIRE(op != nullptr);
    const RowAddData data(rows, cols);
    std::atomic<int> wrong{0};
    run_threads(kThreads, [&](int) {
        std::vector<float> out(data.a.size());
        const void* inputs[] = {data.a.data(), data.b.data()};
        for (int round = 0; round < 50; ++round) {
            std::fill(out.begin(), out.end(), -1.0f);
            size_t rank = 0;
            int64_t shape[8];
            if (bcast_op_execute(op, inputs, out.data()) != BCAST_OK ||
                !data.matches(out, size_t(cols)) ||
                bcast_op_output_shape(op, 8, &rank, shape) != BCAST_OK || rank != 2 ||
                shape[0] != rows || shape[1] != cols)
                ++wrong;
        }
    });
    CHECK(wrong == 0);
    bcast_op_destroy(op);
}

TEST_CASE("each thread reads its own last error") {
    // Thread t asks numpy to broadcast (t+2) against (t+3): a refusal whose
    // message names both extents, different in every thread. Odd threads
    // also succeed in between, which must not clear their message.
    std::atomic<int> wrong{0};
    run_threads(kThreads, [&](int t) {
        const int64_t x = t + 2, y = t + 3;
        const std::string expected = std::to_string(x) + " vs " + std::to_string(y);
        const size_t ranks[] = {1, 1};
        const int64_t* bad[] = {&x, &y};
        const int64_t* good[] = {&x, &x};
        for (int round = 0; round < 200; ++round) {
            size_t out_rank = 0;
            int64_t out_dims[8];
            if (bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, bad, 8, &out_rank, out_dims) !=
                BCAST_ERROR_INCOMPATIBLE_SHAPES)
                ++wrong;
            if (t % 2 == 1 &&
                bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, good, 8, &out_rank, out_dims) !=
                    BCAST_OK)
                ++wrong;
            const std::string message = bcast_last_error();
            if (message.find(expected) == std::string::npos) ++wrong;
        }
    });
    CHECK(wrong == 0);
}

TEST_CASE("threads provoking different error classes keep their own status and message") {
    std::atomic<int> wrong{0};
    run_threads(kThreads, [&](int t) {
        for (int round = 0; round < 100; ++round) {
            bcast_status status = BCAST_OK;
            bcast_status expected = BCAST_OK;
            switch (t % 4) {
            case 0: {  // unknown dtype
                bcast_op* op = nullptr;
                status = bcast_op_create(BCAST_OP_ADD, 1000 + t, &op);
                expected = BCAST_ERROR_INVALID_ARGUMENT;
                break;
            }
            case 1: {  // an (op, dtype) pair not offered
                bcast_op* op = nullptr;
                status = bcast_op_create(BCAST_OP_LOGICAL_AND, BCAST_DTYPE_F32, &op);
                expected = BCAST_ERROR_UNSUPPORTED;
                break;
            }
            case 2: {  // execute before any plan
                bcast_op* op = nullptr;
                if (bcast_op_create(BCAST_OP_MUL, BCAST_DTYPE_I32, &op) != BCAST_OK) {
                    ++wrong;
                    continue;
                }
                int32_t in = 1, out = 0;
                const void* inputs[] = {&in, &in};
                status = bcast_op_execute(op, inputs, &out);
                expected = BCAST_ERROR_INVALID_STATE;
                bcast_op_destroy(op);
                break;
            }
            default: {  // element count overflow
                const int64_t huge[] = {INT64_MAX / 2, 4};
                const size_t ranks[] = {2, 2};
                const int64_t* dims[] = {huge, huge};
                bcast_op* op = nullptr;
                if (bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_U8, &op) != BCAST_OK) {
                    ++wrong;
                    continue;
                }
                status = bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr);
                expected = BCAST_ERROR_SIZE_OVERFLOW;
                bcast_op_destroy(op);
                break;
            }
            }
            if (status != expected) ++wrong;
            // Each class's message mentions what went wrong; a message from
            // another thread's class would be a leak between threads.
            const std::string message = bcast_last_error();
            const char* const needle[] = {"dtype", "LOGICAL_AND", "plan", "overflow"};
            if (message.find(needle[t % 4]) == std::string::npos) ++wrong;
        }
    });
    CHECK(wrong == 0);
}

TEST_CASE("bcast_set_max_isa races with planning and every plan computes correctly") {
    const int64_t rows = 33, cols = 65;
    const RowAddData data(rows, cols);
    const char* const caps[] = {"scalar", "sse2", "avx2", "avx512", "neon"};
    std::atomic<bool> planners_done{false};
    std::atomic<int> wrong{0};
    std::thread capper([&] {
        for (unsigned i = 0; !planners_done; ++i)
            if (bcast_set_max_isa(caps[i % 5]) != BCAST_OK) ++wrong;
    });
    run_threads(kThreads - 1, [&](int) {
        std::vector<float> out(data.a.size());
        const void* inputs[] = {data.a.data(), data.b.data()};
        for (int round = 0; round < 40; ++round) {
            bcast_op* op = planned_row_add(rows, cols);
            if (op == nullptr) {
                ++wrong;
                continue;
            }
            const std::string isa = bcast_isa();
            if (isa.empty()) ++wrong;
            char text[1024];
            if (bcast_op_describe(op, text, sizeof text) == 0) ++wrong;
            if (bcast_op_execute(op, inputs, out.data()) != BCAST_OK ||
                !data.matches(out, size_t(cols)))
                ++wrong;
            bcast_op_destroy(op);
        }
    });
    planners_done = true;
    capper.join();
    CHECK(wrong == 0);
    // Leave the process as the other tests expect it: no cap.
    REQUIRE(bcast_set_max_isa("avx512") == BCAST_OK);
}

TEST_CASE("independent ops are created, planned, queried and destroyed concurrently") {
    std::atomic<int> wrong{0};
    run_threads(kThreads, [&](int t) {
        for (int round = 0; round < 100; ++round) {
            const int64_t a_dims[] = {t + 1, 1, 5};
            const int64_t b_dims[] = {round % 7 + 1, 1};
            const size_t ranks[] = {3, 2};
            const int64_t* dims[] = {a_dims, b_dims};
            size_t out_rank = 0;
            int64_t out_dims[8] = {};
            if (bcast_infer_shape(BCAST_RULE_NUMPY, -1, 2, ranks, dims, 8, &out_rank, out_dims) !=
                    BCAST_OK ||
                out_rank != 3 || out_dims[0] != t + 1 || out_dims[1] != round % 7 + 1 ||
                out_dims[2] != 5)
                ++wrong;

            bcast_op* op = nullptr;
            if (bcast_op_create(BCAST_OP_SUB, BCAST_DTYPE_I32, &op) != BCAST_OK) {
                ++wrong;
                continue;
            }
            int64_t axis = 0;
            if (bcast_op_set_param(op, BCAST_PARAM_RULE, BCAST_RULE_NUMPY) != BCAST_OK ||
                bcast_op_get_param(op, BCAST_PARAM_AXIS, &axis) != BCAST_OK || axis != -1 ||
                bcast_op_plan(op, 2, ranks, dims, nullptr, nullptr) != BCAST_OK)
                ++wrong;
            // x[i,0,k] - y[j,0] over the output (t+1, round%7+1, 5).
            const size_t n0 = size_t(t + 1), n1 = size_t(round % 7 + 1), n2 = 5;
            std::vector<int32_t> x(n0 * n2), y(n1), out(n0 * n1 * n2, -7);
            for (size_t i = 0; i < x.size(); ++i) x[i] = int32_t(i * 3 + size_t(t));
            for (size_t j = 0; j < y.size(); ++j) y[j] = int32_t(j * 11);
            const void* inputs[] = {x.data(), y.data()};
            if (bcast_op_execute(op, inputs, out.data()) != BCAST_OK) ++wrong;
            for (size_t i = 0; i < n0; ++i)
                for (size_t j = 0; j < n1; ++j)
                    for (size_t k = 0; k < n2; ++k)
                        if (out[(i * n1 + j) * n2 + k] != x[i * n2 + k] - y[j]) ++wrong;
            bcast_op_destroy(op);
        }
    });
    CHECK(wrong == 0);
}
