// Parallel execution: the tasks of one execute (bcast_op_execute_task) and
// bcast's own pool (bcast_op_execute_pool) write exactly the bytes
// bcast_op_execute writes, for every kernel kind, in place, strided, with
// negative strides and padded (ncnn cstep) outputs, for any task count; and
// the pool's life cycle. The oracle is the single-threaded execute, itself
// checked against independent references by the api tests. Run under
// ThreadSanitizer by tools/test.sh --tsan.
#include <bcast/bcast.h>

#include "kernel_test_data.hpp"  // mismatch: bytes of a dtype, any NaN matching any NaN

#include <catch2/catch.hpp>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#define BCAST_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BCAST_TEST_TSAN 1
#endif
#endif

namespace {

using Dims = std::vector<int64_t>;
using bcast_test::Bytes;
using bcast_test::mismatch;

struct OpHandle {
    bcast_op* p = nullptr;
    ~OpHandle() { bcast_op_destroy(p); }
};

struct PoolHandle {
    bcast_pool* p = nullptr;
    ~PoolHandle() { bcast_pool_destroy(p); }
};

// A strided array's buffer: `base` is element 0, strides may be negative.
struct Strided {
    Bytes buf;
    std::size_t base = 0;  // bytes
    unsigned char* ptr() { return buf.data() + base; }
};

Strided allocate(const Dims& shape, const Dims& strides, std::size_t es) {
    int64_t lo = 0, hi = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        const int64_t reach = (shape[k] - 1) * strides[k];
        if (reach < 0) lo += reach;
        else hi += reach;
    }
    Strided s;
    s.buf.resize(static_cast<std::size_t>(hi - lo + 1) * es);
    s.base = static_cast<std::size_t>(-lo) * es;
    return s;
}

Dims contiguous(const Dims& shape) {
    Dims st(shape.size());
    int64_t step = 1;
    for (std::size_t k = shape.size(); k-- > 0;) {
        st[k] = step;
        step *= std::max<int64_t>(shape[k], 1);
    }
    return st;
}

// Comparisons and logical ops write BOOL, every other op its input dtype.
bcast_dtype output_dtype(bcast_opcode op, bcast_dtype dt) {
    return op >= BCAST_OP_EQUAL && op <= BCAST_OP_LOGICAL_XOR ? BCAST_DTYPE_BOOL : dt;
}

struct Case {
    std::string name;
    bcast_opcode op;
    bcast_dtype dt;
    std::vector<Dims> in;
    std::vector<Dims> in_strides = {};  // per input; empty: contiguous
    Dims out_strides = {};              // empty: contiguous
    Dims target = {};                   // non-empty: bcast_op_plan_to
    int in_place = -1;                  // input whose buffer is the output
};

// A planned op with random inputs and a sentinel-filled output, which can be
// reset before each run.
struct Setup {
    OpHandle op;
    std::vector<Strided> inputs;
    std::vector<Strided> pristine;
    Strided out;
    Strided out_pristine;
    bool in_place = false;
    int in_place_input = -1;

    explicit Setup(const Case& c, std::mt19937_64& rng) {
        REQUIRE(bcast_op_create(c.op, c.dt, &op.p) == BCAST_OK);
        std::vector<std::size_t> ranks;
        std::vector<const int64_t*> dims, strides;
        std::vector<Dims> st(c.in.size());
        const std::size_t es = bcast_dtype_size(c.dt);
        for (std::size_t k = 0; k < c.in.size(); ++k) {
            ranks.push_back(c.in[k].size());
            dims.push_back(c.in[k].data());
            st[k] = k < c.in_strides.size() && !c.in_strides[k].empty() ? c.in_strides[k]
                                                                       : contiguous(c.in[k]);
            strides.push_back(st[k].data());
            const std::size_t in_es = c.op == BCAST_OP_SELECT && k == 0 ? 1 : es;
            Strided s = allocate(c.in[k], st[k], in_es);
            for (unsigned char& b : s.buf) b = static_cast<unsigned char>(rng());
            inputs.push_back(s);
        }
        const int64_t* os = c.out_strides.empty() ? nullptr : c.out_strides.data();
        if (c.target.empty()) {
            REQUIRE(bcast_op_plan(op.p, c.in.size(), ranks.data(), dims.data(), strides.data(),
                                  os) == BCAST_OK);
        } else {
            REQUIRE(bcast_op_plan_to(op.p, c.in.size(), ranks.data(), dims.data(),
                                     strides.data(), c.target.size(), c.target.data(), nullptr,
                                     0, os) == BCAST_OK);
        }
        std::size_t rank = 0;
        int64_t shape[BCAST_MAX_RANK];
        REQUIRE(bcast_op_output_shape(op.p, BCAST_MAX_RANK, &rank, shape) == BCAST_OK);
        const Dims out_shape(shape, shape + rank);
        const std::size_t out_es = bcast_dtype_size(output_dtype(c.op, c.dt));
        out = allocate(out_shape, c.out_strides.empty() ? contiguous(out_shape) : c.out_strides,
                       out_es);
        std::fill(out.buf.begin(), out.buf.end(), 0xA5);
        pristine = inputs;
        out_pristine = out;
        in_place_input = c.in_place;
    }

    void reset() {
        inputs = pristine;
        out = out_pristine;
    }
    std::vector<const void*> input_ptrs() {
        std::vector<const void*> p;
        for (Strided& s : inputs) p.push_back(s.ptr());
        return p;
    }
    void* output() { return in_place_input >= 0 ? inputs[in_place_input].ptr() : out.ptr(); }
    // Everything the op may have written.
    Bytes written() const {
        return in_place_input >= 0 ? inputs[static_cast<std::size_t>(in_place_input)].buf
                                   : out.buf;
    }
};

Bytes run_execute(Setup& s) {
    s.reset();
    const auto in = s.input_ptrs();
    REQUIRE(bcast_op_execute(s.op.p, in.data(), s.output()) == BCAST_OK);
    return s.written();
}

// The tasks of one execute, one after another in a shuffled order.
Bytes run_tasks_shuffled(Setup& s, std::size_t count, std::mt19937_64& rng) {
    s.reset();
    const auto in = s.input_ptrs();
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    int failures = 0;
    for (std::size_t t : order) {
        if (bcast_op_execute_task(s.op.p, in.data(), s.output(), t, count) != BCAST_OK) {
            ++failures;
        }
    }
    CHECK(failures == 0);
    return s.written();
}

// The tasks of one execute on `threads` threads at once, claiming tasks
// from a shared counter.
Bytes run_tasks_threaded(Setup& s, std::size_t count, int threads) {
    s.reset();
    const auto in = s.input_ptrs();
    void* out = s.output();
    std::atomic<std::size_t> next{0};
    std::atomic<int> failures{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&] {
            for (std::size_t i; (i = next.fetch_add(1)) < count;) {
                if (bcast_op_execute_task(s.op.p, in.data(), out, i, count) != BCAST_OK) {
                    ++failures;
                }
            }
        });
    }
    for (std::thread& t : pool) t.join();
    CHECK(failures == 0);
    return s.written();
}

Bytes run_pool(Setup& s, bcast_pool* pool) {
    s.reset();
    const auto in = s.input_ptrs();
    REQUIRE(bcast_op_execute_pool(s.op.p, in.data(), s.output(), pool) == BCAST_OK);
    return s.written();
}

const bcast_dtype kAllDtypes[] = {
    BCAST_DTYPE_F32, BCAST_DTYPE_F64, BCAST_DTYPE_F16, BCAST_DTYPE_BF16, BCAST_DTYPE_I8,
    BCAST_DTYPE_U8,  BCAST_DTYPE_I16, BCAST_DTYPE_U16, BCAST_DTYPE_I32,  BCAST_DTYPE_U32,
    BCAST_DTYPE_I64, BCAST_DTYPE_U64, BCAST_DTYPE_BOOL};

// Every kernel kind (the plan's inner kind, 1-D and rows), layouts and
// in place, for one binary op and dtype.
std::vector<Case> kind_cases(bcast_opcode op, bcast_dtype dt) {
    return {
        {"vv", op, dt, {{4099}, {4099}}},
        {"vv in place", op, dt, {{4099}, {4099}}, {}, {}, {}, 0},
        {"vs", op, dt, {{2053}, {}}},
        {"sv", op, dt, {{}, {2053}}},
        {"periodic y", op, dt, {{1000, 3}, {3}}},
        {"periodic x", op, dt, {{7}, {999, 7}}},
        {"periodic in place", op, dt, {{1000, 3}, {3}}, {}, {}, {}, 0},
        {"vs rows (column)", op, dt, {{64, 100}, {64, 1}}},
        {"sv rows (outer)", op, dt, {{100, 1}, {1, 37}}},
        {"vv rows (repeated row)", op, dt, {{64, 100}, {100}}},
        {"vv rows (long row)", op, dt, {{9, 3001}, {3001}}},
        {"vv rows in place", op, dt, {{9, 3001}, {3001}}, {}, {}, {}, 0},
        {"per channel", op, dt, {{2, 16, 9, 9}, {1, 16, 1, 1}}},
        {"strided (transposed)", op, dt, {{37, 41}, {37, 41}}, {{1, 37}, {}}},
        {"negative strides", op, dt, {{37, 41}, {41}}, {{-41, -1}, {-1}}},
        {"ncnn cstep output", op, dt, {{4, 7, 9}, {4, 1, 1}}, {}, {72, 9, 1}},
        {"reversed output", op, dt, {{300}, {300}}, {}, {-1}},
    };
}

std::vector<std::size_t> task_counts(std::size_t rows) {
    return {1, 2, 3, 7, 64, rows + 5};
}

// Which output slots (buffer elements) `run` writes: run twice over two
// different fillings, an element is written where both runs agree.
std::vector<bool> written_slots(Setup& s, std::size_t es, const std::function<void()>& run) {
    Bytes fills[2];
    for (int k = 0; k < 2; ++k) {
        std::fill(s.out.buf.begin(), s.out.buf.end(), k ? 0x5A : 0xA5);
        run();
        fills[k] = s.out.buf;
    }
    std::vector<bool> slots(s.out.buf.size() / es);
    for (std::size_t e = 0; e < slots.size(); ++e) {
        slots[e] = std::memcmp(&fills[0][e * es], &fills[1][e * es], es) == 0;
    }
    return slots;
}

// Each task alone: every element execute writes is written by exactly one
// task, nothing else is; on a contiguous output, where the task changes
// from one element to the next the address is on a 64-byte line.
void check_ownership(Setup& s, const Case& c, std::size_t count) {
    const std::size_t es = bcast_dtype_size(output_dtype(c.op, c.dt));
    const auto in = s.input_ptrs();
    const std::vector<bool> want = written_slots(s, es, [&] {
        REQUIRE(bcast_op_execute(s.op.p, in.data(), s.out.ptr()) == BCAST_OK);
    });
    std::vector<long> owner(want.size(), -1);
    int overlaps = 0;
    for (std::size_t t = 0; t < count; ++t) {
        const std::vector<bool> mine = written_slots(s, es, [&] {
            REQUIRE(bcast_op_execute_task(s.op.p, in.data(), s.out.ptr(), t, count) == BCAST_OK);
        });
        for (std::size_t e = 0; e < mine.size(); ++e) {
            if (!mine[e]) continue;
            if (owner[e] >= 0) ++overlaps;
            owner[e] = static_cast<long>(t);
        }
    }
    CHECK(overlaps == 0);
    int strays = 0, gaps = 0, unaligned = 0;
    for (std::size_t e = 0; e < want.size(); ++e) {
        if (!want[e] && owner[e] >= 0) ++strays;
        if (want[e] && owner[e] < 0) ++gaps;
        const auto addr = reinterpret_cast<std::uintptr_t>(s.out.buf.data() + e * es);
        if (c.out_strides.empty() && e > 0 && owner[e] != owner[e - 1] && addr % 64 != 0) {
            ++unaligned;
        }
    }
    CHECK(strays == 0);
    CHECK(gaps == 0);
    CHECK(unaligned == 0);
}

void check_case(const Case& c, std::mt19937_64& rng) {
    // In place needs the output's element size: not for f32 < f32 -> BOOL.
    if (c.in_place >= 0 && output_dtype(c.op, c.dt) != c.dt) return;
    INFO(c.name << " op " << c.op << " dtype " << c.dt);
    Setup s(c, rng);
    const Bytes want = run_execute(s);
    const std::size_t rows = c.in.empty() || c.in[0].empty() ? 1 : std::size_t(c.in[0][0]);
    for (std::size_t n : task_counts(rows)) {
        INFO(n << " tasks");
        CHECK(mismatch(output_dtype(c.op, c.dt), run_tasks_shuffled(s, n, rng), want) == "");
    }
    if (c.in_place < 0) {
        s.reset();
        for (std::size_t n : {std::size_t{3}, std::size_t{7}}) {
            INFO(n << " tasks, one at a time");
            check_ownership(s, c, n);
        }
    }
}

}  // namespace

TEST_CASE("tasks write what execute writes: every kernel kind, f32 and i16", "[tasks]") {
    std::mt19937_64 rng(1);
    for (bcast_dtype dt : {BCAST_DTYPE_F32, BCAST_DTYPE_I16}) {
        for (bcast_opcode op : {BCAST_OP_SUB, BCAST_OP_LESS}) {
            for (const Case& c : kind_cases(op, dt)) check_case(c, rng);
        }
    }
}

TEST_CASE("tasks write what execute writes: a sample of every dtype", "[tasks]") {
    std::mt19937_64 rng(2);
    for (bcast_dtype dt : kAllDtypes) {
        const bcast_opcode op = dt == BCAST_DTYPE_BOOL ? BCAST_OP_LOGICAL_XOR : BCAST_OP_ADD;
        const std::vector<Case> all = kind_cases(op, dt);
        for (const char* kind : {"vv in place", "periodic y", "vs rows (column)",
                                 "vv rows (long row)", "negative strides"}) {
            const auto it = std::find_if(all.begin(), all.end(),
                                         [&](const Case& c) { return c.name == kind; });
            REQUIRE(it != all.end());
            check_case(*it, rng);
        }
    }
}

TEST_CASE("tasks write what execute writes: n-ary, SELECT, COPY and fill", "[tasks]") {
    std::mt19937_64 rng(3);
    const std::vector<Case> cases = {
        {"nary ADD", BCAST_OP_ADD, BCAST_DTYPE_F32, {{50, 61}, {61}, {50, 1}}},
        {"nary MAX in place", BCAST_OP_MAX, BCAST_DTYPE_I32, {{50, 61}, {61}, {50, 61}}, {}, {},
         {}, 2},
        {"SELECT", BCAST_OP_SELECT, BCAST_DTYPE_F64, {{40, 33}, {33}, {40, 1}}},
        {"COPY", BCAST_OP_COPY, BCAST_DTYPE_U8, {{3000}}, {}, {}, {3000}},
        {"COPY broadcast rows", BCAST_OP_COPY, BCAST_DTYPE_F16, {{1, 500}}, {}, {}, {30, 500}},
        {"fill", BCAST_OP_COPY, BCAST_DTYPE_I64, {{1}}, {}, {}, {2000}},
        {"COPY padded output", BCAST_OP_COPY, BCAST_DTYPE_F32, {{5, 1}}, {}, {24, 1}, {5, 19}},
        {"POW (heavy)", BCAST_OP_POW, BCAST_DTYPE_F32, {{200, 30}, {30}}},
        {"RSUB", BCAST_OP_RSUB, BCAST_DTYPE_I8, {{70, 1}, {1, 90}}},
    };
    for (const Case& c : cases) check_case(c, rng);
}

TEST_CASE("tasks run on many threads at once write what execute writes", "[tasks]") {
    std::mt19937_64 rng(4);
    for (const Case& c : kind_cases(BCAST_OP_ADD, BCAST_DTYPE_F32)) {
        INFO(c.name);
        Setup s(c, rng);
        const Bytes want = run_execute(s);
        for (std::size_t n : {std::size_t{2}, std::size_t{7}, std::size_t{64}}) {
            INFO(n << " tasks");
            CHECK(mismatch(BCAST_DTYPE_F32, run_tasks_threaded(s, n, 4), want) == "");
        }
    }
}

TEST_CASE("task counts: at most the maximum, 1 for small ops, more for large ones", "[tasks]") {
    OpHandle small, large;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &small.p) == BCAST_OK);
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &large.p) == BCAST_OK);
    const std::size_t ranks[] = {1, 1};
    const int64_t sixteen[] = {16}, big[] = {int64_t{1} << 22};
    const int64_t* small_dims[] = {sixteen, sixteen};
    const int64_t* large_dims[] = {big, big};
    std::size_t count = 99;
    CHECK(bcast_op_task_count(small.p, 4, &count) == BCAST_ERROR_INVALID_STATE);
    CHECK(count == 99);
    REQUIRE(bcast_op_plan(small.p, 2, ranks, small_dims, nullptr, nullptr) == BCAST_OK);
    REQUIRE(bcast_op_plan(large.p, 2, ranks, large_dims, nullptr, nullptr) == BCAST_OK);
    CHECK(bcast_op_task_count(small.p, 8, &count) == BCAST_OK);
    CHECK(count == 1);
    // 4M f32 elements: 48 MiB moved.
    CHECK(bcast_op_task_count(large.p, 1, &count) == BCAST_OK);
    CHECK(count == 1);
    for (std::size_t max : {2, 3, 8}) {
        CHECK(bcast_op_task_count(large.p, max, &count) == BCAST_OK);
        CHECK(count == max);
    }
    CHECK(bcast_op_task_count(large.p, std::size_t{1} << 40, &count) == BCAST_OK);
    CHECK(count > 8);
    CHECK(count <= (std::size_t{1} << 22) / 16);  // whole cache lines each
    count = 99;
    CHECK(bcast_op_task_count(large.p, 0, &count) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_task_count(large.p, 4, nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_task_count(nullptr, 4, &count) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(count == 99);
}

TEST_CASE("a task outside its count is refused and writes nothing", "[tasks]") {
    std::mt19937_64 rng(5);
    Setup s({"vv", BCAST_OP_ADD, BCAST_DTYPE_F32, {{100}, {100}}}, rng);
    s.reset();
    const auto in = s.input_ptrs();
    CHECK(bcast_op_execute_task(s.op.p, in.data(), s.output(), 3, 3) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(bcast_last_error()).find("task 3 of 3") != std::string::npos);
    CHECK(bcast_op_execute_task(s.op.p, in.data(), s.output(), 0, 0) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_execute_task(s.op.p, nullptr, s.output(), 0, 2) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_op_execute_task(nullptr, in.data(), s.output(), 0, 2) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(s.written() == s.out_pristine.buf);
    OpHandle unplanned;
    REQUIRE(bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, &unplanned.p) == BCAST_OK);
    CHECK(bcast_op_execute_task(unplanned.p, in.data(), s.output(), 0, 2) ==
          BCAST_ERROR_INVALID_STATE);
}

// ------------------------------------------------------------------- the pool

namespace {

// (512,1031)+(1031) f32: about 6 MiB moved, so a pool of 2 or 3 splits it.
const Case kSplitRows{"rows", BCAST_OP_ADD, BCAST_DTYPE_F32, {{512, 1031}, {1031}}};

}  // namespace

TEST_CASE("a pool executes every kernel kind as execute does", "[pool]") {
    std::mt19937_64 rng(6);
    for (std::size_t threads : {1, 2, 3}) {
        PoolHandle pool;
        REQUIRE(bcast_pool_create(threads, &pool.p) == BCAST_OK);
        CHECK(bcast_pool_threads(pool.p) == threads);
        const bcast_dtype out_dt = BCAST_DTYPE_F64;
        for (const Case& c : kind_cases(BCAST_OP_MUL, out_dt)) {
            INFO(c.name << ", " << threads << " threads");
            Setup s(c, rng);
            const Bytes want = run_execute(s);
            CHECK(mismatch(out_dt, run_pool(s, pool.p), want) == "");
        }
    }
}

TEST_CASE("a pool splits a large op and matches execute", "[pool]") {
    std::mt19937_64 rng(7);
    PoolHandle pool;
    REQUIRE(bcast_pool_create(3, &pool.p) == BCAST_OK);
    const bcast_dtype out_dt = kSplitRows.dt;
    Setup s(kSplitRows, rng);
    std::size_t count = 0;
    REQUIRE(bcast_op_task_count(s.op.p, 3, &count) == BCAST_OK);
    CHECK(count == 3);
    const Bytes want = run_execute(s);
    for (int round = 0; round < 20; ++round) CHECK(mismatch(out_dt, run_pool(s, pool.p), want) == "");
}

TEST_CASE("pools are created and destroyed in a loop", "[pool]") {
    for (int round = 0; round < 50; ++round) {
        PoolHandle pool;
        REQUIRE(bcast_pool_create(std::size_t(round % 4) + 1, &pool.p) == BCAST_OK);
    }
    bcast_pool_destroy(nullptr);
    CHECK(bcast_pool_threads(nullptr) == 0);
    CHECK(bcast_pool_create(2, nullptr) == BCAST_ERROR_INVALID_ARGUMENT);
    bcast_pool* huge = nullptr;
    CHECK(bcast_pool_create(4097, &huge) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(bcast_pool_create(SIZE_MAX, &huge) == BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(huge == nullptr);
    CHECK(std::string(bcast_last_error()).find("at most 4096") != std::string::npos);
}

TEST_CASE("a pool of 0 threads has one per CPU this process may run on", "[pool]") {
    cpu_set_t set;
    CPU_ZERO(&set);
    REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
    PoolHandle pool;
    REQUIRE(bcast_pool_create(0, &pool.p) == BCAST_OK);
    CHECK(bcast_pool_threads(pool.p) == std::size_t(CPU_COUNT(&set)));
}

TEST_CASE("many threads share one pool, taking turns", "[pool]") {
    std::mt19937_64 rng(8);
    PoolHandle pool;
    REQUIRE(bcast_pool_create(2, &pool.p) == BCAST_OK);
    Setup reference(kSplitRows, rng);
    const Bytes want = run_execute(reference);
    const auto in = reference.input_ptrs();
    std::atomic<int> wrong{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < 6; ++t) {
        callers.emplace_back([&] {
            Bytes out(want.size(), 0xA5);
            for (int round = 0; round < 10; ++round) {
                std::fill(out.begin(), out.end(), 0xA5);
                if (bcast_op_execute_pool(reference.op.p, in.data(), out.data(), pool.p) !=
                        BCAST_OK ||
                    !mismatch(BCAST_DTYPE_F32, out, want).empty()) {
                    ++wrong;
                }
            }
        });
    }
    for (std::thread& t : callers) t.join();
    CHECK(wrong == 0);
}

TEST_CASE("a pool keeps working after an op failed on it", "[pool]") {
    std::mt19937_64 rng(9);
    PoolHandle pool;
    REQUIRE(bcast_pool_create(2, &pool.p) == BCAST_OK);
    const bcast_dtype out_dt = kSplitRows.dt;
    Setup s(kSplitRows, rng);
    const Bytes want = run_execute(s);
    s.reset();
    CHECK(bcast_op_execute_pool(s.op.p, nullptr, s.output(), pool.p) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    const void* misaligned[] = {s.inputs[0].ptr() + 1, s.inputs[1].ptr()};
    CHECK(bcast_op_execute_pool(s.op.p, misaligned, s.output(), pool.p) ==
          BCAST_ERROR_INVALID_ARGUMENT);
    CHECK(s.written() == s.out_pristine.buf);
    CHECK(mismatch(out_dt, run_pool(s, pool.p), want) == "");
    // A NULL pool is a plain execute.
    CHECK(mismatch(out_dt, run_pool(s, nullptr), want) == "");
}

#ifndef BCAST_TEST_TSAN  // ThreadSanitizer does not support threads after a fork
TEST_CASE("a forked child cannot use its parent's pool but can make its own", "[pool]") {
    std::mt19937_64 rng(10);
    PoolHandle pool;
    REQUIRE(bcast_pool_create(2, &pool.p) == BCAST_OK);
    const bcast_dtype out_dt = kSplitRows.dt;
    Setup s(kSplitRows, rng);
    const Bytes want = run_execute(s);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // Exit codes: 0 as documented, 1 the parent's pool ran, 2 no own pool,
        // 3 wrong result.
        s.reset();
        const auto in = s.input_ptrs();
        int code = 0;
        if (bcast_op_execute_pool(s.op.p, in.data(), s.output(), pool.p) !=
            BCAST_ERROR_INVALID_STATE) {
            code = 1;
        }
        // The child's own threads may reuse the parent's workers' thread
        // handles; forgetting the parent's pool after that must not touch them.
        bcast_pool* own = nullptr;
        if (code == 0 && bcast_pool_create(2, &own) != BCAST_OK) code = 2;
        bcast_pool_destroy(pool.p);
        if (code == 0 && (bcast_op_execute_pool(s.op.p, in.data(), s.output(), own) != BCAST_OK ||
                          !mismatch(out_dt, s.written(), want).empty())) {
            code = 3;
        }
        bcast_pool_destroy(own);
        _exit(code);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(mismatch(out_dt, run_pool(s, pool.p), want) == "");  // the parent's pool is unharmed
}
#endif
