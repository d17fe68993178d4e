"""numpy arrays in, C pointers and element strides out.

bcast does not promote: every data input must have the same dtype (a
TypeError names both otherwise), Python scalars and lists take the arrays'
dtype. Arrays are used in place whenever the library can read them: any
strides, negative included, are passed as element strides with a pointer to
element [0, ..., 0] (exactly ndarray.ctypes.data). Only inputs in a foreign
byte order, misaligned, or with strides that are not a whole number of
elements are copied first.
"""

import operator

import numpy as np

from . import _enums
from .errors import UnsupportedError


def as_shape(shape):
    """A tuple of ints from an int, a sequence of ints, or anything with .shape."""
    if hasattr(shape, "shape"):
        return tuple(shape.shape)
    try:
        return (operator.index(shape),)
    except TypeError:
        pass
    try:
        return tuple(operator.index(v) for v in shape)
    except TypeError:
        raise TypeError("a shape must be an int or a sequence of ints, not %r" % (shape,))


def element_strides(arr):
    return [s // arr.itemsize for s in arr.strides]


def _readable_in_place(arr):
    return (arr.dtype.isnative and arr.flags.aligned
            and all(s % arr.itemsize == 0 for s in arr.strides))


def _usable(arr):
    """arr itself, or a native, aligned copy when the library cannot read it."""
    if _readable_in_place(arr):
        return arr
    return np.array(arr, dtype=arr.dtype.newbyteorder("="), order="C")


def storage_dtype(dtype):
    """(bcast_dtype code, numpy storage dtype) of an explicit dtype argument:
    anything numpy.dtype accepts, one of the C API's names ("f32", "u8"...),
    or "bfloat16"."""
    if _enums.is_bfloat16(dtype):
        return _enums.BF16_CODE, np.dtype(np.uint16)
    named = _enums.c_dtype_name(dtype)
    if named is not None:
        return named
    storage = np.dtype(dtype)
    code = _enums.numpy_dtype_code(storage)
    if code is None:
        raise UnsupportedError("bcast has no %s dtype (supported: %s)" % (
            storage, _enums.describe_numpy_dtypes()))
    return code, storage.newbyteorder("=")


def _python_scalar(value, storage, what):
    """A Python bool, int or float as a 0-d array of storage. Like numpy's,
    Python scalars are weak: they take the arrays' dtype when their value
    fits its kind (an int any integer dtype that holds it, a float any float
    dtype), and are refused otherwise."""
    kind = storage.kind
    if type(value) is int:
        if kind in "iu":
            info = np.iinfo(storage)
            if not info.min <= value <= info.max:
                raise OverflowError("%s: Python integer %d out of bounds for %s"
                                    % (what, value, storage))
        elif kind == "b":
            raise TypeError("%s: cannot cast int to bool" % what)
    elif type(value) is float and kind != "f":
        raise TypeError("%s: cannot cast float64 to %s" % (what, storage))
    return np.asarray(value, storage)


def convert(value, storage, bfloat16, what):
    """value as an array of `storage` (no copy when it already is one)."""
    if type(value) in (bool, int, float) and not bfloat16:
        return _python_scalar(value, storage, what)
    arr = np.asarray(value)
    if arr.dtype.newbyteorder("=") == storage:
        return arr
    if bfloat16:
        raise TypeError("%s: dtype='bfloat16' takes uint16 arrays of bfloat16 bits, not %s"
                        % (what, arr.dtype))
    if not np.can_cast(arr.dtype, storage, "same_kind"):
        raise TypeError("%s: cannot cast %s to %s" % (what, arr.dtype, storage))
    return np.asarray(arr, storage)


def prepare_data(values, dtype, what):
    """The data inputs as arrays of one dtype: (arrays, bcast_dtype, storage dtype).
    With dtype=None the inputs' own dtype is used and must agree; with an
    explicit dtype every input is converted to it ('same_kind' casting)."""
    if dtype is None:
        typed = [np.asarray(v).dtype for v in values if hasattr(v, "dtype")]
        if not typed:  # only Python scalars and lists: numpy's own choice
            typed = [np.result_type(*[np.asarray(v) for v in values])]
        first = typed[0].newbyteorder("=")
        for other in typed[1:]:
            if other.newbyteorder("=") != first:
                raise TypeError("%s: inputs have different dtypes %s and %s; bcast does not "
                                "promote, convert them first (or pass dtype=)"
                                % (what, first, other.newbyteorder("=")))
        dtype = first
    code, storage = storage_dtype(dtype)
    bfloat16 = code == _enums.BF16_CODE
    arrays = [_usable(convert(v, storage, bfloat16, what)) for v in values]
    return arrays, code, storage


def prepare_condition(value, what):
    arr = np.asarray(value)
    if arr.dtype != np.bool_:
        raise TypeError("%s: the condition must be a bool array, not %s" % (what, arr.dtype))
    return _usable(arr)


def check_out(out, dtype, what):
    """Everything about out= that can be checked before the output shape is
    known: an ndarray of exactly `dtype`, writeable, addressable in elements."""
    if not isinstance(out, np.ndarray):
        raise TypeError("%s: out must be a numpy.ndarray, not %s" % (what, type(out).__name__))
    if out.dtype != dtype:
        raise TypeError("%s: out has dtype %s, the result is %s" % (what, out.dtype, dtype))
    if not out.flags.writeable:
        raise ValueError("%s: out is read-only" % what)
    if not _readable_in_place(out):
        raise ValueError("%s: out is misaligned or has strides that are not a whole number "
                         "of elements" % what)


def check_out_shape(out, shape, what):
    if out.shape != tuple(shape):
        raise ValueError("%s: out has shape %s, the result has shape %s"
                         % (what, out.shape, tuple(shape)))
