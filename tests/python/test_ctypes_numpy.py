"""libbcast through ctypes, checked against numpy (pytest).

Loads the library named by BCAST_LIBRARY with ctypes.CDLL(path,
mode=os.RTLD_LOCAL), declares the prototypes it uses, and compares shape
inference and element values with numpy (or, where numpy has no equivalent,
with exact Python arithmetic). Each test collects every failed check with its
case, so one run shows them all, and fails if there is any.
"""
import ctypes
import math
import os
import sys
import warnings

import numpy as np
import pytest

warnings.simplefilter("ignore")
np.seterr(all="ignore")

# ---------------------------------------------------------------------------
# Constants from <bcast/bcast.h>

OK, INVALID_ARGUMENT, INCOMPATIBLE, UNSUPPORTED = 0, 1, 2, 3
INVALID_STATE = 6
MAX_RANK, MAX_INPUTS = 32, 16

RULE_NONE, RULE_NUMPY, RULE_UNIDIRECTIONAL, RULE_PDPD, RULE_ONNX_LEGACY, RULE_NCNN = range(6)
EXPAND_NUMPY, EXPAND_BIDIRECTIONAL, EXPAND_EXPLICIT, EXPAND_PDPD = range(4)
PARAM_RULE, PARAM_AXIS, PARAM_EXPAND_MODE = range(3)

DT = dict(f32=0, f64=1, f16=2, bf16=3, i8=4, u8=5, i16=6, u16=7, i32=8, u32=9, i64=10,
          u64=11, bool=12)
NP_DT = dict(f32=np.float32, f64=np.float64, f16=np.float16, bf16=np.uint16, i8=np.int8,
             u8=np.uint8, i16=np.int16, u16=np.uint16, i32=np.int32, u32=np.uint32,
             i64=np.int64, u64=np.uint64, bool=np.bool_)
FLOATS = ["f32", "f64", "f16", "bf16"]
INTS = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"]
ALL_DT = FLOATS + INTS + ["bool"]

OPS = """ADD SUB MUL DIV MAX MIN POW RSUB RDIV RPOW ATAN2 RATAN2 FMOD RFMOD LOGADDEXP
FLOOR_DIVIDE RFLOOR_DIVIDE REMAINDER RREMAINDER MOD SQUARED_DIFFERENCE PRELU EQUAL
NOT_EQUAL LESS LESS_EQUAL GREATER GREATER_EQUAL LOGICAL_AND LOGICAL_OR LOGICAL_XOR
BITWISE_AND BITWISE_OR BITWISE_XOR SHIFT_LEFT SHIFT_RIGHT MEAN SELECT COPY""".split()
OP = {name: i for i, name in enumerate(OPS)}
COMPARISONS = ["EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL"]
LOGICAL = ["LOGICAL_AND", "LOGICAL_OR", "LOGICAL_XOR"]
BITWISE = ["BITWISE_AND", "BITWISE_OR", "BITWISE_XOR"]
FLOAT_ONLY = ["ATAN2", "RATAN2", "LOGADDEXP", "REMAINDER", "RREMAINDER", "MEAN"]
NUMERIC_OPS = ["ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW", "RSUB", "RDIV", "RPOW",
               "FMOD", "RFMOD", "FLOOR_DIVIDE", "RFLOOR_DIVIDE", "MOD",
               "SQUARED_DIFFERENCE", "PRELU"]


def supported_dtypes(op):
    """The (op, dtype) table of the header."""
    if op in NUMERIC_OPS:
        return FLOATS + INTS
    if op in FLOAT_ONLY:
        return FLOATS
    if op in COMPARISONS:
        return FLOATS + INTS + ["bool"]
    if op in LOGICAL:
        return ["bool"]
    if op in BITWISE:
        return INTS + ["bool"]
    if op in ("SHIFT_LEFT", "SHIFT_RIGHT"):
        return INTS
    return ALL_DT  # SELECT, COPY


# ---------------------------------------------------------------------------
# The library

lib = ctypes.CDLL(os.environ["BCAST_LIBRARY"], mode=os.RTLD_LOCAL)

c_i32, c_i64, c_size = ctypes.c_int32, ctypes.c_int64, ctypes.c_size_t
P = ctypes.POINTER
P_i64, P_size = P(c_i64), P(c_size)
PP_i64 = P(P_i64)


def proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


bcast_version = proto("bcast_version", ctypes.c_uint32)
bcast_version_string = proto("bcast_version_string", ctypes.c_char_p)
bcast_status_string = proto("bcast_status_string", ctypes.c_char_p, c_i32)
bcast_last_error = proto("bcast_last_error", ctypes.c_char_p)
bcast_infer_shape = proto("bcast_infer_shape", c_i32, c_i32, c_i64, c_size, P_size, PP_i64,
                          c_size, P_size, P_i64)
bcast_infer_expand_shape = proto("bcast_infer_expand_shape", c_i32, c_i32, c_size, P_i64,
                                 c_size, P_i64, P_i64, c_size, c_i64, c_size, P_size, P_i64)
bcast_dtype_size = proto("bcast_dtype_size", c_size, c_i32)
bcast_op_supports = proto("bcast_op_supports", c_i32, c_i32, c_i32)
bcast_op_create = proto("bcast_op_create", c_i32, c_i32, c_i32, P(ctypes.c_void_p))
bcast_op_set_param = proto("bcast_op_set_param", c_i32, ctypes.c_void_p, c_i32, c_i64)
bcast_op_get_param = proto("bcast_op_get_param", c_i32, ctypes.c_void_p, c_i32, P_i64)
bcast_op_plan = proto("bcast_op_plan", c_i32, ctypes.c_void_p, c_size, P_size, PP_i64, PP_i64,
                      P_i64)
bcast_op_plan_to = proto("bcast_op_plan_to", c_i32, ctypes.c_void_p, c_size, P_size, PP_i64,
                         PP_i64, c_size, P_i64, P_i64, c_size, P_i64)
bcast_op_output_shape = proto("bcast_op_output_shape", c_i32, ctypes.c_void_p, c_size, P_size,
                              P_i64)
bcast_op_execute = proto("bcast_op_execute", c_i32, ctypes.c_void_p, P(ctypes.c_void_p),
                         ctypes.c_void_p)
bcast_op_describe = proto("bcast_op_describe", c_size, ctypes.c_void_p, ctypes.c_char_p, c_size)
bcast_op_destroy = proto("bcast_op_destroy", None, ctypes.c_void_p)
bcast_isa = proto("bcast_isa", ctypes.c_char_p)
bcast_set_max_isa = proto("bcast_set_max_isa", c_i32, ctypes.c_char_p)

# ---------------------------------------------------------------------------
# Bookkeeping: a test runs all its checks, then fails with every failed one.

FAILURES = []


@pytest.fixture(autouse=True)
def all_checks_pass():
    FAILURES.clear()
    yield
    assert not FAILURES, "%d failed checks:\n%s" % (len(FAILURES), "\n".join(FAILURES[:100]))


def check(ok, case, detail=""):
    if not ok:
        FAILURES.append("%s%s" % (case, (": " + detail) if detail else ""))
    return ok


def last_error():
    return bcast_last_error().decode("utf-8", "replace")


def i64_array(seq):
    seq = [int(v) for v in seq]
    return (c_i64 * max(len(seq), 1))(*seq)


class ShapeArgs:
    """ranks/dims (and optional strides) arrays for the C API, kept alive."""

    def __init__(self, shapes, strides=None):
        self.dim_arrays = [i64_array(s) for s in shapes]
        self.ranks = (c_size * len(shapes))(*[len(s) for s in shapes])
        self.dims = (P_i64 * len(shapes))(*[ctypes.cast(a, P_i64) for a in self.dim_arrays])
        self.strides = None
        if strides is not None:
            self.stride_arrays = [None if s is None else i64_array(s) for s in strides]
            self.strides = (P_i64 * len(shapes))(
                *[P_i64() if a is None else ctypes.cast(a, P_i64) for a in self.stride_arrays])


def infer(rule, shapes, axis=-1):
    a = ShapeArgs(shapes)
    out = (c_i64 * MAX_RANK)(*([-7] * MAX_RANK))
    rank = c_size(999)
    st = bcast_infer_shape(rule, axis, len(shapes), a.ranks, a.dims, MAX_RANK,
                           ctypes.byref(rank), out)
    untouched = rank.value == 999 and all(v == -7 for v in out)
    if st == OK:
        return st, tuple(out[i] for i in range(rank.value)), untouched
    return st, None, untouched


def infer_expand(mode, data, target, mapping=None, axis=-1):
    d, t = i64_array(data), i64_array(target)
    m = i64_array(mapping) if mapping is not None else None
    out = (c_i64 * MAX_RANK)(*([-7] * MAX_RANK))
    rank = c_size(999)
    st = bcast_infer_expand_shape(mode, len(data), d, len(target), t,
                                  m if m is not None else P_i64(),
                                  len(mapping) if mapping is not None else 0, axis, MAX_RANK,
                                  ctypes.byref(rank), out)
    if st == OK:
        return st, tuple(out[i] for i in range(rank.value))
    return st, None


# ---------------------------------------------------------------------------
# bf16 helpers (numpy has no bfloat16: bits in uint16)

def bf16_to_f32(bits):
    return (np.asarray(bits, np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def f32_to_bf16(x):
    x = np.asarray(x, np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1)))
               >> np.uint64(16)).astype(np.uint16)
    nan = np.isnan(x)
    quiet = ((bits >> np.uint64(16)) | np.uint64(0x40)).astype(np.uint16)
    return np.where(nan, quiet, rounded).astype(np.uint16)


# ---------------------------------------------------------------------------
# Running an op

class Op:
    def __init__(self, opname, dt):
        self.handle = ctypes.c_void_p()
        self.status = bcast_op_create(OP[opname], DT[dt], ctypes.byref(self.handle))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        bcast_op_destroy(self.handle)
        self.handle = ctypes.c_void_p()

    def set(self, param, value):
        return bcast_op_set_param(self.handle, param, value)

    def output_shape(self):
        dims = (c_i64 * MAX_RANK)()
        rank = c_size()
        st = bcast_op_output_shape(self.handle, MAX_RANK, ctypes.byref(rank), dims)
        return st, (tuple(dims[i] for i in range(rank.value)) if st == OK else None)

    def describe(self):
        n = bcast_op_describe(self.handle, None, 0)
        buf = ctypes.create_string_buffer(n + 1)
        bcast_op_describe(self.handle, buf, n + 1)
        return buf.value.decode()


def elem_strides(a):
    item = a.dtype.itemsize
    assert all(s % item == 0 for s in a.strides)
    return [s // item for s in a.strides]


def out_np_dtype(opname, dt):
    if opname in COMPARISONS or opname in LOGICAL:
        return np.bool_
    return NP_DT[dt]


def run(opname, dt, arrays, rule=None, axis=None, target=None, mode=None, mapping=None,
        pass_strides=True, out_shape=None, out_pad=0):
    """Plan and execute; returns (status, output or None, message).
    out_shape + out_pad > 0: the output is a view of a buffer whose innermost axis
    is out_pad elements longer (like ncnn's cstep), planned with out_strides; the
    padding must stay untouched."""
    with Op(opname, dt) as op:
        if op.status != OK:
            return op.status, None, "create: " + last_error()
        if rule is not None and op.set(PARAM_RULE, rule) != OK:
            return -1, None, "set rule: " + last_error()
        if axis is not None and op.set(PARAM_AXIS, axis) != OK:
            return -1, None, "set axis: " + last_error()
        if mode is not None and op.set(PARAM_EXPAND_MODE, mode) != OK:
            return -1, None, "set mode: " + last_error()
        strides = [elem_strides(a) for a in arrays] if pass_strides else None
        args = ShapeArgs([a.shape for a in arrays], strides)
        buf = out = out_str = None
        if out_pad:
            buf = np.empty(out_shape[:-1] + (out_shape[-1] + out_pad,), out_np_dtype(opname, dt))
            buf.view(np.uint8).fill(0xA5)
            out = buf[..., :out_shape[-1]]
            out_str = i64_array(elem_strides(out))
        if target is None:
            st = bcast_op_plan(op.handle, len(arrays), args.ranks, args.dims, args.strides,
                               out_str)
        else:
            t = i64_array(target)
            m = i64_array(mapping) if mapping is not None else None
            st = bcast_op_plan_to(op.handle, len(arrays), args.ranks, args.dims, args.strides,
                                  len(target), t, m if m is not None else P_i64(),
                                  len(mapping) if mapping is not None else 0, out_str)
        if st != OK:
            return st, None, "plan: " + last_error()
        st, shape = op.output_shape()
        if st != OK:
            return st, None, "output_shape: " + last_error()
        if out is None:
            out = np.empty(shape, dtype=out_np_dtype(opname, dt))
            out.view(np.uint8).fill(0xA5) if out.size else None
        elif shape != out.shape:
            return -1, None, "output shape %s, expected %s" % (shape, out.shape)
        ptrs = (ctypes.c_void_p * len(arrays))(*[a.ctypes.data for a in arrays])
        st = bcast_op_execute(op.handle, ptrs, out.ctypes.data)
        if st != OK:
            return st, None, "execute: " + last_error()
        if buf is not None and not np.all(buf[..., out_shape[-1]:].view(np.uint8) == 0xA5):
            return -1, None, "execute wrote into the output padding"
        return OK, out, ""


# ---------------------------------------------------------------------------
# Comparing

def fmt(a):
    return np.array2string(np.asarray(a).ravel()[:12], precision=9)


def compare_exact(case, got, exp, sign_zero=True, skip_sign=None):
    """Exact comparison; for floats NaN == NaN, and zeros must have the same sign."""
    if not check(got is not None and got.shape == exp.shape and got.dtype == exp.dtype, case,
                 "shape/dtype %s vs %s" % (None if got is None else (got.shape, got.dtype),
                                           (exp.shape, exp.dtype))):
        return False
    if got.dtype == np.bool_:
        raw = got.view(np.uint8)
        if not check(bool(np.all((raw == 0) | (raw == 1))), case, "bool bytes not 0/1"):
            return False
    if np.issubdtype(exp.dtype, np.floating):
        nan_e, nan_g = np.isnan(exp), np.isnan(got)
        bad = (nan_e != nan_g) | (~nan_e & (got != exp))
        if sign_zero:
            sign_bad = ~nan_e & (np.signbit(got) != np.signbit(exp))
            if skip_sign is not None:
                sign_bad &= ~skip_sign
            bad |= sign_bad
    else:
        bad = got != exp
    if np.any(bad):
        idx = np.argwhere(bad)[:5]
        detail = "; ".join("at %s got %r expected %r" % (tuple(int(v) for v in i),
                                                          got[tuple(i)].item(),
                                                          exp[tuple(i)].item()) for i in idx)
        return check(False, case, "%d mismatches: %s" % (int(np.sum(bad)), detail))
    return check(True, case)


def compare_bits(case, got, exp):
    if not check(got is not None and got.shape == exp.shape, case, "shape mismatch"):
        return False
    e = np.ascontiguousarray(exp).view(np.uint8)
    ok = got.dtype == exp.dtype and np.array_equal(np.ascontiguousarray(got).view(np.uint8), e)
    return check(ok, case, "" if ok else "got %s expected %s" % (fmt(got), fmt(exp)))


def compare_tol(case, got, ref64, dt, ulps):
    """got (dtype dt) vs a float64 reference: NaN/inf agree, else within ulps of the
    reference rounded to dt."""
    if not check(got is not None and got.shape == ref64.shape, case, "shape mismatch"):
        return False
    if dt == "bf16":
        g = bf16_to_f32(got).astype(np.float64)
        r = bf16_to_f32(f32_to_bf16(ref64.astype(np.float32)))
        spacing = np.maximum(np.abs(r.astype(np.float64)) * 2.0 ** -8, 2.0 ** -133)
        r = r.astype(np.float64)
    else:
        t = NP_DT[dt]
        g = got.astype(np.float64)
        r_t = ref64.astype(np.float32).astype(t) if dt == "f16" else ref64.astype(t)
        spacing = np.abs(np.spacing(r_t)).astype(np.float64)
        r = ref64
    nan_r, nan_g = np.isnan(r), np.isnan(g)
    inf_r = np.isinf(r)
    with np.errstate(all="ignore"):
        diff = np.abs(g - r)
        finite_bad = ~nan_r & ~inf_r & ~(diff <= ulps * spacing)
        # a reference just above the largest finite value may round to inf
        finite_bad &= ~(np.isinf(g) & (np.abs(r) > 0.99 * np.finfo(np.float16 if dt == "f16" else
                                                                   np.float32 if dt in ("f32", "bf16")
                                                                   else np.float64).max))
    bad = (nan_r != nan_g) | (inf_r & (g != r)) | finite_bad
    if np.any(bad):
        idx = np.argwhere(bad)[:5]
        detail = "; ".join("at %s got %r expected %r" % (tuple(int(v) for v in i),
                                                          g[tuple(i)].item(), r[tuple(i)].item())
                           for i in idx)
        return check(False, case, "%d mismatches: %s" % (int(np.sum(bad)), detail))
    return check(True, case)


# ---------------------------------------------------------------------------
# Expected values

def int_info(dt):
    t = np.dtype(NP_DT[dt])
    return t.itemsize * 8, np.issubdtype(t, np.signedinteger)


def wrap(v, dt):
    bits, signed = int_info(dt)
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def int_pow(b, e, dt):
    bits, _ = int_info(dt)
    if e < 0:
        if b == 1:
            return 1
        if b == -1:
            return 1 if e % 2 == 0 else -1
        return 0
    return wrap(pow(b, e, 1 << bits), dt)


def trunc_div(x, y):
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


def int_scalar(opname, x, y, dt):
    bits, _ = int_info(dt)
    if opname == "DIV":
        return 0 if y == 0 else wrap(trunc_div(x, y), dt)
    if opname == "FMOD":
        return 0 if y == 0 else wrap(x - trunc_div(x, y) * y, dt)
    if opname == "POW":
        return int_pow(x, y, dt)
    if opname == "SHIFT_LEFT":
        return 0 if y < 0 or y >= bits else wrap(x << y, dt)
    if opname == "SHIFT_RIGHT":
        return 0 if y < 0 or y >= bits else wrap(x >> y, dt)
    raise KeyError(opname)


def elementwise_py(fn, dt, a, b, out_t):
    A, B = np.broadcast_arrays(a, b)
    res = [fn(int(x), int(y)) for x, y in zip(A.ravel().tolist(), B.ravel().tolist())]
    return np.array(res, dtype=object).astype(out_t).reshape(A.shape) if A.size else \
        np.zeros(A.shape, out_t)


REVERSED = {"RSUB": "SUB", "RDIV": "DIV", "RPOW": "POW", "RATAN2": "ATAN2", "RFMOD": "FMOD",
            "RFLOOR_DIVIDE": "FLOOR_DIVIDE", "RREMAINDER": "REMAINDER"}
TRANSCENDENTAL = ["POW", "ATAN2", "LOGADDEXP"]


def ieee_remainder(x, y):
    def one(a, b):
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0:
            return math.nan
        return math.remainder(a, b)
    return np.vectorize(one, otypes=[np.float64])(x, y) if np.size(np.broadcast(x, y)) else \
        np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)))


def float_fn(opname, a, b):
    """Binary float op on arrays of the computing type (f32 or f64)."""
    return {
        "ADD": lambda: a + b, "SUB": lambda: a - b, "MUL": lambda: a * b,
        "DIV": lambda: a / b, "MAX": lambda: np.maximum(a, b),
        "MIN": lambda: np.minimum(a, b), "FMOD": lambda: np.fmod(a, b),
        "MOD": lambda: np.mod(a, b), "FLOOR_DIVIDE": lambda: np.floor_divide(a, b),
        "REMAINDER": lambda: ieee_remainder(a, b).astype(a.dtype),
        "SQUARED_DIFFERENCE": lambda: (a - b) * (a - b),
        "PRELU": lambda: np.where(a < 0, a * b, a).astype(a.dtype),
        "POW": lambda: np.power(a, b), "ATAN2": lambda: np.arctan2(a, b),
        "LOGADDEXP": lambda: np.logaddexp(a, b),
        "MEAN": lambda: (a + b) / a.dtype.type(2),
    }[opname]()


def expected_binary(opname, dt, a, b):
    """Expected output of a two-input op; returns (array, mode) with mode
    'exact' or 'tol' (then the array is a float64 reference)."""
    if opname in REVERSED:
        return expected_binary(REVERSED[opname], dt, b, a)
    if opname in COMPARISONS:
        f = {"EQUAL": np.equal, "NOT_EQUAL": np.not_equal, "LESS": np.less,
             "LESS_EQUAL": np.less_equal, "GREATER": np.greater,
             "GREATER_EQUAL": np.greater_equal}[opname]
        if dt == "bf16":
            a, b = bf16_to_f32(a), bf16_to_f32(b)
        return f(a, b), "exact"
    if opname in LOGICAL:
        f = {"LOGICAL_AND": np.logical_and, "LOGICAL_OR": np.logical_or,
             "LOGICAL_XOR": np.logical_xor}[opname]
        return f(a.view(np.uint8) != 0, b.view(np.uint8) != 0), "exact"
    if opname in BITWISE:
        f = {"BITWISE_AND": np.bitwise_and, "BITWISE_OR": np.bitwise_or,
             "BITWISE_XOR": np.bitwise_xor}[opname]
        return f(a, b).astype(NP_DT[dt]), "exact"
    if dt in INTS:
        t = NP_DT[dt]
        if opname in ("ADD", "SUB", "MUL", "MAX", "MIN"):
            f = {"ADD": np.add, "SUB": np.subtract, "MUL": np.multiply, "MAX": np.maximum,
                 "MIN": np.minimum}[opname]
            return f(a, b).astype(t), "exact"
        if opname == "SQUARED_DIFFERENCE":
            d = (a - b).astype(t)
            return (d * d).astype(t), "exact"
        if opname == "PRELU":
            return np.where(a < 0, (a * b).astype(t), a).astype(t), "exact"
        if opname == "FLOOR_DIVIDE":  # numpy //: 0 by zero, INT_MIN // -1 wraps
            return np.floor_divide(a, b).astype(t), "exact"
        if opname == "MOD":  # numpy %: 0 by zero
            return np.mod(a, b).astype(t), "exact"
        return elementwise_py(lambda x, y: int_scalar(opname, x, y, dt), dt, a, b, t), "exact"
    # floats
    if opname in TRANSCENDENTAL:
        if dt == "bf16":
            a64, b64 = bf16_to_f32(a).astype(np.float64), bf16_to_f32(b).astype(np.float64)
        else:
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
        return float_fn(opname, a64, b64), "tol"
    if dt == "f16":
        return float_fn(opname, a.astype(np.float32), b.astype(np.float32)).astype(
            np.float16), "exact"
    if dt == "bf16":
        return f32_to_bf16(float_fn(opname, bf16_to_f32(a), bf16_to_f32(b))), "exact"
    return float_fn(opname, a, b).astype(NP_DT[dt]), "exact"


# ---------------------------------------------------------------------------
# Random values

RNG = np.random.default_rng(20240611)
FLOAT_SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0, np.inf, -np.inf, np.nan, 1e-3, 7.0]


def rand_values(dt, shape, opname=None, role=0):
    n = int(np.prod(shape)) if len(shape) else 1
    if dt in FLOATS:
        if opname in ("POW", "RPOW") and role == (0 if opname == "POW" else 1):
            v = RNG.uniform(-4, 4, n)  # bases
            v = np.where(RNG.random(n) < 0.5, np.round(v), v)
        elif opname in ("POW", "RPOW"):
            v = RNG.uniform(-6, 6, n)  # exponents: integers and halves mostly
            v = np.where(RNG.random(n) < 0.7, np.round(v * 2) / 2, v)
        elif opname == "LOGADDEXP":
            v = RNG.uniform(-80, 80, n)
        else:
            v = RNG.standard_normal(n) * np.where(RNG.random(n) < 0.5, 10.0, 1000.0)
            v = np.where(RNG.random(n) < 0.3, np.round(v), v)
        specials = np.array(FLOAT_SPECIALS)[RNG.integers(0, len(FLOAT_SPECIALS), n)]
        v = np.where(RNG.random(n) < 0.2, specials, v)
        if dt == "bf16":
            return f32_to_bf16(v.astype(np.float32)).reshape(shape)
        return v.astype(NP_DT[dt]).reshape(shape)
    if dt == "bool":
        return (RNG.random(n) < 0.5).reshape(shape)
    t = NP_DT[dt]
    info = np.iinfo(t)
    bits = info.bits
    if opname in ("SHIFT_LEFT", "SHIFT_RIGHT") and role == 1:
        lo = -2 if info.min < 0 else 0
        v = RNG.integers(lo, bits + 3, n)
    elif opname in ("POW", "RPOW") and role == (0 if opname == "POW" else 1):
        v = RNG.integers(max(info.min, -5), 6, n)
    elif opname in ("POW", "RPOW"):
        v = RNG.integers(max(info.min, -3), 12, n)
    elif opname in ("DIV", "RDIV", "FMOD", "RFMOD", "MOD", "FLOOR_DIVIDE", "RFLOOR_DIVIDE"):
        small = RNG.integers(max(info.min, -9), min(info.max, 9) + 1, n)
        big = RNG.integers(info.min, info.max, n, dtype=t, endpoint=True)
        v = np.where(RNG.random(n) < 0.7, small.astype(t), big)
        edge = np.array([info.min, -1 if info.min < 0 else 1, 0, info.max], dtype=t)
        v = np.where(RNG.random(n) < 0.15, edge[RNG.integers(0, 4, n)], v)
    else:
        v = RNG.integers(info.min, info.max, n, dtype=t, endpoint=True)
        v = np.where(RNG.random(n) < 0.3, (v % 7).astype(t), v)
    return np.asarray(v).astype(t).reshape(shape)


BROADCAST_PAIRS = [
    ((2, 3, 4), (4,)),
    ((3, 1), (1, 5)),
    ((2, 1, 3), (4, 1)),
    ((), (5,)),
    ((5,), ()),
    ((0, 3), (1, 3)),
    ((2, 0, 1), (3,)),
    ((4, 1, 2, 1), (3, 1, 5)),
    ((7,), (7,)),
    ((1,), (1, 1)),
    ((2, 3), (2, 3)),
    ((17, 33), (33,)),
    ((17, 1), (1, 9)),
    ((3, 1, 130), (1, 7, 1)),
    ((2, 67), (67,)),
    ((1,), (259,)),
    ((33, 1), (1, 65)),
]


# ---------------------------------------------------------------------------
# Tests

def test_basics():
    check(bcast_version() == 10400, "bcast_version() == BCAST_VERSION_NUMBER (10400)")
    check(bcast_version_string() == b"1.4.0", "bcast_version_string")
    check(bcast_status_string(2) == b"BCAST_ERROR_INCOMPATIBLE_SHAPES", "status_string(2)")
    check(bcast_status_string(777) == b"BCAST_ERROR_UNKNOWN", "status_string(unknown)")
    check(bcast_isa() in (b"avx512", b"avx2", b"sse2", b"neon", b"scalar"), "bcast_isa")
    for dt in ALL_DT:
        check(bcast_dtype_size(DT[dt]) == np.dtype(NP_DT[dt]).itemsize, "dtype_size " + dt)
    # the (op, dtype) table of the header, through supports() and create()
    for op in OPS:
        for dt in ALL_DT:
            want = dt in supported_dtypes(op)
            got = bcast_op_supports(OP[op], DT[dt])
            check(got == (1 if want else 0), "op_supports(%s, %s) == %d" % (op, dt, want),
                  "got %d" % got)
            with Op(op, dt) as o:
                check(o.status == (OK if want else UNSUPPORTED),
                      "op_create(%s, %s) status" % (op, dt), "got %d" % o.status)


def test_numpy_shape_inference():
    rng = np.random.default_rng(7)
    n_ok = n_bad = 0
    for trial in range(600):
        k = int(rng.integers(1, 5)) if trial % 3 else 2
        shapes = []
        for _ in range(k):
            r = int(rng.integers(0, 6))
            shapes.append(tuple(int(d) for d in rng.choice([0, 1, 1, 1, 2, 3, 3, 4], r)))
        try:
            want = tuple(np.broadcast_shapes(*shapes))
        except ValueError:
            want = None
        st, got, untouched = infer(RULE_NUMPY, shapes)
        case = "numpy infer %s" % (shapes,)
        if want is None:
            n_bad += 1
            check(st == INCOMPATIBLE and untouched, case, "status %d, expected 2" % st)
            check("numpy" in last_error(), case + " message names numpy", last_error())
        else:
            n_ok += 1
            check(st == OK and got == want, case, "got %s status %d, expected %s" %
                  (got, st, want))
    check(n_ok > 100 and n_bad > 100, "numpy infer: both outcomes sampled",
          "%d ok, %d refused" % (n_ok, n_bad))
    # up to MAX_INPUTS inputs
    shapes = [(1,) * (i % 4) + (3,) for i in range(MAX_INPUTS)]
    st, got, _ = infer(RULE_NUMPY, shapes)
    check(st == OK and got == np.broadcast_shapes(*shapes), "numpy infer 16 inputs")
    st, got, _ = infer(RULE_NUMPY, shapes + [(3,)])
    check(st == INVALID_ARGUMENT, "numpy infer 17 inputs refused", "status %d" % st)


def test_other_rules_shape_inference():
    rng = np.random.default_rng(11)
    for trial in range(300):
        ra, rb = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        a = tuple(int(d) for d in rng.choice([1, 2, 3, 4], ra))
        b = tuple(int(d) for d in rng.choice([1, 1, 2, 3, 4], rb))
        # unidirectional: b must numpy-broadcast into a
        try:
            fits = tuple(np.broadcast_shapes(a, b)) == a
        except ValueError:
            fits = False
        st, got, _ = infer(RULE_UNIDIRECTIONAL, [a, b])
        check((st == OK and got == a) if fits else st == INCOMPATIBLE,
              "unidirectional infer %s %s" % (a, b), "status %d got %s" % (st, got))
        # none: identical only
        st, got, _ = infer(RULE_NONE, [a, b])
        check((st == OK and got == a) if a == b else st == INCOMPATIBLE,
              "none infer %s %s" % (a, b), "status %d" % st)
        # pdpd with the default axis and with each explicit axis
        for axis in [-1] + list(range(0, ra + 1)):
            start = ra - rb if axis == -1 else axis
            bt = list(b)
            while bt and bt[-1] == 1:
                bt.pop()
            if start < 0 or rb > ra:  # spec rule 1: rank(B) <= rank(A)
                want = "err"
            elif start + len(bt) > ra:
                want = "err"
            else:
                want = a if all(x == 1 or x == a[start + i] for i, x in enumerate(bt)) else "err"
            st, got, _ = infer(RULE_PDPD, [a, b], axis)
            case = "pdpd infer %s %s axis %d" % (a, b, axis)
            if axis == ra and axis != rb and not bt:
                continue  # an all-ones B placed past A's last axis: not specified
            if want == "err":
                check(st in (INCOMPATIBLE, INVALID_ARGUMENT), case, "status %d got %s" % (st, got))
            else:
                check(st == OK and got == want, case, "status %d got %s (%s)" %
                      (st, got, last_error() if st else ""))
    # the spec's pdpd examples
    for a, b, axis, ok in [((2, 3, 4, 5), (3, 4), 1, True), ((2, 3, 4, 5), (3, 1), 1, True),
                           ((2, 3, 4, 5), (4, 5), -1, True), ((2, 3, 4, 5), (4, 5), 2, True),
                           ((2, 3, 4, 5), (1, 3), 0, True), ((2, 3, 4, 5), (), -1, True),
                           ((2, 3, 4, 5), (5,), 3, True), ((8, 1, 6, 1), (7, 1, 5), 1, False),
                           ((2, 3), (3, 1), 1, True), ((0, 3), (1,), 0, True)]:
        st, got, _ = infer(RULE_PDPD, [a, b], axis)
        check(st == OK and got == a if ok else st == INCOMPATIBLE,
              "pdpd spec example %s %s axis %d" % (a, b, axis), "status %d got %s" % (st, got))
    check(infer(RULE_PDPD, [(2, 3), (3,)], -2)[0] == INVALID_ARGUMENT, "pdpd axis -2 refused")
    # ncnn alignment (numpy order), notes 3.1/3.2
    for a, b, want in [((4, 3, 2), (4,), (4, 3, 2)), ((4, 3, 2), (2,), (4, 3, 2)),
                       ((4, 3, 2), (3,), None), ((2, 2), (2,), (2, 2)),
                       ((4, 3, 2), (4, 3), (4, 3, 2)), ((4, 3, 2), (3, 2), None),
                       ((3, 2), (1, 1, 1), (3, 2, 1)), ((3, 2), (1, 1, 2), (3, 2, 2)),
                       ((3, 1), (1, 2), (3, 2)), ((5, 4, 3, 2), (5,), (5, 4, 3, 2)),
                       ((5, 4, 3, 2), (5, 4), (5, 4, 3, 2)), ((5, 4, 3, 2), (5, 4, 3), (5, 4, 3, 2)),
                       ((4,), (4, 3, 2), (4, 3, 2)), ((), (2, 3), (2, 3)), ((7,), (3,), None)]:
        st, got, _ = infer(RULE_NCNN, [a, b])
        check(st == OK and got == want if want else st == INCOMPATIBLE,
              "ncnn infer %s %s" % (a, b), "status %d got %s" % (st, got))
        if want is None:
            check("ncnn" in last_error(), "ncnn refusal names the rule", last_error())
    check(infer(RULE_NCNN, [(1, 2, 3, 4, 5), (5,)])[0] == INVALID_ARGUMENT, "ncnn rank 5")
    check(infer(RULE_NCNN, [(2,), (2,), (2,)])[0] != OK, "ncnn three inputs refused")
    # onnx legacy
    for a, b, axis, want in [((2, 3, 4, 5), (3, 4), 1, True), ((2, 3, 4, 5), (5,), -1, True),
                             ((2, 3, 4, 5), (1,), -1, True), ((2, 3, 4, 5), (1, 1), 1, True),
                             ((2, 3, 4, 5), (3, 1, 5), 1, False), ((2, 3, 4, 5), (4, 1), 2, True),
                             ((2, 3, 4, 5), (2,), 0, True), ((2, 3, 4, 5), (3,), 0, False)]:
        st, got, _ = infer(RULE_ONNX_LEGACY, [a, b], axis)
        check(st == OK and got == a if want else st != OK,
              "onnx_legacy infer %s %s axis %d" % (a, b, axis), "status %d got %s" % (st, got))
    # expand modes
    for mode, data, target, mapping, axis, want in [
            (EXPAND_BIDIRECTIONAL, (3, 1), (2, 1, 6), None, -1, (2, 3, 6)),
            (EXPAND_BIDIRECTIONAL, (1, 4, 1), (1, 4), None, -1, (1, 4, 4)),
            (EXPAND_BIDIRECTIONAL, (5,), (1,), None, -1, (5,)),
            (EXPAND_BIDIRECTIONAL, (3, 4), (), None, -1, (3, 4)),
            (EXPAND_NUMPY, (3, 1), (2, 3, 4), None, -1, (2, 3, 4)),
            (EXPAND_NUMPY, (5,), (1,), None, -1, None),
            (EXPAND_NUMPY, (2, 3), (3,), None, -1, None),
            (EXPAND_EXPLICIT, (2, 4), (2, 3, 4), (0, 2), -1, (2, 3, 4)),
            (EXPAND_EXPLICIT, (1, 4), (2, 3, 4), (0, 2), -1, (2, 3, 4)),
            (EXPAND_EXPLICIT, (3,), (2, 3, 4), (1,), -1, (2, 3, 4)),
            (EXPAND_EXPLICIT, (3,), (2, 3, 4), (2,), -1, None),
            (EXPAND_PDPD, (3, 1), (2, 1, 6), None, 1, (2, 3, 6)),
            (EXPAND_PDPD, (4, 5), (2, 3, 4, 5), None, -1, (2, 3, 4, 5))]:
        st, got = infer_expand(mode, data, target, mapping, axis)
        check(st == OK and got == want if want else st != OK,
              "expand mode %d %s -> %s" % (mode, data, target), "status %d got %s" % (st, got))
    rng = np.random.default_rng(3)
    for _ in range(200):
        data = tuple(int(d) for d in rng.choice([1, 1, 2, 3], int(rng.integers(0, 4))))
        target = tuple(int(d) for d in rng.choice([1, 2, 3], int(rng.integers(0, 4))))
        try:
            want = tuple(np.broadcast_shapes(data, target))
        except ValueError:
            want = None
        st, got = infer_expand(EXPAND_BIDIRECTIONAL, data, target)
        check(st == OK and got == want if want is not None else st == INCOMPATIBLE,
              "bidirectional expand %s -> %s" % (data, target), "status %d got %s" % (st, got))


def binary_case(opname, dt, a, b, label, prefix="", **kw):
    st, got, msg = run(opname, dt, [a, b], **kw)
    case = "%s%s %s %s %s+%s" % (prefix, opname, dt, label, a.shape, b.shape)
    if not check(st == OK, case + " runs", "status %d %s" % (st, msg)):
        return
    exp, mode = expected_binary(opname, dt, a, b)
    exp = np.asarray(exp)
    if mode == "tol":
        # header: within 2 ulp; numpy's float64 reference may itself be 1 ulp off
        compare_tol(case, got, exp, dt, {"f16": 1.0, "bf16": 1.0, "f32": 2.0, "f64": 3.0}[dt])
    elif dt == "bf16" and opname not in COMPARISONS:
        e = np.asarray(exp, np.uint16)
        gf, ef = bf16_to_f32(got), bf16_to_f32(e)
        compare_exact(case, gf, ef, sign_zero=True,
                      skip_sign=(ef == 0) if opname in ("MAX", "MIN") else None)
    else:
        skip = None
        if opname in ("MAX", "MIN") and np.issubdtype(exp.dtype, np.floating):
            skip = exp == 0  # +0 vs -0 ties: numpy itself is not consistent
        compare_exact(case, got, exp, skip_sign=skip)


def test_binary_ops(prefix=""):
    binary_ops = [op for op in OPS if op not in ("SELECT", "COPY")]
    for opname in binary_ops:
        for dt in supported_dtypes(opname):
            for ia, ib in BROADCAST_PAIRS:
                a = rand_values(dt, ia, opname, 0)
                b = rand_values(dt, ib, opname, 1)
                binary_case(opname, dt, a, b, "", prefix)
            # strided inputs: reversed and transposed views
            base = rand_values(dt, (5, 6), opname, 0)
            other = rand_values(dt, (6, 5), opname, 1)
            binary_case(opname, dt, base[:, ::-1], rand_values(dt, (6,), opname, 1), "reversed",
                        prefix)
            binary_case(opname, dt, base.T, rand_values(dt, (5,), opname, 1), "transposed",
                        prefix)
            binary_case(opname, dt, base[::2, 1::2], other[:3, :3], "sliced", prefix)
            big = rand_values(dt, (9, 70), opname, 0)
            binary_case(opname, dt, big[::-2, 3:], rand_values(dt, (5, 1), opname, 1),
                        "strided big", prefix)


def test_float_edge_cases():
    # numpy // and % edge cases (x // 0, 0 // -y, 1 // 0.1, signed zeros)
    x = np.array([1, -1, 0, -0.0, 1, 1, -7, 7, 0.5, -0.5, np.inf, 5, 0, -3], np.float64)
    y = np.array([0, 0, 0, 3, 0.1, -0.1, 2, -2, 3, 3, 2, np.inf, -3, np.inf], np.float64)
    for dt in ("f32", "f64"):
        for opname in ("FLOOR_DIVIDE", "MOD", "FMOD", "DIV", "REMAINDER"):
            a, b = x.astype(NP_DT[dt]), y.astype(NP_DT[dt])
            binary_case(opname, dt, a, b, "edge")
    # logaddexp special values
    x = np.array([-np.inf, np.inf, -np.inf, 0, 1e30, np.nan, 3], np.float32)
    y = np.array([-np.inf, np.inf, 5, 0, -1e30, 1, 3], np.float32)
    binary_case("LOGADDEXP", "f32", x, y, "special")
    # logaddexp(x, x) = x + ln 2, against a 40-digit reference: within 2 ulp
    import decimal
    decimal.getcontext().prec = 40
    ln2 = decimal.Decimal(2).ln()
    # (f32 near the zero of the result: cancellation, so the f32 kernel needs more
    # than f32 precision inside; f64 only away from it, where plain double
    # arithmetic can meet 2 ulp)
    for dt, values in (("f64", [0.0, 1.5, -3.0, 10.0, 0.25, 100.0, -40.0]),
                       ("f32", [-0.75, 0.0, 1.5, -3.0, 10.0, -0.6875, -0.5, 0.25, -0.71875])):
        t = NP_DT[dt]
        xs = np.array(values, t)
        st, got, msg = run("LOGADDEXP", dt, [xs, xs])
        if check(st == OK, "LOGADDEXP %s x+ln2 runs" % dt, msg):
            for x, g in zip(xs.tolist(), got.tolist()):
                exact = decimal.Decimal(x) + ln2
                ulp = float(np.spacing(t(float(exact))))
                err = abs(decimal.Decimal(g) - exact) / decimal.Decimal(ulp)
                check(err <= 2, "LOGADDEXP %s (%r, %r) within 2 ulp of x + ln 2" % (dt, x, x),
                      "got %r, exact %s: %.2f ulp" % (g, exact, float(err)))
    # f32 grid through the zero of logaddexp (x + y pairs whose result is small)
    x = np.linspace(-2.0, -0.05, 40).astype(np.float32)
    y = np.log1p(-np.exp(x.astype(np.float64)))
    y = (y + np.linspace(-0.02, 0.02, 40)).astype(np.float32)
    binary_case("LOGADDEXP", "f32", x, y, "near zero")
    # pow special values (C powf)
    x = np.array([-8, 0, -0.0, 0, 1, -1, np.nan, 2, -2, -np.inf, 0.5], np.float32)
    y = np.array([1 / 3, -1, -1, 0, np.nan, np.inf, 0, 0.5, 3, 3, -np.inf], np.float32)
    binary_case("POW", "f32", x, y, "special")
    binary_case("POW", "f64", x.astype(np.float64), y.astype(np.float64), "special")


def test_variadic():
    for opname in ("ADD", "MUL", "MAX", "MIN", "MEAN"):
        for dt in ("f32", "f64", "i32", "u8", "f16"):
            if dt not in supported_dtypes(opname):
                continue
            for shapes in [[(2, 3, 4), (4,), (3, 1)], [(5,), (), (1, 5), (2, 1)],
                           [(2, 1, 3), (4, 1), (3,), (1, 1, 1)]]:
                arrs = [rand_values(dt, s, None) for s in shapes]
                if dt in FLOATS:  # keep sums exact-order comparable but not trivial
                    arrs = [np.where(np.isinf(v), 1.0, v).astype(v.dtype) for v in arrs]
                st, got, msg = run(opname, dt, arrs)
                case = "variadic %s %s %s" % (opname, dt, shapes)
                if not check(st == OK, case + " runs", "status %d %s" % (st, msg)):
                    continue
                if dt in FLOATS:
                    ct = np.float32 if dt in ("f32", "f16") else np.float64
                    acc = arrs[0].astype(ct)
                    for v in arrs[1:]:
                        acc = {"ADD": np.add, "MEAN": np.add, "MUL": np.multiply,
                               "MAX": np.maximum, "MIN": np.minimum}[opname](acc, v.astype(ct))
                    if opname == "MEAN":
                        acc = acc / ct(len(arrs))
                    exp = np.asarray(acc).astype(NP_DT[dt])
                    if dt == "f16" and opname in ("ADD", "MUL", "MEAN"):
                        # f32 accumulation then one rounding, or a rounding per step
                        compare_tol(case, got, np.asarray(acc).astype(np.float64), dt, 1.0)
                    else:
                        compare_exact(case, got, exp, skip_sign=(exp == 0))
                else:
                    t = NP_DT[dt]
                    acc = arrs[0]
                    for v in arrs[1:]:
                        acc = {"ADD": np.add, "MUL": np.multiply, "MAX": np.maximum,
                               "MIN": np.minimum}[opname](acc, v).astype(t)
                    compare_exact(case, got, np.asarray(acc).astype(t))
    # exact small-integer-valued floats: any order gives the same result
    arrs = [np.arange(24, dtype=np.float32).reshape(2, 3, 4), np.float32([1, 2, 3, 4]),
            np.float32([[10], [20], [30]])]
    st, got, _ = run("ADD", "f32", arrs)
    check(st == OK and np.array_equal(got, arrs[0] + arrs[1] + arrs[2]), "variadic ADD exact")
    st, got, _ = run("MEAN", "f32", arrs)
    check(st == OK and np.array_equal(got, (arrs[0] + arrs[1] + arrs[2]) / np.float32(3)),
          "MEAN exact", "" if got is None else fmt(got))
    # arity limits: SUB is binary, ADD takes at most 16
    # header: BCAST_ERROR_UNSUPPORTED = "(op, dtype) pair or arity not offered"
    st, _, msg = run("SUB", "f32", [np.ones(3, np.float32)] * 3)
    check(st == UNSUPPORTED, "SUB with 3 inputs: UNSUPPORTED", "status %d %s" % (st, msg))
    st, _, msg = run("ADD", "f32", [np.ones(3, np.float32)])
    check(st == UNSUPPORTED, "ADD with 1 input: UNSUPPORTED", "status %d %s" % (st, msg))
    st, got, _ = run("ADD", "f32", [np.full(3, i, np.float32) for i in range(16)])
    check(st == OK and np.array_equal(got, np.full(3, 120, np.float32)), "ADD with 16 inputs")
    st, _, _ = run("ADD", "f32", [np.ones(3, np.float32)] * 17)
    check(st != OK, "ADD with 17 inputs refused", "status %d" % st)


def test_select():
    for dt in ALL_DT:
        for sc, sx, sy in [((2, 3, 4), (4,), (3, 1)), ((3, 1), (1, 5), ()), ((), (5,), (5,)),
                           ((0, 2), (2,), (1, 2))]:
            cond = RNG.random(sc) < 0.5 if sc else np.bool_(RNG.random() < 0.5)
            cond = np.asarray(cond, np.bool_)
            x, y = rand_values(dt, sx), rand_values(dt, sy)
            st, got, msg = run("SELECT", dt, [cond, x, y])
            case = "SELECT %s %s %s %s" % (dt, sc, sx, sy)
            if check(st == OK, case + " runs", "status %d %s" % (st, msg)):
                compare_bits(case, got, np.where(cond, x, y).astype(NP_DT[dt]))
    # a non-0/1 condition byte counts as true
    cond = np.array([0, 1, 2, 255], np.uint8).view(np.bool_)
    x, y = np.float32([1, 2, 3, 4]), np.float32([-1, -2, -3, -4])
    st, got, _ = run("SELECT", "f32", [cond, x, y])
    check(st == OK and np.array_equal(got, [-1, 2, 3, 4]), "SELECT non-0/1 condition bytes",
          "" if got is None else fmt(got))


def test_logical_bytes():
    a = np.array([0, 1, 2, 255, 0, 7], np.uint8).view(np.bool_)
    b = np.array([0, 0, 3, 1, 128, 7], np.uint8).view(np.bool_)
    for opname, f in (("LOGICAL_AND", np.logical_and), ("LOGICAL_OR", np.logical_or),
                      ("LOGICAL_XOR", np.logical_xor)):
        st, got, _ = run(opname, "bool", [a, b])
        want = f(a.view(np.uint8) != 0, b.view(np.uint8) != 0)
        if check(st == OK, opname + " non-0/1 bytes runs"):
            compare_exact(opname + " non-0/1 bytes", got, want)


def test_copy():
    rng = np.random.default_rng(5)
    for dt in ALL_DT:
        for data_shape, target in [((3, 1), (2, 1, 4)), ((1, 4, 1), (1, 4)), ((5,), (1,)),
                                   ((), (2, 3)), ((2, 3), ()), ((1, 3), (0, 3)),
                                   ((4, 1, 3), (4, 5, 3)), ((7,), (7,))]:
            data = rand_values(dt, data_shape)
            st, got, msg = run("COPY", dt, [data], target=target, mode=EXPAND_BIDIRECTIONAL)
            case = "COPY bidirectional %s %s -> %s" % (dt, data_shape, target)
            if check(st == OK, case + " runs", "status %d %s" % (st, msg)):
                want = np.broadcast_to(data, np.broadcast_shapes(data.shape, target))
                compare_bits(case, got, np.ascontiguousarray(want))
        # strided data, one-directional numpy mode
        base = rand_values(dt, (4, 6))
        view = base[::-1, ::2]
        st, got, msg = run("COPY", dt, [view], target=(2, 4, 3), mode=EXPAND_NUMPY)
        case = "COPY numpy strided %s" % dt
        if check(st == OK, case + " runs", "status %d %s" % (st, msg)):
            compare_bits(case, got, np.ascontiguousarray(np.broadcast_to(view, (2, 4, 3))))
    # explicit: data (3,) at target axis 1 of (2,3,4)
    data = np.arange(3, dtype=np.int16)
    st, got, _ = run("COPY", "i16", [data], target=(2, 3, 4), mode=EXPAND_EXPLICIT, mapping=[1])
    check(st == OK and np.array_equal(got, np.broadcast_to(data.reshape(1, 3, 1), (2, 3, 4))),
          "COPY explicit mapping [1]")
    # pdpd: data (3,1) at axis 1 of target (2,1,6) -> (2,3,6)
    data = np.arange(3, dtype=np.float32).reshape(3, 1)
    st, got, _ = run("COPY", "f32", [data], target=(2, 1, 6), mode=EXPAND_PDPD, axis=1)
    check(st == OK and np.array_equal(got, np.broadcast_to(data.reshape(1, 3, 1), (2, 3, 6))),
          "COPY pdpd axis 1")
    # an incompatible expand: status 2 and a message
    st, got, msg = run("COPY", "f32", [np.ones(3, np.float32)], target=(4,),
                       mode=EXPAND_BIDIRECTIONAL)
    check(st == INCOMPATIBLE and msg.strip() != "plan:", "COPY incompatible refused",
          "status %d %s" % (st, msg))


def reshape_pdpd(a_shape, b, axis):
    """B reshaped to rank(A) at axis (pdpd / onnx legacy): [1]*axis + B + [1]*rest."""
    ra, rb = len(a_shape), b.ndim
    if axis == -1:
        axis = ra - rb
    return b.reshape((1,) * axis + b.shape + (1,) * (ra - axis - rb))


def test_rules_values():
    # pdpd
    for a_shape, b_shape, axis in [((2, 3, 4, 5), (3, 1), 1), ((2, 3, 4, 5), (3, 4), 1),
                                   ((2, 3, 4, 5), (4, 5), -1), ((2, 3, 4, 5), (1, 3), 0),
                                   ((2, 3, 4, 5), (), -1), ((2, 3, 4, 5), (5,), 3),
                                   ((2, 3), (3, 1), 1)]:
        for opname in ("ADD", "SUB", "RSUB", "MUL", "DIV"):
            for dt in ("f32", "f64", "i32"):
                a = rand_values(dt, a_shape, opname, 0)
                b = rand_values(dt, b_shape, opname, 1)
                st, got, msg = run(opname, dt, [a, b], rule=RULE_PDPD, axis=axis)
                case = "pdpd %s %s %s+%s axis %d" % (opname, dt, a_shape, b_shape, axis)
                if not check(st == OK, case + " runs", "status %d %s" % (st, msg)):
                    continue
                if b.ndim + (axis if axis >= 0 else len(a_shape) - b.ndim) > len(a_shape):
                    bt = b.reshape(b.shape[:len(a_shape) - axis])  # (3,1) at 1 of rank 2
                else:
                    bt = b
                exp, _ = expected_binary(opname, dt, a, reshape_pdpd(a_shape, bt, axis))
                compare_exact(case, got, np.asarray(exp))
    # onnx legacy
    for a_shape, b_shape, axis in [((2, 3, 4, 5), (3, 4), 1), ((2, 3, 4, 5), (5,), -1),
                                   ((2, 3, 4, 5), (1,), -1), ((2, 3, 4, 5), (2,), 0)]:
        a = rand_values("f32", a_shape)
        b = rand_values("f32", b_shape)
        st, got, msg = run("MUL", "f32", [a, b], rule=RULE_ONNX_LEGACY, axis=axis)
        case = "onnx_legacy MUL %s+%s axis %d" % (a_shape, b_shape, axis)
        if check(st == OK, case + " runs", "status %d %s" % (st, msg)):
            bb = b.reshape(()) if b.size == 1 else reshape_pdpd(a_shape, b, axis)
            compare_exact(case, got, a * bb)
    # unidirectional (Gemm C) and none
    a, b = rand_values("f32", (2, 3, 4)), rand_values("f32", (3, 1))
    st, got, _ = run("ADD", "f32", [a, b], rule=RULE_UNIDIRECTIONAL)
    check(st == OK, "unidirectional runs") and compare_exact("unidirectional ADD", got, a + b)
    st, got, _ = run("ADD", "f32", [b, a], rule=RULE_UNIDIRECTIONAL)
    check(st == INCOMPATIBLE, "unidirectional refuses growing input 0", "status %d" % st)
    st, got, _ = run("SUB", "f32", [a, a[::-1]], rule=RULE_NONE)
    check(st == OK, "none runs") and compare_exact("none SUB", got, a - a[::-1])
    st, got, _ = run("SUB", "f32", [a, b], rule=RULE_NONE)
    check(st == INCOMPATIBLE, "none refuses different shapes", "status %d" % st)
    # ncnn: values under ncnn's alignment (numpy order)
    for a_shape, b_shape, b_aligned, a_aligned in [
            ((4, 3, 2), (4,), (4, 1, 1), None), ((4, 3, 2), (2,), (2,), None),
            ((4, 3, 2), (4, 3), (4, 3, 1), None), ((3, 2), (1, 1, 1), None, (3, 2, 1)),
            ((5, 4, 3, 2), (5, 4, 3), (5, 4, 3, 1), None), ((2, 2), (2,), (2, 1), None),
            ((3, 1), (1, 2), (1, 2), None), ((4,), (4, 3, 2), None, (4, 1, 1))]:
        for opname in ("SUB", "DIV", "RSUB", "ATAN2"):
            a = rand_values("f32", a_shape, opname, 0)
            b = rand_values("f32", b_shape, opname, 1)
            st, got, msg = run(opname, "f32", [a, b], rule=RULE_NCNN)
            case = "ncnn %s %s+%s" % (opname, a_shape, b_shape)
            if not check(st == OK, case + " runs", "status %d %s" % (st, msg)):
                continue
            aa = a.reshape(a_aligned) if a_aligned else a
            bb = b.reshape(b_aligned) if b_aligned else b
            exp, mode = expected_binary(opname, "f32", aa, bb)
            if mode == "tol":
                compare_tol(case, got, np.asarray(exp), "f32", 4.0)
            else:
                compare_exact(case, got, np.asarray(exp))


def test_padded_output():
    """out_strides: an ncnn-like channel-padded output (numpy order (c,h,w), each
    innermost row padded) for a few ops and rules."""
    for opname, dt, a_shape, b_shape, rule in [
            ("ADD", "f32", (4, 3, 5), (4, 1, 1), RULE_NUMPY),
            ("SUB", "f32", (4, 3, 5), (4,), RULE_NCNN),
            ("MUL", "i16", (2, 3, 7), (7,), RULE_NUMPY),
            ("LESS", "f64", (3, 1, 9), (1, 4, 1), RULE_NUMPY),
            ("MAX", "f16", (6, 2, 3), (3,), RULE_NUMPY)]:
        a = rand_values(dt, a_shape, opname, 0)
        b = rand_values(dt, b_shape, opname, 1)
        if rule == RULE_NCNN:
            out_shape, bb = a_shape, b.reshape(b.shape + (1, 1))
        else:
            out_shape, bb = np.broadcast_shapes(a_shape, b_shape), b
        st, got, msg = run(opname, dt, [a, b], rule=rule, out_shape=tuple(out_shape), out_pad=3)
        case = "padded output %s %s %s+%s" % (opname, dt, a_shape, b_shape)
        if check(st == OK, case + " runs", "status %d %s" % (st, msg)):
            exp, _ = expected_binary(opname, dt, a, bb)
            exp = np.asarray(exp)
            compare_exact(case, np.ascontiguousarray(got), exp,
                          skip_sign=(exp == 0) if opname == "MAX" else None)
    # strides that make two output elements share memory are refused
    with Op("ADD", "f32") as op:
        args = ShapeArgs([(2, 3), (3,)])
        bad = i64_array([1, 1])
        st = bcast_op_plan(op.handle, 2, args.ranks, args.dims, None, bad)
        check(st == INVALID_ARGUMENT, "overlapping out_strides refused", "status %d" % st)


def test_each_isa():
    """Re-run the element-wise comparisons with every kernel set the CPU offers."""
    original = bcast_isa()
    tested = {original}  # the other groups ran with the default kernel set
    for name in (b"scalar", b"sse2", b"avx2", b"avx512"):
        st = bcast_set_max_isa(name)
        check(st == OK, "set_max_isa(%s)" % name.decode(), "status %d" % st)
        got = bcast_isa()
        order = [b"scalar", b"sse2", b"avx2", b"avx512"]
        check(got in order and order.index(got) <= order.index(name),
              "bcast_isa() within the cap %s" % name.decode(), got.decode())
        if got in tested:
            continue
        tested.add(got)
        before = len(FAILURES)
        test_binary_ops(prefix="[%s] " % got.decode())
        test_variadic()
        test_copy()
        test_padded_output()
        for i in range(before, len(FAILURES)):
            FAILURES[i] += " (under max ISA %s)" % name.decode()
    check(bcast_set_max_isa(original) == OK and bcast_isa() == original, "restore max ISA")


def test_misc_contracts():
    import threading
    # plan_to with a non-COPY op: every input must expand to the same shape
    a, b = rand_values("f32", (3, 1)), rand_values("f32", (1, 4))
    st, got, msg = run("ADD", "f32", [a, b], target=(3, 4), mode=EXPAND_NUMPY)
    if check(st == OK, "plan_to ADD (3,1),(1,4) -> (3,4)", "status %d %s" % (st, msg)):
        compare_exact("plan_to ADD values", got, a + b)
    st, got, msg = run("ADD", "f32", [a, rand_values("f32", (4,))], target=(1, 4),
                       mode=EXPAND_BIDIRECTIONAL)
    check(st != OK, "plan_to inputs resolving to different shapes refused", "status %d" % st)
    # the largest rank executes
    sa = (2,) + (1,) * 30 + (3,)
    sb = (1,) * 31 + (3,)
    a, b = rand_values("f64", sa), rand_values("f64", sb)
    st, got, msg = run("MUL", "f64", [a, b])
    if check(st == OK, "rank 32 MUL runs", "status %d %s" % (st, msg)):
        compare_exact("rank 32 MUL", got, a * b)
    # size overflow: element count, then byte size
    for shape, what in (((2 ** 62, 4), "elements"), ((2 ** 61, 8), "bytes")):
        with Op("ADD", "f64") as op:
            args = ShapeArgs([shape, (1,)])
            st = bcast_op_plan(op.handle, 2, args.ranks, args.dims, None, None)
            check(st == 5, "plan %s overflowing %s: SIZE_OVERFLOW" % (shape, what),
                  "status %d %s" % (st, last_error()))
    # an empty output accepts NULL pointers
    with Op("ADD", "f32") as op:
        args = ShapeArgs([(0, 3), (3,)])
        check(bcast_op_plan(op.handle, 2, args.ranks, args.dims, None, None) == OK,
              "plan (0,3)+(3)")
        ptrs = (ctypes.c_void_p * 2)(None, None)
        st = bcast_op_execute(op.handle, ptrs, None)
        check(st == OK, "empty output: NULL pointers accepted", "status %d" % st)
    # the last error is per thread
    infer(RULE_NUMPY, [(2,), (3,)])
    main_msg = last_error()
    seen = []
    t = threading.Thread(target=lambda: seen.append(bcast_last_error()))
    t.start()
    t.join()
    check(seen == [b""], "a new thread has no last error", repr(seen))
    def fail_in_thread():
        infer(RULE_PDPD, [(2, 3), (4,)], 0)
        seen.append(bcast_last_error())
    t = threading.Thread(target=fail_in_thread)
    t.start()
    t.join()
    check(len(seen) == 2 and b"pdpd" in seen[1] and last_error() == main_msg,
          "another thread's failure leaves this thread's message alone", repr(seen))
    # set_param discards the plan
    with Op("ADD", "f32") as op:
        args = ShapeArgs([(2, 3), (3,)])
        check(bcast_op_plan(op.handle, 2, args.ranks, args.dims, None, None) == OK, "plan")
        check(op.set(PARAM_AXIS, 0) == OK, "set axis")
        st, _ = op.output_shape()
        check(st == INVALID_STATE, "set_param discards the plan", "status %d" % st)
        v = c_i64()
        check(bcast_op_get_param(op.handle, PARAM_AXIS, ctypes.byref(v)) == OK and v.value == 0,
              "get_param axis")


def test_errors_and_describe():
    a, b = np.ones((2, 3, 5), np.float32), np.ones((4, 5), np.float32)
    st, got, msg = run("ADD", "f32", [a, b])
    check(st == INCOMPATIBLE and "numpy" in msg, "plan (2,3,5)+(4,5) refused naming numpy",
          "status %d %s" % (st, msg))
    with Op("ADD", "f32") as op:
        args = ShapeArgs([(2, 3, 4), (4,)])
        check(bcast_op_plan(op.handle, 2, args.ranks, args.dims, None, None) == OK, "plan")
        js = op.describe()
        check(js.startswith("{") and js.endswith("}") and '"loops"' in js and '"kernel"' in js,
              "describe JSON", js[:200])
        try:
            import json
            doc = json.loads(js)
            check(isinstance(doc, dict) and "loops" in doc, "describe parses as JSON")
        except ValueError as e:
            check(False, "describe parses as JSON", str(e) + ": " + js[:300])
        out = np.full((2, 3, 4), -1.0, np.float32)
        ptrs = (ctypes.c_void_p * 2)(ctypes.c_void_p(0), ctypes.c_void_p(0))
        st = bcast_op_execute(op.handle, ptrs, out.ctypes.data)
        check(st == INVALID_ARGUMENT and np.all(out == -1.0), "execute with NULL inputs refused",
              "status %d" % st)
        # an output overlapping an input (not exactly it) is refused, nothing written
        x = np.arange(40, dtype=np.float32)
        xin = x[:24].reshape(2, 3, 4)
        bb = np.ones(4, np.float32)
        ptrs = (ctypes.c_void_p * 2)(xin.ctypes.data, bb.ctypes.data)
        before = x.copy()
        st = bcast_op_execute(op.handle, ptrs, x[4:].ctypes.data)
        check(st == INVALID_ARGUMENT and np.array_equal(x, before), "partial overlap refused",
              "status %d" % st)
        # exactly in place is fine
        st = bcast_op_execute(op.handle, ptrs, xin.ctypes.data)
        check(st == OK and np.array_equal(xin, before[:24].reshape(2, 3, 4) + 1), "in place")
    check(bcast_op_describe(None, None, 0) == 0, "describe(NULL) == 0")
    bcast_op_destroy(None)
    check(True, "destroy(NULL)")


def test_bf16_roundtrip():
    x = np.float32([1.0, -2.5, 3.0e38, 1e-40, np.inf, 0.1])
    check(np.array_equal(bf16_to_f32(f32_to_bf16(bf16_to_f32(f32_to_bf16(x)))),
                         bf16_to_f32(f32_to_bf16(x))), "bf16 helper idempotent")
