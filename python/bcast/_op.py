"""bcast.Op: one op planned once and called many times, as the C API does it."""

import json
import threading

import numpy as np

from . import _arrays, _enums
from ._call import run_planned
from ._library import OwnsHandles
from ._plans import OP, Plan, Shapes, contiguous_strides, new_handle
from ._pool import pool_for
from .errors import InvalidStateError

_COPY = _enums.OPCODES["copy"]
_SELECT = _enums.OPCODES["select"]


def _element_strides(shape, strides):
    """strides as a list of ints, or the contiguous ones (as numpy lays out a
    new array) when None."""
    if strides is None:
        return contiguous_strides(shape)
    strides = _arrays.int64_tuple(strides, "bcast.Op.plan: a stride")
    if len(strides) != len(shape):
        raise ValueError("bcast.Op.plan: strides %s do not fit shape %s" % (tuple(strides), shape))
    return strides


class Op(OwnsHandles):
    """One bcast op, planned once for its shapes and called many times.

        op = bcast.Op("add", "f32", rule="pdpd", axis=1)
        op.plan([(2, 3, 4, 5), (3, 1)])        # -> (2, 3, 4, 5)
        op(a, b, out=o)                       # one bcast_op_execute

    `dtype` is the data inputs' dtype: a numpy dtype, or one of the C API's
    names ("f32", "i64", "bf16", ...). `rule` and `axis` as for the op
    functions; for op "copy" (expand) `mode` is the expand mode and plan()
    takes the target shape. A call checks only what can change between calls:
    every input is an array of the planned dtype and shape with the planned
    strides and an aligned address, and out= (if given) likewise; then it
    runs the plan once. Calling with other shapes is an error: plan again.

    Threads: any number of threads may call one Op at once. plan() makes a
    new C handle and swaps it in, so calls already running finish on the old
    plan; close() (or leaving a `with` block) drops the plan likewise.
    """

    def __init__(self, op, dtype, *, rule="numpy", axis=-1, mode=None):
        self.name = _enums._key(op, "op")
        self._opcode = _enums.opcode(op)
        if dtype is None:  # np.dtype(None) would be float64
            raise TypeError("bcast.Op(%r): a dtype is required" % self.name)
        if self._opcode == _COPY and rule != "numpy":
            raise TypeError("bcast.Op('copy') broadcasts to a target under mode=, it takes no rule=")
        if self._opcode != _COPY and mode is not None:
            raise TypeError("bcast.Op(%r) takes no mode= (the expand mode of op 'copy'); "
                            "its broadcasting is rule=" % self.name)
        self._code, storage = _arrays.storage_dtype(dtype)
        self._bfloat16 = self._code == _enums.BF16_CODE
        self._storage = np.dtype(storage.name)  # numpy's own object: checked with `is`
        self._rule = None if self._opcode == _COPY else _enums.rule_code(rule)
        self._mode = (_enums.expand_mode_code("bidirectional" if mode is None else mode)
                      if self._opcode == _COPY else None)
        self._what = "bcast.Op(%r)" % self.name
        self._axis = _arrays.as_axis(axis, self._what)
        self._result_dtype = (np.dtype(np.bool_) if self.name in _enums.BOOL_RESULT_OPS
                              else self._storage)
        # A 0-d result without out= is a numpy scalar, as from a ufunc; select
        # and copy keep it an array, as np.where and np.broadcast_to do.
        self._scalar_results = self.name not in _enums.ARRAY_RESULT_OPS
        # Made now so that an (op, dtype) or parameter the library refuses
        # fails here, not at the first plan().
        self._fresh = self._new_plan()
        self._planning = threading.Lock()
        self._plan = None  # a Plan, swapped whole

    def _new_plan(self):
        return Plan(OP, new_handle(self._opcode, self._code, self._rule, self._axis, self._mode),
                    self._what, self._result_dtype, self._scalar_results)

    def plan(self, shapes, strides=None, out_strides=None, target=None, axes_mapping=None):
        """Plans for inputs of these shapes and returns the output shape.
        strides: None (all contiguous) or per input its element strides (or
        None for a contiguous one); out_strides: the output's element strides
        (None: contiguous). target / axes_mapping: for "copy" only, the shape
        to broadcast to and the explicit mode's mapping. If the library
        refuses, the error is raised and the previous plan (if any) stays."""
        if shapes is None or isinstance(shapes, (str, bytes)) or not hasattr(shapes, "__iter__"):
            raise TypeError("bcast.Op.plan: shapes must be a sequence of shapes (one per input), "
                            "not %r" % (shapes,))
        shapes = [_arrays.as_shape(s) for s in shapes]
        if strides is None:
            strides = [None] * len(shapes)
        strides = list(strides)
        if len(strides) != len(shapes):
            raise ValueError("bcast.Op.plan: %d shapes but %d strides" % (len(shapes), len(strides)))
        if (target is None) != (self._opcode != _COPY):
            raise ValueError("bcast.Op.plan: a target shape goes with op 'copy' and only with it")
        strides = [_element_strides(shape, s) for shape, s in zip(shapes, strides)]
        dtypes = [self._storage] * len(shapes)
        if self._opcode == _SELECT and dtypes:
            dtypes[0] = np.dtype(np.bool_)
        signature = tuple(x for shape, s, d in zip(shapes, strides, dtypes)
                          for x in (shape, tuple(e * d.itemsize for e in s), d))
        inputs = Shapes(shapes, strides)
        target = None if target is None else _arrays.as_target_shape(target)
        axes_mapping = _arrays.as_axes_mapping(axes_mapping, "bcast.Op.plan")
        if out_strides is not None:
            out_strides = _arrays.int64_tuple(out_strides, "bcast.Op.plan: out_strides")
        with self._planning:  # two plan() calls never share the fresh handle
            plan, self._fresh = self._fresh or self._new_plan(), None
        self._plan = plan.plan(inputs, signature, None, out_strides, target, axes_mapping)
        return plan.shape

    @property
    def output_shape(self):
        """The planned output shape (InvalidStateError before plan())."""
        return self._planned().shape

    def describe(self):
        """The current plan as a dict (bcast_op_describe), like bcast.explain."""
        return json.loads(self._planned().describe())

    def close(self):
        """Drops the plan (calls running on it finish first); the Op can plan again."""
        self._plan = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        plan = self._plan
        planned = "planned for %s" % (list(plan.signature[::3]),) if plan else "not planned"
        return "bcast.Op(%r, %s, %s)" % (self.name, self._storage if not self._bfloat16
                                         else "bfloat16", planned)

    def _planned(self):
        plan = self._plan
        if plan is None:
            raise InvalidStateError("%s: plan() first" % self._what)
        return plan

    def __call__(self, *arrays, out=None, threads=None):
        """Runs the plan on `arrays` (into `out` if given, else a new array);
        threads as for the op functions (None: the calling thread)."""
        plan = self._plan
        if plan is None:
            raise InvalidStateError("%s: plan() first" % self._what)
        if threads is not None:  # resolved (caller code: an __index__) before the arrays are read
            threads = pool_for(threads, self._what)
        return run_planned(plan, arrays, out, threads, self._bfloat16)
