"""One function per bcast op.

Every function takes keyword-only ``rule`` (default "numpy"; also "none",
"unidirectional", "pdpd", "onnx_legacy", "ncnn", "multidirectional"),
``axis`` (for pdpd and onnx_legacy; -1 is the rule's default), ``out`` (an
ndarray of the result's exact shape and dtype, any strides; it may be one of
the inputs for an in-place update) and ``dtype`` (None: the inputs' common
dtype; otherwise anything numpy.dtype accepts, or "bfloat16" with uint16
arrays holding bfloat16 bits) and ``threads`` (None or 1: the calling thread;
n > 1, or 0 for every CPU: a shared pool of that many threads; or a
bcast.Pool; the result is the same). x is the first operand, y the second; input 0
is the primary operand of the unidirectional, pdpd and onnx_legacy rules.
Comparisons and logical ops return bool arrays; every other op returns the
inputs' dtype. As with numpy's ufuncs, a 0-d result is returned as a numpy
scalar unless out= is given (select and expand return a 0-d array, as
np.where and np.broadcast_to do); out=(array,) is accepted too.
"""

from . import _arrays
from ._run import apply, binary

_KEYWORDS = "*, rule='numpy', axis=-1, out=None, dtype=None, threads=None"


def _variadic(name, formula):
    def op(*arrays, rule="numpy", axis=-1, out=None, dtype=None, threads=None):
        if len(arrays) == 2:
            return binary(name, arrays[0], arrays[1], rule, axis, out, dtype, threads)
        return apply(name, arrays, rule=rule, axis=axis, out=out, dtype=dtype, threads=threads)
    return _named(op, name, "%s(*arrays, %s)\n\n%s, element-wise, of 2 to 16 arrays." % (
        name, _KEYWORDS, formula))


def _binary(name, formula):
    def op(x, y, *, rule="numpy", axis=-1, out=None, dtype=None, threads=None):
        return binary(name, x, y, rule, axis, out, dtype, threads)
    return _named(op, name, "%s(x, y, %s)\n\n%s, element-wise." % (name, _KEYWORDS, formula))


def _named(function, name, doc):
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


add = _variadic("add", "x + y + ... (integers wrap)")
mul = _variadic("mul", "x * y * ... (integers wrap)")
max = _variadic("max", "The largest of x, y, ... (NaN from any input propagates)")
min = _variadic("min", "The smallest of x, y, ... (NaN from any input propagates)")
mean = _variadic("mean", "(x + y + ...) / n, float dtypes only")

sub = _binary("sub", "x - y")
rsub = _binary("rsub", "y - x")
div = _binary("div", "x / y (integers truncate; division by zero gives 0)")
rdiv = _binary("rdiv", "y / x")
pow = _binary("pow", "x ** y (C pow; integers exact, a negative exponent gives 0 "
                     "unless the base is 1 or -1)")
rpow = _binary("rpow", "y ** x")
atan2 = _binary("atan2", "atan2(x, y), float dtypes only")
ratan2 = _binary("ratan2", "atan2(y, x)")
fmod = _binary("fmod", "C fmod(x, y): the remainder with the sign of the dividend x")
rfmod = _binary("rfmod", "fmod(y, x)")
logaddexp = _binary("logaddexp", "log(exp(x) + exp(y)), float dtypes only")
floor_divide = _binary("floor_divide", "floor(x / y), as numpy's //")
rfloor_divide = _binary("rfloor_divide", "floor(y / x)")
remainder = _binary("remainder", "IEEE remainder(x, y) (C remainder, not numpy's), "
                                 "float dtypes only")
rremainder = _binary("rremainder", "IEEE remainder(y, x)")
mod = _binary("mod", "The floor remainder with the sign of the divisor y, as numpy's %")
squared_difference = _binary("squared_difference", "(x - y) ** 2")
prelu = _binary("prelu", "x < 0 ? x * y : x (y is the slope)")
equal = _binary("equal", "x == y -> bool")
not_equal = _binary("not_equal", "x != y -> bool")
less = _binary("less", "x < y -> bool")
less_equal = _binary("less_equal", "x <= y -> bool")
greater = _binary("greater", "x > y -> bool")
greater_equal = _binary("greater_equal", "x >= y -> bool")
logical_and = _binary("logical_and", "x and y, bool inputs only -> bool")
logical_or = _binary("logical_or", "x or y, bool inputs only -> bool")
logical_xor = _binary("logical_xor", "x xor y, bool inputs only -> bool")
bitwise_and = _binary("bitwise_and", "x & y, integer and bool dtypes")
bitwise_or = _binary("bitwise_or", "x | y, integer and bool dtypes")
bitwise_xor = _binary("bitwise_xor", "x ^ y, integer and bool dtypes")
shift_left = _binary("shift_left", "x << y, integer dtypes (a count < 0 or >= the bit "
                                   "width gives 0)")
shift_right = _binary("shift_right", "x >> y, arithmetic for signed integers (a count < 0 "
                                     "or >= the bit width gives 0)")


def select(cond, x, y, *, rule="numpy", axis=-1, out=None, dtype=None, threads=None):
    """select(cond, x, y, *, rule='numpy', axis=-1, out=None, dtype=None, threads=None)

    cond ? x : y, element-wise (numpy.where). cond must be bool; x and y share
    one dtype, which is the result's. Under pdpd, unidirectional and
    onnx_legacy, x is the primary operand."""
    return apply("select", (cond, x, y), rule=rule, axis=axis, out=out, dtype=dtype,
                 condition=True, threads=threads)


def expand(data, target_shape, *, mode="bidirectional", axes_mapping=None, axis=-1, out=None,
           dtype=None, threads=None):
    """expand(data, target_shape, *, mode='bidirectional', axes_mapping=None, axis=-1,
    out=None, dtype=None, threads=None)

    Materialises data broadcast to target_shape (ONNX Expand, OpenVINO
    Broadcast-1/3). mode: "bidirectional" (ONNX Expand: numpy broadcast of
    data against the target, so the result may be larger than the target),
    "numpy" (exactly the target), "explicit" (axes_mapping[i] is the target
    axis of data axis i) or "pdpd" (data placed at axis). Any dtype."""
    target = _arrays.as_target_shape(target_shape)  # None is no shape: TypeError
    return apply("copy", (data,), out=out, dtype=dtype, target=target,
                 expand_mode=mode, axes_mapping=axes_mapping, axis=axis, threads=threads)


copy = expand

__all__ = [name for name, value in list(globals().items())
           if callable(value) and not name.startswith("_") and name != "apply"]
