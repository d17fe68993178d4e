"""Every check of a call's arguments: values in, arrays the library can read
out; out= and the scalar arguments (axis, shapes, counts).

bcast does not promote: every data input must have the same dtype (a
TypeError names both otherwise), Python scalars and lists take the arrays'
dtype when their values fit it. Arrays are used in place whenever the library
can read them: any strides, negative included, are passed as element strides
with a pointer to element [0, ..., 0] (exactly ndarray.ctypes.data). Only
inputs in a foreign byte order, misaligned, or with strides that are not a
whole number of elements are copied first.
"""

import operator

import numpy as np

from . import _enums
from ._library import int64_value
from .errors import UnsupportedError


def as_int(value, what):
    """value as an int: anything operator.index takes, except bool (numpy's
    included)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("%s must be an int, not bool" % what)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__)) from None


def as_i64(value, what):
    """as_int, within the library's int64_t (ctypes would wrap it silently)."""
    return int64_value(as_int(value, what), what)


def as_axis(axis, what):
    """An axis argument as an int (the library's int64_t)."""
    return as_i64(axis, what + ": axis")


def as_shape(shape):
    """A tuple of ints from an int (a numpy integer scalar too), a sequence
    of ints, or an array (its shape)."""
    if shape is None or isinstance(shape, (str, bytes)):
        raise TypeError("a shape must be an int or a sequence of ints, not %r" % (shape,))
    if not isinstance(shape, (bool, np.bool_, np.ndarray)):
        try:
            return (as_i64(shape, "a shape's extent"),)
        except TypeError:
            pass
    if hasattr(shape, "shape"):
        return tuple(shape.shape)
    try:
        return tuple(as_i64(v, "a shape's extent") for v in shape)
    except TypeError:
        raise TypeError("a shape must be an int or a sequence of ints, not %r" % (shape,)) from None


def element_strides(arr):
    return [s // arr.itemsize for s in arr.strides]


def same_layout(strides, planned, shape):
    """True when `strides` address the same elements of an array of `shape`
    as `planned`: they may differ only along axes of extent 1, or anywhere
    when the array has no elements."""
    if 0 in shape:
        return True
    return all(s == p for s, p, d in zip(strides, planned, shape) if d != 1)


def _readable_in_place(arr):
    return (arr.dtype.isnative and arr.flags.aligned
            and all(s % arr.itemsize == 0 for s in arr.strides))


def usable(arr):
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


def _bfloat16_refusal(what, dtype):
    return TypeError("%s: dtype='bfloat16' takes uint16 arrays of bfloat16 bits, not %s" % (what, dtype))


def convert(value, storage, bfloat16, what, exact=False):
    """value as an array of `storage` (no copy when it already is one).
    Values that come from Python (lists, tuples: no dtype of their own) must
    fit an integer storage, as a Python int must (OverflowError). exact: a
    value with a dtype of its own (an array, a numpy scalar) must already
    have `storage` (TypeError: bcast does not promote); else it is cast
    ('same_kind', as an explicit dtype= asks)."""
    if type(value) in (bool, int, float) and not bfloat16:
        return _python_scalar(value, storage, what)
    if isinstance(value, np.ma.MaskedArray):  # np.asarray would drop the mask
        raise TypeError("%s: masked arrays are not supported (pass .filled(...) or .data)" % what)
    arr = np.asarray(value)
    if arr.dtype.newbyteorder("=") == storage:
        return arr
    python_ints = not hasattr(value, "dtype") and arr.dtype.kind in "iu"
    if not hasattr(value, "dtype") and arr.dtype.kind in "fO" and storage.kind in "iu":
        # Python ints past int64 (numpy makes float64 or object of them):
        # as ints, checked against the storage below like any other.
        ints = np.asarray(value, dtype=object)
        if ints.size and all(type(v) is int for v in ints.flat):
            arr, python_ints = ints, True
    if exact and hasattr(value, "dtype") and not bfloat16:
        raise TypeError("%s has dtype %s, not %s; bcast does not promote, convert it first"
                        % (what, arr.dtype, storage))
    if bfloat16:
        raise _bfloat16_refusal(what, arr.dtype)
    if python_ints and storage.kind in "iu":
        # Python ints, as weak as a Python scalar: any integer dtype that holds them.
        info = np.iinfo(storage)
        for bound in (arr.min(), arr.max()) if arr.size else ():
            if not info.min <= int(bound) <= info.max:
                raise OverflowError("%s: Python integer %d out of bounds for %s"
                                    % (what, bound, storage))
    elif not np.can_cast(arr.dtype, storage, "same_kind"):
        raise TypeError("%s: cannot cast %s to %s" % (what, arr.dtype, storage))
    return np.asarray(arr, storage)


def _is_bool(value):
    return (isinstance(value, (bool, np.bool_))
            or getattr(value, "dtype", None) == np.bool_)


def prepare_data(values, dtype, what, bools_apart=False, takes_dtype=False, agree_with=None):
    """The data inputs as arrays of one dtype: (arrays, bcast_dtype, storage dtype).
    With dtype=None the inputs' own dtype is used and must agree; with an
    explicit dtype every input is converted to it ('same_kind' casting).
    bools_apart: bool values (conditions of a fused function) stay bool
    arrays and are not part of the agreement. takes_dtype: the caller has a
    dtype= argument, which the disagreement's message then suggests.
    agree_with: (dtype, why, labels) that the inputs' dtype must be (Python
    numbers take it; an explicit dtype= takes precedence), `why` saying so in
    the message, which names an input by labels[k] (for values[k])."""
    apart = [bools_apart and dtype is None and _is_bool(v) for v in values]
    data = [v for v, b in zip(values, apart) if not b]
    if dtype is None:
        typed = [np.asarray(v).dtype for v in data if hasattr(v, "dtype")]
        if agree_with is not None:
            required, why, labels = agree_with
            for v, label, b in zip(values, labels, apart):
                other = np.asarray(v).dtype.newbyteorder("=") if hasattr(v, "dtype") and not b else required
                if other != required:
                    raise TypeError("%s: %s has dtype %s; %s" % (what, label, other, why))
            typed = [required]
        if not typed:  # only Python scalars and lists: numpy's own choice
            typed = [np.result_type(*[np.asarray(v) for v in data])] if data else [np.bool_]
        first = np.dtype(typed[0]).newbyteorder("=")
        for other in typed[1:]:
            if other.newbyteorder("=") != first:
                raise TypeError("%s: inputs have different dtypes %s and %s; bcast does not "
                                "promote, convert them first%s"
                                % (what, first, other.newbyteorder("="),
                                   " (or pass dtype=)" if takes_dtype else ""))
        dtype = first
    code, storage = storage_dtype(dtype)
    bfloat16 = code == _enums.BF16_CODE
    arrays = [prepare_condition(v, what) if b else usable(convert(v, storage, bfloat16, what))
              for v, b in zip(values, apart)]
    return arrays, code, storage


def prepare_condition(value, what):
    arr = np.asarray(value)
    if arr.dtype != np.bool_:
        raise TypeError("%s: the condition must be a bool array, not %s" % (what, arr.dtype))
    return usable(arr)


def single_out(out, what):
    """out= as numpy takes it: an array (or None), or a tuple of one array."""
    if type(out) is tuple:
        if len(out) != 1:
            raise TypeError("%s: out must be one array, not a tuple of %d" % (what, len(out)))
        return out[0]
    return out


# What the checks of out= read as attributes: a subclass may not redefine them
# (its shape would not be its data's: the library would write past them).
_LAYOUT = ("shape", "strides", "dtype", "flags", "ndim", "itemsize", "size")


def check_out(out, dtype, what):
    """Everything about out= that can be checked before the output shape is
    known: an ndarray of exactly `dtype`, writeable, addressable in elements."""
    if not isinstance(out, np.ndarray):
        raise TypeError("%s: out must be a numpy.ndarray, not %s" % (what, type(out).__name__))
    if type(out) is not np.ndarray:
        cls = type(out)
        if isinstance(out, np.ma.MaskedArray) or any(
                getattr(cls, name) is not getattr(np.ndarray, name) for name in _LAYOUT):
            raise TypeError("%s: out is a %s, which redefines what its data look like; pass an "
                            "ndarray (or a memmap)" % (what, cls.__name__))
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


def check_out_planned(out, signature, contiguous, what):
    """out= of a planned call: check_out's checks, then the planned shape and
    byte strides (signature: (shape, byte strides, dtype); the strides may
    differ along extent-1 axes)."""
    shape, strides, dtype = signature
    check_out(out, dtype, what)
    check_out_shape(out, shape, what)
    if out.strides != strides and not same_layout(out.strides, strides, shape):
        if contiguous:
            raise ValueError("%s: out has byte strides %s, the plan is for a contiguous "
                             "output (plan with out_strides)" % (what, out.strides))
        raise ValueError("%s: out has byte strides %s, the plan is for %s"
                         % (what, out.strides, strides))


def check_input(arr, i, shape, strides, dtype, what, bfloat16=False):
    """Input i of a planned call against the plan's (shape, byte strides,
    dtype) of it: arr is an ndarray (convert() made it one). bfloat16: the
    plan's uint16 holds bfloat16 bits (no cast of another dtype gives them)."""
    if arr.dtype != dtype and bfloat16:
        raise _bfloat16_refusal("%s: input %d" % (what, i), arr.dtype)
    if arr.dtype != dtype:
        raise TypeError("%s: input %d has dtype %s, not %s; bcast does not promote, convert it first"
                        % (what, i, arr.dtype, dtype))
    if arr.shape != shape:
        raise ValueError("%s: input %d has shape %s, the plan is for %s"
                         % (what, i, arr.shape, shape))
    if arr.strides != strides and not same_layout(arr.strides, strides, shape):
        raise ValueError("%s: input %d has byte strides %s, the plan is for %s"
                         % (what, i, arr.strides, strides))


# Quantized arrays (bcast.qlinear, bcast.fuse's quantized=): their dtypes, and
# the C API's BCAST_OUTPUT operand.
QUANTIZED = (np.dtype(np.uint8), np.dtype(np.int8))
OUTPUT_OPERAND = (1 << 64) - 1


def is_quantized_array(value):
    dtype = getattr(value, "dtype", None)
    return dtype is not None and np.dtype(dtype).newbyteorder("=") in QUANTIZED


def quantized_array(value, what):
    """A quantized argument (`what` names it) as an array the library reads:
    a uint8 or int8 array, refused as every other array is (masked arrays)."""
    if not is_quantized_array(value):
        dtype = getattr(value, "dtype", None)
        raise TypeError("%s must be a uint8 or int8 array, not %s"
                        % (what, dtype if dtype is not None else type(value).__name__))
    return usable(convert(value, np.dtype(value.dtype).newbyteorder("="), False, what))


def int64_tuple(value, what, item_what=None):
    """A sequence of integers (any iterable but text) as a tuple of int64
    values; `what` names it in the TypeError for anything else, `item_what`
    (default: what) an item that is not an integer."""
    try:
        if isinstance(value, (str, bytes)):
            raise TypeError
        items = tuple(value)
    except TypeError:
        raise TypeError("%s is a sequence of ints, not %r" % (what, value)) from None
    return tuple(as_i64(v, item_what or what) for v in items)


def as_axes_mapping(value, what):
    """axes_mapping (explicit expand): None, or a sequence of axes."""
    return None if value is None else int64_tuple(value, what + ": axes_mapping")


def as_target_shape(shape):
    """A target shape (expand, Broadcast, ONNX Expand): as as_shape, but an
    array holds the extents, as ONNX's shape tensor does, instead of standing
    for its own shape: so it must be an integer array of at most one
    dimension (a float or 2-D one would otherwise give a shape nobody asked
    for)."""
    if isinstance(shape, np.ndarray):
        if shape.dtype.kind not in "iu":
            raise TypeError("a target shape array must hold integers, not %s" % shape.dtype)
        if shape.ndim > 1:
            raise ValueError("a target shape array must have at most one dimension, not shape %s"
                             % (shape.shape,))
        return tuple(as_i64(v, "a shape's extent") for v in shape.reshape(-1).tolist())
    return as_shape(shape)


def _one_value(value, what):
    """A 0-d or one-element array's value (as a numpy scalar); anything else
    as it is."""
    if not isinstance(value, np.ndarray):
        return value
    if value.size != 1 or value.ndim > 1:
        raise TypeError("%s: one value per tensor, not an array of shape %s" % (what, value.shape))
    return value.reshape(())[()]


def quantization(scale, zero_point, scale_what, zero_point_what):
    """(scale as a float32 value, zero point as an int32 value), checked for
    type and range here; the library checks the values. Either may be a
    0-d or one-element array, as ONNX keeps them (per-tensor: one value)."""
    scale = _one_value(scale, scale_what)
    zero_point = _one_value(zero_point, zero_point_what)
    if isinstance(scale, (bool, np.bool_)) or not isinstance(scale, (int, float, np.floating,
                                                                     np.integer)):
        raise TypeError("%s must be a float, not %s" % (scale_what, type(scale).__name__))
    zero_point = as_int(zero_point, zero_point_what)
    if not -2 ** 31 <= zero_point < 2 ** 31:
        raise OverflowError("%s does not fit int32" % zero_point_what)
    # The library takes a float32: a positive value that float32 turns into
    # infinity or zero is refused here, by the value the caller gave (the
    # library refuses the others, a negative one as negative).
    try:
        wide = float(scale)
    except OverflowError:
        raise ValueError("%s is too large for a float32" % scale_what) from None
    with np.errstate(over="ignore", under="ignore"):
        narrow = float(np.float32(wide))
    if np.isfinite(wide) and wide > 0 and (not np.isfinite(narrow) or narrow == 0):
        raise ValueError("%s %r is out of float32's range (it would be %r)" % (scale_what, scale, narrow))
    return narrow, zero_point
