"""bcast.fuse: a chain of ops over numpy arrays, run in one pass (bcast_expr).

    norm = bcast.fuse(lambda x, m, s, g, b: (x - m) * s * g + b)
    y = norm(x, mean, rstd, gamma, beta)        # reads x once, writes y once

fuse() traces the function with symbols standing for its arguments: the
operators + - * / ** < <= > >= == != & | ^ and the op functions
(bcast.max(x, y), bcast.select(cond, x, y, rule=...), ...) called on symbols
add nodes; Python numbers become 0-d inputs of the data dtype. The trace runs
once per combination of input dtypes, at the first call with them; the
function must not branch on values. A call plans for the arrays' shapes and
strides (kept per layout, up to 16) and runs bcast_expr_execute: the result is
exactly what the same ops give one by one (bcast's exactness rule), without
the intermediate arrays. Limits: 16 nodes, 16 inputs (arguments and distinct
constants together), 16 placed reads of inputs and 32 placed evaluations of
nodes (a value used under two different broadcast placements counts twice).
"""

import ctypes
import inspect
import json
import threading
from collections import OrderedDict

import numpy as np

from . import _arrays, _enums
from ._address import data_address
from ._library import c_i64, c_size, c_void_p, check, lib
from ._pool import pool_handle

P_size = ctypes.POINTER(c_size)
PP_i64 = ctypes.POINTER(ctypes.POINTER(c_i64))

_api = {
    "bcast_expr_create": (ctypes.c_int32, [ctypes.c_int32, c_size, ctypes.POINTER(c_void_p)]),
    "bcast_expr_set_input_dtype": (ctypes.c_int32, [c_void_p, c_size, ctypes.c_int32]),
    "bcast_expr_add_node": (ctypes.c_int32, [c_void_p, ctypes.c_int32, ctypes.c_int32, c_i64, c_size,
                                             P_size, P_size]),
    "bcast_expr_set_output": (ctypes.c_int32, [c_void_p, c_size]),
    "bcast_expr_plan": (ctypes.c_int32, [c_void_p, c_size, P_size, PP_i64, PP_i64,
                                         ctypes.POINTER(c_i64)]),
    "bcast_expr_output_shape": (ctypes.c_int32, [c_void_p, c_size, P_size, ctypes.POINTER(c_i64)]),
    "bcast_expr_execute": (ctypes.c_int32, [c_void_p, c_void_p, c_void_p]),
    "bcast_expr_execute_pool": (ctypes.c_int32, [c_void_p, c_void_p, c_void_p, c_void_p]),
    "bcast_expr_describe": (c_size, [c_void_p, ctypes.c_char_p, c_size]),
    "bcast_expr_destroy": (None, [c_void_p]),
}
_c = {}
for _name, (_res, _args) in _api.items():
    _c[_name] = lib[_name]
    _c[_name].restype, _c[_name].argtypes = _res, _args

_BOOL = np.dtype(np.bool_)


class Symbol:
    """A value inside a traced function: an argument, a constant or a node."""

    __slots__ = ("_trace", "ref", "dtype")
    __hash__ = None

    def __init__(self, trace, ref, dtype):
        self._trace, self.ref, self.dtype = trace, ref, dtype

    def _op(self, name, *others, swap=False):
        operands = (self,) + others
        if swap:
            operands = operands[::-1]
        return self._trace.node(name, operands)

    def __add__(self, y): return self._op("add", y)
    def __radd__(self, x): return self._op("add", x, swap=True)
    def __sub__(self, y): return self._op("sub", y)
    def __rsub__(self, x): return self._op("sub", x, swap=True)
    def __mul__(self, y): return self._op("mul", y)
    def __rmul__(self, x): return self._op("mul", x, swap=True)
    def __truediv__(self, y): return self._op("div", y)
    def __rtruediv__(self, x): return self._op("div", x, swap=True)
    def __pow__(self, y): return self._op("pow", y)
    def __rpow__(self, x): return self._op("pow", x, swap=True)
    def __lt__(self, y): return self._op("less", y)
    def __le__(self, y): return self._op("less_equal", y)
    def __gt__(self, y): return self._op("greater", y)
    def __ge__(self, y): return self._op("greater_equal", y)
    def __eq__(self, y): return self._op("equal", y)
    def __ne__(self, y): return self._op("not_equal", y)

    def _bits(self, logical, bitwise, y, swap=False):
        return self._op(logical if self.dtype == _BOOL else bitwise, y, swap=swap)

    def __and__(self, y): return self._bits("logical_and", "bitwise_and", y)
    def __rand__(self, x): return self._bits("logical_and", "bitwise_and", x, True)
    def __or__(self, y): return self._bits("logical_or", "bitwise_or", y)
    def __ror__(self, x): return self._bits("logical_or", "bitwise_or", x, True)
    def __xor__(self, y): return self._bits("logical_xor", "bitwise_xor", y)
    def __rxor__(self, x): return self._bits("logical_xor", "bitwise_xor", x, True)

    def __neg__(self):
        raise TypeError("bcast.fuse: bcast has no negation op (0 - x differs for -0.0); "
                        "write the subtraction you mean")

    def __bool__(self):
        raise TypeError("bcast.fuse: a traced value has no truth value (the function must not "
                        "branch on values; use bcast.select)")

    def __repr__(self):
        return "<bcast.fuse symbol %s %s>" % (self.ref, self.dtype)


class _Trace:
    """Records the nodes a traced function makes."""

    def __init__(self, dtypes):
        self.dtypes = list(dtypes)  # of the arguments
        self.data_dtype = next((d for d in dtypes if d != _BOOL), _BOOL)
        self.consts = []  # 0-d arrays
        self.nodes = []  # (opcode, rule, axis, operand refs)
        self.node_dtypes = []

    def argument(self, i):
        return Symbol(self, ("in", i), self.dtypes[i])

    def operand(self, value):
        if isinstance(value, Symbol):
            if value._trace is not self:
                raise ValueError("bcast.fuse: a symbol of another traced function")
            return value
        dtype = _BOOL if isinstance(value, (bool, np.bool_)) else self.data_dtype
        const = np.ascontiguousarray(_arrays.convert(value, dtype, False, "bcast.fuse constant"))
        for k, seen in enumerate(self.consts):  # one input per distinct constant
            if seen.dtype == const.dtype and seen.tobytes() == const.tobytes():
                return Symbol(self, ("const", k), dtype)
        self.consts.append(const)
        return Symbol(self, ("const", len(self.consts) - 1), dtype)

    def node(self, name, values, rule="numpy", axis=-1):
        operands = [self.operand(v) for v in values]
        data = operands[1] if name == "select" else operands[0]
        dtype = _BOOL if name in _enums.BOOL_RESULT_OPS else data.dtype
        self.nodes.append((_enums.opcode(name), _enums.rule_code(rule), int(axis),
                           [o.ref for o in operands]))
        self.node_dtypes.append(dtype)
        return Symbol(self, ("node", len(self.nodes) - 1), dtype)


def traced_call(name, values, rule, axis, out, dtype, threads):
    """An op function called on symbols inside bcast.fuse: a node."""
    if out is not None or dtype is not None or threads is not None:
        raise TypeError("bcast.fuse: %s() on traced values takes no out=, dtype= or threads="
                        % name)
    symbol = next(v for v in values if isinstance(v, Symbol))
    return symbol._trace.node(name, values, rule, axis)


def is_traced(values):
    return any(isinstance(v, Symbol) for v in values)


class _Planned:
    """A planned bcast_expr handle; destroyed when the last reference goes (a
    call running on it holds one, so eviction from the cache never frees a
    handle in use)."""

    __slots__ = ("handle", "shape")

    def __init__(self, handle, shape):
        self.handle, self.shape = handle, shape

    def __del__(self):
        if self.handle and _c is not None:
            _c["bcast_expr_destroy"](self.handle)
            self.handle = None


class _Built:
    """One traced graph for one combination of input dtypes, and its plans."""

    def __init__(self, fn, dtypes):
        trace = _Trace(dtypes)
        result = fn(*[trace.argument(i) for i in range(len(dtypes))])
        if not isinstance(result, Symbol) or result.ref[0] != "node":
            raise TypeError("bcast.fuse: the function must return an op of its arguments, "
                            "not %r" % (result,))
        self.consts = trace.consts
        self.num_inputs = len(dtypes) + len(self.consts)
        self.input_dtypes = list(dtypes) + [c.dtype for c in self.consts]
        self.out_dtype = result.dtype
        self.nodes, self.output = trace.nodes, result.ref[1]
        self.data_code = _arrays.storage_dtype(trace.data_dtype)[0]
        self._plans = OrderedDict()  # layout -> (handle, output shape)
        self._lock = threading.Lock()
        self.handle_for(None)  # refusals of the graph itself surface at the first call

    def _new_handle(self):
        handle = c_void_p()
        check(_c["bcast_expr_create"](self.data_code, self.num_inputs, ctypes.byref(handle)))
        try:
            for i, d in enumerate(self.input_dtypes):
                if d == _BOOL:
                    check(_c["bcast_expr_set_input_dtype"](handle, i, _enums.BOOL_CODE))
            first_node = self.num_inputs
            base = {"in": 0, "const": len(self.input_dtypes) - len(self.consts), "node": first_node}
            for opcode, rule, axis, refs in self.nodes:
                ids = (c_size * len(refs))(*[base[kind] + k for kind, k in refs])
                check(_c["bcast_expr_add_node"](handle, opcode, rule, axis, len(refs), ids, None))
            check(_c["bcast_expr_set_output"](handle, first_node + self.output))
        except BaseException:
            _c["bcast_expr_destroy"](handle)
            raise
        return handle

    def handle_for(self, arrays, out_strides=None):
        """The handle planned for these arrays' shapes and strides."""
        if arrays is None:
            _c["bcast_expr_destroy"](self._new_handle())
            return None
        key = (tuple((a.shape, a.strides) for a in arrays), out_strides)
        with self._lock:
            found = self._plans.get(key)
            if found is not None:
                self._plans.move_to_end(key)
                return found
        handle = self._new_handle()
        n = len(arrays)
        ranks = (c_size * n)(*[a.ndim for a in arrays])
        dims = [(c_i64 * max(a.ndim, 1))(*a.shape) for a in arrays]
        strides = [(c_i64 * max(a.ndim, 1))(*[s // a.itemsize for s in a.strides]) for a in arrays]
        dims_p = (ctypes.POINTER(c_i64) * n)(*[ctypes.cast(d, ctypes.POINTER(c_i64)) for d in dims])
        strides_p = (ctypes.POINTER(c_i64) * n)(*[ctypes.cast(s, ctypes.POINTER(c_i64)) for s in strides])
        out_p = None if out_strides is None else (c_i64 * max(len(out_strides), 1))(*out_strides)
        try:
            check(_c["bcast_expr_plan"](handle, n, ranks, dims_p, strides_p, out_p))
            shape = (c_i64 * 32)()
            rank = c_size()
            check(_c["bcast_expr_output_shape"](handle, 32, ctypes.byref(rank), shape))
        except BaseException:
            _c["bcast_expr_destroy"](handle)
            raise
        planned = _Planned(handle, tuple(shape[:rank.value]))
        with self._lock:  # another thread may have planned the same layout meanwhile
            planned = self._plans.setdefault(key, planned)
            self._plans.move_to_end(key)
            while len(self._plans) > 16:
                self._plans.popitem(last=False)  # freed when no call holds it
        return planned


class Fused:
    """A function fused by bcast.fuse; call it with arrays (see bcast.fuse)."""

    def __init__(self, fn):
        params = inspect.signature(fn).parameters.values()
        if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            raise TypeError("bcast.fuse: the function takes positional arguments only")
        self._fn, self._arity = fn, len(params)
        self._built = {}
        self._lock = threading.Lock()
        self.__doc__ = getattr(fn, "__doc__", None)

    def _prepare(self, arrays):
        if len(arrays) != self._arity:
            raise TypeError("bcast.fuse: the function takes %d arrays, got %d"
                            % (self._arity, len(arrays)))
        found = [a for a in arrays if isinstance(a, np.ndarray) and a.dtype != _BOOL]
        data = found[0].dtype if found else None
        prepared = []
        for i, a in enumerate(arrays):
            if not isinstance(a, np.ndarray):
                if isinstance(a, (bool, np.bool_)):
                    target = _BOOL
                else:
                    target = data if data is not None else np.asarray(a).dtype
                a = _arrays.convert(a, target, False, "bcast.fuse argument %d" % i)
            prepared.append(_arrays._usable(a))  # native, aligned, whole-element strides
        dtypes = tuple(a.dtype for a in prepared)
        with self._lock:
            built = self._built.get(dtypes)
        if built is None:
            built = _Built(self._fn, dtypes)
            with self._lock:
                built = self._built.setdefault(dtypes, built)
        return built, prepared + built.consts

    def __call__(self, *arrays, out=None, threads=None):
        built, inputs = self._prepare(arrays)
        out_strides = None
        if out is not None:
            _arrays.check_out(out, built.out_dtype, "bcast.fuse")
            if any(s % out.itemsize for s in out.strides):
                raise ValueError("bcast.fuse: out's strides %s are not whole elements" % (out.strides,))
            out_strides = tuple(s // out.itemsize for s in out.strides)
        planned = built.handle_for(inputs, out_strides)
        if out is None:
            out = np.empty(planned.shape, built.out_dtype)
        else:
            _arrays.check_out_shape(out, planned.shape, "bcast.fuse")
        pointers = (c_void_p * len(inputs))(*[data_address(a) for a in inputs])
        if threads is None:
            check(_c["bcast_expr_execute"](planned.handle, pointers, data_address(out)))
        else:
            check(_c["bcast_expr_execute_pool"](planned.handle, pointers, data_address(out),
                                                pool_handle(threads, "bcast.fuse")))
        return out

    def explain(self, *arrays):
        """The fused plan for these arrays, as a dict (bcast_expr_describe)."""
        built, inputs = self._prepare(arrays)
        planned = built.handle_for(inputs)
        size = _c["bcast_expr_describe"](planned.handle, None, 0)
        buf = ctypes.create_string_buffer(size + 1)
        _c["bcast_expr_describe"](planned.handle, buf, size + 1)
        return json.loads(buf.value.decode())


def fuse(fn):
    """Fuses fn, a function of arrays made of bcast ops (see the module's
    doc), into one pass: bcast.fuse(lambda x, m, s: (x - m) * s)."""
    return Fused(fn)
