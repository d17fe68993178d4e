/*
 * bcast: element-wise tensor operations under every broadcasting rule in use
 * (ncnn BinaryOp, OpenVINO none/numpy/pdpd and Broadcast, ONNX multidirectional,
 * unidirectional, legacy axis and Expand).
 *
 * The one public header. Pure C99; every name is a real exported function (no
 * macros or inline functions stand in for API calls), so the library can be used
 * through dlopen/ctypes as well as by linking.
 *
 * Conventions that hold for every function below:
 *  - Shapes are written outer-to-inner (numpy order), also for the NCNN rule.
 *  - Every enum-like value is a fixed int32_t; values are never renumbered.
 *  - Every function that can fail returns a bcast_status. On failure nothing is
 *    written to any output argument and a detailed message is stored for the
 *    calling thread (bcast_last_error). On success the message is left alone;
 *    check the status, never poll bcast_last_error.
 *  - No function aborts, prints, or lets a C++ exception escape.
 *  - Thread safety: functions without a handle are thread-safe. A planned
 *    bcast_op is immutable while it executes: many threads may call
 *    bcast_op_execute / describe / output_shape / get_param on it at once.
 *    set_param, plan and destroy need exclusive access to that handle.
 *    Different handles are independent. The library starts no threads
 *    unless asked to (bcast_pool_create).
 */
#ifndef BCAST_BCAST_H
#define BCAST_BCAST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#define BCAST_NOEXCEPT noexcept
#else
#define BCAST_NOEXCEPT
#endif

#if defined(BCAST_BUILDING_LIBRARY) && defined(__GNUC__)
#define BCAST_API __attribute__((visibility("default")))
#else
#define BCAST_API
#endif

/* ------------------------------------------------------------------------ */
/* Version                                                                   */
/* ------------------------------------------------------------------------ */

#define BCAST_VERSION_MAJOR 1
#define BCAST_VERSION_MINOR 4
#define BCAST_VERSION_PATCH 0
/* MAJOR*10000 + MINOR*100 + PATCH; compare with bcast_version() at run time. */
#define BCAST_VERSION_NUMBER \
    (BCAST_VERSION_MAJOR * 10000 + BCAST_VERSION_MINOR * 100 + BCAST_VERSION_PATCH)
/* The SONAME is libbcast.so.<BCAST_ABI_VERSION>. */
#define BCAST_ABI_VERSION 1

/* Largest rank accepted anywhere; a rank of BCAST_MAX_RANK + 1 is refused. */
#define BCAST_MAX_RANK 32
/* Largest number of inputs an op or bcast_infer_shape accepts. */
#define BCAST_MAX_INPUTS 16

/* Version of the library actually loaded: MAJOR*10000 + MINOR*100 + PATCH. */
BCAST_API uint32_t bcast_version(void) BCAST_NOEXCEPT;
/* The same as static text, e.g. "1.0.0". Never NULL, never freed. */
BCAST_API const char* bcast_version_string(void) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

typedef int32_t bcast_status;
enum {
    BCAST_OK = 0,
    BCAST_ERROR_INVALID_ARGUMENT = 1,    /* NULL, bad enum, bad axis, bad rank...  */
    BCAST_ERROR_INCOMPATIBLE_SHAPES = 2, /* the rule refuses these shapes          */
    BCAST_ERROR_UNSUPPORTED = 3,         /* (op, dtype) pair or arity not offered   */
    BCAST_ERROR_OUT_OF_MEMORY = 4,
    BCAST_ERROR_SIZE_OVERFLOW = 5,       /* element count or byte size overflows    */
    BCAST_ERROR_INVALID_STATE = 6,       /* e.g. execute before a successful plan   */
    BCAST_ERROR_INTERNAL = 7,            /* a bug in bcast; please report it        */
    BCAST_ERROR_SYSTEM = 8               /* the system refused a thread (since 1.1) */
};

/* Static English name of a status ("BCAST_ERROR_INCOMPATIBLE_SHAPES").
 * Unknown values give "BCAST_ERROR_UNKNOWN". Never NULL. Thread-safe. */
BCAST_API const char* bcast_status_string(bcast_status status) BCAST_NOEXCEPT;

/* The calling thread's last failure message, naming the rule, the axis and both
 * extents for shape refusals, e.g.
 *   "numpy: cannot broadcast dimension 1: 3 vs 4 (shapes (2,3,5) and (4,5))".
 * "" if this thread has seen no failure. The pointer stays valid until this
 * thread's next failing bcast call. Never NULL. */
BCAST_API const char* bcast_last_error(void) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Broadcast rules (element-wise ops)                                        */
/* ------------------------------------------------------------------------ */

typedef int32_t bcast_rule;
enum {
    /* OpenVINO none/explicit: all shapes identical, rank included ([] vs [1] fails). */
    BCAST_RULE_NONE = 0,
    /* numpy, ONNX multidirectional, OpenVINO numpy: right-align, 1 stretches,
     * 0 vs 1 gives 0. Any number of inputs. */
    BCAST_RULE_NUMPY = 1,
    /* ONNX unidirectional (Gemm C, PRelu slope): every other input must
     * numpy-broadcast into the primary input's shape; output = primary shape. */
    BCAST_RULE_UNIDIRECTIONAL = 2,
    /* OpenVINO pdpd (Paddle): B goes into A starting at `axis` (-1 = rank(A) -
     * rank(B) with B's full rank; other negatives refused). rank(B) <= rank(A)
     * always (the spec's rule 1: (3) + (1,1) is refused); B's trailing 1s are
     * then ignored when B is matched against A, so (2,3) + (3,1) fits at
     * axis 1. A 1 anywhere in B broadcasts; output = A. */
    BCAST_RULE_PDPD = 3,
    /* ONNX opset < 7 broadcast=1 (Caffe2 behaviour): rank(B) <= rank(A)
     * always (() + (1) is refused); a one-element B then fits at any axis;
     * otherwise 0 <= axis <= rank(A) - rank(B), B's leading and trailing 1s
     * dropped, the rest must equal A exactly. axis -1 = suffix alignment. */
    BCAST_RULE_ONNX_LEGACY = 4,
    /* ncnn BinaryOp alignment (lower-rank operand on the outer axes; a 1-D
     * operand equal to the other's outermost extent goes there, else on the
     * innermost axis), then equal-or-1 per axis. Two inputs, ranks 0 to 4. */
    BCAST_RULE_NCNN = 5
};

/* Broadcast-to-target modes (OpenVINO Broadcast-1/3, ONNX Expand). */
typedef int32_t bcast_expand_mode;
enum {
    /* One-directional: output is exactly the target; right-aligned data dims must
     * be 1 or equal; rank(target) >= rank(data). */
    BCAST_EXPAND_NUMPY = 0,
    /* numpy broadcast of data against target (ONNX Expand); the output may differ
     * from the target. */
    BCAST_EXPAND_BIDIRECTIONAL = 1,
    /* axes_mapping gives, for each data axis, its target axis (sorted,
     * non-decreasing, each < rank(target)); data[i] is 1 or equals
     * target[axes_mapping[i]]. Output is the target. */
    BCAST_EXPAND_EXPLICIT = 2,
    /* OpenVINO Broadcast PDPD: data placed at `axis` (-1 = rank(target) -
     * rank(data)); a data 1 keeps the target dim, a target 1 takes the data dim,
     * otherwise equal. Data dims past the end of target must be 1. */
    BCAST_EXPAND_PDPD = 3
};

/* Output shape of an element-wise op under `rule`, without any handle.
 *  num_inputs   1..BCAST_MAX_INPUTS (NCNN: exactly 2). Input 0 is the primary
 *               ("A") operand for UNIDIRECTIONAL, PDPD and ONNX_LEGACY.
 *  ranks[i]     0..BCAST_MAX_RANK (NCNN: 0..4).
 *  dims[i]      ranks[i] extents >= 0; may be NULL when ranks[i] == 0.
 *  axis         used by PDPD and ONNX_LEGACY (-1 = default); ignored otherwise.
 *  out_dims     room for out_capacity extents; BCAST_MAX_RANK always suffices.
 * Returns INVALID_ARGUMENT (NULL, bad enum, bad rank, negative extent, an axis
 * below -1, out_capacity too small), INCOMPATIBLE_SHAPES (the rule refuses
 * these shapes, including an axis >= 0 at which B does not fit, however far
 * past A's rank: whether an axis fits depends on the shapes), or OK.
 * *out_rank and out_dims are written only on success. */
BCAST_API bcast_status bcast_infer_shape(bcast_rule rule, int64_t axis, size_t num_inputs,
                                         const size_t* ranks, const int64_t* const* dims,
                                         size_t out_capacity, size_t* out_rank,
                                         int64_t* out_dims) BCAST_NOEXCEPT;

/* Output shape of broadcasting data to target under `mode`.
 * axes_mapping/axes_count: EXPLICIT only (axes_count == data_rank; for rank-0
 * data, either no mapping or one entry whose target extent is 1); must be
 * NULL/0 for the other modes. axis: PDPD only (-1 = default).
 * Errors and what is written: as bcast_infer_shape. */
BCAST_API bcast_status bcast_infer_expand_shape(bcast_expand_mode mode, size_t data_rank,
                                                const int64_t* data_dims, size_t target_rank,
                                                const int64_t* target_dims,
                                                const int64_t* axes_mapping, size_t axes_count,
                                                int64_t axis, size_t out_capacity,
                                                size_t* out_rank,
                                                int64_t* out_dims) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Partial shapes (since 1.3): broadcasting before the extents are known     */
/* ------------------------------------------------------------------------ */
/*
 * For graph compilers and converters: a dimension is an interval [lo, hi]
 * (a known extent has lo == hi; hi may be BCAST_DIM_UNBOUNDED), optionally
 * named by a symbol (equal names are one extent), and a shape's rank may be
 * unknown. Three semantics (docs/partial-shapes.md):
 *  STRICT    bcast's own: the tightest output it can prove per dimension, a
 *            refusal (INCOMPATIBLE_SHAPES) exactly when no values of the
 *            unknowns make the rule accept, and the conditions that remain
 *            for run time. Static shapes that satisfy them are accepted by
 *            bcast_infer_shape with an output inside the inferred one; static
 *            shapes that do not are refused by it.
 *  ONNX      ONNX's shape inference (multidirectional broadcasting, Expand;
 *            unidirectional and legacy copy input 0): symbols as dim_param,
 *            a non-static interval as an anonymous dim; unknown rank gives
 *            no shape. Other rules: UNSUPPORTED.
 *  OPENVINO  OpenVINO's PartialShape merge for NONE, NUMPY, PDPD and
 *            Broadcast NUMPY / BIDIRECTIONAL, quirks included (an interval
 *            holding 1 broadcasts; an unknown rank makes NUMPY and PDPD fully
 *            dynamic). Other rules: UNSUPPORTED.
 * Strict takes unknown ranks under every rule (since 1.4 where the rule places
 * B from its first axis: PDPD, ONNX_LEGACY, NCNN, Broadcast EXPLICIT and PDPD),
 * except two inputs of unknown rank that bound each other's: A and a B under
 * PDPD at an axis or ONNX_LEGACY, data and target under Broadcast PDPD at an
 * axis (UNSUPPORTED).
 */
#define BCAST_DIM_UNBOUNDED INT64_MAX

typedef struct bcast_pdim {
    int64_t lo;         /* >= 0 */
    int64_t hi;         /* >= lo; BCAST_DIM_UNBOUNDED: no upper bound       */
    const char* symbol; /* NULL or "" for none; compared as strings        */
} bcast_pdim;

typedef struct bcast_pshape {
    int32_t rank_known; /* 1: the rank is num_dims. 0: the rank is unknown,
                           at least num_dims, and dims are its last ones    */
    size_t num_dims;    /* 0..BCAST_MAX_RANK                                */
    const bcast_pdim* dims; /* may be NULL when num_dims == 0               */
} bcast_pshape;

typedef int32_t bcast_semantics;
enum {
    BCAST_SEMANTICS_STRICT = 0,
    BCAST_SEMANTICS_ONNX = 1,
    BCAST_SEMANTICS_OPENVINO = 2
};

/* Run-time conditions (STRICT) in conjunctive normal form: the atoms of one
 * clause are ORed, the clauses ANDed; atoms come grouped by clause, clauses
 * numbered 0, 1, 2... A dimension is (input, axis): axis >= 0 counts from the
 * input's first axis, axis < 0 from its last (-1: the last); an axis the
 * input turns out not to have reads as extent 1. For Broadcast, input 0 is
 * the data and input 1 the target. */
typedef int32_t bcast_cond_kind;
enum {
    BCAST_COND_DIM_EQ_VALUE = 0, /* dim(input, axis) == other               */
    BCAST_COND_DIM_EQ_DIM = 1,   /* dim(input, axis) == dim(other_input, other) */
    BCAST_COND_RANK_EQ = 2,      /* rank(input) == other                    */
    BCAST_COND_RANK_GE = 3,      /* rank(input) >= other                    */
    BCAST_COND_RANK_LE = 4       /* rank(input) <= other                    */
};

typedef struct bcast_condition {
    uint32_t clause;
    bcast_cond_kind kind;
    int32_t input;
    int32_t other_input; /* DIM_EQ_DIM only, else 0 */
    int64_t axis;        /* DIM_* only, else 0 */
    int64_t other;
} bcast_condition;

/* Most condition atoms one inference returns (beyond: UNSUPPORTED). */
#define BCAST_MAX_CONDITIONS 4096

/* Output partial shape of an element-wise op under `rule` and `semantics`.
 *  inputs        num_inputs (1..BCAST_MAX_INPUTS) partial shapes; input 0 is
 *                the primary operand as for bcast_infer_shape.
 *  out_dims      room for out_capacity dims (BCAST_MAX_RANK suffices); each
 *                output symbol points at the caller's own string of an input
 *                dim, valid as long as that string is.
 *  out_num_dims, out_rank_known  the output shape as in bcast_pshape.
 *  conditions    room for conditions_capacity atoms (NULL if 0); STRICT's
 *                run-time conditions, none for the other semantics.
 *  num_conditions  the number of atoms written (0: nothing left to check).
 * INVALID_ARGUMENT (NULL, bad enum, rank above BCAST_MAX_RANK, lo < 0 or
 * hi < lo, one symbol declared with disjoint intervals under STRICT, a
 * capacity too small: the message gives the size needed), INCOMPATIBLE_SHAPES,
 * UNSUPPORTED, or OK; nothing is written on failure. */
BCAST_API bcast_status bcast_infer_partial_shape(
    bcast_semantics semantics, bcast_rule rule, int64_t axis, size_t num_inputs,
    const bcast_pshape* inputs, size_t out_capacity, bcast_pdim* out_dims,
    size_t* out_num_dims, int32_t* out_rank_known, size_t conditions_capacity,
    bcast_condition* conditions, size_t* num_conditions) BCAST_NOEXCEPT;

/* The same for broadcasting data to target under `mode` (arguments as for
 * bcast_infer_expand_shape). */
BCAST_API bcast_status bcast_infer_partial_expand_shape(
    bcast_semantics semantics, bcast_expand_mode mode, const bcast_pshape* data,
    const bcast_pshape* target, const int64_t* axes_mapping, size_t axes_count, int64_t axis,
    size_t out_capacity, bcast_pdim* out_dims, size_t* out_num_dims, int32_t* out_rank_known,
    size_t conditions_capacity, bcast_condition* conditions,
    size_t* num_conditions) BCAST_NOEXCEPT;

/* Evaluates conditions on static shapes (num_inputs, ranks, dims as for
 * bcast_infer_shape): *holds = 1 if every clause has a true atom, else 0.
 * INVALID_ARGUMENT for NULL arrays, a condition naming a missing input, or
 * a clause number below the one before it (atoms come grouped, in order). */
BCAST_API bcast_status bcast_conditions_hold(size_t num_conditions,
                                             const bcast_condition* conditions,
                                             size_t num_inputs, const size_t* ranks,
                                             const int64_t* const* dims,
                                             int32_t* holds) BCAST_NOEXCEPT;

/* The conditions as text, one clause per line, e.g. "N == 1 or M == 1 or
 * N == M": a dimension is named by its symbol (one without a line break) or
 * known extent in `inputs` (may be NULL), else as in0[1] / in0[-1].
 * snprintf-like: writes at most size bytes with the NUL and returns the full
 * length; 0 for bad arguments (as for bcast_conditions_hold: a condition
 * naming a negative input, or one of num_inputs or more where num_inputs > 0
 * or inputs is given; a clause number below the one before it). */
BCAST_API size_t bcast_conditions_format(size_t num_conditions,
                                         const bcast_condition* conditions, size_t num_inputs,
                                         const bcast_pshape* inputs, char* buf,
                                         size_t size) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Element types                                                             */
/* ------------------------------------------------------------------------ */

typedef int32_t bcast_dtype;
enum {
    BCAST_DTYPE_F32 = 0,
    BCAST_DTYPE_F64 = 1,
    BCAST_DTYPE_F16 = 2,  /* IEEE binary16 bits in uint16_t; computed in f32 */
    BCAST_DTYPE_BF16 = 3, /* bfloat16 bits in uint16_t; computed in f32      */
    BCAST_DTYPE_I8 = 4,
    BCAST_DTYPE_U8 = 5,
    BCAST_DTYPE_I16 = 6,
    BCAST_DTYPE_U16 = 7,
    BCAST_DTYPE_I32 = 8,
    BCAST_DTYPE_U32 = 9,
    BCAST_DTYPE_I64 = 10,
    BCAST_DTYPE_U64 = 11,
    BCAST_DTYPE_BOOL = 12 /* one byte, 0 or 1 */
};
/* BOOL inputs must hold 0 or 1, except where an op says any non-zero byte is
 * true (LOGICAL_*, SELECT's condition). Other byte values elsewhere give some
 * byte in each output element; which one is not specified. */

/* Size of one element in bytes; 0 for an unknown dtype. */
BCAST_API size_t bcast_dtype_size(bcast_dtype dtype) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Opcodes                                                                   */
/* ------------------------------------------------------------------------ */
/*
 * Ids 0-18 are ncnn BinaryOp's op_type values. x is input 0, y is input 1.
 * "float" = F32 F64 F16 BF16; "int" = I8 U8 I16 U16 I32 U32 I64 U64;
 * "numeric" = float + int. F16/BF16 compute in f32 and round to nearest even.
 * Float results are exact IEEE (no fast-math); POW/ATAN2/LOGADDEXP within 2 ulp.
 * Integer +,-,* wrap; integer division/remainder by zero gives 0, INT_MIN/-1
 * wraps to INT_MIN. The output dtype is the op's dtype unless marked "-> BOOL".
 *
 *  op                  inputs  dtypes     result
 *  ADD                 2..16   numeric    x + y (+ ...)
 *  SUB, RSUB           2       numeric    x - y ; y - x
 *  MUL                 2..16   numeric    x * y (* ...)
 *  DIV, RDIV           2       numeric    x / y (int: truncates) ; y / x
 *  MAX, MIN            2..16   numeric    NaN from either side propagates; of
 *                                         equal inputs (-0 and +0) the earlier
 *                                         one (std::max's; numpy gives the
 *                                         later)
 *  POW, RPOW           2       numeric    C pow; int: exact by squaring, a
 *                                         negative exponent gives 0 unless the
 *                                         base is 1 or -1
 *  ATAN2, RATAN2       2       float      atan2(x, y) ; atan2(y, x)
 *  FMOD, RFMOD         2       numeric    C fmod (sign of the dividend)
 *  LOGADDEXP           2       float      log(exp(x) + exp(y))
 *  FLOOR_DIVIDE, RFLOOR_DIVIDE 2 numeric  floor(x / y) as numpy //
 *  REMAINDER, RREMAINDER 2     float      IEEE remainder (C remainder)
 *  MOD                 2       numeric    floor remainder, sign of the divisor
 *                                         (numpy %)
 *  SQUARED_DIFFERENCE  2       numeric    (x - y)^2
 *  PRELU               2       numeric    x < 0 ? x * y : x  (y = slope)
 *  EQUAL .. GREATER_EQUAL 2    numeric, BOOL  -> BOOL
 *  LOGICAL_AND/OR/XOR  2       BOOL       -> BOOL (any non-zero byte is true)
 *  BITWISE_AND/OR/XOR  2       int, BOOL
 *  SHIFT_LEFT/RIGHT    2       int        x << y, x >> y (arithmetic for signed);
 *                                         a count < 0 or >= bit width gives 0
 *  MEAN                2..16   float      (x + y + ...) / n
 *  SELECT              3       all        cond ? x : y; input 0 is the BOOL
 *                                         condition (any non-zero byte is
 *                                         true), dtype is that of x and y
 *  COPY                1       all        materialise a broadcast (Expand)
 */
typedef int32_t bcast_opcode;
enum {
    BCAST_OP_ADD = 0,
    BCAST_OP_SUB = 1,
    BCAST_OP_MUL = 2,
    BCAST_OP_DIV = 3,
    BCAST_OP_MAX = 4,
    BCAST_OP_MIN = 5,
    BCAST_OP_POW = 6,
    BCAST_OP_RSUB = 7,
    BCAST_OP_RDIV = 8,
    BCAST_OP_RPOW = 9,
    BCAST_OP_ATAN2 = 10,
    BCAST_OP_RATAN2 = 11,
    BCAST_OP_FMOD = 12,
    BCAST_OP_RFMOD = 13,
    BCAST_OP_LOGADDEXP = 14,
    BCAST_OP_FLOOR_DIVIDE = 15,
    BCAST_OP_RFLOOR_DIVIDE = 16,
    BCAST_OP_REMAINDER = 17,
    BCAST_OP_RREMAINDER = 18,
    BCAST_OP_MOD = 19,
    BCAST_OP_SQUARED_DIFFERENCE = 20,
    BCAST_OP_PRELU = 21,
    BCAST_OP_EQUAL = 22,
    BCAST_OP_NOT_EQUAL = 23,
    BCAST_OP_LESS = 24,
    BCAST_OP_LESS_EQUAL = 25,
    BCAST_OP_GREATER = 26,
    BCAST_OP_GREATER_EQUAL = 27,
    BCAST_OP_LOGICAL_AND = 28,
    BCAST_OP_LOGICAL_OR = 29,
    BCAST_OP_LOGICAL_XOR = 30,
    BCAST_OP_BITWISE_AND = 31,
    BCAST_OP_BITWISE_OR = 32,
    BCAST_OP_BITWISE_XOR = 33,
    BCAST_OP_SHIFT_LEFT = 34,
    BCAST_OP_SHIFT_RIGHT = 35,
    BCAST_OP_MEAN = 36,
    BCAST_OP_SELECT = 37,
    BCAST_OP_COPY = 38
};

/* 1 if `opcode` accepts `dtype` (see the table above), else 0. Thread-safe. */
BCAST_API int32_t bcast_op_supports(bcast_opcode opcode, bcast_dtype dtype) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Names (since 1.3)                                                         */
/* ------------------------------------------------------------------------ */
/*
 * The library's own names of its opcodes, dtypes, rules and expand modes, so
 * that bindings and tools ask instead of copying them. A value's name is its
 * enumerator without the prefix, in the case bcast_op_describe and the error
 * messages use: opcodes upper case ("ADD", "FLOOR_DIVIDE"), the rest lower
 * case ("f32", "bf16", "bool"; "numpy", "onnx_legacy"; "bidirectional").
 * Each value has exactly one name. The values of each kind run from 0
 * without gaps, so a loop from 0 to the first NULL name lists them all:
 *     for (bcast_opcode op = 0; bcast_opcode_name(op); ++op) ...
 * Thread-safe.
 */

/* Static text, or NULL for an unknown value. */
BCAST_API const char* bcast_opcode_name(bcast_opcode opcode) BCAST_NOEXCEPT;
BCAST_API const char* bcast_dtype_name(bcast_dtype dtype) BCAST_NOEXCEPT;
BCAST_API const char* bcast_rule_name(bcast_rule rule) BCAST_NOEXCEPT;
BCAST_API const char* bcast_expand_mode_name(bcast_expand_mode mode) BCAST_NOEXCEPT;

/* The value of a name. ASCII case is ignored ("add", "Add" and "ADD" are all
 * BCAST_OP_ADD; "F32" is BCAST_DTYPE_F32) and nothing else is: no blanks
 * around the name, no '-' for '_', no aliases (ONNX's "multidirectional" is
 * not taken for "numpy"; a binding maps its own aliases). *out is written
 * only on success. INVALID_ARGUMENT for a NULL name or out, or an unknown
 * name (the message quotes it and lists the names). */
BCAST_API bcast_status bcast_opcode_from_name(const char* name,
                                              bcast_opcode* out) BCAST_NOEXCEPT;
BCAST_API bcast_status bcast_dtype_from_name(const char* name, bcast_dtype* out) BCAST_NOEXCEPT;
BCAST_API bcast_status bcast_rule_from_name(const char* name, bcast_rule* out) BCAST_NOEXCEPT;
BCAST_API bcast_status bcast_expand_mode_from_name(const char* name,
                                                   bcast_expand_mode* out) BCAST_NOEXCEPT;

/* The dtype `opcode` writes for `dtype` (the dtype bcast_op_create takes):
 * BOOL for the comparisons and logical ops, `dtype` for every other op.
 * INVALID_ARGUMENT for an unknown opcode or dtype or a NULL out; UNSUPPORTED
 * if the op does not take the dtype (bcast_op_supports). *out is written only
 * on success. */
BCAST_API bcast_status bcast_op_output_dtype(bcast_opcode opcode, bcast_dtype dtype,
                                             bcast_dtype* out) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Operators: create once, plan per shape, execute many times               */
/* ------------------------------------------------------------------------ */

typedef struct bcast_op bcast_op;

/* Parameters of an op (bcast_op_set_param / bcast_op_get_param). */
typedef int32_t bcast_param;
enum {
    BCAST_PARAM_RULE = 0,        /* a bcast_rule; default BCAST_RULE_NUMPY        */
    BCAST_PARAM_AXIS = 1,        /* PDPD / ONNX_LEGACY / EXPAND_PDPD axis; def. -1 */
    BCAST_PARAM_EXPAND_MODE = 2  /* a bcast_expand_mode for bcast_op_plan_to;
                                    default BCAST_EXPAND_NUMPY                  */
};

/* Creates an op. *out receives a new handle, owned by the caller and released
 * with bcast_op_destroy. UNSUPPORTED if the (opcode, dtype) pair is not in the
 * table; INVALID_ARGUMENT for unknown values or out == NULL; *out is written
 * only on success. */
BCAST_API bcast_status bcast_op_create(bcast_opcode opcode, bcast_dtype dtype,
                                       bcast_op** out) BCAST_NOEXCEPT;

/* Sets a parameter. Any earlier plan is discarded (plan again before executing).
 * INVALID_ARGUMENT for a NULL op, unknown parameter or out-of-range value; the
 * op is unchanged on failure (plan included). Needs exclusive access to op. */
BCAST_API bcast_status bcast_op_set_param(bcast_op* op, bcast_param param,
                                          int64_t value) BCAST_NOEXCEPT;

/* Reads a parameter into *value. INVALID_ARGUMENT for NULL or unknown param. */
BCAST_API bcast_status bcast_op_get_param(const bcast_op* op, bcast_param param,
                                          int64_t* value) BCAST_NOEXCEPT;

/* Plans the op for these input shapes under the op's rule and axis.
 *  num_inputs     the op's arity (see the table); ranks/dims as bcast_infer_shape.
 *  strides        NULL (all inputs contiguous), or one entry per input: NULL
 *                 (that input contiguous) or ranks[i] element strides; 0 and
 *                 negative strides are allowed.
 *  out_strides    NULL (contiguous output) or one element stride per output axis
 *                 (e.g. ncnn's channel-padded cstep layout). Accepted when,
 *                 over the axes of extent > 1 sorted by |stride|, each |stride|
 *                 exceeds the largest offset the smaller ones reach
 *                 (sum of |stride| * (extent - 1)): true of every row-major,
 *                 column-major, permuted, padded or reversed layout, and it
 *                 proves that no two output elements share memory. Any other
 *                 layout is refused with INVALID_ARGUMENT, including
 *                 interleavings that happen not to collide ((3,2) with
 *                 strides (2,3)).
 * Offsets that overflow int64 bytes give SIZE_OVERFLOW. An output with no
 * elements (an extent of 0) is planned whatever its other extents and the
 * strides: nothing will be touched.
 * SELECT under PDPD / UNIDIRECTIONAL / ONNX_LEGACY uses x (input 1) as the
 * primary operand. The plan resolves the rule, coalesces the loops and picks the
 * kernels for the current ISA. On failure its parameters are unchanged and the
 * op has no plan (execute gives INVALID_STATE), except on OUT_OF_MEMORY, which
 * leaves the op exactly as it was: an earlier plan still executes. Needs
 * exclusive access. */
BCAST_API bcast_status bcast_op_plan(bcast_op* op, size_t num_inputs, const size_t* ranks,
                                     const int64_t* const* dims,
                                     const int64_t* const* strides,
                                     const int64_t* out_strides) BCAST_NOEXCEPT;

/* Plans the op so that every input is broadcast to a target shape under the op's
 * BCAST_PARAM_EXPAND_MODE (and AXIS for EXPAND_PDPD): OpenVINO Broadcast and ONNX
 * Expand with BCAST_OP_COPY, or any op whose output shape is given. Every input
 * must resolve to the same output shape (bcast_infer_expand_shape of each input
 * against the target). axes_mapping/axes_count: EXPLICIT only, applied to every
 * input. Other arguments and failure behaviour as bcast_op_plan. */
BCAST_API bcast_status bcast_op_plan_to(bcast_op* op, size_t num_inputs, const size_t* ranks,
                                        const int64_t* const* dims,
                                        const int64_t* const* strides, size_t target_rank,
                                        const int64_t* target_dims,
                                        const int64_t* axes_mapping, size_t axes_count,
                                        const int64_t* out_strides) BCAST_NOEXCEPT;

/* Writes the planned output shape: *rank, and rank extents into dims (room for
 * capacity). INVALID_STATE without a plan; INVALID_ARGUMENT for NULLs or too
 * small a capacity. Nothing written on failure. Thread-safe on a planned op. */
BCAST_API bcast_status bcast_op_output_shape(const bcast_op* op, size_t capacity,
                                             size_t* rank, int64_t* dims) BCAST_NOEXCEPT;

/* Runs the planned op. inputs[i] points at input i's element at index
 * (0,...,0); output likewise (with negative strides the data lie below it).
 * Allocates nothing and does no shape work. The output may be exactly an input
 * (same pointer, same dtype size, same layout over the output: in place); any
 * other overlap between the output and an input is refused with
 * INVALID_ARGUMENT and nothing is written. Overlap is judged by the byte
 * ranges the two span, from lowest to highest element: views that interleave
 * without sharing an element (a[0::2] and a[1::2]) are refused too. Every pointer must be aligned to
 * its element size (malloc and numpy buffers always are; a float at an odd
 * address is refused with INVALID_ARGUMENT), and the bytes its strides reach
 * must lie inside the address space. NULL pointers are accepted only when
 * the output has no elements (then alignment is not checked either).
 * INVALID_STATE without a plan. Thread-safe on a planned op (different
 * outputs per thread). */
BCAST_API bcast_status bcast_op_execute(const bcast_op* op, const void* const* inputs,
                                        void* output) BCAST_NOEXCEPT;

/* Describes the plan as one JSON object: op, dtype, rule, isa, output shape,
 * "loops" outer to inner (extent and per-operand element strides, operands in
 * the order the kernel sees them, output last), and the inner "kernel" kind
 * ("vv", "vs", "sv", "periodic", "strided", "copy", "fill", "nary", or "empty").
 * snprintf semantics: writes at most size bytes including the terminating NUL
 * (nothing if buf is NULL or size is 0) and returns the full length without the
 * NUL. Without a plan, describes the op and "planned": false. A NULL op gives 0;
 * so does running out of memory, which writes "" (if size > 0) and sets
 * bcast_last_error. */
BCAST_API size_t bcast_op_describe(const bcast_op* op, char* buf, size_t size) BCAST_NOEXCEPT;

/* Releases an op. NULL is a no-op. Needs exclusive access. */
BCAST_API void bcast_op_destroy(bcast_op* op) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Parallel execution (since 1.1)                                            */
/* ------------------------------------------------------------------------ */

/* Into how many tasks a planned op splits, at most max_tasks (>= 1): 1 when
 * the op is too small to gain from more threads. Writes *count.
 * INVALID_ARGUMENT for NULL or max_tasks 0; INVALID_STATE without a plan.
 * Thread-safe on a planned op. */
BCAST_API bcast_status bcast_op_task_count(const bcast_op* op, size_t max_tasks,
                                           size_t* count) BCAST_NOEXCEPT;

/* Runs task `task` of `count` (task < count) of a planned op. The tasks of one
 * set of buffers write disjoint parts of the output, split at cache lines of a
 * contiguous output where the layout allows, and together write exactly what
 * bcast_op_execute writes, bit for bit, in any order and on any threads (in
 * place and with any strides too; as between kernel sets, a float NaN computed
 * from two NaN operands may carry either operand's payload). Any count >= 1 is
 * valid, also more than bcast_op_task_count gave (surplus tasks write
 * nothing). The buffers are checked as by bcast_op_execute; a refused task
 * writes nothing. INVALID_ARGUMENT for task >= count. Thread-safe on a planned
 * op. With an engine's own pool:
 *     size_t n; bcast_op_task_count(op, threads, &n);
 *     #pragma omp parallel for
 *     for (size_t i = 0; i < n; ++i) bcast_op_execute_task(op, in, out, i, n); */
BCAST_API bcast_status bcast_op_execute_task(const bcast_op* op, const void* const* inputs,
                                             void* output, size_t task,
                                             size_t count) BCAST_NOEXCEPT;

/* bcast's own thread pool, for callers without one. `threads` counts the
 * calling thread, which works too (0: the CPUs this process may run on, from
 * its affinity mask; at most 4096, else INVALID_ARGUMENT): threads - 1 are
 * started here; between executes they spin for at most 50 us, then sleep. SYSTEM if the system refuses a
 * thread, OUT_OF_MEMORY; nothing is left running then. A forked child cannot
 * use its parent's pool (the threads stay in the parent): executes give
 * INVALID_STATE, and bcast_pool_destroy only forgets it (its memory is not
 * freed); the child creates its own. */
typedef struct bcast_pool bcast_pool;
BCAST_API bcast_status bcast_pool_create(size_t threads, bcast_pool** out) BCAST_NOEXCEPT;

/* The pool's thread count, the caller included (0 for NULL). */
BCAST_API size_t bcast_pool_threads(const bcast_pool* pool) BCAST_NOEXCEPT;

/* Stops the pool's threads and releases it (in a forked child, a parent's
 * pool is left alone). NULL is a no-op. Needs exclusive access: no execute may
 * be running on it. */
BCAST_API void bcast_pool_destroy(bcast_pool* pool) BCAST_NOEXCEPT;

/* bcast_op_execute on the pool's threads and the caller's: the same result,
 * bit for bit. Small ops run on the calling thread alone, without waking the
 * pool. One pool runs one execute at a time; concurrent callers of one pool
 * wait their turn. A NULL pool is bcast_op_execute. Thread-safe. */
BCAST_API bcast_status bcast_op_execute_pool(const bcast_op* op, const void* const* inputs,
                                             void* output, bcast_pool* pool) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Fused expressions (since 1.2)                                             */
/* ------------------------------------------------------------------------ */

/* A chain (a DAG) of ops from the op table over num_inputs inputs, run in one
 * pass over memory: (x - mean) * rstd * gamma + beta reads x and writes y once
 * instead of once per op. Values are numbered: inputs 0..num_inputs-1, then
 * each node added gets the next number. A node takes an opcode, its own
 * broadcast rule and axis (as bcast_op_set_param sets them for one op) and
 * earlier values as operands, so a graph has no cycle by construction. Every
 * node's result is rounded to its dtype, as the ops run one by one round it:
 * a fused expression writes exactly what running its nodes with bcast_op_*
 * and materialised intermediates writes (as between kernel sets, a float NaN
 * from two NaN operands may carry either payload, and POW/ATAN2/LOGADDEXP on
 * floats, within 2 ulp of the exact result, may round differently from one
 * layout to another: a chain through them may differ as much). */
#define BCAST_EXPR_MAX_NODES 16
typedef struct bcast_expr bcast_expr;

/* A new expression over num_inputs (1..BCAST_MAX_INPUTS) inputs of dtype.
 * INVALID_ARGUMENT for an unknown dtype, a bad count or NULL out. */
BCAST_API bcast_status bcast_expr_create(bcast_dtype dtype, size_t num_inputs,
                                         bcast_expr** out) BCAST_NOEXCEPT;

/* Sets one input's dtype (default: the expression's), e.g. BCAST_DTYPE_BOOL for
 * a SELECT condition; it replaces a quantization set on the input (the later
 * of this and bcast_expr_set_quantization decides how the input is read).
 * INVALID_STATE once a node uses that input. */
BCAST_API bcast_status bcast_expr_set_input_dtype(bcast_expr* expr, size_t input,
                                                  bcast_dtype dtype) BCAST_NOEXCEPT;

/* Adds a node computing opcode over operands[0..num_operands) (value numbers)
 * under rule and axis (-1: the rule's default); writes its value number to
 * *value (may be NULL). The node's dtype is its operands' (SELECT: x and y's,
 * and its condition must be BOOL); comparisons and logical ops give BOOL.
 * Refused, naming the node, and nothing added: INVALID_ARGUMENT for an unknown
 * opcode or rule, a negative axis other than -1, an operand that is not an
 * earlier value, operands of different dtypes; UNSUPPORTED for a wrong operand
 * count, an op that does not take the dtype, or a node beyond
 * BCAST_EXPR_MAX_NODES. Discards any plan. */
BCAST_API bcast_status bcast_expr_add_node(bcast_expr* expr, bcast_opcode opcode,
                                           bcast_rule rule, int64_t axis, size_t num_operands,
                                           const size_t* operands, size_t* value) BCAST_NOEXCEPT;

/* Which node's value the expression writes (default: the last node added).
 * INVALID_ARGUMENT for a value that is not a node. Discards any plan. */
BCAST_API bcast_status bcast_expr_set_output(bcast_expr* expr, size_t value) BCAST_NOEXCEPT;

/* Plans the expression for its inputs' shapes and strides, as bcast_op_plan
 * takes them (num_inputs must be the expression's). Each node is resolved as
 * it would be run alone, its placement composed through the chain: the output
 * shape and every refusal are those of the nodes run one by one (the message
 * names the node). Nodes the output does not use are still checked. Beyond
 * that, UNSUPPORTED where the chain reads its inputs along more than 16
 * different placements or evaluates its nodes along more than 32 (a value used
 * under two different broadcast placements counts twice). On a refusal the
 * expression has no plan. */
BCAST_API bcast_status bcast_expr_plan(bcast_expr* expr, size_t num_inputs, const size_t* ranks,
                                       const int64_t* const* dims,
                                       const int64_t* const* strides,
                                       const int64_t* out_strides) BCAST_NOEXCEPT;

/* The planned output shape, as bcast_op_output_shape gives it. */
BCAST_API bcast_status bcast_expr_output_shape(const bcast_expr* expr, size_t capacity,
                                               size_t* rank, int64_t* dims) BCAST_NOEXCEPT;

/* Runs the planned expression. inputs[i] points at input i's first element;
 * the buffers are checked as by bcast_op_execute (in place: the output may be
 * an input read with exactly the output's layout everywhere it is read); an
 * input the output does not depend on is not read, nor looked at (it may be
 * NULL).
 * Allocates nothing; uses about 40 KiB of the calling thread's stack.
 * Thread-safe on a planned expression (each call with its own output). */
BCAST_API bcast_status bcast_expr_execute(const bcast_expr* expr, const void* const* inputs,
                                          void* output) BCAST_NOEXCEPT;

/* Tasks and pools as for an op (bcast_op_task_count, bcast_op_execute_task,
 * bcast_op_execute_pool): the same contracts, on the planned expression. */
BCAST_API bcast_status bcast_expr_task_count(const bcast_expr* expr, size_t max_tasks,
                                             size_t* count) BCAST_NOEXCEPT;
BCAST_API bcast_status bcast_expr_execute_task(const bcast_expr* expr, const void* const* inputs,
                                               void* output, size_t task,
                                               size_t count) BCAST_NOEXCEPT;
BCAST_API bcast_status bcast_expr_execute_pool(const bcast_expr* expr, const void* const* inputs,
                                               void* output, bcast_pool* pool) BCAST_NOEXCEPT;

/* Describes the expression as one JSON object: dtype, input dtypes, nodes,
 * output; once planned also the output shape, the fused loop nest (one stride
 * per operand: each placed read of an input, then the output), the block size,
 * the steps, and whether they run in registers ("in_registers": a linear chain
 * of + - * / max min over f32 or f64 on a SIMD kernel set). Writes at most
 * size bytes including the NUL (snprintf-like) and returns the full length; 0
 * for NULL expr. */
BCAST_API size_t bcast_expr_describe(const bcast_expr* expr, char* buf,
                                     size_t size) BCAST_NOEXCEPT;

/* Releases an expression. NULL is a no-op. Needs exclusive access. */
BCAST_API void bcast_expr_destroy(bcast_expr* expr) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Quantized ops and expressions (since 1.4)                                 */
/* ------------------------------------------------------------------------ */
/*
 * 8-bit per-tensor quantization: a u8 or i8 value q stands for
 * scale * (q - zero_point). A quantized op computes exactly what ONNX's QDQ
 * graph computes (docs/quantization.md): DequantizeLinear of each input
 * ((q - zero_point) as an integer, converted to f32, times the f32 scale),
 * the op in f32 as bcast's f32 op computes it, then QuantizeLinear of the
 * result (the f32 quotient by the output scale, rounded half to even, plus
 * the output zero point, saturated to the dtype; +-inf and quotients beyond
 * the dtype saturate, NaN gives the dtype's minimum). Bit for bit on every
 * kernel set. The quantized ops are ADD, SUB, RSUB, MUL, DIV, RDIV, MAX, MIN,
 * SQUARED_DIFFERENCE and PRELU, on ops created with BCAST_DTYPE_U8 or
 * BCAST_DTYPE_I8 (the inputs and the output share that dtype). Valid
 * parameters: a scale that is a positive, normal, finite float (subnormal
 * scales are refused) and a zero point in the dtype's range; anything else is
 * refused with INVALID_ARGUMENT and a message naming the operand, and nothing
 * changes.
 */

/* The output, where a function takes an operand: inputs are 0, 1, ... */
#define BCAST_OUTPUT ((size_t)-1)

/* Sets the scale and zero point of input `operand` (below the op's largest
 * arity) or of the output (BCAST_OUTPUT). Once any operand has them, the op
 * is quantized: bcast_op_plan then needs them for every input it is planned
 * with and for the output (else INVALID_STATE naming the one missing), and
 * bcast_op_plan_to refuses it (UNSUPPORTED). Rules, axis, strides, tasks,
 * pools and in-place execution work as for any op; the output may be an
 * input (same pointer and layout) whatever the two quantizations are.
 * UNSUPPORTED for an op that is not quantized (see above) or a dtype other
 * than u8/i8; INVALID_ARGUMENT for a NULL op, an operand beyond the op's
 * arity or bad parameters. Discards any plan. Needs exclusive access. */
BCAST_API bcast_status bcast_op_set_quantization(bcast_op* op, size_t operand, float scale,
                                                 int32_t zero_point) BCAST_NOEXCEPT;

/* Reads an operand's scale and zero point (either pointer may be NULL to
 * skip it). INVALID_STATE where the operand has none; INVALID_ARGUMENT for a
 * NULL op or an operand beyond the op's arity. Nothing written on failure. */
BCAST_API bcast_status bcast_op_get_quantization(const bcast_op* op, size_t operand,
                                                 float* scale,
                                                 int32_t* zero_point) BCAST_NOEXCEPT;

/* Quantizes an expression's input or output. An input (below num_inputs)
 * becomes `dtype` (u8 or i8) in memory, dequantized as it is read: the nodes
 * see an f32 value (so build the expression's nodes over f32). Like
 * bcast_expr_set_input_dtype, INVALID_STATE once a node uses the input. The
 * output (BCAST_OUTPUT) is written as `dtype`, quantized from the output
 * node's f32 result (bcast_expr_plan refuses any other result dtype with
 * UNSUPPORTED). The expression computes what its nodes run one by one with
 * DequantizeLinear and QuantizeLinear nodes around them compute, in one pass:
 * e.g. requantize(dequantize(x) * s + b). UNSUPPORTED for a dtype other than
 * u8/i8; INVALID_ARGUMENT for bad parameters or a bad operand. Discards any
 * plan. */
BCAST_API bcast_status bcast_expr_set_quantization(bcast_expr* expr, size_t operand,
                                                   bcast_dtype dtype, float scale,
                                                   int32_t zero_point) BCAST_NOEXCEPT;

/* Reads an operand's quantization (dtype, scale and zero point; any pointer
 * may be NULL to skip it). INVALID_STATE where the operand has none;
 * INVALID_ARGUMENT for a NULL expr or a bad operand. Nothing written on
 * failure. */
BCAST_API bcast_status bcast_expr_get_quantization(const bcast_expr* expr, size_t operand,
                                                   bcast_dtype* dtype, float* scale,
                                                   int32_t* zero_point) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* CPU dispatch                                                              */
/* ------------------------------------------------------------------------ */

/* Name of the kernel set new plans use: "avx512", "avx2", "sse2", "neon" or
 * "scalar". Static text. Thread-safe. */
BCAST_API const char* bcast_isa(void) BCAST_NOEXCEPT;

/* Caps the kernel set used by plans made from now on ("scalar", "sse2", "avx2",
 * "avx512", "neon", ASCII case ignored since 1.4; the best the CPU supports up
 * to that cap; another architecture's set caps nothing). Plans made
 * before keep the kernels they were planned with. The environment
 * variable BCAST_MAX_ISA does the same at load time. INVALID_ARGUMENT for NULL
 * or an unknown name. Thread-safe. */
BCAST_API bcast_status bcast_set_max_isa(const char* name) BCAST_NOEXCEPT;

/* The names bcast_set_max_isa takes, by index from 0: every kernel set this
 * library knows, of any architecture, whether or not this build or CPU has it
 * ("scalar" first); NULL past the last and for a negative index. Static text.
 * Thread-safe. (Since 1.4.) */
BCAST_API const char* bcast_isa_name(int32_t index) BCAST_NOEXCEPT;

/* ------------------------------------------------------------------------ */
/* Tuning (since 1.4): the host's measured choices                           */
/* ------------------------------------------------------------------------ */

/* The kernels' and planner's speed-only choices (prefetch hint and distance,
 * when to stream stores on one and on several threads, the least work per
 * task) come from a tuning looked up once, at the first plan: the file named
 * by the environment variable BCAST_TUNING ("off": none), else
 * $XDG_CACHE_HOME/bcast/tuning.json (~/.cache/bcast/tuning.json), else
 * /var/cache/bcast/tuning.json; `bcast tune` writes one. A file for another
 * CPU (vendor, family, model, kernel set), of another format, or malformed
 * is ignored; then the built-in tuning for the CPU's family is in force.
 * The kernel set of the key is the one plans use at the lookup: a later
 * bcast_set_max_isa does not look again (the tuning found stays in force,
 * and bcast_tuning_describe's "key" keeps saying which). Tuning never
 * changes results. The library never writes a file. */

/* Makes the tuning text (len bytes, the format `bcast tune` writes) the one
 * in force for plans and kernel calls from now on, if it is for this host
 * (the key of the lookup, as bcast_tuning_describe shows it).
 * INVALID_ARGUMENT with the reason in bcast_last_error when it is malformed
 * or for another host (nothing changes then). NULL text restores what the
 * first lookup found. Each accepted text's tuning is kept for the life of the
 * process (a few hundred bytes), so that kernels running meanwhile never see
 * it freed. Thread-safe. */
BCAST_API bcast_status bcast_tuning_load_string(const char* text, size_t len) BCAST_NOEXCEPT;

/* The tuning in force as a tuning text for this host (one JSON object:
 * "key", "choices"), whose "info" says where it came from ("source": "file
 * PATH", "built-in zen4", "built-in zen4 (BCAST_TUNING=off)" or "string"),
 * which files were ignored and why ("ignored"), the built-in family and its
 * "defaults", and how long finding and reading files took ("load_ns"). snprintf semantics
 * as bcast_op_describe. Thread-safe. */
BCAST_API size_t bcast_tuning_describe(char* buf, size_t size) BCAST_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* BCAST_BCAST_H */
