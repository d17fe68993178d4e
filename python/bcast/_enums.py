"""The C API's enum values (<bcast/bcast.h>) and the numpy dtype mapping."""

import numpy as np

RULES = {
    "none": 0,
    "numpy": 1,
    "multidirectional": 1,  # ONNX's name for the numpy rule
    "unidirectional": 2,
    "pdpd": 3,
    "onnx_legacy": 4,
    "ncnn": 5,
}

EXPAND_MODES = {"numpy": 0, "bidirectional": 1, "explicit": 2, "pdpd": 3}

PARAM_RULE, PARAM_AXIS, PARAM_EXPAND_MODE = 0, 1, 2

# Opcodes in their numeric order (ADD = 0 ... COPY = 38).
OPCODES = {name: code for code, name in enumerate("""
    add sub mul div max min pow rsub rdiv rpow atan2 ratan2 fmod rfmod logaddexp
    floor_divide rfloor_divide remainder rremainder mod squared_difference prelu
    equal not_equal less less_equal greater greater_equal logical_and logical_or
    logical_xor bitwise_and bitwise_or bitwise_xor shift_left shift_right mean
    select copy""".split())}

# Ops whose 0-d result stays a 0-d array without out= (np.where and
# np.broadcast_to do so); every other op gives a numpy scalar, as ufuncs do.
ARRAY_RESULT_OPS = frozenset(("select", "copy"))

# Ops whose result is BOOL whatever the input dtype.
BOOL_RESULT_OPS = frozenset("""equal not_equal less less_equal greater greater_equal
    logical_and logical_or logical_xor""".split())

BFLOAT16 = "bfloat16"
BF16_CODE = 3
BOOL_CODE = 12

# The C API's own dtype names (bcast_dtype order), accepted where a dtype is
# asked for unless numpy reads the name itself: to numpy "i8" is int64, "u8"
# uint64 and "f16" float128, and numpy's meaning wins.
DTYPE_NAMES = {name: code for code, name in enumerate(
    "f32 f64 f16 bf16 i8 u8 i16 u16 i32 u32 i64 u64 bool".split())}

# numpy dtype (native byte order) -> bcast_dtype. bfloat16 has no numpy dtype:
# it is stored as uint16 bits and only chosen with an explicit dtype="bfloat16".
_NUMPY_TO_CODE = {
    np.dtype(np.float32): 0,
    np.dtype(np.float64): 1,
    np.dtype(np.float16): 2,
    np.dtype(np.int8): 4,
    np.dtype(np.uint8): 5,
    np.dtype(np.int16): 6,
    np.dtype(np.uint16): 7,
    np.dtype(np.int32): 8,
    np.dtype(np.uint32): 9,
    np.dtype(np.int64): 10,
    np.dtype(np.uint64): 11,
    np.dtype(np.bool_): BOOL_CODE,
}


def _key(name, what):
    if not isinstance(name, str):
        raise TypeError("%s must be a name (str), not %r" % (what, name))
    # str's own methods: a subclass's could run anything
    return str.strip(name).lower().replace("-", "_")


def plain(name):
    """A name of a str subclass (a StrEnum member) as an exact str, anything
    else as it is: a plan cache key holds exact types, since looking it up
    hashes and compares it, which would run a subclass's __hash__ and __eq__
    after the arrays' layouts were read for it."""
    return str.__str__(name) if type(name) is not str and isinstance(name, str) else name


def rule_code(rule):
    key = _key(rule, "rule")
    if key not in RULES:
        raise ValueError("unknown rule %r (choose from: %s)" % (rule, ", ".join(RULES)))
    return RULES[key]


def expand_mode_code(mode):
    key = _key(mode, "mode")
    if key not in EXPAND_MODES:
        raise ValueError("unknown expand mode %r (choose from: %s)" % (
            mode, ", ".join(EXPAND_MODES)))
    return EXPAND_MODES[key]


def opcode(op):
    key = _key(op, "op")
    if key not in OPCODES:
        raise ValueError("unknown op %r (choose from: %s)" % (op, ", ".join(OPCODES)))
    return OPCODES[key]


def is_bfloat16(dtype):
    return isinstance(dtype, str) and _key(dtype, "dtype") in (BFLOAT16, "bf16")


_CODE_TO_NUMPY = {code: dtype for dtype, code in _NUMPY_TO_CODE.items()}


def c_dtype_name(dtype):
    """(bcast_dtype code, numpy storage dtype) for one of the C API's dtype
    names that numpy does not read itself ("f32", "i64", "bf16"...), else None."""
    if not isinstance(dtype, str):
        return None
    try:
        np.dtype(dtype)
        return None  # numpy's own name ("i8" is int64 there, "bool" is bool)
    except TypeError:
        pass
    code = DTYPE_NAMES.get(dtype.strip().lower())
    if code is None:
        return None
    return code, _CODE_TO_NUMPY.get(code, np.dtype(np.uint16))  # bf16 is stored as uint16


def numpy_dtype_code(dtype):
    """bcast_dtype of a numpy dtype (any byte order); UnsupportedError-free:
    returns None when bcast has no such dtype."""
    return _NUMPY_TO_CODE.get(np.dtype(dtype).newbyteorder("="))


def describe_numpy_dtypes():
    return ", ".join(str(d) for d in _NUMPY_TO_CODE) + ", and 'bfloat16' (as uint16 bits)"
