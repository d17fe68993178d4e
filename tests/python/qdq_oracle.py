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
