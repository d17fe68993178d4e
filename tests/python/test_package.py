"""The Python package `bcast` (python/bcast) against numpy.

Run by ctest as "python: package (pytest)":
    BCAST_LIBRARY=build/capi/libbcast.so PYTHONPATH=python \
    BCAST_EXTENSION=build/python/_fastcall.cpython-311-x86_64-linux-gnu.so \
        /usr/bin/python3 -m pytest -q tests/python/test_package.py
and as "python: package (pytest, ctypes path)" with BCAST_EXTENSION=off (the
other package test files likewise).
The oracles are numpy (or Python's math module where numpy has no equal),
never bcast itself.
"""
import math
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import bcast
from bcast import _arrays

np.seterr(all="ignore")
RNG = np.random.default_rng(20240607)


def rand(shape, dtype="f4", low=-4, high=4):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return RNG.integers(max(low, info.min), min(high, info.max) + 1, shape).astype(dtype)
    return RNG.uniform(low, high, shape).astype(dtype)


def assert_same(got, expected):
    """Same shape, same dtype, same values (NaN == NaN)."""
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_acceptance_pdpd_axis_1():
    out = bcast.add(np.ones((2, 3, 4, 5), "f4"), np.ones((3, 1), "f4"), rule="pdpd", axis=1)
    assert out.shape == (2, 3, 4, 5)
    assert out.dtype == np.float32
    assert np.all(out == 2)


# ---------------------------------------------------------------------------
# Every op family against numpy

SHAPES = [((2, 3, 4), (4,)), ((3, 1), (1, 5)), ((5,), (5,)), ((), (2, 2)), ((2, 0, 3), (1, 3))]

EXACT_BINARY = {  # op: (numpy oracle, dtypes)
    "sub": (np.subtract, ["f4", "f8", "i4", "u8", "i8"]),
    "rsub": (lambda x, y: y - x, ["f4", "i2"]),
    "mul": (np.multiply, ["f4", "f8", "i4", "u2"]),
    "div": (np.divide, ["f4", "f8"]),
    "rdiv": (lambda x, y: y / x, ["f8"]),
    "fmod": (np.fmod, ["f4", "f8"]),
    "rfmod": (lambda x, y: np.fmod(y, x), ["f8"]),
    "squared_difference": (lambda x, y: (x - y) * (x - y), ["f4", "i4"]),
    "prelu": (lambda x, y: np.where(x < 0, x * y, x), ["f4", "i4"]),
    "equal": (np.equal, ["f4", "i4", "bool"]),
    "not_equal": (np.not_equal, ["f8", "u1"]),
    "less": (np.less, ["f4", "i8"]),
    "less_equal": (np.less_equal, ["f4", "u4"]),
    "greater": (np.greater, ["f2", "i1"]),
    "greater_equal": (np.greater_equal, ["f8", "i2"]),
    "logical_and": (np.logical_and, ["bool"]),
    "logical_or": (np.logical_or, ["bool"]),
    "logical_xor": (np.logical_xor, ["bool"]),
    "bitwise_and": (np.bitwise_and, ["i4", "u1", "bool"]),
    "bitwise_or": (np.bitwise_or, ["i8", "bool"]),
    "bitwise_xor": (np.bitwise_xor, ["u2", "bool"]),
}


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("op", sorted(EXACT_BINARY))
def test_binary_ops_match_numpy(op, shapes):
    oracle, dtypes = EXACT_BINARY[op]
    for dt in dtypes:
        x, y = rand(shapes[0], dt), rand(shapes[1], dt)
        if op in ("div", "rdiv", "fmod", "rfmod"):
            x[x == 0], y[y == 0] = 1, 1  # keep the oracle's NaN signs out of it
        expected = oracle(x, y)
        if np.asarray(expected).dtype != np.bool_:
            expected = np.asarray(expected).astype(dt)
        assert_same(getattr(bcast, op)(x, y), expected)


@pytest.mark.parametrize("op,oracle", [
    ("add", lambda arrays: sum(arrays[1:], arrays[0])),
    ("mul", lambda arrays: np.prod(np.broadcast_arrays(*arrays), axis=0)),
    ("max", lambda arrays: np.maximum.reduce(np.broadcast_arrays(*arrays))),
    ("min", lambda arrays: np.minimum.reduce(np.broadcast_arrays(*arrays))),
])
def test_variadic_ops_match_numpy(op, oracle):
    arrays = [rand(s, "i4") for s in [(2, 1, 4), (3, 1), (4,), (1, 1, 1)]]
    assert_same(getattr(bcast, op)(*arrays), oracle(arrays).astype("i4"))
    two = [rand((3, 4), "f8"), rand((4,), "f8")]
    assert_same(getattr(bcast, op)(*two), oracle(two))


def test_mean_of_three():
    arrays = [np.array([1, 2], "f8"), np.array([[4], [7]], "f8"), np.array(10, "f8")]
    assert_same(bcast.mean(*arrays), (arrays[0] + arrays[1] + arrays[2]) / 3)


def test_max_min_propagate_nan_from_either_side():
    x = np.array([np.nan, 1, 2], "f4")
    y = np.array([0, np.nan, 1], "f4")
    assert_same(bcast.max(x, y), np.maximum(x, y))
    assert_same(bcast.min(y, x), np.minimum(y, x))


@pytest.mark.parametrize("op,oracle", [
    ("pow", lambda x, y: np.power(x, y)),
    ("rpow", lambda x, y: np.power(y, x)),
    ("atan2", np.arctan2),
    ("ratan2", lambda x, y: np.arctan2(y, x)),
    ("logaddexp", np.logaddexp),
])
def test_transcendental_ops_within_2_ulp(op, oracle):
    x, y = rand((3, 4), "f4", 0.1, 3), rand((4,), "f4", -2, 2)
    if op == "rpow":
        x, y = y, x
    got = getattr(bcast, op)(x, y)
    expected = oracle(x.astype("f8"), y.astype("f8"))
    assert got.dtype == np.float32 and got.shape == expected.shape
    ulp = np.spacing(np.abs(expected).astype("f4")).astype("f8")
    assert np.all(np.abs(got - expected) <= 2 * ulp)


def test_integer_division_family_follows_c_and_numpy():
    x = np.array([7, -7, 7, -7, 5, -128], "i1")
    y = np.array([2, 2, -2, -2, 0, -1], "i1")
    # div truncates (C), division by zero gives 0, INT_MIN / -1 wraps.
    assert_same(bcast.div(x, y), np.array([3, -3, -3, 3, 0, -128], "i1"))
    nz = y != 0
    assert_same(bcast.floor_divide(x[nz][:4], y[nz][:4]), x[:4] // y[:4])
    assert_same(bcast.rfloor_divide(y[:4], x[:4]), x[:4] // y[:4])
    assert_same(bcast.mod(x[:4], y[:4]), np.mod(x[:4], y[:4]))
    assert_same(bcast.fmod(x[:4], y[:4]), np.fmod(x[:4], y[:4]))
    assert bcast.mod(x, y)[4] == 0 and bcast.floor_divide(x, y)[4] == 0


def test_remainder_is_ieee_remainder():
    x = rand((5, 4), "f8", -10, 10)
    y = rand((4,), "f8", 0.5, 3)
    expected = np.array([[math.remainder(a, b) for a, b in zip(row, y)] for row in x])
    assert_same(bcast.remainder(x, y), expected)
    assert_same(bcast.rremainder(y, x), expected)


def test_integer_pow_is_exact():
    x = np.array([2, 3, -2, 1, -1, 5], "i8")
    y = np.array([10, 3, 5, -3, -3, -1], "i8")
    assert_same(bcast.pow(x, y), np.array([1024, 27, -32, 1, -1, 0], "i8"))


def test_shifts():
    x = np.array([1, -8, 3, 1], "i4")
    y = np.array([3, 1, 0, 31], "i4")
    assert_same(bcast.shift_left(x, y), np.left_shift(x, y))
    assert_same(bcast.shift_right(x, y), np.right_shift(x, y))
    # A count < 0 or >= the bit width gives 0 (numpy's result is undefined there).
    assert_same(bcast.shift_left(np.array([1, 1, 1], "i1"), np.array([8, 9, -1], "i1")),
                np.zeros(3, "i1"))


def test_select_matches_where():
    cond = rand((2, 3, 1), "bool")
    x, y = rand((3, 4), "f4"), rand((4,), "f4")
    assert_same(bcast.select(cond, x, y), np.where(cond, x, y))
    with pytest.raises(TypeError, match="condition must be a bool array"):
        bcast.select(np.ones(3, "i4"), x[0, :3], y[:3])


@pytest.mark.parametrize("dtype", ["f4", "f8", "f2", "i1", "u1", "i2", "u2", "i4", "u4", "i8",
                                   "u8", "bool"])
def test_every_numpy_dtype_maps(dtype):
    x, y = rand((3, 5), dtype), rand((5,), dtype)
    assert_same(bcast.equal(x, y), x == y)
    assert_same(bcast.expand(y, (2, 5)), np.broadcast_to(y, (2, 5)))
    if dtype != "bool":
        assert_same(bcast.add(x, y), (x + y).astype(dtype))


def test_bfloat16_through_uint16_bits():
    one, two, three = np.uint16(0x3F80), np.uint16(0x4000), np.uint16(0x4040)
    x = np.array([one, two], np.uint16)
    assert_same(bcast.add(x, x, dtype="bfloat16"), np.array([two, 0x4080], np.uint16))
    assert_same(bcast.less(x, np.array([three], np.uint16), dtype="bfloat16"), [True, True])
    # Without dtype= the same arrays are plain uint16 integers.
    assert_same(bcast.add(x, x), (x + x).astype(np.uint16))
    with pytest.raises(TypeError, match="uint16 arrays of bfloat16 bits"):
        bcast.add(np.ones(2, "f4"), np.ones(2, "f4"), dtype="bfloat16")


def test_expand_modes():
    data = np.arange(3, dtype="i4").reshape(3, 1)
    assert_same(bcast.expand(data, (2, 1, 6)), np.broadcast_to(data, (2, 3, 6)))
    assert_same(bcast.copy(data, (3, 4), mode="numpy"), np.broadcast_to(data, (3, 4)))
    d2 = np.arange(8, dtype="f4").reshape(2, 4)
    assert_same(bcast.expand(d2, (2, 3, 4), mode="explicit", axes_mapping=[0, 2]),
                np.broadcast_to(d2[:, None, :], (2, 3, 4)))
    assert_same(bcast.expand(data, (2, 3, 6), mode="pdpd", axis=1),
                np.broadcast_to(data, (2, 3, 6)))
    with pytest.raises(bcast.IncompatibleShapesError):
        bcast.expand(np.ones(5), (1,), mode="numpy")


# ---------------------------------------------------------------------------
# Rules

def test_pdpd_axis_places_b_at_the_axis():
    a, b = rand((2, 3, 4, 5)), rand((3, 4))
    assert_same(bcast.sub(a, b, rule="pdpd", axis=1), a - b[None, :, :, None])
    c = rand((4, 5))
    assert_same(bcast.sub(a, c, rule="pdpd"), a - c)  # default axis: suffix
    with pytest.raises(bcast.IncompatibleShapesError, match="pdpd"):
        bcast.add(rand((8, 1, 6, 1)), rand((7, 1, 5)), rule="pdpd", axis=1)


def test_onnx_legacy_axis():
    a, b = rand((2, 3, 4, 5), "i4"), rand((3, 4), "i4")
    assert_same(bcast.mul(a, b, rule="onnx_legacy", axis=1), a * b[None, :, :, None])
    # Interior 1s do not stretch under the legacy rule.
    with pytest.raises(bcast.IncompatibleShapesError, match="onnx_legacy|legacy"):
        bcast.mul(a, rand((3, 1, 5), "i4"), rule="onnx_legacy", axis=1)


def test_ncnn_outer_axis_alignment():
    # A 1-D operand equal to the outermost extent goes on the outer axis,
    # where numpy would refuse.
    a, b = rand((4, 3, 2)), rand((4,))
    assert_same(bcast.add(a, b, rule="ncnn"), a + b[:, None, None])
    with pytest.raises(bcast.IncompatibleShapesError):
        bcast.add(a, b)
    c = rand((2,))
    assert_same(bcast.add(a, c, rule="ncnn"), a + c)


def test_unidirectional_and_none():
    a, b = rand((2, 3, 4)), rand((3, 1))
    assert_same(bcast.add(a, b, rule="unidirectional"), a + b)
    with pytest.raises(bcast.IncompatibleShapesError):
        bcast.add(b, a, rule="unidirectional")
    assert_same(bcast.add(a, a, rule="none"), a + a)
    with pytest.raises(bcast.IncompatibleShapesError, match="none"):
        bcast.add(np.ones((), "f4"), np.ones((1,), "f4"), rule="none")
    assert_same(bcast.add(a, b, rule="multidirectional"), a + b)


# ---------------------------------------------------------------------------
# Strides, views, out=

def test_inputs_of_the_right_dtype_are_not_copied():
    base = rand((6, 8))
    view = base[::-1, ::2].T
    arrays, code, storage = _arrays.prepare_data([view, base[0]], None, "t")
    assert arrays[0] is view and arrays[1].base is base
    assert code == 0 and storage == np.float32


@pytest.mark.parametrize("make", [
    lambda a: a[::-1],
    lambda a: np.repeat(a, 2, axis=1)[:, ::-2],
    lambda a: a.T.copy().T,
    lambda a: np.broadcast_to(a[:1], a.shape),  # stride 0
    lambda a: a.astype(">f4"),  # foreign byte order: converted
    lambda a: np.frombuffer(b"\0" + a.tobytes(), "f4", a.size, 1).reshape(a.shape),  # misaligned
])
def test_non_contiguous_views(make):
    a = rand((4, 6))
    v = make(a)
    assert_same(bcast.mul(v, a), (v * a).astype("f4"))
    assert_same(bcast.mul(a.T, v.T), (a.T * v.T).astype("f4"))


def test_out_contiguous_strided_and_in_place():
    a, b = rand((3, 4)), rand((4,))
    out = np.empty((3, 4), "f4")
    assert bcast.add(a, b, out=out) is out
    assert_same(out, a + b)
    big = np.zeros((8, 3), "f4")
    strided = big[::2].T[::-1].T  # (4, 3) with negative and non-unit strides
    assert_same(bcast.sub(a.T, b[:, None], out=strided), a.T - b[:, None])
    assert np.all(big[1::2] == 0)  # nothing written between the rows
    expected = a * b
    assert bcast.mul(a, b, out=a) is a
    assert_same(a, expected)


def test_out_is_validated():
    a = rand((2, 3))
    with pytest.raises(ValueError, match=r"out has shape \(3, 2\), the result has shape"):
        bcast.add(a, a, out=np.empty((3, 2), "f4"))
    with pytest.raises(TypeError, match="out has dtype float64, the result is float32"):
        bcast.add(a, a, out=np.empty((2, 3), "f8"))
    with pytest.raises(TypeError, match="the result is bool"):
        bcast.less(a, a, out=np.empty((2, 3), "f4"))
    ro = np.empty((2, 3), "f4")
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        bcast.add(a, a, out=ro)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        bcast.add(a, a, out=[0] * 6)
    # Partial overlap with an input: the library refuses and writes nothing.
    buf = np.arange(8, dtype="f4")
    before = buf.copy()
    with pytest.raises(bcast.InvalidArgumentError):
        bcast.add(buf[:6], buf[:6], out=buf[2:])
    assert_same(buf, before)
    # Interleaved views share no element but their byte ranges overlap: the
    # C contract refuses them too, and the message says why.
    with pytest.raises(bcast.InvalidArgumentError, match="byte ranges decide: views that interleave"):
        bcast.add(buf[::2], np.float32(1), out=buf[1::2])
    assert_same(buf, before)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_of_signed_zeros_give_the_earlier_input(name):
    # The header's decision (numpy gives the later): the same in every
    # layout, including those whose kernels take the operands exchanged.
    fn = getattr(bcast, name)
    neg, pos = np.float32(-0.0), np.zeros(37, "f4")
    rows = np.zeros((5, 8), "f4")
    for got, first_negative in ((fn(-pos, pos), True), (fn(pos, -pos), False),
                                (fn(neg, pos), True), (fn(pos, neg), False),
                                (fn(-rows[:1], rows), True), (fn(rows, -rows[:1]), False),
                                (fn(-pos, pos, pos), True)):
        assert np.signbit(got).all() == first_negative and np.signbit(got).any() == first_negative


def test_zero_d_and_empty():
    got = bcast.add(np.float32(2), np.float32(3))
    assert got.shape == () and got.dtype == np.float32 and got == 5
    assert_same(bcast.add(np.ones((0, 3), "f4"), np.ones(3, "f4")), np.empty((0, 3), "f4"))


def test_python_scalars_take_the_arrays_dtype():
    a = np.array([1, 2, 3], "i2")
    assert_same(bcast.add(a, 1), np.array([2, 3, 4], "i2"))
    assert_same(bcast.add([1.5, 2.5], np.float32(1)), np.array([2.5, 3.5], "f4"))
    with pytest.raises(TypeError, match="cannot cast float64 to int16"):
        bcast.add(a, 1.5)


# ---------------------------------------------------------------------------
# Errors

def test_error_types_and_messages():
    with pytest.raises(bcast.IncompatibleShapesError) as e:
        bcast.add(np.ones((2, 3, 5), "f4"), np.ones((4, 5), "f4"))
    assert isinstance(e.value, ValueError) and isinstance(e.value, bcast.BcastError)
    assert str(e.value) == "numpy: cannot broadcast dimension 1: 3 vs 4 (shapes (2,3,5) and (4,5))"
    assert e.value.status == 2 and e.value.status_name == "BCAST_ERROR_INCOMPATIBLE_SHAPES"

    with pytest.raises(bcast.UnsupportedError, match="ATAN2") as e:
        bcast.atan2(np.ones(2, "i4"), np.ones(2, "i4"))
    assert isinstance(e.value, TypeError) and isinstance(e.value, NotImplementedError)
    assert e.value.status == 3

    with pytest.raises(bcast.InvalidArgumentError) as e:
        bcast.add(np.ones((2, 3), "f4"), np.ones(3, "f4"), rule="pdpd", axis=-2)
    assert isinstance(e.value, ValueError) and "axis" in str(e.value)

    with pytest.raises(bcast.InvalidArgumentError):
        bcast.set_max_isa("bogus")
    with pytest.raises(bcast.UnsupportedError, match="complex128"):
        bcast.add(np.ones(2, complex), np.ones(2, complex))
    with pytest.raises(bcast.BcastError):
        bcast.add(np.ones(2, "f4"))  # one input: the library refuses the arity


def test_python_side_errors():
    with pytest.raises(TypeError, match="different dtypes float32 and float64"):
        bcast.add(np.ones(2, "f4"), np.ones(2, "f8"))
    with pytest.raises(ValueError, match="unknown rule 'bogus'"):
        bcast.add(np.ones(2), np.ones(2), rule="bogus")
    with pytest.raises(ValueError, match="unknown expand mode"):
        bcast.expand(np.ones(2), (2,), mode="sideways")


def test_status_mapping_of_every_code():
    from bcast.errors import error_for_status
    expected = {1: (bcast.InvalidArgumentError, ValueError),
                2: (bcast.IncompatibleShapesError, ValueError),
                3: (bcast.UnsupportedError, TypeError),
                4: (bcast.OutOfMemoryError, MemoryError),
                5: (bcast.SizeOverflowError, OverflowError),
                6: (bcast.InvalidStateError, RuntimeError),
                7: (bcast.InternalError, RuntimeError),
                8: (bcast.ThreadError, OSError)}
    for status, classes in expected.items():
        error = error_for_status(status, "msg")
        assert all(isinstance(error, c) for c in classes) and str(error) == "msg"
    assert type(error_for_status(99, "x")) is bcast.BcastError


# ---------------------------------------------------------------------------
# Shapes, explain, dispatch, loading

def test_infer_shape():
    assert bcast.infer_shape((2, 1, 5), (4, 1)) == (2, 4, 5)
    assert bcast.infer_shape((3, 2, 1, 4), (5, 4), 1) == (3, 2, 5, 4)
    assert bcast.infer_shape((2, 3, 4, 5), (3, 1), rule="pdpd", axis=1) == (2, 3, 4, 5)
    assert bcast.infer_shape(np.ones((4, 3, 2)), (4,), rule="ncnn") == (4, 3, 2)
    assert bcast.infer_shape((), ()) == ()
    for shapes in [((2, 1, 5), (4, 1)), ((0, 1), (1, 7)), ((3,), (2, 1))]:
        assert bcast.infer_shape(*shapes) == np.broadcast_shapes(*shapes)
    with pytest.raises(bcast.IncompatibleShapesError, match="3 vs 4"):
        bcast.infer_shape((3, 1, 5), (4, 4, 5))
    with pytest.raises(bcast.InvalidArgumentError):
        bcast.infer_shape((2, -3), (3,))


def test_infer_expand_shape():
    assert bcast.infer_expand_shape((3, 1), (2, 1, 6)) == (2, 3, 6)
    assert bcast.infer_expand_shape((1, 4, 1), (1, 4)) == (1, 4, 4)
    assert bcast.infer_expand_shape((2, 4), (2, 3, 4), mode="explicit",
                                    axes_mapping=[0, 2]) == (2, 3, 4)
    assert bcast.infer_expand_shape((3, 1), (2, 1, 6), mode="pdpd", axis=1) == (2, 3, 6)
    with pytest.raises(bcast.IncompatibleShapesError):
        bcast.infer_expand_shape((5,), (1,), mode="numpy")


def test_explain_returns_the_plan():
    plan = bcast.explain((2, 3, 4), (4,))
    assert plan["planned"] is True and plan["op"] == "ADD" and plan["dtype"] == "f32"
    assert plan["output_shape"] == [2, 3, 4] and plan["rule"] == "numpy"
    assert plan["kernel"] in ("vv", "vs", "sv", "periodic", "strided")
    assert plan["isa"] == bcast.isa()
    pd = bcast.explain((2, 3, 4, 5), (3, 1), rule="pdpd", axis=1, op="mul", dtype="float64")
    assert pd["op"] == "MUL" and pd["dtype"] == "f64" and pd["axis"] == 1
    # Arrays bring their dtype and strides: a reversed view has a negative stride.
    a = np.ones(8, "i4")
    view = bcast.explain(a[::-1], a)
    assert view["dtype"] == "i32" and view["loops"][-1]["strides"][0] == -1
    expand = bcast.explain((3, 1), op="copy", target_shape=(2, 3, 6))
    assert expand["op"] == "COPY" and expand["output_shape"] == [2, 3, 6]
    with pytest.raises(bcast.IncompatibleShapesError):
        bcast.explain((3,), (4,))


def test_explain_sees_the_arrays_a_call_would_run():
    """Not the caller's view where a call copies it, and not a dtype a call refuses."""
    raw = np.zeros(40, np.float32)
    odd = np.lib.stride_tricks.as_strided(raw, (3,), (10,))  # 2.5 elements apart
    assert bcast.explain(odd, (3,))["loops"] == [{"extent": 3, "strides": [1, 1, 1]}]
    f32, f64 = np.zeros(3, np.float32), np.zeros(3, np.float64)
    with pytest.raises(TypeError, match="different dtypes float32 and float64"):
        bcast.explain(f32, f64)
    with pytest.raises(TypeError, match="different dtypes"):
        bcast.add(f32, f64)
    assert bcast.explain(f32, f64, dtype="f64")["dtype"] == "f64"  # converted, as add(dtype=) does
    cond = np.array([True, False, True])
    assert bcast.explain(cond, f64, f64, op="select")["dtype"] == "f64"
    with pytest.raises(TypeError, match="condition must be a bool array"):
        bcast.explain(f64, f64, f64, op="select")


def test_isa_version_and_set_max_isa():
    assert bcast.isa() in ("avx512", "avx2", "sse2", "neon", "scalar")
    assert bcast.version().split(".")[0] == "1"
    assert bcast.__version__ == bcast.version()
    before = bcast.isa()
    try:
        bcast.set_max_isa("scalar")
        assert bcast.isa() == "scalar"
        assert bcast.explain((4,), (4,))["isa"] == "scalar"
        a, b = rand((5, 7)), rand((7,))
        assert_same(bcast.add(a, b), a + b)
    finally:
        bcast.set_max_isa(before)  # the cap that gives the ISA we started with
    assert bcast.isa() == before


def test_concurrent_calls_from_threads():
    a, b = rand((64, 33)), rand((33,))
    expected = a * b
    failures = []

    def work():
        for _ in range(50):
            if not np.array_equal(bcast.mul(a, b), expected):
                failures.append("mismatch")
            try:
                bcast.add(a, rand((5,)))
            except bcast.IncompatibleShapesError as e:
                if "33 vs 5" not in str(e):  # each thread sees its own message
                    failures.append(str(e))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_the_call_path_is_the_one_bcast_extension_chooses():
    """ctest runs these tests twice: on the compiled path (BCAST_EXTENSION
    names the built extension) and on ctypes alone ("off")."""
    from bcast import _call, _extension
    choice = os.environ.get("BCAST_EXTENSION", "")
    a = np.arange(4, dtype="f4")
    bcast.add(a, a)
    plan = bcast._plans.CACHE.get(_call.key(("add", "numpy", -1, None), (a, a), None))
    if choice == "off":
        assert _extension.fastcall is None and plan.runner is None
        assert _call.execute.__module__ == "bcast._call"
    elif choice:
        assert os.path.samefile(_extension.fastcall.__file__, choice)
        assert _call.execute is _extension.fastcall.execute
        assert type(plan.runner).__name__ == "Runner"


def test_calls_keep_no_references():
    """Every way a call runs (a cached op function, an Op, a fused function;
    with and without out=) leaves the reference counts of its arrays and
    dtype as they were: the compiled path holds on to nothing."""
    import gc
    x, y, z = np.ones(16, "f4"), np.full(16, 2, "f4"), np.empty(16, "f4")
    op = bcast.Op("add", "f4")
    op.plan([x.shape, y.shape])
    fused = bcast.fuse(lambda p, q: p * 3.0 + q)
    calls = [lambda: bcast.add(x, y, out=z), lambda: bcast.add(x, y), lambda: op(x, y, out=z),
             lambda: op(x, y), lambda: fused(x, y), lambda: fused(x, y, out=z)]
    for call in calls:
        call()
        gc.collect()
        before = [sys.getrefcount(v) for v in (x, y, z, x.dtype)]
        for _ in range(100):
            call()
        gc.collect()
        assert [sys.getrefcount(v) for v in (x, y, z, x.dtype)] == before
    np.testing.assert_array_equal(fused(x, y), [5] * 16)


def test_bcast_extension_naming_a_missing_file_is_an_error():
    env = dict(os.environ, BCAST_EXTENSION="/nonexistent/_fastcall.so")
    run = subprocess.run([sys.executable, "-c", "import bcast"], env=env, capture_output=True,
                         text=True)
    assert run.returncode != 0
    assert "ImportError: bcast: cannot load BCAST_EXTENSION=/nonexistent/_fastcall.so" in run.stderr


def test_library_lookup_honours_bcast_library():
    env = dict(os.environ, BCAST_LIBRARY="/nonexistent/libbcast.so.1")
    run = subprocess.run([sys.executable, "-c", "import bcast"], env=env, capture_output=True,
                         text=True)
    assert run.returncode != 0
    assert "ImportError" in run.stderr and "BCAST_LIBRARY=/nonexistent/libbcast.so.1" in run.stderr


def test_the_tuning_description_loads_back_whatever_the_paths_were(tmp_path):
    # bcast_tuning_describe's text is a tuning text for this host, also when
    # BCAST_TUNING names a path longer than any file's (recorded cut), and
    # after bcast_set_max_isa (the key stays the lookup's).
    script = r"""
import ctypes, os, sys
lib = ctypes.CDLL(os.environ["BCAST_LIBRARY"])
lib.bcast_tuning_describe.restype = ctypes.c_size_t
lib.bcast_tuning_describe.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
lib.bcast_tuning_load_string.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
lib.bcast_last_error.restype = ctypes.c_char_p
def describe():
    n = lib.bcast_tuning_describe(None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    lib.bcast_tuning_describe(buf, n + 1)
    return buf.value
def key(text):
    return text[text.index(b'"key":'):text.index(b'}', text.index(b'"key":'))]
first = describe()
for cap in (b"", b"sse2"):
    if cap:
        assert lib.bcast_set_max_isa(cap) == 0
    text = describe()
    assert key(text) == key(first), (first, text)
    status = lib.bcast_tuning_load_string(text, len(text))
    assert status == 0, lib.bcast_last_error()
sys.stdout.write(first.decode())
"""
    path = "/tmp/" + "a" * 255 + "/" + ("b" * 255 + "/") * 20 + "x"
    env = dict(os.environ, BCAST_TUNING=path)
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "bbbb... (%d bytes): cannot open" % len(path) in run.stdout
    # A file for another host whose key holds anything (a vendor near the
    # text limit, a NUL): the reason shows the key short and printable.
    foreign = tmp_path / "foreign.json"
    vendor = "V" * 65000 + r"\u0000\u00e9"  # JSON escapes: 65,003 bytes of UTF-8
    foreign.write_text('{"format":1,"kernel_gen":1,"key":{"vendor":"%s","family":6,"model":1,'
                       '"isa":"x\\u0001y"}}' % vendor)
    env = dict(os.environ, BCAST_TUNING=str(foreign))
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert ": for %s... (65003 bytes) family 6 model 1 x?y, this host is " % ("V" * 64) in run.stdout


# ---------------------------------------------------------------------------
# Arguments that do not fit are refused, never cut or wrapped

def test_array_likes_that_do_not_fit_the_dtype_are_refused_as_scalars_are():
    with pytest.raises(OverflowError, match="Python integer 1000 out of bounds for int8"):
        bcast.add(np.ones(3, np.int8), 1000)
    with pytest.raises(OverflowError, match="Python integer 1000 out of bounds for int8"):
        bcast.add(np.ones(3, np.int8), [1000, 2, 3])
    with pytest.raises(OverflowError, match="-1 out of bounds for uint16"):
        bcast.sub((4, -1, 2), np.ones(3, np.uint16))
    op = bcast.Op("add", "i4")
    op.plan([(3,), (3,)])
    with pytest.raises(OverflowError, match="Python integer 1099511627776 out of bounds for int32"):
        op(np.ones(3, "i4"), [2 ** 40, 0, 0])
    # Values that fit still take the arrays' dtype.
    assert_same(bcast.add(np.ones(3, np.int8), [100, -2, 3]), np.array([101, -1, 4], "i1"))


def test_lists_of_ints_past_int64_are_ints_not_floats():
    # numpy makes float64 or object arrays of such lists; they are Python
    # ints, accepted where they fit the dtype, OverflowError where not.
    big = 2 ** 64 - 1
    assert_same(bcast.add(np.zeros(2, np.uint64), [big, 1]), np.array([big, 1], np.uint64))
    assert_same(bcast.add([big, 1], [0, 0], dtype=np.uint64), np.array([big, 1], np.uint64))
    assert_same(bcast.add(np.zeros((2, 1), np.int64), [[2 ** 62], [-2 ** 63]]),
                np.array([[2 ** 62], [-2 ** 63]], np.int64))
    with pytest.raises(OverflowError, match="Python integer 9223372036854775808 out of bounds for int64"):
        bcast.add(np.zeros(2, np.int64), [2 ** 63, 1])
    with pytest.raises(OverflowError, match="Python integer 18446744073709551616 out of bounds for int64"):
        bcast.add(np.zeros(2, np.int64), [2 ** 64, -1])
    with pytest.raises(OverflowError, match="-1 out of bounds for uint64"):
        bcast.add(np.zeros(2, np.uint64), [-1, 2 ** 63])
    with pytest.raises(TypeError, match="cannot cast object to int8"):  # not all ints
        bcast.add(np.zeros(2, np.int8), [1.5, 2 ** 70])


@pytest.mark.parametrize("axis", ["0", 0.7, 1.0, True, None])
def test_axis_must_be_an_int(axis):
    a, b = rand((2, 3, 4)), rand((3,))
    assert_same(bcast.add(a, b, rule="pdpd", axis=1), a + b[:, None])  # cached under axis=1
    with pytest.raises(TypeError, match="axis must be an int"):
        bcast.add(a, b, rule="pdpd", axis=axis)
    with pytest.raises(TypeError, match="axis must be an int"):
        bcast.Op("add", "f32", rule="pdpd", axis=axis)
    with pytest.raises(TypeError, match="axis must be an int"):
        bcast.infer_shape(a.shape, b.shape, rule="pdpd", axis=axis)
    with pytest.raises(TypeError, match="axis must be an int"):
        bcast.fuse(lambda x, y: bcast.add(x, y, rule="pdpd", axis=axis))(a, b)
    assert_same(bcast.add(a, b, rule="pdpd", axis=np.int64(1)), a + b[:, None])


def test_counts_that_do_not_fit_size_t_are_refused_before_ctypes_cuts_them():
    x = np.ones(3, "f4")
    with pytest.raises(OverflowError, match="threads"):
        bcast.add(x, x, threads=2 ** 64 + 2)  # would be cut to 2
    with pytest.raises(OverflowError, match="threads"):
        bcast.Pool(2 ** 64)  # would be cut to 0: every CPU
    with pytest.raises(TypeError, match="threads must be"):
        bcast.Pool(2.0)


def test_plan_cache_size_must_be_an_int():
    before = bcast.plan_cache_info().maxsize
    try:
        for bad in ("10", 10.0, True, None):
            with pytest.raises(TypeError, match="must be an int"):
                bcast.set_plan_cache_size(bad)
        assert bcast.plan_cache_info().maxsize == before
        with pytest.raises(ValueError, match=">= 0"):
            bcast.set_plan_cache_size(-1)
        bcast.set_plan_cache_size(np.int32(7))
        assert bcast.plan_cache_info().maxsize == 7
    finally:
        bcast.set_plan_cache_size(before)


def test_set_max_isa_refuses_an_embedded_nul():
    before = bcast.isa()
    try:
        with pytest.raises(ValueError, match="NUL"):
            bcast.set_max_isa("scalar\0junk")  # C would read "scalar"
        assert bcast.isa() == before
        with pytest.raises(TypeError):
            bcast.set_max_isa(2)
    finally:
        bcast.set_max_isa(before)


def test_expand_needs_a_target_shape():
    x = rand((3,))
    with pytest.raises(TypeError, match="shape"):
        bcast.expand(x, None)
    with pytest.raises(TypeError, match="shape"):
        bcast.expand(x, "3")
    assert_same(bcast.expand(x, 3), x)


def test_expand_errors_name_expand():
    """Its messages name the function the caller called (not the copy op)."""
    x = rand((3,))
    with pytest.raises(ValueError, match=r"^bcast\.expand: out has shape \(4,\)"):
        bcast.expand(x, (3,), out=np.empty(4, x.dtype))
    with pytest.raises(ValueError, match=r"^bcast\.expand: out"):
        bcast.expand(x, (3,), out=np.empty(3, x.dtype)[::-1][:2])


HUGE = 2 ** 64 + 3  # ctypes would keep HUGE % 2**64 == 3


@pytest.mark.parametrize("call", [
    lambda x: bcast.expand(x, (HUGE, 3)),
    lambda x: bcast.expand(x, (2, 3), mode="explicit", axes_mapping=[HUGE]),
    lambda x: bcast.infer_shape((HUGE,), (3,)),
    lambda x: bcast.infer_expand_shape((3,), (HUGE, 3)),
    lambda x: bcast.infer_expand_shape((3,), (2, 3), mode="explicit", axes_mapping=[HUGE]),
    lambda x: bcast.explain((HUGE,), (3,)),
    lambda x: bcast.Op("add", "f32").plan([(HUGE,), (3,)]),
    lambda x: bcast.Op("add", "f32").plan([(3,), (3,)], strides=[(HUGE,), (1,)]),
], ids=["expand", "expand mapping", "infer_shape", "infer_expand_shape", "expand_shape mapping",
        "explain", "Op.plan", "Op.plan strides"])
def test_integers_beyond_int64_are_refused_not_wrapped(call):
    with pytest.raises(OverflowError, match="does not fit int64"):
        call(np.arange(3, dtype=np.float32))


def test_numpy_bools_are_not_ints():
    u = np.zeros(3, np.uint8)
    for call in (lambda: bcast.qlinear("add", u, u, 0.1, np.bool_(True), 0.1, 0, 0.1, 0),
                 lambda: bcast.add(np.ones(3, "f4"), np.ones(3, "f4"), axis=np.bool_(True)),
                 lambda: bcast.add(np.ones(3, "f4"), np.ones(3, "f4"), threads=np.bool_(True)),
                 lambda: bcast.Pool(np.bool_(True)),
                 lambda: bcast.set_plan_cache_size(np.bool_(True))):
        with pytest.raises(TypeError, match="not (bool|True)"):
            call()


def test_a_scale_outside_float32_is_named_as_given():
    u = np.zeros(3, np.uint8)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's cast warning must not leak out
        for scale, shown in ((1e39, "1e+39"), (1e-46, "1e-46"), (10 ** 400, "too large")):
            with pytest.raises(ValueError, match="a_scale.*" + shown.replace("+", r"\+")):
                bcast.qlinear("add", u, u, scale, 0, 0.1, 0, 0.1, 0)


def test_out_tuples_are_taken_by_every_call_path():
    x = np.ones(3, np.float32)
    out = np.empty(3, np.float32)
    op = bcast.Op("add", "f32")
    op.plan([(3,), (3,)])
    for call in (lambda: bcast.add(x, x, out=(out,)), lambda: op(x, x, out=(out,)),
                 lambda: bcast.fuse(lambda a, b: a + b)(x, x, out=(out,))):
        out[:] = 0
        assert call() is out and out.tolist() == [2, 2, 2]
    with pytest.raises(TypeError, match="not a tuple of 2"):
        op(x, x, out=(out, out))


def test_objects_owning_a_handle_are_not_copied():
    import copy
    import pickle
    for obj in (bcast.Op("add", "f32"), bcast.Pool(1)):
        for duplicate in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="owns a C handle"):
                duplicate(obj)


def test_an_op_call_does_not_cast_values_of_their_own_dtype():
    op = bcast.Op("add", "i1")
    op.plan([(3,), ()])
    ones = np.ones(3, np.int8)
    for value in (np.int64(300), np.int16(3), np.array(3, np.int64)):
        with pytest.raises(TypeError, match="input 1 has dtype int(64|16)"):
            op(ones, value)
    with pytest.raises(OverflowError):
        op(ones, 300)
    assert op(ones, 3).tolist() == [4, 4, 4]  # a Python int that fits


def test_target_shapes_given_as_numpy_integers():
    x = np.arange(2, dtype=np.float32)
    assert bcast.expand(x, np.array([4, 2])).shape == (4, 2)  # ONNX Expand's shape tensor
    assert bcast.expand(np.ones(1, np.float32), np.int64(5)).shape == (5,)
    assert bcast.infer_expand_shape((3,), np.array([2, 3])) == (2, 3)
    assert bcast.infer_shape(np.int64(5), (5,)) == (5,)
    assert bcast.infer_shape(np.ones((3, 1)), np.ones(5)) == (3, 5)  # an array stands for its shape


@pytest.mark.parametrize("call", [
    lambda t: bcast.expand(np.ones(1, np.float32), t),
    lambda t: bcast.infer_expand_shape((1,), t),
    lambda t: bcast.Op("copy", "f32").plan([(1,)], target=t),
    lambda t: bcast.explain((1,), target_shape=t),
], ids=["expand", "infer_expand_shape", "Op.plan", "explain"])
def test_target_shape_arrays_hold_extents_or_are_refused(call):
    """A target array is a shape tensor: [5., 3.] or [[5, 3]] would otherwise
    stand for their own shapes (2,) and (1, 2)."""
    with pytest.raises(TypeError, match="must hold integers, not float64"):
        call(np.array([5.0, 3.0]))
    with pytest.raises(TypeError, match="must hold integers, not bool"):
        call(np.array([True, True]))
    with pytest.raises(ValueError, match=r"at most one dimension, not shape \(1, 2\)"):
        call(np.array([[5, 3]]))


def test_out_subclasses_that_redefine_their_layout_are_refused():
    class Liar(np.ndarray):
        @property
        def shape(self):
            return (1 << 16,)

        @property
        def strides(self):
            return (4,)

    guard = np.full(1 << 16, -7.0, np.float32)
    small = guard[:4].view(Liar)
    x = np.ones(1 << 16, np.float32)
    op = bcast.Op("add", "f32")
    op.plan([x.shape, x.shape])
    for call in (lambda: bcast.add(x, x, out=small), lambda: op(x, x, out=small),
                 lambda: bcast.fuse(lambda a, b: a + b)(x, x, out=small)):
        with pytest.raises(TypeError, match="redefines what its data look like"):
            call()
    assert (guard[4:] == -7).all()
    with pytest.raises(TypeError, match="masked arrays are not supported"):
        bcast.add(np.ma.masked_array([1.0, 2.0], mask=[0, 1]), np.ones(2))


def test_op_arguments_that_were_silently_taken():
    with pytest.raises(TypeError, match="takes no rule="):
        bcast.Op("copy", "f32", rule="pdpd")
    with pytest.raises(TypeError, match="a dtype is required"):
        bcast.Op("add", None)
    with pytest.raises(TypeError, match="out_strides must be an int, not bool"):
        bcast.Op("add", "f32").plan([(2, 3), (3,)], out_strides=(True, 1))
    with pytest.raises(TypeError, match="no arrays given"):
        bcast.add()
    with pytest.raises(TypeError, match="threads must be an int, not None"):
        bcast.Pool(None)


def test_misused_arguments_are_named_in_the_message():
    u = np.zeros(3, np.uint8)
    with pytest.raises(TypeError, match=r"quantized must be a dict \{argument index"):
        bcast.fuse(lambda a: a + 1, quantized=[(0.1, 3)])  # dict() would read it as {0.1: 3}
    with pytest.raises(TypeError, match="shapes must be a sequence of shapes"):
        bcast.Op("add", "f32").plan(None)
    with pytest.raises(bcast.UnsupportedError, match=r"^bcast\.qlinear\('mean'\): MEAN does not take"):
        bcast.qlinear("mean", u, u, 0.1, 0, 0.1, 0, 0.1, 0)
