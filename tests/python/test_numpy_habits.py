"""The op functions take what numpy's ufuncs take for same-dtype inputs and
return what they return: 0-d arrays, numpy and Python scalars, lists, with
and without out=. numpy itself is the oracle, down to the result's type.

Run by ctest as "python: package (pytest)".
"""
import numpy as np
import pytest

import bcast

CALLS = [  # (bcast function, numpy ufunc, inputs)
    (bcast.add, np.add, (np.array(2.0, "f4"), np.array(3.0, "f4"))),
    (bcast.add, np.add, (np.float32(2), np.float32(3))),
    (bcast.add, np.add, (2, 3)),
    (bcast.add, np.add, (2.5, 0.25)),
    (bcast.mul, np.multiply, ([1, 2, 3], [4, 5, 6])),
    (bcast.mul, np.multiply, ([[1.5], [2.5]], [1.0, 2.0, 4.0])),
    (bcast.add, np.add, (np.arange(6, dtype="i2").reshape(2, 3), 7)),
    (bcast.sub, np.subtract, (7, np.arange(3, dtype="u1"))),
    (bcast.less, np.less, (np.arange(4, dtype="f8"), 2.0)),
    (bcast.logical_and, np.logical_and, (True, [True, False])),
    (bcast.max, np.maximum, (np.array([1, 5], "i4"), np.array(3, "i4"))),
    (bcast.add, np.add, (np.ones((0, 3), "f4"), np.ones(3, "f4"))),
]


@pytest.mark.parametrize("function, ufunc, inputs", CALLS)
def test_without_out_the_result_is_what_numpy_returns(function, ufunc, inputs):
    expected = ufunc(*inputs)
    for _ in range(2):  # the second call runs the cached plan
        got = function(*inputs)
        assert type(got) is type(expected)
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        assert np.shape(got) == np.shape(expected)
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("function, ufunc, inputs", CALLS)
def test_with_out_the_result_is_out(function, ufunc, inputs):
    expected = ufunc(*inputs)
    out = np.empty(np.shape(expected), np.asarray(expected).dtype)
    for form in (out, (out,)):
        out[...] = 0
        got = function(*inputs, out=form)
        assert got is out
        np.testing.assert_array_equal(out, expected)


def test_select_and_expand_give_0_d_arrays_as_numpy_does():
    cond, x, y = np.array(True), np.array(1.5, "f4"), np.array(2.5, "f4")
    got = bcast.select(cond, x, y)
    assert type(got) is type(np.where(cond, x, y)) is np.ndarray and got == 1.5
    got = bcast.expand(x, ())
    assert type(got) is type(np.broadcast_to(x, ())) is np.ndarray and got == 1.5


def test_dtype_names_keep_numpys_meaning():
    a = np.arange(3)  # int64
    got = bcast.add(a, a * 100, dtype="i8")  # numpy's i8: int64, not int8
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, [0, 101, 202])
    assert bcast.add(np.ones(2, "i4"), np.ones(2, "i4"), dtype="i32").dtype == np.int32
    with pytest.raises(bcast.UnsupportedError):
        bcast.add(np.ones(2), np.ones(2), dtype="f16")  # numpy's f16 is float128


def test_out_tuple_of_more_than_one_array_is_refused():
    a = np.ones(3, "f4")
    with pytest.raises(TypeError, match="out must be one array"):
        bcast.add(a, a, out=(a, a))


def test_where_bcast_differs_on_purpose():
    # No promotion: numpy would give float64 here.
    with pytest.raises(TypeError, match="different dtypes float32 and float64"):
        bcast.add(np.ones(2, "f4"), np.ones(2, "f8"))
    with pytest.raises(TypeError, match="cannot cast float64 to int16"):
        bcast.add(np.ones(2, "i2"), 1.5)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for uint8"):
        bcast.add(np.ones(2, "u1"), 300)
    # Rules numpy does not have.
    got = bcast.add(np.ones((2, 3, 4), "f4"), np.arange(3, dtype="f4"), rule="pdpd", axis=1)
    np.testing.assert_array_equal(got, np.broadcast_to(1 + np.arange(3, dtype="f4")[:, None], (2, 3, 4)))
