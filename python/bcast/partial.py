"""Shape inference over partial shapes (bcast_infer_partial_shape): for graph
compilers that decide output shapes before the extents are known.

A shape is a tuple of dimensions, each an int (known), None (unknown), a str
(a symbol: equal names are one extent; "" is none, as ONNX's empty
dim_param) or a (lo, hi) tuple (an interval; hi None for unbounded); None is
a shape of unknown rank, and a leading Ellipsis, (..., 2, 3), a shape of unknown rank that ends in (2, 3). Results use the same
notation (a dimension carrying a symbol is given as the symbol).

    >>> bcast.infer_partial_shape(("N", 3), ("M", 3))
    ((None, 3), Conditions('N == 1 or M == 1 or N == M'))
    >>> bcast.infer_partial_shape(("N", 3), ("M", 3), semantics="onnx")
    (None, 3)

semantics: "strict" (bcast's own: the tightest output, a refusal only when no
values of the unknowns are accepted, and the conditions left for run time),
"onnx" (ONNX's shape inference) or "openvino" (OpenVINO's PartialShape
merge). docs/partial-shapes.md compares them.
"""

import ctypes

from . import _enums
from ._arrays import as_axes_mapping, as_axis, as_i64, int64_tuple
from ._library import c_i32, c_i64, c_size, check, lib

__all__ = ["infer_partial_shape", "infer_partial_expand_shape", "Conditions"]

UNBOUNDED = 2 ** 63 - 1  # BCAST_DIM_UNBOUNDED
MAX_RANK = 32
MAX_CONDITIONS = 4096
SEMANTICS = {"strict": 0, "onnx": 1, "openvino": 2}


class _PDim(ctypes.Structure):
    _fields_ = [("lo", c_i64), ("hi", c_i64), ("symbol", ctypes.c_char_p)]


class _PShape(ctypes.Structure):
    _fields_ = [("rank_known", c_i32), ("num_dims", c_size), ("dims", ctypes.POINTER(_PDim))]


class _Condition(ctypes.Structure):
    _fields_ = [("clause", ctypes.c_uint32), ("kind", c_i32), ("input", c_i32),
                ("other_input", c_i32), ("axis", c_i64), ("other", c_i64)]


_P_size, _P_i32 = ctypes.POINTER(c_size), ctypes.POINTER(c_i32)
_OUT = [c_size, ctypes.POINTER(_PDim), _P_size, _P_i32, c_size, ctypes.POINTER(_Condition), _P_size]
# name: (restype, argtypes), exactly as in <bcast/bcast.h> (since 1.3).
_PROTOTYPES = {
    "bcast_infer_partial_shape": (c_i32, [c_i32, c_i32, c_i64, c_size, ctypes.POINTER(_PShape)] + _OUT),
    "bcast_infer_partial_expand_shape": (c_i32, [c_i32, c_i32, ctypes.POINTER(_PShape),
                                                 ctypes.POINTER(_PShape), ctypes.POINTER(c_i64),
                                                 c_size, c_i64] + _OUT),
    "bcast_conditions_hold": (c_i32, [c_size, ctypes.POINTER(_Condition), c_size, _P_size,
                                      ctypes.POINTER(ctypes.POINTER(c_i64)), _P_i32]),
    "bcast_conditions_format": (c_size, [c_size, ctypes.POINTER(_Condition), c_size,
                                         ctypes.POINTER(_PShape), ctypes.c_char_p, c_size]),
}
for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype, _f.argtypes = _restype, _argtypes


def _dim(d):
    """One dimension in the notation above as (lo, hi, symbol bytes)."""
    if d is None:
        return 0, UNBOUNDED, None
    if isinstance(d, str):
        if not d:  # no symbol, as the C API and ONNX's empty dim_param read it
            return 0, UNBOUNDED, None
        if "\0" in d:
            raise ValueError("a symbol cannot hold a NUL character: %r" % (d,))
        try:
            return 0, UNBOUNDED, d.encode()
        except UnicodeEncodeError:
            raise ValueError("a symbol is text that UTF-8 can hold, not %r" % (d,)) from None
    if isinstance(d, tuple):
        if len(d) != 2:
            raise ValueError("an interval is (lo, hi), got %r" % (d,))
        lo, hi = d
        return (as_i64(lo, "an interval's lower bound"),
                UNBOUNDED if hi is None else as_i64(hi, "an interval's upper bound"), None)
    try:
        d = as_i64(d, "a dimension")
    except TypeError:
        raise TypeError("a dimension is an int, None, a str or (lo, hi), got %r" % (d,)) from None
    return d, d, None


def _partial_shape(s):
    """A partial shape as (dims, rank known)."""
    if s is None:
        return (), False
    if isinstance(s, (str, bytes)):
        raise TypeError("a partial shape is a sequence of dimensions or None, not %r" % (s,))
    try:
        s = tuple(s)
    except TypeError:
        raise TypeError("a partial shape is a sequence of dimensions or None, not %r" % (s,)) from None
    if s and s[0] is Ellipsis:
        return s[1:], False
    return s, True


def _not_an_instance(j, partial, static, seen):
    """Why static (input j's shape) is not one its partial shape allows, or
    None; `seen` (symbol -> extent) holds the symbols across all inputs."""
    dims, known = partial
    if len(static) != len(dims) if known else len(static) < len(dims):
        return "input %d: rank %d does not fit its partial shape's %s%d" % (
            j, len(static), "" if known else "at least ", len(dims))
    for i, (lo, hi, symbol) in enumerate(dims):
        axis = len(static) - len(dims) + i  # an unknown rank's dims are its last ones
        x = static[axis]
        if not lo <= x <= hi:
            return "input %d: extent %d at axis %d is outside its partial shape's %s" % (
                j, x, axis, lo if lo == hi else (lo, None if hi == UNBOUNDED else hi))
        if symbol is not None and seen.setdefault(symbol, x) != x:
            return "symbol %s would be both %d and %d" % (symbol.decode(), seen[symbol], x)
    return None


class _Shapes:
    """The C structs for a list of partial shapes (kept alive together)."""

    def __init__(self, shapes):
        self.count = len(shapes)
        self.array = (_PShape * max(self.count, 1))()
        self._keep = []
        self.partial = []  # per input: (dims as (lo, hi, symbol), rank known)
        for j, shape in enumerate(shapes):
            s, known = _partial_shape(shape)
            parsed = [_dim(d) for d in s]
            self.partial.append((parsed, known))
            dims = (_PDim * max(len(s), 1))(*[_PDim(*d) for d in parsed])
            self._keep.append(dims)
            self.array[j] = _PShape(int(known), len(s), dims)


def _shape_out(dims, count, known):
    out = []
    for i in range(count):
        d = dims[i]
        if d.symbol:
            out.append(d.symbol.decode())
        elif d.lo == d.hi:
            out.append(d.lo)
        elif d.lo == 0 and d.hi == UNBOUNDED:
            out.append(None)
        else:
            out.append((d.lo, None if d.hi == UNBOUNDED else d.hi))
    if known:
        return tuple(out)
    return (Ellipsis,) + tuple(out) if out else None


class Conditions(tuple):
    """strict's run-time conditions: one str per clause (the clauses must all
    hold), e.g. 'N == 1 or M == 1 or N == M'. holds(*shapes) evaluates them on
    the static shapes of the same inputs (for broadcasting: data, target)."""

    def __new__(cls, atoms, count, inputs):
        size = lib.bcast_conditions_format(count, atoms, inputs.count, inputs.array, None, 0)
        buf = ctypes.create_string_buffer(size + 1)
        lib.bcast_conditions_format(count, atoms, inputs.count, inputs.array, buf, size + 1)
        text = buf.value.decode()
        self = super().__new__(cls, text.split("\n") if text else ())
        # The atoms alone (not the whole buffer they were written into).
        self._atoms, self._count = (_Condition * max(count, 1))(*atoms[:count]), count
        self._partial = inputs.partial
        return self

    def holds(self, *shapes):
        """Whether the conditions hold for these static shapes, one per input;
        ValueError for shapes that their partial shapes do not allow (a rank,
        an extent or a symbol's value), where the conditions say nothing."""
        shapes = [int64_tuple(s, "bcast.Conditions.holds: shape %d" % j, "bcast.Conditions.holds: an extent")
                  for j, s in enumerate(shapes)]
        if len(shapes) != len(self._partial):
            raise ValueError("bcast.Conditions.holds: %d shapes for %d inputs" % (
                len(shapes), len(self._partial)))
        seen = {}
        for j, (partial, static) in enumerate(zip(self._partial, shapes)):
            why = _not_an_instance(j, partial, static, seen)
            if why:
                raise ValueError("bcast.Conditions.holds: " + why)
        ranks = (c_size * max(len(shapes), 1))(*[len(s) for s in shapes])
        arrays = [(c_i64 * max(len(s), 1))(*s) for s in shapes]
        dims = (ctypes.POINTER(c_i64) * max(len(shapes), 1))(
            *[ctypes.cast(a, ctypes.POINTER(c_i64)) for a in arrays])
        result = c_i32()
        check(lib.bcast_conditions_hold(self._count, self._atoms, len(shapes), ranks, dims,
                                        ctypes.byref(result)))
        return bool(result.value)

    def __repr__(self):
        return "Conditions(%s)" % ", ".join(repr(c) for c in self)

    # Immutable: a copy is the same conditions. Pickling would need the C
    # atoms and the partial shapes they name, which the package keeps in
    # ctypes arrays.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        raise TypeError("bcast.Conditions cannot be pickled (evaluate holds() where they were made)")


def _semantics_code(semantics):
    if not isinstance(semantics, str) or semantics not in SEMANTICS:
        raise ValueError("unknown semantics %r (choose from: %s)" % (
            semantics, ", ".join(SEMANTICS)))
    return SEMANTICS[semantics]


def _run(semantics, inputs, call):
    dims, count, known = (_PDim * MAX_RANK)(), c_size(), c_i32()
    atoms, natoms = (_Condition * MAX_CONDITIONS)(), c_size()
    check(call(MAX_RANK, dims, ctypes.byref(count), ctypes.byref(known), MAX_CONDITIONS, atoms,
               ctypes.byref(natoms)))
    shape = _shape_out(dims, count.value, known.value)
    if semantics != "strict":
        return shape
    return shape, Conditions(atoms, natoms.value, inputs)


def infer_partial_shape(*shapes, rule="numpy", axis=-1, semantics="strict"):
    """The output partial shape of an element-wise op on inputs of these
    partial shapes under `rule`; for semantics="strict" a pair (shape,
    Conditions). Raises IncompatibleShapesError when the semantics refuses,
    UnsupportedError where it has no answer."""
    code = _semantics_code(semantics)
    inputs = _Shapes(shapes)
    rule = _enums.rule_code(rule)
    axis = as_axis(axis, "bcast.infer_partial_shape")
    return _run(semantics, inputs, lambda *out: lib.bcast_infer_partial_shape(
        code, rule, axis, inputs.count, inputs.array, *out))


def infer_partial_expand_shape(data_shape, target_shape, mode="bidirectional",
                               axes_mapping=None, axis=-1, semantics="strict"):
    """The same for broadcasting data to target (see bcast.expand); the target
    is the partial shape given by the target's values."""
    code = _semantics_code(semantics)
    inputs = _Shapes([data_shape, target_shape])
    mode = _enums.expand_mode_code(mode)
    axis = as_axis(axis, "bcast.infer_partial_expand_shape")
    axes_mapping = as_axes_mapping(axes_mapping, "bcast.infer_partial_expand_shape")
    mapping = None if axes_mapping is None else (c_i64 * max(len(axes_mapping), 1))(*axes_mapping)
    count = 0 if axes_mapping is None else len(axes_mapping)
    return _run(semantics, inputs, lambda *out: lib.bcast_infer_partial_expand_shape(
        code, mode, ctypes.byref(inputs.array[0]), ctypes.byref(inputs.array[1]), mapping, count,
        axis, *out))
