"""bcast.qlinear against the QDQ graph in numpy (qdq_oracle.py), and its
argument checks (pytest, on the package's call path)."""
import numpy as np
import pytest

import bcast
from qdq_oracle import NP_DT, RANGE, qdq


@pytest.mark.parametrize("dtype", ["u8", "i8"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "max", "rsub", "prelu"])
def test_qlinear_every_byte_pair(op, dtype):
    lo, hi = RANGE[dtype]
    a = np.arange(lo, hi + 1).astype(NP_DT[dtype]).reshape(256, 1)
    b = a.reshape(1, 256)
    pa, pb, py = (0.0173, lo + 40), (0.0421, hi - 9), (0.0362, lo + 128)
    want = qdq(op.upper(), a, b, pa, pb, py, dtype)
    got = bcast.qlinear(op, a, b, *pa, *pb, *py)
    assert got.dtype == NP_DT[dtype] and np.array_equal(got, want)
    # again from the plan cache, into out=, on two threads
    out = np.empty_like(want)
    assert bcast.qlinear(op, a, b, *pa, *pb, *py, out=out, threads=2) is out
    assert np.array_equal(out, want)


def test_qlinear_rules_and_strides():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, (2, 3, 4, 5)).astype(np.uint8)
    y = rng.integers(0, 256, (3, 4)).astype(np.uint8)
    p = ((0.1, 100), (0.2, 7), (0.15, 128))
    got = bcast.qlinear("mul", x[:, :, ::-1], y, *p[0], *p[1], *p[2], rule="pdpd", axis=1)
    want = qdq("MUL", x[:, :, ::-1], y.reshape(1, 3, 4, 1), *p, "u8")
    assert np.array_equal(got, want)


def test_qlinear_refusals():
    a = np.zeros(4, np.uint8)
    with pytest.raises(TypeError, match="uint8 or int8"):
        bcast.qlinear("add", a.astype(np.float32), a, 1.0, 0, 1.0, 0, 1.0, 0)
    with pytest.raises(TypeError, match="different dtypes"):
        bcast.qlinear("add", a, a.astype(np.int8), 1.0, 0, 1.0, 0, 1.0, 0)
    with pytest.raises(bcast.InvalidArgumentError, match="input 1: the scale"):
        bcast.qlinear("add", a, a, 1.0, 0, 0.0, 0, 1.0, 0)
    with pytest.raises(bcast.InvalidArgumentError, match="the output: the zero point 256"):
        bcast.qlinear("add", a, a, 1.0, 0, 1.0, 0, 1.0, 256)
    with pytest.raises(bcast.UnsupportedError, match="no quantized form"):
        bcast.qlinear("pow", a, a, 1.0, 0, 1.0, 0, 1.0, 0)
    with pytest.raises(TypeError, match="a_scale must be a float"):
        bcast.qlinear("add", a, a, "1", 0, 1.0, 0, 1.0, 0)
    with pytest.raises(TypeError, match="a_zero_point must be an int"):
        bcast.qlinear("add", a, a, 1.0, 0.5, 1.0, 0, 1.0, 0)
    with pytest.raises(TypeError, match="out has dtype"):
        bcast.qlinear("add", a, a, 1.0, 0, 1.0, 0, 1.0, 0, out=np.empty(4, np.int8))
    with pytest.raises(ValueError, match="unknown op"):
        bcast.qlinear("plus", a, a, 1.0, 0, 1.0, 0, 1.0, 0)


def test_fuse_with_quantized_input_and_output():
    from qdq_oracle import dequantize, quantize
    rng = np.random.default_rng(4)
    x = rng.integers(0, 256, (2, 8, 6, 5)).astype(np.uint8)
    s = rng.uniform(-2, 2, (1, 8, 1, 1)).astype(np.float32)
    b = rng.uniform(-1, 1, (8, 1, 1)).astype(np.float32)
    for out_dtype, zp in (("u8", 128), ("i8", -2)):
        f = bcast.fuse(lambda x, s, b: x * s + b, quantized={0: (0.02, 17)},
                       output=(out_dtype, 0.05, zp))
        want = quantize(dequantize(x, 0.02, 17) * s + b, 0.05, zp, out_dtype)
        got = f(x, s, b)
        assert got.dtype == NP_DT[out_dtype] and np.array_equal(got, want)
        assert np.array_equal(f(x, s, b), want)  # from the plan cache
    # a float32 result when only the input is quantized; a Python constant
    f = bcast.fuse(lambda x, b: x * 0.5 + b, quantized={0: (0.1, 3)})
    got = f(x, b)
    want = dequantize(x, 0.1, 3) * np.float32(0.5) + b
    assert got.dtype == np.float32 and np.array_equal(got, want)


def test_fuse_quantization_refusals():
    x = np.zeros(4, np.uint8)
    f = bcast.fuse(lambda x, y: x + y, quantized={0: (0.1, 3)})
    with pytest.raises(TypeError, match=r"argument 0 \(quantized\) must be a uint8 or int8 array"):
        f(x.astype(np.float32), np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="quantized argument 2"):
        bcast.fuse(lambda x, y: x + y, quantized={2: (0.1, 3)})
    with pytest.raises(TypeError, match="uint8 or int8"):
        bcast.fuse(lambda x: x + x, output=("f32", 1.0, 0))
    with pytest.raises(bcast.InvalidArgumentError, match="input 0: the scale"):
        bcast.fuse(lambda x, y: x + y, quantized={0: (-1.0, 3)})(x, np.zeros(4, np.float32))
    g = bcast.fuse(lambda x, y: x < y, quantized={0: (0.1, 3)}, output=("u8", 1.0, 0))
    with pytest.raises(bcast.UnsupportedError, match="only an f32 result can be quantized"):
        g(x, np.zeros(4, np.float32))


def test_fuse_quantized_arguments_beside_python_numbers_and_out_tuples():
    from qdq_oracle import dequantize, quantize
    x = np.arange(0, 250, 7, dtype=np.uint8)
    f = bcast.fuse(lambda x, c: x + c, quantized={0: (0.1, 3)}, output=("u8", 0.2, 1))
    want = quantize(dequantize(x, 0.1, 3) + np.float32(0.5), 0.2, 1, "u8")
    assert np.array_equal(f(x, 0.5), want)  # the number takes the dequantized float32
    out = np.empty_like(x)
    assert f(x, 0.5, out=(out,)) is out and np.array_equal(out, want)  # as numpy takes out=
    with pytest.raises(TypeError, match="argument 1 has dtype float64; beside quantized arguments"):
        f(x, np.zeros(x.shape, np.float64))


def test_fuse_quantization_arguments_are_checked_whole():
    for quantized in ({0: {0.1: 1, 3: 4}}, {0: "ab"}, {0: (0.1, 1, 2)}):
        with pytest.raises(TypeError, match=r"quantized\[0\] must be a \(scale, zero_point\) pair"):
            bcast.fuse(lambda a: a, quantized=quantized)
    for output in (("u8", 0.1), "u8", ("u8", 0.1, 0, 1)):
        with pytest.raises(TypeError, match=r"output must be \(dtype, scale, zero_point\)"):
            bcast.fuse(lambda a: a, output=output)
    with pytest.raises(TypeError, match="uint8 or int8, not \\[1\\]"):
        bcast.fuse(lambda a: a, output=([1], 0.1, 0))


def test_what_cannot_be_fused_says_so():
    u = np.zeros(4, np.uint8)
    with pytest.raises(TypeError, match="qlinear cannot be fused"):
        bcast.fuse(lambda a, b: bcast.qlinear("add", a, b, 0.1, 0, 0.1, 0, 0.1, 0))(u, u)
    with pytest.raises(TypeError, match="target shape cannot be fused"):
        bcast.fuse(lambda a: bcast.expand(a, (2, 4)))(np.zeros(4, np.float32))
    with pytest.raises(TypeError) as refused:
        bcast.qlinear("add", u, u.astype(np.int8), 0.1, 0, 0.1, 0, 0.1, 0)
    assert "dtype=" not in str(refused.value)  # qlinear has no dtype= to suggest


def test_quantization_parameters_as_onnx_tensors_and_refusals_named_by_argument():
    # ONNX keeps a per-tensor scale and zero point as 0-d or one-element
    # tensors: the same result as plain numbers.
    a = np.arange(0, 250, 10, dtype=np.uint8)
    b = a[::-1].copy()
    want = qdq("ADD", a, b, (0.02, 3), (0.05, 7), (0.04, 128), "u8")
    got = bcast.qlinear("add", a, b, np.array(0.02, np.float32), np.array([3], np.uint8),
                        np.array([0.05], np.float32), np.array(7), 0.04, np.array([128], np.int32))
    assert np.array_equal(got, want)
    with pytest.raises(TypeError, match="a_scale: one value per tensor"):
        bcast.qlinear("add", a, b, np.array([0.02, 0.03]), 3, 0.05, 7, 0.04, 128)
    with pytest.raises(TypeError, match="b_zero_point: one value per tensor"):
        bcast.qlinear("add", a, b, 0.02, 3, 0.05, np.zeros((1, 1), np.uint8), 0.04, 128)
    # The library's refusals name the argument and the value the caller gave.
    with pytest.raises(ValueError, match=r"bcast.qlinear: a_scale=-1.0, a_zero_point=3: .*scale"):
        bcast.qlinear("add", a, b, -1.0, 3, 0.05, 7, 0.04, 128)
    # Negative is what is wrong with a negative scale, however small (float32
    # would make it -0): the library's refusal, as for -1.0.
    for tiny in (-1e-50, -1e-40):
        with pytest.raises(bcast.InvalidArgumentError,
                           match=r"a_scale=%r, a_zero_point=3: .*not a positive" % tiny):
            bcast.qlinear("add", a, b, tiny, 3, 0.05, 7, 0.04, 128)
    with pytest.raises(ValueError, match=r"a_scale 1e-50 is out of float32's range \(it would be 0.0\)"):
        bcast.qlinear("add", a, b, 1e-50, 3, 0.05, 7, 0.04, 128)
    with pytest.raises(ValueError, match=r"bcast.qlinear: y_scale=0.04, y_zero_point=300: .*zero point"):
        bcast.qlinear("add", a, b, 0.02, 3, 0.05, 7, 0.04, 300)
    with pytest.raises(TypeError, match=r"bcast.qlinear\('pow'\): POW has no quantized form"):
        bcast.qlinear("pow", a, b, 0.02, 3, 0.05, 7, 0.04, 128)


def test_masked_arrays_are_refused_as_quantized_arguments_too():
    a = np.ma.masked_array(np.arange(3, dtype=np.uint8), [False, True, False])
    with pytest.raises(TypeError, match="bcast.qlinear: a: masked arrays"):
        bcast.qlinear("add", a, a.data, 0.1, 0, 0.1, 0, 0.1, 0)
    f = bcast.fuse(lambda x: x + 1.0, quantized={0: (0.1, 0)})
    with pytest.raises(TypeError, match=r"argument 0 \(quantized\): masked arrays"):
        f(a)


def test_fuse_beside_quantized_arguments_names_an_array_of_another_dtype():
    f = bcast.fuse(lambda x, y: x + y, quantized={0: (0.1, 0)})
    x = np.arange(3, dtype=np.uint8)
    with pytest.raises(TypeError, match="argument 1 has dtype uint8; beside quantized arguments"):
        f(x, np.ones(3, np.uint8))
    assert np.array_equal(f(x, np.ones(3, np.float32)),
                          x.astype(np.float32) * np.float32(0.1) + np.float32(1))
    with pytest.raises(ValueError, match=r"bcast.fuse: quantized\[0\]=.*: input 0: .*zero point"):
        bcast.fuse(lambda x: x * 2.0, quantized={0: (0.1, 300)})(x)
