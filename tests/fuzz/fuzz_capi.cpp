// Fuzzes the raw C API with arbitrary arguments: NULLs, unknown enum values,
// absurd ranks, capacities and counts, calls in any order on one handle.
// Nothing may crash, leak or be undefined (the sanitizers watch); every
// status is a known one; every failure leaves a message and writes nothing.
#include <bcast/bcast.h>

#include "fuzz_input.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <strings.h>
#include <vector>

namespace {

constexpr int64_t kPattern = 0x5A5A5A5A5A5A5A5A;

bool known(bcast_status st) { return st >= BCAST_OK && st <= BCAST_ERROR_SYSTEM; }

void check_status(bcast_status st) {
    FUZZ_CHECK(known(st));
    FUZZ_CHECK(st != BCAST_ERROR_INTERNAL);  // a bug in bcast by the header's own word
    if (st != BCAST_OK) FUZZ_CHECK(bcast_last_error()[0] != '\0');
}

int32_t enum_value(fuzz::Input& in, int32_t count) {
    static const int32_t kOdd[] = {-1, INT32_MIN, INT32_MAX, 1000};
    return in.chance(85) ? static_cast<int32_t>(in.range(0, count - 1)) : in.pick(kOdd);
}

// Shapes for up to 17 inputs; rank sometimes past the maximum; dims pointer
// sometimes NULL. All storage lives in the struct.
struct Shapes {
    std::size_t n = 0;
    std::vector<size_t> ranks;
    std::vector<std::vector<int64_t>> storage;
    std::vector<const int64_t*> dims;

    explicit Shapes(fuzz::Input& in) {
        n = static_cast<std::size_t>(in.chance(90) ? in.range(0, 4) : in.range(0, BCAST_MAX_INPUTS + 1));
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t rank = static_cast<std::size_t>(in.chance(95) ? in.range(0, 4) : in.range(0, 40));
            std::vector<int64_t> d(std::max<std::size_t>(rank, 1));
            for (int64_t& e : d) e = in.chance(95) ? fuzz::extent(in) : -in.range(1, 3);
            ranks.push_back(rank);
            storage.push_back(d);
        }
        for (auto& d : storage) dims.push_back(in.chance(95) ? d.data() : nullptr);
    }
    const size_t* ranks_arg(fuzz::Input& in) const { return in.chance(97) ? ranks.data() : nullptr; }
    const int64_t* const* dims_arg(fuzz::Input& in) const { return in.chance(97) ? dims.data() : nullptr; }
};

void infer(fuzz::Input& in) {
    const Shapes s(in);
    int64_t out[BCAST_MAX_RANK + 2];
    std::fill(std::begin(out), std::end(out), kPattern);
    size_t rank = 12345;
    const size_t capacity = static_cast<size_t>(in.range(0, BCAST_MAX_RANK + 1));
    const bcast_status st = bcast_infer_shape(enum_value(in, 6), in.range(-3, 5), s.n, s.ranks_arg(in),
                                              s.dims_arg(in), capacity, in.chance(95) ? &rank : nullptr,
                                              in.chance(95) ? out : nullptr);
    check_status(st);
    if (st != BCAST_OK) {
        FUZZ_CHECK(rank == 12345);
        FUZZ_CHECK(std::all_of(std::begin(out), std::end(out), [](int64_t v) { return v == kPattern; }));
    } else {
        FUZZ_CHECK(rank <= capacity);
    }
}

void infer_expand(fuzz::Input& in) {
    // Storage for the largest rank and count passed below: only the
    // values, not the sizes, are the library's to check.
    int64_t data[4], target[4], mapping[40];
    for (int64_t& e : data) e = in.chance(95) ? fuzz::extent(in) : -1;
    for (int64_t& e : target) e = in.chance(95) ? fuzz::extent(in) : -1;
    for (int64_t& m : mapping) m = in.range(-2, 5);
    const size_t mapping_count = static_cast<size_t>(in.chance(80) ? in.range(0, 4) : in.range(0, 40));
    int64_t out[BCAST_MAX_RANK + 2];
    std::fill(std::begin(out), std::end(out), kPattern);
    size_t rank = 12345;
    const bcast_status st = bcast_infer_expand_shape(
        enum_value(in, 4), static_cast<size_t>(in.range(0, 4)), in.chance(95) ? data : nullptr,
        static_cast<size_t>(in.range(0, 4)), in.chance(95) ? target : nullptr,
        in.chance(50) ? mapping : nullptr, mapping_count,
        in.range(-3, 5), static_cast<size_t>(in.range(0, BCAST_MAX_RANK + 1)),
        in.chance(95) ? &rank : nullptr, in.chance(95) ? out : nullptr);
    check_status(st);
    if (st != BCAST_OK) FUZZ_CHECK(rank == 12345 && out[0] == kPattern);
}

// Partial shapes (1.3): arbitrary intervals (negative, empty, huge),
// symbols, unknown ranks, semantics and rules; then the conditions evaluated
// and formatted, with arbitrary static shapes.
void infer_partial(fuzz::Input& in) {
    static const char* const kNames[] = {"N", "M", "", nullptr};
    const std::size_t n = static_cast<std::size_t>(in.chance(90) ? in.range(0, 3) : in.range(0, BCAST_MAX_INPUTS + 1));
    std::vector<std::vector<bcast_pdim>> dims(n);
    std::vector<bcast_pshape> shapes(std::max<std::size_t>(n, 1));
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t rank = static_cast<std::size_t>(in.chance(95) ? in.range(0, 4) : in.range(0, 40));
        dims[j].resize(std::max<std::size_t>(rank, 1));
        for (bcast_pdim& d : dims[j]) {
            d.lo = in.chance(95) ? fuzz::extent(in) : -in.range(1, 3);
            const int64_t wide = d.lo > INT64_MAX - 3 ? d.lo : d.lo + in.range(0, 3);
            d.hi = in.chance(30) ? BCAST_DIM_UNBOUNDED : in.chance(90) ? wide : in.range(0, 5);
            d.symbol = in.pick(kNames);
        }
        shapes[j] = bcast_pshape{in.chance(95) ? static_cast<int32_t>(in.range(0, 1)) : 7, rank,
                                 in.chance(97) ? dims[j].data() : nullptr};
    }
    bcast_pdim out[BCAST_MAX_RANK + 2];
    const bcast_pdim pattern{kPattern, kPattern, nullptr};
    std::fill(std::begin(out), std::end(out), pattern);
    std::vector<bcast_condition> conds(64);
    size_t num_dims = 12345, num_conds = 12345;
    int32_t known = 77;
    const size_t capacity = static_cast<size_t>(in.range(0, BCAST_MAX_RANK + 1));
    const size_t cond_capacity = static_cast<size_t>(in.range(0, 64));
    const bool expand = in.chance(30);
    int64_t mapping[8];
    for (int64_t& m : mapping) m = in.range(-2, 5);
    const bcast_status st =
        expand ? bcast_infer_partial_expand_shape(
                     enum_value(in, 3), enum_value(in, 4), in.chance(95) ? &shapes[0] : nullptr,
                     n > 1 ? &shapes[1] : nullptr, in.chance(20) ? mapping : nullptr,
                     static_cast<size_t>(in.range(0, 8)), in.range(-3, 5), capacity,
                     in.chance(95) ? out : nullptr, &num_dims, &known, cond_capacity,
                     in.chance(95) ? conds.data() : nullptr, &num_conds)
               : bcast_infer_partial_shape(
                     enum_value(in, 3), enum_value(in, 6), in.range(-3, 5), n,
                     in.chance(97) ? shapes.data() : nullptr, capacity,
                     in.chance(95) ? out : nullptr, in.chance(97) ? &num_dims : nullptr, &known,
                     cond_capacity, in.chance(95) ? conds.data() : nullptr, &num_conds);
    check_status(st);
    if (st != BCAST_OK) {
        FUZZ_CHECK(num_dims == 12345 && num_conds == 12345 && known == 77);
        FUZZ_CHECK(out[0].lo == kPattern && out[0].hi == kPattern);
        return;
    }
    FUZZ_CHECK(num_dims <= capacity && num_conds <= cond_capacity);
    // Garbage conditions and static shapes: a known status, never a crash.
    if (num_conds < conds.size() && in.chance(50)) {
        conds[num_conds] = bcast_condition{0, static_cast<bcast_cond_kind>(in.range(-1, 6)),
                                           static_cast<int32_t>(in.range(-1, 5)),
                                           static_cast<int32_t>(in.range(-1, 5)), in.range(-40, 40),
                                           in.range(-2, 5)};
        ++num_conds;
    }
    const Shapes s(in);
    int32_t holds = 5;
    const bcast_status h = bcast_conditions_hold(num_conds, conds.data(), s.n, s.ranks_arg(in),
                                                 s.dims_arg(in), in.chance(97) ? &holds : nullptr);
    check_status(h);
    if (h == BCAST_OK) FUZZ_CHECK(holds == 0 || holds == 1);
    char text[64];
    bcast_conditions_format(num_conds, conds.data(), n, in.chance(80) ? shapes.data() : nullptr,
                            text, sizeof text);
}

// One handle through a random sequence of calls.
void handle_calls(fuzz::Input& in) {
    bcast_op* op = nullptr;
    bcast_op* const sentinel = reinterpret_cast<bcast_op*>(&op);
    bcast_op* created = sentinel;
    bcast_status st = bcast_op_create(enum_value(in, 39), enum_value(in, 13),
                                      in.chance(97) ? &created : nullptr);
    check_status(st);
    if (st != BCAST_OK) {
        FUZZ_CHECK(created == sentinel);
        return;
    }
    op = created;
    alignas(64) unsigned char buffers[3][4096];
    for (int step = 0, steps = static_cast<int>(in.range(1, 12)); step < steps; ++step) {
        switch (in.byte() % 8) {
            case 6: {
                // Quantization: mostly valid parameters (the op then plans and
                // runs quantized), else any float bits and zero points.
                float scale = 0.05f;
                if (in.chance(30)) {
                    const auto bits = static_cast<uint32_t>(in.u64());
                    std::memcpy(&scale, &bits, sizeof scale);
                }
                const size_t operand = in.chance(25) ? BCAST_OUTPUT : static_cast<size_t>(in.range(0, 17));
                const int32_t zp = static_cast<int32_t>(in.chance(80) ? in.range(-128, 255) : in.range(-70000, 70000));
                check_status(bcast_op_set_quantization(in.chance(97) ? op : nullptr, operand, scale, zp));
                float got_scale = -1.0f;
                int32_t got_zp = -1;
                st = bcast_op_get_quantization(op, operand, in.chance(90) ? &got_scale : nullptr,
                                               in.chance(90) ? &got_zp : nullptr);
                check_status(st);
                if (st != BCAST_OK) FUZZ_CHECK(got_scale == -1.0f && got_zp == -1);
                break;
            }
            case 0:
                check_status(bcast_op_set_param(in.chance(95) ? op : nullptr, enum_value(in, 3),
                                                 in.chance(80) ? in.range(-2, 6) : static_cast<int64_t>(in.u64())));
                break;
            case 1: {
                int64_t v = kPattern;
                st = bcast_op_get_param(in.chance(95) ? op : nullptr, enum_value(in, 3), in.chance(95) ? &v : nullptr);
                check_status(st);
                if (st != BCAST_OK) FUZZ_CHECK(v == kPattern);
                break;
            }
            case 2: {
                const Shapes s(in);
                check_status(bcast_op_plan(in.chance(97) ? op : nullptr, s.n, s.ranks_arg(in), s.dims_arg(in),
                                           nullptr, nullptr));
                break;
            }
            case 3: {
                const Shapes s(in);
                const std::vector<int64_t> target = s.storage.empty() ? std::vector<int64_t>{4} : s.storage.back();
                check_status(bcast_op_plan_to(op, s.n, s.ranks_arg(in), s.dims_arg(in), nullptr,
                                              static_cast<size_t>(in.range(0, static_cast<int64_t>(target.size()))),
                                              target.data(), nullptr, 0, nullptr));
                break;
            }
            case 4: {
                int64_t dims[BCAST_MAX_RANK];
                size_t rank = 12345;
                st = bcast_op_output_shape(in.chance(95) ? op : nullptr, static_cast<size_t>(in.range(0, 40)),
                                           in.chance(95) ? &rank : nullptr, in.chance(95) ? dims : nullptr);
                check_status(st);
                if (st != BCAST_OK) FUZZ_CHECK(rank == 12345);
                break;
            }
            case 5: {
                // Only plans whose every operand fits the 4 KiB buffers run.
                char json[4096];
                const size_t len = bcast_op_describe(op, json, sizeof json);
                int64_t dims[BCAST_MAX_RANK];
                size_t rank = 0;
                if (len == 0 || bcast_op_output_shape(op, BCAST_MAX_RANK, &rank, dims) != BCAST_OK) break;
                int64_t count = 1;
                for (size_t k = 0; k < rank; ++k)
                    if (__builtin_mul_overflow(count, dims[k], &count)) count = INT64_MAX;
                if (count > 4096 / 8) break;
                const void* inputs[BCAST_MAX_INPUTS];
                for (auto& p : inputs) p = in.chance(95) ? buffers[0] : nullptr;
                std::memset(buffers[2], 0xEE, sizeof buffers[2]);
                st = bcast_op_execute(op, in.chance(97) ? inputs : nullptr, in.chance(97) ? buffers[2] : nullptr);
                check_status(st);
                break;
            }
            default: {
                char small[16];
                std::memset(small, 'x', sizeof small);
                const size_t size = static_cast<size_t>(in.range(0, 16));
                char* buf = in.chance(90) ? small : nullptr;
                const size_t len = bcast_op_describe(in.chance(90) ? op : nullptr, buf, size);
                if (buf && size > 0 && len > 0) FUZZ_CHECK(std::strlen(small) == std::min(len, size - 1));
                break;
            }
        }
    }
    bcast_op_destroy(op);
}

// The name look-ups (since 1.3) on arbitrary bytes: a known name gives back
// its value's name (in any case), anything else is refused writing nothing.
void names(fuzz::Input& in) {
    using NameOf = const char* (*)(int32_t);
    using ValueOf = bcast_status (*)(const char*, int32_t*);
    static const NameOf kNameOf[] = {bcast_opcode_name, bcast_dtype_name, bcast_rule_name,
                                     bcast_expand_mode_name};
    static const ValueOf kValueOf[] = {bcast_opcode_from_name, bcast_dtype_from_name,
                                       bcast_rule_from_name, bcast_expand_mode_from_name};
    const std::size_t kind = in.byte() % 4;
    char name[24] = {};
    for (std::size_t i = 0, n = static_cast<std::size_t>(in.range(0, 23)); i < n; ++i)
        name[i] = static_cast<char>(in.byte());
    int32_t value = 0x5A5A;
    const bcast_status st = kValueOf[kind](in.chance(97) ? name : nullptr, in.chance(97) ? &value : nullptr);
    check_status(st);
    if (st == BCAST_OK) {
        FUZZ_CHECK(kNameOf[kind](value) != nullptr && strcasecmp(kNameOf[kind](value), name) == 0);
    } else {
        FUZZ_CHECK(value == 0x5A5A);
    }
    const char* any = kNameOf[kind](enum_value(in, 40));
    FUZZ_CHECK(any == nullptr || any[0] != '\0');
}

// Tuning texts of arbitrary bytes (or NULL: back to the lookup), then the
// description into buffers of any capacity. Tuning changes speed only, so
// the handle calls after it run under whatever it put in force.
void tuning(fuzz::Input& in) {
    std::string text;
    for (std::size_t i = 0, n = static_cast<std::size_t>(in.range(0, 300)); i < n; ++i)
        text += static_cast<char>(in.byte());
    const bcast_status st = bcast_tuning_load_string(in.chance(90) ? text.data() : nullptr, text.size());
    check_status(st);
    FUZZ_CHECK(st == BCAST_OK || st == BCAST_ERROR_INVALID_ARGUMENT);
    char buf[64];
    std::memset(buf, 0x5A, sizeof buf);
    const auto cap = static_cast<std::size_t>(in.range(0, sizeof buf));
    const std::size_t len = bcast_tuning_describe(in.chance(90) ? buf : nullptr, cap);
    FUZZ_CHECK(len > 0);
    if (cap > 0 && buf[0] != 0x5A) FUZZ_CHECK(std::strlen(buf) == std::min(cap - 1, len));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::Input in(data, size);
    static const char* const kIsas[] = {"scalar", "sse2", "avx2", "avx512", "neon", "", "AVX2", "sse"};
    if (in.chance(10)) {
        const char* name = in.chance(90) ? in.pick(kIsas) : nullptr;
        check_status(bcast_set_max_isa(name));
    }
    check_status(bcast_status_string(static_cast<bcast_status>(in.range(-2, 9)))[0] ? BCAST_OK : BCAST_ERROR_INTERNAL);
    FUZZ_CHECK(bcast_dtype_size(enum_value(in, 13)) <= 8);
    FUZZ_CHECK(bcast_op_supports(enum_value(in, 39), enum_value(in, 13)) <= 1);
    switch (in.byte() % 4) {
        case 0: infer(in); break;
        case 1: infer_expand(in); break;
        case 2: infer_partial(in); break;
        default: handle_calls(in); break;
    }
    if (in.chance(20)) names(in);
    if (in.chance(5)) tuning(in);
    return 0;
}
