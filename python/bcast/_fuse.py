"""bcast.fuse: a chain of ops over numpy arrays, run in one pass (bcast_expr).

    norm = bcast.fuse(lambda x, m, s, g, b: (x - m) * s * g + b)
    y = norm(x, mean, rstd, gamma, beta)        # reads x once, writes y once

fuse() traces the function with symbols standing for its arguments: the
operators + - * / ** < <= > >= == != & | ^ and the op functions
(bcast.max(x, y), bcast.select(cond, x, y, rule=...), ...) called on symbols
add nodes; Python numbers become 0-d inputs of the data dtype, and arrays it
reads (captured or global) are copied at the trace: their values then are
used by every call, whatever the caller changes in them later. The trace runs
once per combination of input dtypes, at the first call with them; the
function must not branch on values. A call plans for the arrays' shapes and
strides (plans are kept in the package's plan cache, as the op functions'
are) and runs bcast_expr_execute: the result is exactly what the same ops
give one by one (bcast's exactness rule, and a 0-d result is a numpy scalar
as theirs is), without the intermediate arrays. Inputs follow the op
functions' dtype rule: every non-bool input has the same dtype (TypeError
otherwise), bool inputs are conditions, and quantized inputs (quantized=) are
u8 or i8 arrays that the function sees as float32 values. Limits: 16 nodes, 16 inputs (arguments and distinct
constants together), 16 placed reads of inputs and 32 placed evaluations of
nodes (a value used under two different broadcast placements counts twice).
"""

import collections.abc
import ctypes
import inspect
import json
import threading

import numpy as np

from . import _arrays, _enums
from ._call import count_hit, execute, key, planned, run_cached
from ._library import c_size, check, lib
from ._plans import EXPR, Plan
from ._pool import pool_for

_WHAT = "bcast.fuse"

_BOOL = np.dtype(np.bool_)
_F32 = np.dtype(np.float32)


def _quantization(value, what):
    """(scale, zero_point) checked for type; the library checks the values."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError("%s must be a (scale, zero_point) pair, not %r" % (what, value))
    scale, zero_point = value
    return _arrays.quantization(scale, zero_point, what + ": the scale", what + ": the zero point")


class Symbol:
    """A value inside a traced function: an argument, a constant or a node."""

    __slots__ = ("_trace", "ref", "dtype")
    __hash__ = None
    # numpy defers to the symbol's reflected operators (W + x is one node, not
    # one per element of W).
    __array_ufunc__ = None

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
        self.done = False  # the function returned: its values are no longer ops to record

    def argument(self, i):
        return Symbol(self, ("in", i), self.dtypes[i])

    def operand(self, value, condition=False):
        if isinstance(value, Symbol):
            if value._trace is not self:
                raise ValueError("bcast.fuse: a symbol of another traced function")
            return value
        # A Python bool is a number, as the op functions take it, except as
        # select's condition; bool arrays and numpy bools are conditions.
        weak = type(value) is bool and not condition
        dtype = _BOOL if _arrays._is_bool(value) and not weak else self.data_dtype
        # A number is a 0-d input, as an op function takes it; an array keeps its shape.
        const = _arrays.convert(value, dtype, False, "bcast.fuse: a constant", exact=True)
        # The value at the trace, kept for every call: a later change to the
        # caller's array is not seen (equal constants then stay one input).
        const = np.array(const, dtype=const.dtype.newbyteorder("="), order="C", copy=True)
        const.flags.writeable = False
        for k, seen in enumerate(self.consts):  # one input per distinct constant
            if (seen.dtype == const.dtype and seen.shape == const.shape
                    and seen.tobytes() == const.tobytes()):
                return Symbol(self, ("const", k), dtype)
        self.consts.append(const)
        return Symbol(self, ("const", len(self.consts) - 1), dtype)

    def node(self, name, values, rule="numpy", axis=-1):
        what = "bcast.fuse: %s()" % name
        if self.done:
            raise TypeError("%s on a value of a fused function outside it: such values stand for "
                            "arrays only while bcast.fuse traces the function" % what)
        if (name == "select" and values and not isinstance(values[0], Symbol)
                and not _arrays._is_bool(values[0])):  # before operand() casts it
            raise TypeError("%s: the condition must be bool, not %s"
                            % (what, getattr(values[0], "dtype", type(values[0]).__name__)))
        operands = [self.operand(v, name == "select" and k == 0) for k, v in enumerate(values)]
        data = operands[1:] if name == "select" else operands
        if name == "select" and operands[0].dtype != _BOOL:
            raise TypeError("%s: the condition must be bool, not %s" % (what, operands[0].dtype))
        for other in data[1:]:  # as the op functions: no promotion
            if other.dtype != data[0].dtype:
                raise TypeError("%s: inputs have different dtypes %s and %s; bcast does not "
                                "promote, convert them first" % (what, data[0].dtype, other.dtype))
        dtype = _BOOL if name in _enums.BOOL_RESULT_OPS else data[0].dtype
        self.nodes.append((_enums.opcode(name), _enums.rule_code(rule),
                           _arrays.as_axis(axis, what), [o.ref for o in operands]))
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


class _Graph:
    """One traced function for one combination of input dtypes: the nodes to
    give each new bcast_expr handle, and the constants that go with every call."""

    def __init__(self, fn, dtypes, quantized=None, output=None):
        # A quantized argument is dequantized as it is read: the function
        # sees a float32 value.
        self.quantized = quantized or {}
        trace = _Trace([_F32 if i in self.quantized else d for i, d in enumerate(dtypes)])
        try:
            result = fn(*[trace.argument(i) for i in range(len(dtypes))])
        finally:
            trace.done = True
        if not isinstance(result, Symbol) or result.ref[0] != "node":
            raise TypeError("bcast.fuse: the function must return an op of its arguments, "
                            "not %r" % (result,))
        self.consts = tuple(trace.consts)
        self.input_dtypes = list(dtypes) + [c.dtype for c in self.consts]
        self.out_dtype = result.dtype
        self.output_quantization = output
        if output is not None:
            self.out_dtype = output[0]
        self.nodes, self.output = trace.nodes, result.ref[1]
        # The node that gives the result decides its form, as for the op functions.
        output_op = list(_enums.OPCODES)[self.nodes[self.output][0]]
        self.scalar_result = output_op not in _enums.ARRAY_RESULT_OPS
        self.data_code = _arrays.storage_dtype(trace.data_dtype)[0]
        lib.bcast_expr_destroy(self.new_handle())  # refusals of the graph surface now

    def new_handle(self):
        """A new bcast_expr handle holding the graph (a ctypes.c_void_p the
        caller owns). Every input's dtype is declared, so the library checks
        each node's operands against what the arrays hold."""
        handle = ctypes.c_void_p()
        count = len(self.input_dtypes)
        # Each distinct number constant is an input too: a count past the
        # limit says so.
        check(lib.bcast_expr_create(self.data_code, count, ctypes.byref(handle)),
              "%s: %d arguments and %d number constant%s" % (
                  _WHAT, count - len(self.consts), len(self.consts), "s" if len(self.consts) > 1 else "")
              if self.consts else None)
        try:
            for i, d in enumerate(self.input_dtypes):
                code = _arrays.storage_dtype(d)[0]
                if i in self.quantized:
                    check(lib.bcast_expr_set_quantization(handle, i, code, *self.quantized[i]),
                          "%s: quantized[%d]=(%s, %d)" % (_WHAT, i, np.float32(self.quantized[i][0]),
                                                          self.quantized[i][1]))
                elif code != self.data_code:
                    check(lib.bcast_expr_set_input_dtype(handle, i, code))
            base = {"in": 0, "const": count - len(self.consts), "node": count}
            for opcode, rule, axis, refs in self.nodes:
                ids = (c_size * len(refs))(*[base[kind] + k for kind, k in refs])
                check(lib.bcast_expr_add_node(handle, opcode, rule, axis, len(refs), ids, None))
            check(lib.bcast_expr_set_output(handle, count + self.output))
            if self.output_quantization is not None:
                dtype, scale, zero_point = self.output_quantization
                check(lib.bcast_expr_set_quantization(handle, _arrays.OUTPUT_OPERAND,
                                                      _arrays.storage_dtype(dtype)[0], scale, zero_point),
                      "%s: output=(%s, %s, %d)" % (_WHAT, dtype, np.float32(scale), zero_point))
        except BaseException:
            lib.bcast_expr_destroy(handle)
            raise
        return handle


class Fused:
    """A function fused by bcast.fuse; call it with arrays (see bcast.fuse)."""

    def __init__(self, fn, quantized=None, output=None):
        params = inspect.signature(fn).parameters.values()
        if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            raise TypeError("bcast.fuse: the function takes positional arguments only")
        self._fn, self._arity = fn, len(params)
        self._quantized = {}
        if quantized is not None and not isinstance(quantized, collections.abc.Mapping):
            raise TypeError("%s: quantized must be a dict {argument index: (scale, zero_point)}, "
                            "not %s" % (_WHAT, type(quantized).__name__))
        for i, q in dict(quantized or {}).items():
            i = _arrays.as_int(i, _WHAT + ": a quantized argument's index")
            if not 0 <= i < self._arity:
                raise ValueError("%s: quantized argument %d: the function takes %d arguments"
                                 % (_WHAT, i, self._arity))
            self._quantized[i] = _quantization(q, "%s: quantized[%d]" % (_WHAT, i))
        self._output = None
        if output is not None:
            if not isinstance(output, (tuple, list)) or len(output) != 3:
                raise TypeError("%s: output must be (dtype, scale, zero_point), not %r"
                                % (_WHAT, output))
            dtype, *rest = output
            # "u8"/"i8" are bcast's names here (numpy reads "u8" as uint64)
            named = {"u8": _arrays.QUANTIZED[0], "i8": _arrays.QUANTIZED[1]}.get(dtype) \
                if isinstance(dtype, str) else None
            try:  # np.dtype(None) would be float64
                dtype = named or (np.dtype(dtype) if dtype is not None else None)
            except TypeError:
                pass
            if dtype not in _arrays.QUANTIZED:
                raise TypeError("%s: a quantized output is uint8 or int8, not %s" % (_WHAT, dtype))
            self._output = (dtype,) + _quantization(rest, _WHAT + ": output")
        self._graphs = {}  # input dtypes -> _Graph
        self._lock = threading.Lock()
        self._key = object()  # this function in the plan cache's keys
        self.__doc__ = getattr(fn, "__doc__", None)

    def _graph(self, arrays):
        dtypes = tuple(a.dtype for a in arrays)
        with self._lock:
            graph = self._graphs.get(dtypes)
        if graph is None:
            graph = _Graph(self._fn, dtypes, self._quantized, self._output)
            with self._lock:
                graph = self._graphs.setdefault(dtypes, graph)
        return graph

    def _prepare(self, values, out):
        """(plan, arrays, cached) for a call: the arguments as arrays the
        library reads (one data dtype, bool apart), the plan from the cache
        or planned for them and out's layout."""
        if len(values) != self._arity:
            raise TypeError("bcast.fuse: the function takes %d arrays, got %d"
                            % (self._arity, len(values)))
        arrays = list(values)
        others = [i for i in range(len(values)) if i not in self._quantized]
        # fn sees a quantized argument as float32 values: so are the others
        # (bools apart), and Python numbers take float32.
        beside = None if not self._quantized else (
            _F32, "beside quantized arguments (float32 values in the function) the others are "
            "float32 or bool conditions: quantize it too (quantized=) or convert it",
            ["argument %d" % i for i in others])
        for i, a in zip(others, _arrays.prepare_data([values[i] for i in others], None, _WHAT,
                                                     bools_apart=True, agree_with=beside)[0]
                        if others else ()):
            arrays[i] = a
        for i in self._quantized:
            arrays[i] = _arrays.quantized_array(values[i], "%s: argument %d (quantized)" % (_WHAT, i))
        graph = self._graph(arrays)
        if out is not None:
            _arrays.check_out(out, graph.out_dtype, _WHAT)

        def make():
            return Plan(EXPR, graph.new_handle(), _WHAT, graph.out_dtype, graph.scalar_result,
                        graph.consts)

        plan, hit = planned(key((self._key,), arrays, out), make,
                            list(arrays) + list(graph.consts), out)
        return plan, arrays, hit

    def __call__(self, *arrays, out=None, threads=None):
        if type(out) is tuple:
            out = _arrays.single_out(out, _WHAT)
        if threads is not None:  # resolved (caller code: an __index__) before the arrays are read
            threads = pool_for(threads, _WHAT)
        result = run_cached((self._key,), arrays, out, threads)
        if result is not None:
            return result
        if is_traced(arrays):
            raise TypeError("%s: a fused function cannot be called inside another one being fused "
                            "(call its function instead)" % _WHAT)
        plan, prepared, hit = self._prepare(arrays, out)
        result = execute(plan, prepared, out, threads)
        if hit:
            count_hit()
        return result

    def explain(self, *arrays):
        """The fused plan for these arrays, as a dict (bcast_expr_describe)."""
        return json.loads(self._prepare(arrays, None)[0].describe())


def fuse(fn, *, quantized=None, output=None):
    """Fuses fn, a function of arrays made of bcast ops (see the module's
    doc), into one pass: bcast.fuse(lambda x, m, s: (x - m) * s).

    quantized: {argument index: (scale, zero_point)} for arguments that are
    quantized uint8/int8 arrays: each is dequantized as it is read (fn sees
    float32 values). output: (dtype, scale, zero_point) quantizes fn's
    float32 result to "u8"/"i8" as it is written. The result is what
    DequantizeLinear, the ops and QuantizeLinear give one by one:
        requant = bcast.fuse(lambda x, s, b: x * s + b, quantized={0: (0.02, 128)},
                             output=("u8", 0.05, 128))"""
    return Fused(fn, quantized, output)
