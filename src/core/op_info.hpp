// The op table: names, arity, reversed-op folding and which dtypes each op
// takes. The single source of truth for bcast_op_supports, bcast_op_create's
// validation, the kernel tables (which build kernels for supported pairs
// only) and the tests.
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
};

struct OpInfo {
    const char* name;       // "ADD", as in the header
    bcast_opcode base;      // kernel op: RSUB -> SUB, ...
    bool swapped;           // reversed op: operands swapped by the plan
    int min_inputs;
    int max_inputs;
    unsigned dtypes;        // DtypeSet
    bool bool_output;       // comparisons and logical ops write BOOL
};

// The tables behind the functions below, in the header so that the kernel
// tables can ask op_supports at compile time (only supported pairs get
// kernels). Use the functions.
namespace op_tables {

inline constexpr int kVariadic = BCAST_MAX_INPUTS;

// Indexed by opcode; the order is the header's.
inline constexpr OpInfo kOps[kNumOpcodes] = {
    {"ADD", BCAST_OP_ADD, false, 2, kVariadic, kNumeric, false},
    {"SUB", BCAST_OP_SUB, false, 2, 2, kNumeric, false},
    {"MUL", BCAST_OP_MUL, false, 2, kVariadic, kNumeric, false},
    {"DIV", BCAST_OP_DIV, false, 2, 2, kNumeric, false},
    {"MAX", BCAST_OP_MAX, false, 2, kVariadic, kNumeric, false},
    {"MIN", BCAST_OP_MIN, false, 2, kVariadic, kNumeric, false},
    {"POW", BCAST_OP_POW, false, 2, 2, kNumeric, false},
    {"RSUB", BCAST_OP_SUB, true, 2, 2, kNumeric, false},
    {"RDIV", BCAST_OP_DIV, true, 2, 2, kNumeric, false},
    {"RPOW", BCAST_OP_POW, true, 2, 2, kNumeric, false},
    {"ATAN2", BCAST_OP_ATAN2, false, 2, 2, kFloat, false},
    {"RATAN2", BCAST_OP_ATAN2, true, 2, 2, kFloat, false},
    {"FMOD", BCAST_OP_FMOD, false, 2, 2, kNumeric, false},
    {"RFMOD", BCAST_OP_FMOD, true, 2, 2, kNumeric, false},
    {"LOGADDEXP", BCAST_OP_LOGADDEXP, false, 2, 2, kFloat, false},
    {"FLOOR_DIVIDE", BCAST_OP_FLOOR_DIVIDE, false, 2, 2, kNumeric, false},
    {"RFLOOR_DIVIDE", BCAST_OP_FLOOR_DIVIDE, true, 2, 2, kNumeric, false},
    {"REMAINDER", BCAST_OP_REMAINDER, false, 2, 2, kFloat, false},
    {"RREMAINDER", BCAST_OP_REMAINDER, true, 2, 2, kFloat, false},
    {"MOD", BCAST_OP_MOD, false, 2, 2, kNumeric, false},
    {"SQUARED_DIFFERENCE", BCAST_OP_SQUARED_DIFFERENCE, false, 2, 2, kNumeric, false},
    {"PRELU", BCAST_OP_PRELU, false, 2, 2, kNumeric, false},
    {"EQUAL", BCAST_OP_EQUAL, false, 2, 2, kAll, true},
    {"NOT_EQUAL", BCAST_OP_NOT_EQUAL, false, 2, 2, kAll, true},
    {"LESS", BCAST_OP_LESS, false, 2, 2, kAll, true},
    {"LESS_EQUAL", BCAST_OP_LESS_EQUAL, false, 2, 2, kAll, true},
    {"GREATER", BCAST_OP_GREATER, false, 2, 2, kAll, true},
    {"GREATER_EQUAL", BCAST_OP_GREATER_EQUAL, false, 2, 2, kAll, true},
    {"LOGICAL_AND", BCAST_OP_LOGICAL_AND, false, 2, 2, kBool, true},
    {"LOGICAL_OR", BCAST_OP_LOGICAL_OR, false, 2, 2, kBool, true},
    {"LOGICAL_XOR", BCAST_OP_LOGICAL_XOR, false, 2, 2, kBool, true},
    {"BITWISE_AND", BCAST_OP_BITWISE_AND, false, 2, 2, kInt | kBool, false},
    {"BITWISE_OR", BCAST_OP_BITWISE_OR, false, 2, 2, kInt | kBool, false},
    {"BITWISE_XOR", BCAST_OP_BITWISE_XOR, false, 2, 2, kInt | kBool, false},
    {"SHIFT_LEFT", BCAST_OP_SHIFT_LEFT, false, 2, 2, kInt, false},
    {"SHIFT_RIGHT", BCAST_OP_SHIFT_RIGHT, false, 2, 2, kInt, false},
    {"MEAN", BCAST_OP_MEAN, false, 2, kVariadic, kFloat, false},
    {"SELECT", BCAST_OP_SELECT, false, 3, 3, kAll, false},
    {"COPY", BCAST_OP_COPY, false, 1, 1, kAll, false},
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

// nullptr for an unknown opcode.
constexpr const OpInfo* op_info(bcast_opcode op) {
    return (op < 0 || op >= kNumOpcodes) ? nullptr : &op_tables::kOps[op];
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
    const OpInfo* info = op_info(op);
    if (!info || !valid_dtype(dt)) return false;
    return (info->dtypes & op_tables::class_bit(dtype_class(dt))) != 0;
}

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

// Element type of the op's output for input dtype dt.
bcast_dtype output_dtype(bcast_opcode op, bcast_dtype dt);

const char* rule_name(bcast_rule rule);          // "numpy"; nullptr if unknown
const char* expand_mode_name(bcast_expand_mode m);  // "bidirectional"; nullptr if unknown

}  // namespace bcast
