"""The QDQ graph in numpy: the oracle of the quantized tests, written from
ONNX's operator text, not from bcast's code. DequantizeLinear is
(q - zero_point) as an integer, converted to float32, times the float32 scale;
the op runs in float32; QuantizeLinear divides in float32 by the output scale,
rounds half to even, adds the zero point and saturates (clipping before the
cast to an integer, which the operator text means and numpy's own cast would
not do for huge or infinite quotients; NaN gives the dtype's minimum, bcast's
documented choice).
"""
import numpy as np

np.seterr(all="ignore")

F32 = np.float32
NP_DT = dict(u8=np.uint8, i8=np.int8)
RANGE = dict(u8=(0, 255), i8=(-128, 127))


def f32_op(op, a, b):
    """The op on float32 arrays, rounded to float32 as bcast's f32 op rounds it."""
    if op == "ADD":
        return a + b
    if op == "SUB":
        return a - b
    if op == "RSUB":
        return b - a
    if op == "MUL":
        return a * b
    if op == "DIV":
        return a / b
    if op == "RDIV":
        return b / a
    if op == "MAX":
        return np.maximum(a, b)
    if op == "MIN":
        return np.minimum(a, b)
    if op == "SQUARED_DIFFERENCE":
        d = a - b
        return d * d
    if op == "PRELU":
        return np.where(a < 0, a * b, a)
    raise AssertionError(op)


def dequantize(q, scale, zp):
    return (q.astype(np.int32) - np.int32(zp)).astype(F32) * F32(scale)


def quantize(v, scale, zp, dtype):
    lo, hi = RANGE[dtype]
    x = (v.astype(F32) / F32(scale)).astype(F32)
    x = np.clip(x, F32(lo - zp), F32(hi - zp))  # infinities saturate; NaN stays NaN
    x = np.where(np.isnan(x), F32(lo - zp), x)
    return (np.rint(x).astype(np.int32) + np.int32(zp)).astype(NP_DT[dtype])


def qdq(op, a, b, pa, pb, py, dtype):
    return quantize(f32_op(op, dequantize(a, *pa), dequantize(b, *pb)), *py, dtype)


# The inputs and parameter sets the quantized tests share (test_quantized.py,
# test_quantized_ort.py, bench/ort_quantized.py).


def all_pairs(dtype):
    lo, hi = RANGE[dtype]
    v = np.arange(lo, hi + 1).astype(NP_DT[dtype])
    return v.reshape(256, 1), v.reshape(1, 256)


def random_params(rng, dtype, n):
    """n sets of ((sa, za), (sb, zb), (sy, zy)): log-uniform ratios 2^-20..2^20, zero
    points uniform with both ends forced now and then."""
    lo, hi = RANGE[dtype]
    sets = []
    for k in range(n):
        sy = F32(2.0 ** rng.uniform(-12, 4))
        sa = F32(sy * 2.0 ** rng.uniform(-20, 20))
        sb = F32(sy * 2.0 ** rng.uniform(-20, 20))
        z = [int(rng.integers(lo, hi + 1)) for _ in range(3)]
        if k % 4 == 1:
            z = [lo, hi, lo]
        if k % 4 == 2:
            z = [hi, lo, hi]
        sets.append(((float(sa), z[0]), (float(sb), z[1]), (float(sy), z[2])))
    return sets


SPECIAL = [
    # exact ties: 0.5 -> 0, 1.5 -> 2, -0.5 -> -0, 2.5 -> 2 around the zero point
    ((2.0 ** -4, 128), (2.0 ** -4, 128), (2.0 ** -3, 128)),
    # everything saturates (quotients far beyond int32)
    ((1.0, 0), (1.0, 3), (1e-10, 5)),
    # nothing survives (every quotient rounds to 0)
    ((2.0 ** -30, 7), (2.0 ** -30, 9), (1.0, 100)),
    # dequantized values overflow to +-inf; inf - inf is NaN
    ((3e38, 128), (3e38, 128), (1.0, 128)),
    # the smallest and largest normal scales
    ((1.1754944e-38, 0), (1.1754944e-38, 255), (1.1754944e-38, 128)),
    ((3.4028235e38, 255), (1.0, 0), (3.4028235e38, 0)),
]


def shift_params(params, dtype):
    """Parameters written for u8, moved to i8's range."""
    if dtype == "u8":
        return params
    return tuple((s, z - 128) for s, z in params)
