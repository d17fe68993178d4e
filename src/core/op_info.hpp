// The vocabulary: the op table (names, arity, reversed-op folding, which
// dtypes each op takes, bool result, weight, chain) and the dtype table. The only
// list of them: bcast_op_supports, bcast_op_create's validation, the kernel
// tables (which build kernels for supported pairs only), the task split, the
// C API's names (capi/names.cpp) and through them the CLI and the bindings
// follow it; tests/api/test_vocabulary.cpp checks the header's enums against it.
#pragma once

#include <bcast/bcast.h>

#include <cstddef>

namespace bcast {

constexpr int kNumOpcodes = BCAST_OP_COPY + 1;
constexpr int kNumDtypes = BCAST_DTYPE_BOOL + 1;

enum class DtypeClass { Float, Signed, Unsigned, Bool };

// Which dtypes an op accepts (bit set over DtypeClass).
enum DtypeSet : unsigned {
    kFloat = 1u << 0,
    kSigned = 1u << 1,
    kUnsigned = 1u << 2,
    kBool = 1u << 3,
    kInt = kSigned | kUnsigned,
    kNumeric = kFloat | kInt,
    kAll = kNumeric | kBool,
    // Not a class: the op also runs quantized (u8/i8 with scale and zero
    // point, core/quantization.hpp), its f32 form between dequantize and
    // quantize. Only ops whose f32 result is one correctly rounded
    // operation (or a fixed sequence of them) are marked: the QDQ graph's
    // result must not depend on the ISA.
    kQuantized = 1u << 4,
};

struct OpInfo {
    const char* name;       // "ADD", as in the header
    bcast_opcode base;      // kernel op: RSUB -> SUB, ...
    bool swapped;           // reversed op: operands swapped by the plan
    int min_inputs;
    int max_inputs;
    unsigned dtypes;        // DtypeSet
    bool bool_output;       // comparisons and logical ops write BOOL
    unsigned weight;        // cost per element relative to a plain + (the task split)
    bool chain;             // a link of fused chains in registers (f32, f64; chain_op)
};

// The tables behind the functions below, in the header so that the kernel
// tables can ask op_supports at compile time (only supported pairs get
// kernels). Use the functions.
namespace op_tables {

inline constexpr int kVariadic = BCAST_MAX_INPUTS;

// Indexed by opcode; the order is the header's.
inline constexpr OpInfo kOps[kNumOpcodes] = {
    {"ADD", BCAST_OP_ADD, false, 2, kVariadic, kNumeric | kQuantized, false, 1, true},
    {"SUB", BCAST_OP_SUB, false, 2, 2, kNumeric | kQuantized, false, 1, true},
    {"MUL", BCAST_OP_MUL, false, 2, kVariadic, kNumeric | kQuantized, false, 1, true},
    {"DIV", BCAST_OP_DIV, false, 2, 2, kNumeric | kQuantized, false, 4, true},
    {"MAX", BCAST_OP_MAX, false, 2, kVariadic, kNumeric | kQuantized, false, 1, true},
    {"MIN", BCAST_OP_MIN, false, 2, kVariadic, kNumeric | kQuantized, false, 1, true},
    {"POW", BCAST_OP_POW, false, 2, 2, kNumeric, false, 16, false},
    {"RSUB", BCAST_OP_SUB, true, 2, 2, kNumeric | kQuantized, false, 1, true},
    {"RDIV", BCAST_OP_DIV, true, 2, 2, kNumeric | kQuantized, false, 4, true},
    {"RPOW", BCAST_OP_POW, true, 2, 2, kNumeric, false, 16, false},
    {"ATAN2", BCAST_OP_ATAN2, false, 2, 2, kFloat, false, 16, false},
    {"RATAN2", BCAST_OP_ATAN2, true, 2, 2, kFloat, false, 16, false},
    {"FMOD", BCAST_OP_FMOD, false, 2, 2, kNumeric, false, 4, false},
    {"RFMOD", BCAST_OP_FMOD, true, 2, 2, kNumeric, false, 4, false},
    {"LOGADDEXP", BCAST_OP_LOGADDEXP, false, 2, 2, kFloat, false, 16, false},
    {"FLOOR_DIVIDE", BCAST_OP_FLOOR_DIVIDE, false, 2, 2, kNumeric, false, 4, false},
    {"RFLOOR_DIVIDE", BCAST_OP_FLOOR_DIVIDE, true, 2, 2, kNumeric, false, 4, false},
    {"REMAINDER", BCAST_OP_REMAINDER, false, 2, 2, kFloat, false, 4, false},
    {"RREMAINDER", BCAST_OP_REMAINDER, true, 2, 2, kFloat, false, 4, false},
    {"MOD", BCAST_OP_MOD, false, 2, 2, kNumeric, false, 4, false},
    {"SQUARED_DIFFERENCE", BCAST_OP_SQUARED_DIFFERENCE, false, 2, 2, kNumeric | kQuantized, false, 1, false},
    {"PRELU", BCAST_OP_PRELU, false, 2, 2, kNumeric | kQuantized, false, 1, false},
    {"EQUAL", BCAST_OP_EQUAL, false, 2, 2, kAll, true, 1, false},
    {"NOT_EQUAL", BCAST_OP_NOT_EQUAL, false, 2, 2, kAll, true, 1, false},
    {"LESS", BCAST_OP_LESS, false, 2, 2, kAll, true, 1, false},
    {"LESS_EQUAL", BCAST_OP_LESS_EQUAL, false, 2, 2, kAll, true, 1, false},
    {"GREATER", BCAST_OP_GREATER, false, 2, 2, kAll, true, 1, false},
    {"GREATER_EQUAL", BCAST_OP_GREATER_EQUAL, false, 2, 2, kAll, true, 1, false},
    {"LOGICAL_AND", BCAST_OP_LOGICAL_AND, false, 2, 2, kBool, true, 1, false},
    {"LOGICAL_OR", BCAST_OP_LOGICAL_OR, false, 2, 2, kBool, true, 1, false},
    {"LOGICAL_XOR", BCAST_OP_LOGICAL_XOR, false, 2, 2, kBool, true, 1, false},
    {"BITWISE_AND", BCAST_OP_BITWISE_AND, false, 2, 2, kInt | kBool, false, 1, false},
    {"BITWISE_OR", BCAST_OP_BITWISE_OR, false, 2, 2, kInt | kBool, false, 1, false},
    {"BITWISE_XOR", BCAST_OP_BITWISE_XOR, false, 2, 2, kInt | kBool, false, 1, false},
    {"SHIFT_LEFT", BCAST_OP_SHIFT_LEFT, false, 2, 2, kInt, false, 1, false},
    {"SHIFT_RIGHT", BCAST_OP_SHIFT_RIGHT, false, 2, 2, kInt, false, 1, false},
    {"MEAN", BCAST_OP_MEAN, false, 2, kVariadic, kFloat, false, 1, false},
    {"SELECT", BCAST_OP_SELECT, false, 3, 3, kAll, false, 1, false},
    {"COPY", BCAST_OP_COPY, false, 1, 1, kAll, false, 1, false},
};

struct DtypeInfo {
    const char* name;
    std::size_t size;
    DtypeClass cls;
};

inline constexpr DtypeInfo kDtypes[kNumDtypes] = {
    {"f32", 4, DtypeClass::Float},    {"f64", 8, DtypeClass::Float},
    {"f16", 2, DtypeClass::Float},    {"bf16", 2, DtypeClass::Float},
    {"i8", 1, DtypeClass::Signed},    {"u8", 1, DtypeClass::Unsigned},
    {"i16", 2, DtypeClass::Signed},   {"u16", 2, DtypeClass::Unsigned},
    {"i32", 4, DtypeClass::Signed},   {"u32", 4, DtypeClass::Unsigned},
    {"i64", 8, DtypeClass::Signed},   {"u64", 8, DtypeClass::Unsigned},
    {"bool", 1, DtypeClass::Bool},
};

constexpr unsigned class_bit(DtypeClass c) {
    switch (c) {
        case DtypeClass::Float: return kFloat;
        case DtypeClass::Signed: return kSigned;
        case DtypeClass::Unsigned: return kUnsigned;
        case DtypeClass::Bool: return kBool;
    }
    return 0;
}

}  // namespace op_tables

constexpr bool valid_opcode(bcast_opcode op) { return op >= 0 && op < kNumOpcodes; }

// nullptr for an unknown opcode. Not for constant expressions that test the
// result: g++'s UBSan (-fsanitize=null) makes `&kOps[op] == nullptr` no
// constant; those use valid_opcode and index the table.
constexpr const OpInfo* op_info(bcast_opcode op) {
    return valid_opcode(op) ? &op_tables::kOps[op] : nullptr;
}

constexpr bool valid_dtype(bcast_dtype dt) { return dt >= 0 && dt < kNumDtypes; }
// dt must be valid.
constexpr DtypeClass dtype_class(bcast_dtype dt) { return op_tables::kDtypes[dt].cls; }
// 0 if unknown.
constexpr std::size_t dtype_size(bcast_dtype dt) {
    return valid_dtype(dt) ? op_tables::kDtypes[dt].size : 0;
}
// "f32"; "?" if unknown.
constexpr const char* dtype_name(bcast_dtype dt) {
    return valid_dtype(dt) ? op_tables::kDtypes[dt].name : "?";
}

constexpr bool op_supports(bcast_opcode op, bcast_dtype dt) {
    if (!valid_opcode(op) || !valid_dtype(dt)) return false;
    return (op_tables::kOps[op].dtypes & op_tables::class_bit(dtype_class(dt))) != 0;
}

// Whether the op runs quantized (kQuantized).
constexpr bool op_quantizable(bcast_opcode op) {
    return valid_opcode(op) && (op_tables::kOps[op].dtypes & kQuantized) != 0;
}

// A reversed op is its kernel op with the operands swapped: it weighs as much.
constexpr bool reversed_ops_weigh_as_their_base() {
    for (const OpInfo& info : op_tables::kOps)
        if (info.weight != op_tables::kOps[info.base].weight) return false;
    return true;
}
static_assert(reversed_ops_weigh_as_their_base(), "a reversed op's weight differs from its base op's");

// The kernel op that computes x op y as y op' x with the same bits for dtype
// dt: op itself where op commutes, the mirror of an ordered comparison; -1
// where there is none. Float + * max min are left out: with two NaNs the
// result's payload (and max/min's choice between +0 and -0) follows the
// operands' order. The plan runs such a pair's left-broadcast forms as the
// right-broadcast ones with x and y exchanged, so the SIMD tables build
// only the latter (half of each pair's kernels fewer to compile).
constexpr int exchanged_op(bcast_opcode kernel_op, bcast_dtype dt) {
    if (!op_supports(kernel_op, dt)) return -1;
    const bool integral = dtype_class(dt) != DtypeClass::Float;
    switch (kernel_op) {
        case BCAST_OP_EQUAL:
        case BCAST_OP_NOT_EQUAL:
        case BCAST_OP_LOGICAL_AND:
        case BCAST_OP_LOGICAL_OR:
        case BCAST_OP_LOGICAL_XOR:
        case BCAST_OP_BITWISE_AND:
        case BCAST_OP_BITWISE_OR:
        case BCAST_OP_BITWISE_XOR: return kernel_op;
        case BCAST_OP_LESS: return BCAST_OP_GREATER;
        case BCAST_OP_GREATER: return BCAST_OP_LESS;
        case BCAST_OP_LESS_EQUAL: return BCAST_OP_GREATER_EQUAL;
        case BCAST_OP_GREATER_EQUAL: return BCAST_OP_LESS_EQUAL;
        case BCAST_OP_ADD:
        case BCAST_OP_MUL:
        case BCAST_OP_MAX:
        case BCAST_OP_MIN: return integral ? kernel_op : -1;
        default: return -1;
    }
}

// Cost per element of a kernel op relative to a plain + (what the task
// split weighs); 1 for an unknown opcode.
constexpr unsigned op_weight(bcast_opcode op) {
    const OpInfo* info = op_info(op);
    return info ? info->weight : 1;
}

// Whether fused expressions evaluate op as a link of a chain in registers
// (the chain kernels, kernels/simd/simd_chain.hpp, f32 and f64): the table's
// chain column, the only list of chain ops. A reversed op is chained as its
// kernel op with the operands swapped.
constexpr bool chain_op(bcast_opcode op) { return valid_opcode(op) && op_tables::kOps[op].chain; }

// A link takes the accumulator and one operand of one float dtype and gives
// that dtype; a reversed op is chained exactly when its kernel op is (the
// plan chains kernel ops).
constexpr bool chain_ops_are_binary_float_ops() {
    for (const OpInfo& info : op_tables::kOps) {
        if (info.chain != op_tables::kOps[info.base].chain) return false;
        if (info.chain && (info.min_inputs > 2 || info.max_inputs < 2 || (info.dtypes & kFloat) == 0 ||
                           info.bool_output)) {
            return false;
        }
    }
    return true;
}
static_assert(chain_ops_are_binary_float_ops(),
              "a chain op takes two float operands into their dtype, as its reversed op does");

// Element type of the op's output for input dtype dt.
bcast_dtype output_dtype(bcast_opcode op, bcast_dtype dt);

const char* rule_name(bcast_rule rule);          // "numpy"; nullptr if unknown
const char* expand_mode_name(bcast_expand_mode m);  // "bidirectional"; nullptr if unknown

// Whether two names are the same, ASCII case ignored (names are ASCII: no
// locale): how every name of the vocabulary and every ISA cap is looked up.
bool same_name(const char* a, const char* b);

}  // namespace bcast
