// The op table: names, arity, reversed-op folding and which dtypes each op
// takes. The single source of truth for bcast_op_supports, bcast_op_create's
// validation, the kernel tables and the tests.
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

// nullptr for an unknown opcode.
const OpInfo* op_info(bcast_opcode op);

bool valid_dtype(bcast_dtype dt);
DtypeClass dtype_class(bcast_dtype dt);  // dt must be valid
std::size_t dtype_size(bcast_dtype dt);  // 0 if unknown
const char* dtype_name(bcast_dtype dt);  // "f32"; "?" if unknown

bool op_supports(bcast_opcode op, bcast_dtype dt);

// Element type of the op's output for input dtype dt.
bcast_dtype output_dtype(bcast_opcode op, bcast_dtype dt);

const char* rule_name(bcast_rule rule);          // "numpy"; nullptr if unknown
const char* expand_mode_name(bcast_expand_mode m);  // "bidirectional"; nullptr if unknown

}  // namespace bcast
