"""Quantized ops and expressions through the C API, against the QDQ graph in
numpy (qdq_oracle.py; pytest). The byte-pair tests cover all 65,536 pairs of
each op and dtype for several parameter sets.
"""
import ctypes
import json
import os
import zlib

import numpy as np
import pytest

from qdq_oracle import (F32, NP_DT, RANGE, SPECIAL, all_pairs, dequantize, f32_op, qdq, quantize,
                        random_params, shift_params)

np.seterr(all="ignore")

OK, INVALID_ARGUMENT, UNSUPPORTED, INVALID_STATE = 0, 1, 3, 6
OUTPUT = ctypes.c_size_t(-1).value
DT = dict(f32=0, i8=4, u8=5, i32=8)
RULE = dict(none=0, numpy=1, unidirectional=2, pdpd=3, onnx_legacy=4, ncnn=5)
PARAM_RULE, PARAM_AXIS = 0, 1
OP = dict(ADD=0, SUB=1, MUL=2, DIV=3, MAX=4, MIN=5, POW=6, RSUB=7, RDIV=8,
          SQUARED_DIFFERENCE=20, PRELU=21, EQUAL=22, MEAN=36)
# ---------------------------------------------------------------------------
# The library


@pytest.fixture(scope="module")
def lib():
    path = os.environ.get("BCAST_LIBRARY")
    if not path:
        pytest.skip("BCAST_LIBRARY is not set")
    lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL)
    p = ctypes.c_void_p
    sz = ctypes.c_size_t
    i64p = ctypes.POINTER(ctypes.c_int64)
    lib.bcast_op_create.argtypes = [ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(p)]
    lib.bcast_op_set_param.argtypes = [p, ctypes.c_int32, ctypes.c_int64]
    lib.bcast_op_set_quantization.argtypes = [p, sz, ctypes.c_float, ctypes.c_int32]
    lib.bcast_op_get_quantization.argtypes = [p, sz, ctypes.POINTER(ctypes.c_float),
                                              ctypes.POINTER(ctypes.c_int32)]
    lib.bcast_op_plan.argtypes = [p, sz, ctypes.POINTER(sz), ctypes.POINTER(i64p),
                                  ctypes.POINTER(i64p), i64p]
    lib.bcast_op_plan_to.argtypes = [p, sz, ctypes.POINTER(sz), ctypes.POINTER(i64p),
                                     ctypes.POINTER(i64p), sz, i64p, i64p, sz, i64p]
    lib.bcast_op_execute.argtypes = [p, ctypes.POINTER(p), p]
    lib.bcast_op_execute_task.argtypes = [p, ctypes.POINTER(p), p, sz, sz]
    lib.bcast_op_describe.argtypes = [p, ctypes.c_char_p, sz]
    lib.bcast_op_describe.restype = sz
    lib.bcast_op_destroy.argtypes = [p]
    lib.bcast_expr_create.argtypes = [ctypes.c_int32, sz, ctypes.POINTER(p)]
    lib.bcast_expr_set_quantization.argtypes = [p, sz, ctypes.c_int32, ctypes.c_float,
                                                ctypes.c_int32]
    lib.bcast_expr_get_quantization.argtypes = [p, sz, ctypes.POINTER(ctypes.c_int32),
                                                ctypes.POINTER(ctypes.c_float),
                                                ctypes.POINTER(ctypes.c_int32)]
    lib.bcast_expr_add_node.argtypes = [p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int64, sz,
                                        ctypes.POINTER(sz), ctypes.POINTER(sz)]
    lib.bcast_expr_plan.argtypes = lib.bcast_op_plan.argtypes
    lib.bcast_expr_execute.argtypes = [p, ctypes.POINTER(p), p]
    lib.bcast_expr_describe.argtypes = [p, ctypes.c_char_p, sz]
    lib.bcast_expr_describe.restype = sz
    lib.bcast_expr_destroy.argtypes = [p]
    lib.bcast_tuning_load_string.argtypes = [ctypes.c_char_p, sz]
    lib.bcast_tuning_describe.argtypes = [ctypes.c_char_p, sz]
    lib.bcast_tuning_describe.restype = sz
    lib.bcast_last_error.restype = ctypes.c_char_p
    return lib


def message(lib):
    return lib.bcast_last_error().decode()


def layout(arrays):
    """ranks, dims and element strides of numpy arrays, as bcast_op_plan takes them."""
    n = len(arrays)
    ranks = (ctypes.c_size_t * n)(*[a.ndim for a in arrays])
    keep = []
    dims = (ctypes.POINTER(ctypes.c_int64) * n)()
    strides = (ctypes.POINTER(ctypes.c_int64) * n)()
    for i, a in enumerate(arrays):
        d = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
        s = (ctypes.c_int64 * max(a.ndim, 1))(*[st // a.itemsize for st in a.strides])
        keep += [d, s]
        dims[i] = ctypes.cast(d, ctypes.POINTER(ctypes.c_int64))
        strides[i] = ctypes.cast(s, ctypes.POINTER(ctypes.c_int64))
    return ranks, dims, strides, keep


def pointers(arrays):
    return (ctypes.c_void_p * len(arrays))(*[a.ctypes.data for a in arrays])


class QOp:
    def __init__(self, lib, op, dtype, params, py, rule="numpy", axis=-1):
        self.lib = lib
        self.h = ctypes.c_void_p()
        assert lib.bcast_op_create(OP[op], DT[dtype], ctypes.byref(self.h)) == OK
        assert lib.bcast_op_set_param(self.h, PARAM_RULE, RULE[rule]) == OK
        assert lib.bcast_op_set_param(self.h, PARAM_AXIS, axis) == OK
        for i, (scale, zp) in enumerate(params):
            assert lib.bcast_op_set_quantization(self.h, i, scale, zp) == OK, message(lib)
        assert lib.bcast_op_set_quantization(self.h, OUTPUT, py[0], py[1]) == OK, message(lib)

    def run(self, inputs, out):
        ranks, dims, strides, keep = layout(inputs)
        ostr = (ctypes.c_int64 * max(out.ndim, 1))(*[s // out.itemsize for s in out.strides])
        st = self.lib.bcast_op_plan(self.h, len(inputs), ranks, dims, strides, ostr)
        assert st == OK, message(self.lib)
        st = self.lib.bcast_op_execute(self.h, pointers(inputs), ctypes.c_void_p(out.ctypes.data))
        assert st == OK, message(self.lib)
        return out

    def describe(self):
        buf = ctypes.create_string_buffer(8192)
        self.lib.bcast_op_describe(self.h, buf, 8192)
        return buf.value.decode()

    def __del__(self):
        self.lib.bcast_op_destroy(self.h)


QOPS = ["ADD", "SUB", "RSUB", "MUL", "DIV", "RDIV", "MAX", "MIN", "SQUARED_DIFFERENCE",
        "PRELU"]


def seed(*words):
    """The same seed in every run (hash() of a str changes per process)."""
    return zlib.crc32(" ".join(words).encode())


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", QOPS)
def test_every_byte_pair(lib, op, dtype):
    rng = np.random.default_rng(seed(op, dtype))
    a, b = all_pairs(dtype)
    sets = random_params(rng, dtype, 12) + [shift_params(s, dtype) for s in SPECIAL]
    bad = []
    for pa, pb, py in sets:
        q = QOp(lib, op, dtype, [pa, pb], py)
        got = q.run([a, b], np.empty((256, 256), NP_DT[dtype]))
        want = qdq(op, a, b, pa, pb, py, dtype)
        if not np.array_equal(got, want):
            i = np.argwhere(got != want)[0]
            bad.append(f"{(pa, pb, py)}: {np.count_nonzero(got != want)} pairs differ, first "
                       f"a={a[i[0], 0]} b={b[0, i[1]]}: got {got[tuple(i)]}, want {want[tuple(i)]}")
    assert not bad, "\n".join(bad)


def test_ties_round_half_to_even(lib):
    """The issue's worked ties: scales 1/16, 1/16 -> 1/8, zero points 128."""
    pa = pb = (2.0 ** -4, 128)
    py = (2.0 ** -3, 128)
    a = np.array([129, 131, 127, 133], np.uint8)
    b = np.array([128, 128, 128, 128], np.uint8)
    got = QOp(lib, "ADD", "u8", [pa, pb], py).run([a, b], np.empty(4, np.uint8))
    # 0.5 -> 0, 1.5 -> 2, -0.5 -> -0, 2.5 -> 2: plus 128
    assert got.tolist() == [128, 130, 128, 130]


RULE_CASES = [
    # rule, axis, a shape, b shape
    ("numpy", -1, (4, 1, 5), (3, 1)),
    ("unidirectional", -1, (4, 3, 5), (3, 1)),
    ("pdpd", 1, (2, 3, 4, 5), (3, 4)),
    ("onnx_legacy", 1, (2, 3, 4, 5), (3,)),
    ("ncnn", -1, (2, 3, 4), (2, 3, 4)),
    ("none", -1, (3, 7), (3, 7)),
]


def numpy_view(rule, axis, a, b):
    """b placed on a's axes as the rule places it (a is the larger operand here)."""
    if rule in ("pdpd", "onnx_legacy"):
        shape = (1,) * axis + b.shape + (1,) * (a.ndim - axis - b.ndim)
        return b.reshape(shape)
    return b


@pytest.mark.parametrize("rule,axis,ashape,bshape", RULE_CASES)
@pytest.mark.parametrize("dtype", ["u8", "i8"])
def test_every_rule_and_layout(lib, rule, axis, ashape, bshape, dtype):
    rng = np.random.default_rng(7)
    lo, hi = RANGE[dtype]
    pa, pb, py = random_params(rng, dtype, 1)[0]
    pa, pb, py = (0.05, pa[1]), (0.2, pb[1]), (0.1, py[1])
    a = rng.integers(lo, hi + 1, ashape).astype(NP_DT[dtype])
    b = rng.integers(lo, hi + 1, bshape).astype(NP_DT[dtype])
    want = qdq("SUB", a, numpy_view(rule, axis, a, b), pa, pb, py, dtype)
    q = QOp(lib, "SUB", dtype, [pa, pb], py, rule, axis)
    assert np.array_equal(q.run([a, b], np.empty(want.shape, NP_DT[dtype])), want)
    # reversed and strided inputs, a strided output
    a2 = np.ascontiguousarray(a[..., ::-1])[..., ::-1]
    big = np.empty(tuple(2 * n for n in want.shape), NP_DT[dtype])
    out = big[tuple(slice(None, None, 2) for _ in want.shape)]
    assert np.array_equal(q.run([a2, b], out), want)
    wide = np.zeros(ashape[:-1] + (2 * ashape[-1],), NP_DT[dtype])
    wide[..., ::2] = a
    assert np.array_equal(q.run([wide[..., ::2], b], np.empty(want.shape, NP_DT[dtype])), want)
    # in place: the output is input 0 (same dtype, any quantization)
    if want.shape == a.shape:
        c = a.copy()
        q.run([c, b], c)
        assert np.array_equal(c, want)


def test_constant_operand_and_per_channel(lib):
    """A scalar b, and NCHW per-channel b: b's dequantized value is reused along runs."""
    rng = np.random.default_rng(3)
    pa, pb, py = (0.02, 3), (0.5, 250), (0.07, 128)
    a = rng.integers(0, 256, (2, 8, 5, 7)).astype(np.uint8)
    for b in (np.array(200, np.uint8), rng.integers(0, 256, (1, 8, 1, 1)).astype(np.uint8),
              rng.integers(0, 256, (7,)).astype(np.uint8)):
        for op in ("ADD", "RSUB", "MUL"):
            want = qdq(op, a, b, pa, pb, py, "u8")
            got = QOp(lib, op, "u8", [pa, pb], py).run([a, b], np.empty(want.shape, np.uint8))
            assert np.array_equal(got, want), (op, b.shape)
            want = qdq(op, b, a, pb, pa, py, "u8")
            got = QOp(lib, op, "u8", [pb, pa], py).run([b, a], np.empty(want.shape, np.uint8))
            assert np.array_equal(got, want), (op, b.shape, "constant first")


@pytest.mark.parametrize("rows", [6, 600])
def test_a_constant_beside_a_repeated_row(lib, rows):
    """An operand constant over the whole output through zero strides (not
    shape 1) beside a short row repeated along the line: no table-row kernel
    applies (it indexes bytes read in place), the block path runs."""
    rng = np.random.default_rng(11)
    pa, pb, py = (0.03, 9), (0.05, 120), (0.04, 100)
    a = np.broadcast_to(np.uint8(201), (rows, 1))  # strides (0, 0)
    b = rng.integers(0, 256, (5,)).astype(np.uint8)
    for op in ("ADD", "MUL"):
        want = qdq(op, np.array(a), b, pa, pb, py, "u8")
        got = QOp(lib, op, "u8", [pa, pb], py).run([a, b], np.empty(want.shape, np.uint8))
        assert np.array_equal(got, want), (op, "constant first")
        want = qdq(op, b, np.array(a), pb, pa, py, "u8")
        got = QOp(lib, op, "u8", [pb, pa], py).run([b, a], np.empty(want.shape, np.uint8))
        assert np.array_equal(got, want), (op, "constant second")


def test_tasks_write_what_execute_writes(lib):
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (300, 1000)).astype(np.int8)
    b = rng.integers(-128, 128, (1000,)).astype(np.int8)
    q = QOp(lib, "MUL", "i8", [(0.03, -5), (0.01, 7)], (0.02, 1))
    want = q.run([a, b], np.empty(a.shape, np.int8))
    out = np.zeros(a.shape, np.int8)
    for task in range(3):
        assert lib.bcast_op_execute_task(q.h, pointers([a, b]), ctypes.c_void_p(out.ctypes.data),
                                         task, 3) == OK
    assert np.array_equal(out, want)
    assert np.array_equal(want, qdq("MUL", a, b, (0.03, -5), (0.01, 7), (0.02, 1), "i8"))


def test_bad_parameters_are_refused_and_named(lib):
    h = ctypes.c_void_p()
    assert lib.bcast_op_create(OP["ADD"], DT["u8"], ctypes.byref(h)) == OK
    try:
        for scale, zp, who in ((0.0, 0, "input 1"), (-1.0, 0, "input 1"),
                               (float("inf"), 0, "input 1"), (float("nan"), 0, "input 1"),
                               (1e-40, 0, "input 1"), (1.0, 256, "input 1"), (1.0, -1, "input 1")):
            assert lib.bcast_op_set_quantization(h, 1, scale, zp) == INVALID_ARGUMENT
            assert who in message(lib), message(lib)
        assert lib.bcast_op_set_quantization(h, OUTPUT, 1.0, 300) == INVALID_ARGUMENT
        assert "the output" in message(lib)
        s, z = ctypes.c_float(7), ctypes.c_int32(7)
        assert lib.bcast_op_get_quantization(h, 0, ctypes.byref(s), ctypes.byref(z)) == INVALID_STATE
        assert (s.value, z.value) == (7, 7)  # nothing written
        assert lib.bcast_op_set_quantization(h, 0, 0.5, 3) == OK
        assert lib.bcast_op_get_quantization(h, 0, ctypes.byref(s), ctypes.byref(z)) == OK
        assert (s.value, z.value) == (0.5, 3)
        # input 1 and the output are missing: planning names the first
        one = (ctypes.c_int64 * 1)(4)
        dims = (ctypes.POINTER(ctypes.c_int64) * 2)(one, one)
        ranks = (ctypes.c_size_t * 2)(1, 1)
        assert lib.bcast_op_plan(h, 2, ranks, dims, None, None) == INVALID_STATE
        assert "input 1 has no quantization" in message(lib)
        assert lib.bcast_op_set_quantization(h, 1, 0.5, 3) == OK
        assert lib.bcast_op_plan(h, 2, ranks, dims, None, None) == INVALID_STATE
        assert "the output has no quantization" in message(lib)
        assert lib.bcast_op_set_quantization(h, OUTPUT, 0.5, 3) == OK
        assert lib.bcast_op_plan(h, 2, ranks, dims, None, None) == OK
        assert lib.bcast_op_plan_to(h, 2, ranks, dims, None, 1, one, None, 0, None) == UNSUPPORTED
        assert lib.bcast_op_set_quantization(h, 2, 0.5, 3) == OK  # ADD is variadic
        assert lib.bcast_op_set_quantization(h, 16, 0.5, 3) == INVALID_ARGUMENT
    finally:
        lib.bcast_op_destroy(h)
    for op, dtype in (("POW", "u8"), ("EQUAL", "u8"), ("ADD", "f32"), ("ADD", "i32"),
                      ("SUB", "i32")):
        assert lib.bcast_op_create(OP[op], DT[dtype], ctypes.byref(h)) == OK
        assert lib.bcast_op_set_quantization(h, 0, 1.0, 0) == UNSUPPORTED, (op, dtype)
        lib.bcast_op_destroy(h)


def test_describe_names_the_quantization(lib):
    q = QOp(lib, "ADD", "i8", [(0.25, -3), (0.5, 4)], (0.125, 0))
    q.run([np.zeros(5, np.int8), np.zeros(5, np.int8)], np.empty(5, np.int8))
    text = q.describe()
    assert '"kernel":"quantized"' in text
    assert ('"quantization":{"inputs":[{"dtype":"i8","scale":0.25,"zero_point":-3},'
            '{"dtype":"i8","scale":0.5,"zero_point":4}],'
            '"output":{"dtype":"i8","scale":0.125,"zero_point":0}}') in text


class QExpr:
    """requant(dequant(x) * s + b): x quantized u8, s and b f32, output quantized."""

    def __init__(self, lib, px, py, out_dtype="u8"):
        self.lib = lib
        self.h = ctypes.c_void_p()
        assert lib.bcast_expr_create(DT["f32"], 3, ctypes.byref(self.h)) == OK
        assert lib.bcast_expr_set_quantization(self.h, 0, DT["u8"], *px) == OK, message(lib)
        v = ctypes.c_size_t()
        ops = (ctypes.c_size_t * 2)(0, 1)
        assert lib.bcast_expr_add_node(self.h, OP["MUL"], RULE["numpy"], -1, 2, ops,
                                       ctypes.byref(v)) == OK, message(lib)
        ops = (ctypes.c_size_t * 2)(v.value, 2)
        assert lib.bcast_expr_add_node(self.h, OP["ADD"], RULE["numpy"], -1, 2, ops, None) == OK
        assert lib.bcast_expr_set_quantization(self.h, OUTPUT, DT[out_dtype], *py) == OK

    def run(self, inputs, out):
        ranks, dims, strides, keep = layout(inputs)
        assert self.lib.bcast_expr_plan(self.h, 3, ranks, dims, strides, None) == OK, \
            message(self.lib)
        assert self.lib.bcast_expr_execute(self.h, pointers(inputs),
                                           ctypes.c_void_p(out.ctypes.data)) == OK
        return out

    def __del__(self):
        self.lib.bcast_expr_destroy(self.h)


@pytest.mark.parametrize("out_dtype", ["u8", "i8"])
def test_expression_matches_the_qdq_nodes_one_by_one(lib, out_dtype):
    rng = np.random.default_rng(11)
    px, py = (0.031, 17), (0.047, 128 if out_dtype == "u8" else -3)
    x = rng.integers(0, 256, (3, 16, 9, 10)).astype(np.uint8)
    s = rng.uniform(-2, 2, (1, 16, 1, 1)).astype(F32)
    b = rng.uniform(-3, 3, (16, 1, 1)).astype(F32)
    want = quantize(dequantize(x, *px) * s + b, *py, out_dtype)
    got = QExpr(lib, px, py, out_dtype).run([x, s, b], np.empty(x.shape, NP_DT[out_dtype]))
    assert np.array_equal(got, want)
    # every byte of x, with scalar s and b
    x = np.arange(256, dtype=np.uint8)
    s, b = np.array(1.7, F32), np.array(-0.3, F32)
    want = quantize(dequantize(x, *px) * s + b, *py, out_dtype)
    got = QExpr(lib, px, py, out_dtype).run([x, s, b], np.empty(256, NP_DT[out_dtype]))
    assert np.array_equal(got, want)


def test_expression_quantization_checks(lib):
    h = ctypes.c_void_p()
    assert lib.bcast_expr_create(DT["f32"], 2, ctypes.byref(h)) == OK
    try:
        assert lib.bcast_expr_set_quantization(h, 0, DT["i32"], 1.0, 0) == UNSUPPORTED
        assert "u8 or i8, not i32" in message(lib)
        assert lib.bcast_expr_set_quantization(h, 0, 99, 1.0, 0) == UNSUPPORTED
        assert "not unknown dtype 99" in message(lib)
        assert lib.bcast_expr_set_quantization(h, 0, DT["i8"], 1.0, 128) == INVALID_ARGUMENT
        assert "input 0" in message(lib)
        assert lib.bcast_expr_set_quantization(h, 2, DT["i8"], 1.0, 0) == INVALID_ARGUMENT
        assert lib.bcast_expr_set_quantization(h, 0, DT["i8"], 0.5, -1) == OK
        d, s, z = ctypes.c_int32(), ctypes.c_float(), ctypes.c_int32()
        assert lib.bcast_expr_get_quantization(h, 0, ctypes.byref(d), ctypes.byref(s),
                                               ctypes.byref(z)) == OK
        assert (d.value, s.value, z.value) == (DT["i8"], 0.5, -1)
        assert lib.bcast_expr_get_quantization(h, OUTPUT, None, None, None) == INVALID_STATE
        ops = (ctypes.c_size_t * 2)(0, 1)
        assert lib.bcast_expr_add_node(h, OP["LESS"] if "LESS" in OP else 24, RULE["numpy"], -1,
                                       2, ops, None) == OK
        assert lib.bcast_expr_set_quantization(h, 0, DT["u8"], 1.0, 0) == INVALID_STATE
        assert lib.bcast_expr_set_quantization(h, OUTPUT, DT["u8"], 1.0, 0) == OK
        one = (ctypes.c_int64 * 1)(4)
        dims = (ctypes.POINTER(ctypes.c_int64) * 2)(one, one)
        ranks = (ctypes.c_size_t * 2)(1, 1)
        assert lib.bcast_expr_plan(h, 2, ranks, dims, None, None) == UNSUPPORTED
        assert "only an f32 result can be quantized" in message(lib)
    finally:
        lib.bcast_expr_destroy(h)


def check_both_ways(lib, op, dtype, varying, other, params):
    """op(varying, other) and op(other, varying) against the oracle, where
    varying has the output's shape."""
    pa, pb, py = params
    for x, y in ((varying, other), (other, varying)):
        got = QOp(lib, op, dtype, [pa, pb], py).run([x, y], np.empty(varying.shape, NP_DT[dtype]))
        assert np.array_equal(got, qdq(op, x, y, pa, pb, py, dtype)), (params, x.shape, y.shape)


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["ADD", "SUB", "RSUB", "MUL", "DIV", "MAX", "MIN"])
def test_every_byte_pair_on_long_lines(lib, op, dtype):
    """Lines of 1,024 with one operand constant along each (where a CPU with
    byte permutes looks the line up in a 256-entry row), both ways round."""
    rng = np.random.default_rng(seed(op, dtype, "long"))
    lo, hi = RANGE[dtype]
    bytes_ = np.arange(lo, hi + 1).astype(NP_DT[dtype])
    varying = np.tile(bytes_, (256, 4))            # (256, 1024): every byte on every line
    constant = bytes_.reshape(256, 1)              # one value per line
    for params in random_params(rng, dtype, 4) + [shift_params(SPECIAL[0], dtype)]:
        check_both_ways(lib, op, dtype, varying, constant, params)


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["ADD", "SUB", "RSUB", "MUL", "DIV", "MAX", "MIN"])
def test_every_byte_pair_on_repeated_rows(lib, op, dtype):
    """A row repeated along the lines ((256,256)+(256), NHWC's per-channel
    operand): the row is dequantized once per line and read as f32 beside
    the other operand's bytes; both ways round, every byte against every row
    entry, rows of 256 and of 64 entries."""
    rng = np.random.default_rng(seed(op, dtype, "rows"))
    lo, hi = RANGE[dtype]
    values = np.arange(lo, hi + 1)
    # column j holds every byte once: (r + j) mod 256
    grid = ((np.arange(256)[:, None] + np.arange(256)[None, :]) % 256 + lo).astype(NP_DT[dtype])
    for row, varying in ((values.astype(NP_DT[dtype]), grid),
                         (values[:64].astype(NP_DT[dtype]), grid.reshape(1024, 64))):
        for params in random_params(rng, dtype, 3) + [shift_params(SPECIAL[0], dtype)]:
            check_both_ways(lib, op, dtype, varying, row, params)


def exact_affine_params(op, dtype):
    """Powers of two: every affine coefficient and result exact in f32, so the
    checked affine kernel always runs (where the kernel set has one)."""
    return shift_params(((0.25, 3), (0.5, 250), (8.0 if op == "MUL" else 0.125, 128)), dtype)


def skip_without_register_kernels(lib, op, dtype):
    q = QOp(lib, op, dtype, [(1.0, 0), (1.0, 0)], (1.0, 0))
    a = np.zeros(64, NP_DT[dtype])
    q.run([a, a], np.empty(64, NP_DT[dtype]))
    if '"in_registers":true' not in q.describe():
        pytest.skip("this kernel set has no register (and no affine) kernels")


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL"])
def test_every_byte_pair_on_long_repeated_rows(lib, op, dtype):
    """Lines long enough (32 x 256 x the row's 64 entries) for the checked
    affine kernel, which must give the exact bytes or not run: parameters
    where it agrees with the exact kernel on every (byte, entry) pair and
    decimal ones where ties make it disagree; both ways round. Whole lines,
    an output that starts 3 bytes past a cache line (the row at another
    phase per kernel call), two tasks, and a row per outer index (each line
    lays out and checks its own)."""
    skip_without_register_kernels(lib, op, dtype)
    rng = np.random.default_rng([ord(c) for c in op + dtype + "rows"])
    lo, hi = RANGE[dtype]
    # each channel sees every byte, shifted per channel and repeated
    grid = ((np.arange(256)[:, None] + np.arange(64)[None, :]) % 256 + lo).astype(NP_DT[dtype])
    varying = np.tile(grid, (64, 1))  # (16384, 64): one line of 1,048,576
    row = rng.integers(lo, hi + 1, 64).astype(NP_DT[dtype])
    sets = ([exact_affine_params(op, dtype)] + random_params(rng, dtype, 2)
            + [shift_params(((0.02, 3), (0.05, 7), (0.04, 5)), dtype), shift_params(SPECIAL[0], dtype)])
    for params in sets:
        pa, pb, py = params
        for x, y in ((varying, row), (row, varying)):
            want = qdq(op, x, y, pa, pb, py, dtype)
            q = QOp(lib, op, dtype, [pa, pb], py)
            assert np.array_equal(q.run([x, y], np.empty(want.shape, NP_DT[dtype])), want), (params, x.shape)
            assert '"checked_affine_from":524288' in q.describe(), q.describe()
            buf = np.empty(want.size + 64 + 3, NP_DT[dtype])
            start = (-buf.ctypes.data) % 64 + 3
            out = buf[start:start + want.size].reshape(want.shape)
            assert np.array_equal(q.run([x, y], out), want), (params, x.shape, "3 bytes past a line")
            out = np.zeros(want.shape, NP_DT[dtype])
            for task in range(2):
                assert lib.bcast_op_execute_task(q.h, pointers([x, y]), ctypes.c_void_p(out.ctypes.data),
                                                 task, 2) == OK
            assert np.array_equal(out, want), (params, x.shape, "tasks")
    pa, pb, py = sets[1]
    a = varying.reshape(2, 8192, 64)
    rows = rng.integers(lo, hi + 1, (2, 1, 64)).astype(NP_DT[dtype])
    for x, y in ((a, rows), (rows, a)):
        want = qdq(op, x, y, pa, pb, py, dtype)
        got = QOp(lib, op, dtype, [pa, pb], py).run([x, y], np.empty(want.shape, NP_DT[dtype]))
        assert np.array_equal(got, want), (sets[1], x.shape, "a row per line")


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL"])
def test_every_byte_pair_on_long_runs(lib, op, dtype):
    """Both operands running over 32 x 65,536 elements: planning checks the
    affine kernel on all 65,536 pairs and runs it only where it agrees with
    the exact kernel (powers of two always do, random parameters mostly,
    decimal ones with ties often do not). Every pair 32 times, both ways
    round."""
    skip_without_register_kernels(lib, op, dtype)
    rng = np.random.default_rng([ord(c) for c in op + dtype + "pairs"])
    x, y = all_pairs(dtype)
    x = np.tile(np.broadcast_to(x, (256, 256)).ravel(), 32)
    y = np.tile(np.broadcast_to(y, (256, 256)).ravel(), 32)
    sets = ([exact_affine_params(op, dtype)] + random_params(rng, dtype, 2)
            + [shift_params(((0.02, 3), (0.05, 7), (0.04, 5)), dtype)])
    for params in sets:
        pa, pb, py = params
        for a, b in ((x, y), (y, x)):
            want = qdq(op, a, b, pa, pb, py, dtype)
            q = QOp(lib, op, dtype, [pa, pb], py)
            assert np.array_equal(q.run([a, b], np.empty(want.shape, NP_DT[dtype])), want), params
            if params is sets[0]:
                assert '"requantize":"checked affine"' in q.describe(), q.describe()


def reciprocal_agrees(op, pa, pb, py, dtype):
    """Whether quantizing with the quotient v * (1 / scale) in float32, the
    reciprocal rounded to float32, gives QuantizeLinear's bytes for all
    65,536 pairs (numpy's answer to the question the plan's check asks)."""
    a, b = all_pairs(dtype)
    v = f32_op(op, dequantize(a, *pa), dequantize(b, *pb))
    scale, zp = py
    # QuantizeLinear of v times the reciprocal, by a scale of 1 (an exact divide)
    by_reciprocal = quantize((v * (F32(1) / F32(scale))).astype(F32), 1.0, zp, dtype)
    return np.array_equal(by_reciprocal, quantize(v, scale, zp, dtype))


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["ADD", "SUB", "RSUB", "MUL", "DIV", "RDIV", "MAX", "MIN"])
def test_checked_reciprocal_on_long_runs(lib, op, dtype):
    """Both operands running over 32 x 65,536 elements, where the affine
    kernel does not check out or the op has none: planning runs the
    reciprocal kernel (the op's result times the output scale's float32
    reciprocal, no divide) only where it gives the exact bytes on all 65,536
    pairs. The plan's choice is held to numpy's answer to the same question,
    the output to the QDQ graph. The bench's parameters pass for every op,
    decimal ones with ties (0.02 / 0.04) fail for every op."""
    skip_without_register_kernels(lib, op, dtype)
    rng = np.random.default_rng(seed(op, dtype, "reciprocal"))
    x, y = all_pairs(dtype)
    x = np.tile(np.broadcast_to(x, (256, 256)).ravel(), 32)
    y = np.tile(np.broadcast_to(y, (256, 256)).ravel(), 32)
    bench = shift_params(((0.0213, 128), (0.0371, 133), (0.0517, 126)), dtype)
    ties = shift_params(((0.02, 3), (0.05, 7), (0.04, 5)), dtype)
    sets = [bench, ties, shift_params(((0.1, 3), (0.3, 7), (0.7, 5)), dtype)] + random_params(rng, dtype, 3)
    for params in sets:
        pa, pb, py = params
        agrees = reciprocal_agrees(op, pa, pb, py, dtype)
        q = QOp(lib, op, dtype, [pa, pb], py)
        want = qdq(op, x, y, pa, pb, py, dtype)
        assert np.array_equal(q.run([x, y], np.empty(want.shape, NP_DT[dtype])), want), params
        requantize = json.loads(q.describe())["requantize"]
        assert requantize != "checked reciprocal" or agrees, (params, requantize)
        assert requantize != "divide" or not agrees, (params, requantize)
        if params is bench:
            assert agrees and requantize in ("checked affine", "checked reciprocal"), requantize
            if op not in ("ADD", "SUB", "RSUB", "MUL"):
                assert requantize == "checked reciprocal", requantize
        if params is ties:
            assert not agrees and requantize != "checked reciprocal", requantize


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL", "DIV", "MAX", "MIN"])
def test_checked_reciprocal_with_a_pattern(lib, op, dtype):
    """One operand a repeated row (a pattern, read dequantized) of all 256
    bytes, the other running over 32 x 65,536 elements so that every pair
    meets 32 times, pattern first and second: the plan takes the reciprocal
    kernel exactly where numpy says the reciprocal gives all 65,536 pairs'
    bytes (the pattern's values are the bytes dequantized, so the same pairs
    decide), and the output is the QDQ graph's either way. The running
    operand is two halves apart in memory, so each line stays below the
    affine kernels' check (32 x 256 x the period) and the reciprocal kernel
    writes every byte of ADD, SUB and MUL too."""
    skip_without_register_kernels(lib, op, dtype)
    rng = np.random.default_rng(seed(op, dtype, "pattern reciprocal"))
    lo, _ = RANGE[dtype]
    row = np.arange(256)
    halves = np.empty((2, 4097, 256), NP_DT[dtype])[:, :4096, :]
    halves[...] = ((np.arange(4096)[:, None] + row[None, :]) % 256 + lo).astype(NP_DT[dtype])
    running = halves
    pattern = (row + lo).astype(NP_DT[dtype])
    bench = shift_params(((0.0213, 128), (0.0371, 133), (0.0517, 126)), dtype)
    ties = shift_params(((0.02, 3), (0.05, 7), (0.04, 5)), dtype)
    for params in [bench, ties] + random_params(rng, dtype, 2):
        pa, pb, py = params
        for a, b in ((running, pattern), (pattern, running)):
            agrees = reciprocal_agrees(op, pa, pb, py, dtype)
            q = QOp(lib, op, dtype, [pa, pb], py)
            want = qdq(op, a, b, pa, pb, py, dtype)
            assert np.array_equal(q.run([a, b], np.empty(want.shape, NP_DT[dtype])), want), params
            plan = json.loads(q.describe())
            assert plan.get("period") == 256, plan
            assert plan["loops"][-1]["extent"] < plan.get("checked_affine_from", 2 ** 62), plan
            assert (plan["requantize"] == "checked reciprocal") == agrees, (params, plan["requantize"])
            if params is bench:
                assert agrees
            if params is ties:
                assert not agrees


def has_byte_lookup(lib):
    """Whether this process runs the table-row kernels: AVX-512 in force on a
    CPU with AVX512-VBMI (its byte permute)."""
    lib.bcast_isa.restype = ctypes.c_char_p
    with open("/proc/cpuinfo") as f:
        vbmi = any(line.startswith("flags") and "avx512vbmi" in line.split() for line in f)
    return vbmi and lib.bcast_isa() == b"avx512"


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL", "DIV", "MAX"])
def test_long_per_row_ops_plan_every_byte_row(lib, op, dtype):
    """One operand constant along each line (a per-row scalar, as per channel
    NCHW), over 2 M elements: planning computes the 256 rows every line looks
    up (`"byte_rows":"planned"` where the table-row kernels run), and every
    pair of bytes, the constant first and second, gives the QDQ graph's."""
    rng = np.random.default_rng(seed(op, dtype, "byte rows"))
    lo, _ = RANGE[dtype]
    lines = 4096
    running = np.tile((np.arange(512) % 256 + lo).astype(NP_DT[dtype]), (lines, 1))
    constant = ((np.arange(lines) * 7) % 256 + lo).astype(NP_DT[dtype]).reshape(lines, 1)
    for params in [shift_params(((0.0213, 128), (0.0371, 133), (0.0517, 126)), dtype)] + random_params(rng, dtype, 2):
        pa, pb, py = params
        for a, b in ((running, constant), (constant, running)):
            q = QOp(lib, op, dtype, [pa, pb], py)
            want = qdq(op, a, b, pa, pb, py, dtype)
            assert np.array_equal(q.run([a, b], np.empty(want.shape, NP_DT[dtype])), want), params
            assert ('"byte_rows":"planned"' in q.describe()) == has_byte_lookup(lib), q.describe()
    # A short op computes its rows line by line (nothing planned).
    q = QOp(lib, op, dtype, [pa, pb], py)
    a, b = running[:64], constant[:64]
    want = qdq(op, a, b, pa, pb, py, dtype)
    assert np.array_equal(q.run([a, b], np.empty(want.shape, NP_DT[dtype])), want)
    assert '"byte_rows"' not in q.describe()


@pytest.fixture
def streaming(lib):
    """Every plan from here streams its stores (a tuning text for this host
    with the smallest thresholds); the looked-up tuning again afterwards."""
    size = lib.bcast_tuning_describe(None, 0)
    buf = ctypes.create_string_buffer(size + 1)
    lib.bcast_tuning_describe(buf, size + 1)
    key = json.loads(buf.value)["key"]
    text = json.dumps({"format": 1, "kernel_gen": 1, "key": key,
                       "choices": {"nt_min_bytes.1t": 4096, "nt_min_bytes.nt": 4096}}).encode()
    assert lib.bcast_tuning_load_string(text, len(text)) == OK, message(lib)
    yield
    assert lib.bcast_tuning_load_string(None, 0) == OK


@pytest.mark.parametrize("dtype", ["u8", "i8"])
def test_streamed_outputs_are_exact(lib, streaming, dtype):
    """Streaming stores take the outputs' whole 64-byte lines; the partial
    first and last lines (an output 3 bytes past a line, an odd length) take
    ordinary stores. Both operands running, a repeated row, a constant."""
    rng = np.random.default_rng(11)
    lo, hi = RANGE[dtype]
    pa, pb, py = random_params(rng, dtype, 1)[0]
    n = 64 * 1024 + 37
    a = rng.integers(lo, hi + 1, n).astype(NP_DT[dtype])
    b = rng.integers(lo, hi + 1, n).astype(NP_DT[dtype])
    rows = a[:(n // 64) * 64].reshape(-1, 64)
    for op in ("ADD", "MUL"):
        for x, y in ((a, b), (rows, b[:64]), (b[:64], rows), (a, b[:1].reshape(())), (b[:1], a)):
            want = qdq(op, x, y, pa, pb, py, dtype)
            buf = np.empty(want.size + 64 + 3, NP_DT[dtype])
            start = (-buf.ctypes.data) % 64 + 3
            out = buf[start:start + want.size].reshape(want.shape)
            q = QOp(lib, op, dtype, [pa, pb], py)
            assert np.array_equal(q.run([x, y], out), want), (op, x.shape, y.shape)
            assert '"streaming_stores":true' in q.describe(), q.describe()
