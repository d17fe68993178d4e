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
