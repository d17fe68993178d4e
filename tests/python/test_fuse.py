"""bcast.fuse against the same ops run one by one (bcast's contract: bit for
bit) and against numpy where numpy rounds the same way (f32/f64/int ops
element by element).

Run by ctest as part of "python: package (pytest)".
"""
import numpy as np
import pytest

import bcast

RNG = np.random.default_rng(16)


def rand(shape, dtype="f4"):
    return RNG.uniform(-4, 4, shape).astype(dtype)


def norm(x, m, s, g, b):
    return (x - m) * s * g + b


@pytest.mark.parametrize("shape,param", [((2, 8, 5, 7), (1, 8, 1, 1)), ((2, 5, 7, 8), (8,)),
                                         ((3, 1000), (1000,)), ((), ())])
@pytest.mark.parametrize("dtype", ["f4", "f8", "f2"])
def test_normalisation_tail_matches_the_ops_one_by_one(shape, param, dtype):
    x = rand(shape, dtype)
    p = [rand(param, dtype) for _ in range(4)]
    fused = bcast.fuse(norm)
    got = fused(x, *p)
    want = bcast.add(bcast.mul(bcast.mul(bcast.sub(x, p[0]), p[1]), p[2]), p[3])
    assert got.dtype == want.dtype and got.shape == np.shape(want)
    assert got.tobytes() == np.asarray(want).tobytes()
    if dtype != "f2":  # numpy computes f16 in f32 and rounds once per ufunc too
        np.testing.assert_array_equal(got, norm(x, *p))


def test_constants_comparisons_and_select():
    x = RNG.integers(-50, 50, (6, 9)).astype("i4")
    limit = RNG.integers(-10, 10, (6, 1)).astype("i4")
    clamp = bcast.fuse(lambda x, t: bcast.select(x < t, x * 3 + 1, t - 2))
    got = clamp(x, limit)
    np.testing.assert_array_equal(got, np.where(x < limit, x * 3 + 1, limit - 2))
    both = bcast.fuse(lambda x, t: (x > t) & (x < 7))
    np.testing.assert_array_equal(both(x, limit), (x > limit) & (x < 7))
    assert both(x, limit).dtype == np.bool_


def test_a_python_bool_is_a_number_except_as_a_condition():
    # As the op functions take it: True is 1 of the data dtype; as select's
    # condition (and beside bool arrays) it stays a bool.
    a = np.array([1.5, -2.0], np.float32)
    np.testing.assert_array_equal(bcast.fuse(lambda x: x * True + False)(a), bcast.add(bcast.mul(a, True), False))
    assert bcast.fuse(lambda x: x * True)(a).dtype == np.float32
    np.testing.assert_array_equal(bcast.fuse(lambda x, y: bcast.select(True, x, y))(a, -a), a)
    flags = np.array([True, False])
    np.testing.assert_array_equal(bcast.fuse(lambda c: c & True)(flags), flags)
    with pytest.raises(TypeError, match="a quantized output is uint8 or int8, not None"):
        bcast.fuse(lambda x: x + 1, output=(None, 0.1, 0))


def test_rules_out_threads_and_strides():
    x = rand((2, 3, 4, 5))
    y = rand((3, 1))
    f = bcast.fuse(lambda x, y: bcast.sub(bcast.mul(x, y, rule="pdpd", axis=1), y * 0.5,
                                          rule="pdpd", axis=1))
    want = bcast.sub(bcast.mul(x, y, rule="pdpd", axis=1), bcast.mul(y, np.float32(0.5)),
                     rule="pdpd", axis=1)
    np.testing.assert_array_equal(f(x, y), want)
    # A transposed input, a strided output, a pool.
    big = rand((700, 900)).T
    row = rand((700,))
    g = bcast.fuse(lambda a, b: (a + b) * a)
    out = np.empty((900, 1400), "f4")[:, ::2]
    g(big, row, out=out, threads=2)
    np.testing.assert_array_equal(out, (big + row) * big)


def test_refusals_name_the_node():
    f = bcast.fuse(lambda x, y: (x + y) * y)
    with pytest.raises(bcast.IncompatibleShapesError, match="node 0"):
        f(rand((3,)), rand((4,)))
    with pytest.raises(TypeError, match="branch"):
        bcast.fuse(lambda x: x if x > 0 else x)(rand((3,)))
    with pytest.raises(TypeError, match="takes 2 arrays"):
        f(rand((3,)))


def test_explain_shows_one_fused_pass():
    f = bcast.fuse(norm)
    plan = f.explain(rand((2, 8, 5, 7)), *[rand((1, 8, 1, 1)) for _ in range(4)])
    assert plan["kernel"] == "fused"
    assert [n["op"] for n in plan["nodes"]] == ["SUB", "MUL", "MUL", "ADD"]
    assert plan["output_shape"] == [2, 8, 5, 7]


def test_arrays_the_library_cannot_read_in_place_are_copied():
    x = rand((5, 6))
    y = rand((6,))
    f = bcast.fuse(lambda x, y: x * y + x)
    want = f(x, y)
    np.testing.assert_array_equal(f(x.astype(">f4"), y), want)  # byte-swapped
    packed = np.zeros(6, dtype=[("f", "<f4"), ("a", "u2")])  # 6-byte records
    packed["f"] = y
    np.testing.assert_array_equal(f(x, packed["f"][::-1][::-1]), want)


def test_repeated_constants_share_one_input():
    # 20 uses of the constants 2 and 1: more than 16 inputs if each were one.
    poly = bcast.fuse(lambda x: ((((((((x * 2 + 1) * 2 + 1) * 2 + 1) * 2 + 1) * 2 + 1) * 2 + 1)
                                   * 2 + 1) * 2 + 1))
    x = np.arange(-4, 4, dtype="i4")
    want = x
    for _ in range(8):
        want = want * 2 + 1
    np.testing.assert_array_equal(poly(x), want)


def test_past_16_inputs_the_refusal_counts_the_constants():
    # 15 arguments and the constants 2 and 3: 17 inputs, said as such.
    f = bcast.fuse(lambda a, b, c, d, e, f, g, h, i, j, k, l, m, n, o: a + b * 2 + c * 3)
    with pytest.raises(bcast.InvalidArgumentError,
                       match=r"^bcast.fuse: 15 arguments and 2 number constants: .* 1 to 16 inputs, not 17"):
        f(*[np.zeros(3, np.float32)] * 15)
    g = bcast.fuse(lambda a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p: a + b * 2)
    with pytest.raises(bcast.InvalidArgumentError,
                       match=r"^bcast.fuse: 16 arguments and 1 number constant: .* not 17"):
        g(*[np.zeros(3, np.float32)] * 16)


@pytest.mark.parametrize("dtypes", [("f4", "f8"), ("i8", "i1"), ("f8", "f4"), ("u1", "i4")])
def test_inputs_of_different_dtypes_are_refused_as_by_the_op_functions(dtypes):
    # The expression is built for one data dtype: an input of another would be
    # read as that dtype (wrong values, or reads past a smaller buffer).
    x = (RNG.uniform(0, 100, (4, 5))).astype(dtypes[0])
    y = (RNG.uniform(0, 100, (5,))).astype(dtypes[1])
    with pytest.raises(TypeError, match="different dtypes %s and %s" % (x.dtype, y.dtype)):
        bcast.add(x, y)
    f = bcast.fuse(lambda a, b: a + b)
    with pytest.raises(TypeError, match="different dtypes %s and %s" % (x.dtype, y.dtype)):
        f(x, y)
    np.testing.assert_array_equal(f(x, y.astype(x.dtype)), x + y.astype(x.dtype))  # still fine


def test_a_bool_input_is_a_condition_not_a_data_input_of_another_dtype():
    x = rand((3, 4))
    cond = RNG.integers(0, 2, (4,)).astype(bool)
    pick = bcast.fuse(lambda c, a: bcast.select(c, a, a * 2))
    np.testing.assert_array_equal(pick(cond, x), np.where(cond, x, x * 2))
    mixed = bcast.fuse(lambda a, c: a + c)  # bool as data: no promotion either
    with pytest.raises(TypeError, match="different dtypes float32 and bool"):
        mixed(x, cond)


def test_number_constants_are_0_d_as_the_op_functions_take_them():
    times2 = bcast.fuse(lambda a: a * 2.0)
    got = times2(np.float32(3))
    want = bcast.mul(np.float32(3), 2.0)
    assert np.shape(got) == np.shape(want) == () and got == want == 6
    assert np.asarray(got).dtype == np.float32
    zero_d = np.array(1.5, "f4")
    for rule in ("none", "pdpd", "onnx_legacy"):  # a shape (1,) constant is refused there
        f = bcast.fuse(lambda a: bcast.mul(a, 2.0, rule=rule))
        assert f(zero_d) == bcast.mul(zero_d, 2.0, rule=rule) == 3.0
    x = rand((2, 3))
    np.testing.assert_array_equal(bcast.fuse(lambda a: (a + 1) * 0.5)(x), (x + 1) * 0.5)


def test_out_is_checked_before_anything_reaches_the_library():
    f = bcast.fuse(lambda a, b: a * b + a)
    x, y = rand((2, 3, 4)), rand((4,))
    # A non-contiguous out of lower rank: its strides must not be planned with.
    low = np.empty((3, 8), "f4")[:, ::2]
    with pytest.raises(ValueError, match=r"out has shape \(3, 4\), the result has shape "
                                         r"\(2, 3, 4\)"):
        f(x, y, out=low)
    with pytest.raises(ValueError, match=r"out has shape \(2, 3, 5\)"):
        f(x, y, out=np.empty((2, 3, 10), "f4")[:, :, ::2])
    with pytest.raises(TypeError, match="out has dtype float64, the result is float32"):
        f(x, y, out=np.empty((2, 3, 4), "f8"))
    ro = np.empty((2, 3, 4), "f4")
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        f(x, y, out=ro)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        f(x, y, out=[0.0] * 24)
    # Partial overlap with an input: refused, nothing written (as bcast.add).
    buf = np.arange(12, dtype="f4")
    before = buf.copy()
    with pytest.raises(bcast.InvalidArgumentError):
        f(buf[:6], buf[:6], out=buf[2:8])
    np.testing.assert_array_equal(buf, before)
    # A strided out of the right shape is written in place, nothing between.
    wide = np.zeros((2, 3, 8), "f4")
    view = wide[:, :, ::2]
    assert f(x, y, out=view) is view
    np.testing.assert_array_equal(wide[:, :, ::2], x * y + x)
    assert not wide[:, :, 1::2].any()


def test_constants_of_another_dtype_are_refused_not_cast():
    x = np.ones(3, np.int8)
    for constant in (np.int64(300), np.array([300, 1000, -200])):
        with pytest.raises(TypeError, match="does not promote"):
            bcast.fuse(lambda a: a + constant)(x)
    assert bcast.fuse(lambda a: a + 3)(x).tolist() == [4, 4, 4]


def test_an_array_on_the_left_of_a_traced_value_is_one_node():
    w = np.array([1, 2, 3], np.float32)
    x = np.array([4, 5, 6], np.float32)
    f = bcast.fuse(lambda a: w + a)
    assert np.array_equal(f(x), w + x)
    assert len(f.explain(x)["nodes"]) == 1


def test_traced_values_and_fused_functions_outside_their_place():
    leaked = []
    f = bcast.fuse(lambda a: (leaked.append(a), a + 1)[1])
    x = np.ones(3, np.float32)
    f(x)
    with pytest.raises(TypeError, match="outside it"):
        bcast.add(leaked[0], x)
    inner = bcast.fuse(lambda a: a + 1)
    with pytest.raises(TypeError, match="cannot be called inside another"):
        bcast.fuse(lambda a: inner(a) * 2)(x)


def test_select_conditions_given_as_constants():
    x = np.arange(3, dtype=np.float32)
    c = np.array([True, False, True])
    assert np.array_equal(bcast.fuse(lambda a: bcast.select(c, a, 0.0))(x), np.where(c, x, 0))
    with pytest.raises(TypeError, match="the condition must be bool, not int32"):
        bcast.fuse(lambda a: bcast.select(c.astype(np.int32), a, a))(x)


def test_arrays_the_function_reads_are_copied_when_it_is_traced():
    # Two captured arrays equal at the trace stay two values of that moment:
    # later changes to them are not seen (and never mix them up).
    w1, w2 = np.ones(4, np.float32), np.ones(4, np.float32)
    swapped = np.ones(4, ">f4")
    f = bcast.fuse(lambda x: x * w1 + w2 + swapped)
    x = np.full(4, 2, np.float32)
    want = x * w1 + w2 + swapped.astype(np.float32)
    assert np.array_equal(f(x), want)
    w1[:], w2[:], swapped[:] = 3, 5, 7
    assert np.array_equal(f(x), want)
