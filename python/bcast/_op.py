"""bcast.Op: one op planned once and called many times, as the C API does it."""

import ctypes
import json
import struct
import threading

import numpy as np

from . import _arrays, _enums
from ._address import OFFSET as _OFFSET, data_address
from ._library import check
from ._plans import Planned, Shapes, execute as _execute, execute_raw as _execute_raw, new_handle
from ._pool import execute_pool as _execute_pool, pool_handle as _pool_handle
from .errors import InvalidStateError

_ndarray = np.ndarray
_from_address = ctypes.c_void_p.from_address  # with _OFFSET: numpy's PyArray_DATA (_address)
_id = id
_COPY = _enums.OPCODES["copy"]
_SELECT = _enums.OPCODES["select"]


def _same_layout(strides, planned, shape):
    """True when byte strides `strides` address the same elements as the
    planned ones: they may differ only along axes of extent 1, or anywhere
    when the array has no elements."""
    if 0 in shape:
        return True
    return all(s == p for s, p, d in zip(strides, planned, shape) if d != 1)


def _element_strides(shape, strides):
    """strides as a list of ints, or the contiguous ones (as numpy lays out a
    new array) when None."""
    if strides is None:
        strides = [1] * len(shape)
        for k in range(len(shape) - 2, -1, -1):
            strides[k] = strides[k + 1] * max(shape[k + 1], 1)
    strides = [int(s) for s in strides]
    if len(strides) != len(shape):
        raise ValueError("bcast.Op.plan: strides %s do not fit shape %s" % (tuple(strides), shape))
    return strides


class Op:
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

    def __init__(self, op, dtype, *, rule="numpy", axis=-1, mode="bidirectional"):
        self.name = _enums._key(op, "op")
        self._opcode = _enums.opcode(op)
        self._code, storage = _arrays.storage_dtype(dtype)
        self._storage = np.dtype(storage.name)  # numpy's own object: checked with `is`
        self._rule = None if self._opcode == _COPY else _enums.rule_code(rule)
        self._mode = _enums.expand_mode_code(mode) if self._opcode == _COPY else None
        self._axis = int(axis)
        self._result_dtype = (np.dtype(np.bool_) if self.name in _enums.BOOL_RESULT_OPS
                              else self._storage)
        # A 0-d result without out= is a numpy scalar, as from a ufunc; select
        # and copy keep it an array, as np.where and np.broadcast_to do.
        self._scalar_results = self.name not in _enums.ARRAY_RESULT_OPS
        # Made now so that an (op, dtype) or parameter the library refuses
        # fails here, not at the first plan().
        self._fresh = self._new_plan()
        self._planning = threading.Lock()
        self._state = None  # (Planned, input checks, output checks), swapped whole

    def _new_plan(self):
        return Planned(new_handle(self._opcode, self._code, self._rule, self._axis, self._mode),
                       self._result_dtype)

    def plan(self, shapes, strides=None, out_strides=None, target=None, axes_mapping=None):
        """Plans for inputs of these shapes and returns the output shape.
        strides: None (all contiguous) or per input its element strides (or
        None for a contiguous one); out_strides: the output's element strides
        (None: contiguous). target / axes_mapping: for "copy" only, the shape
        to broadcast to and the explicit mode's mapping. If the library
        refuses, the error is raised and the previous plan (if any) stays."""
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
        checks = tuple((shape, tuple(e * d.itemsize for e in s), d)
                       for shape, s, d in zip(shapes, strides, dtypes))
        if out_strides is not None:
            out_strides = [int(s) for s in out_strides]
        with self._planning:  # two plan() calls never share the fresh handle
            plan, self._fresh = self._fresh or self._new_plan(), None
        inputs = Shapes(shapes, strides)
        target = None if target is None else _arrays.as_shape(target)
        axes_mapping = None if axes_mapping is None else [int(v) for v in axes_mapping]
        plan.plan(inputs, None, target, axes_mapping)
        if out_strides is not None:  # the library reads one stride per output axis
            if len(out_strides) != len(plan.shape):
                raise ValueError("bcast.Op.plan: out_strides %s do not fit the output shape %s"
                                 % (tuple(out_strides), plan.shape))
            plan.plan(inputs, out_strides, target, axes_mapping)
        itemsize = self._result_dtype.itemsize
        out_byte_strides = tuple(s * itemsize for s in _element_strides(plan.shape, out_strides))
        signature = tuple(x for c in checks for x in c)  # (shape, strides, dtype) of each input
        self._state = (plan, signature, (plan.shape, out_byte_strides, self._result_dtype),
                       out_strides is None, checks)
        return plan.shape

    @property
    def output_shape(self):
        """The planned output shape (InvalidStateError before plan())."""
        return self._planned()[0].shape

    def describe(self):
        """The current plan as a dict (bcast_op_describe), like bcast.explain."""
        return json.loads(self._planned()[0].describe())

    def close(self):
        """Drops the plan (calls running on it finish first); the Op can plan again."""
        self._state = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = self._state
        planned = "planned for %s" % ([c[0] for c in state[4]],) if state else "not planned"
        return "bcast.Op(%r, %s, %s)" % (self.name, self._storage if self._code != _enums.BF16_CODE
                                         else "bfloat16", planned)

    def _planned(self):
        state = self._state
        if state is None:
            raise InvalidStateError("bcast.Op(%r): plan() first" % self.name)
        return state

    def __call__(self, *arrays, out=None, threads=None):
        """Runs the plan on `arrays` (into `out` if given, else a new array);
        threads as for the op functions (None: the calling thread)."""
        state = self._state
        if state is None:
            raise InvalidStateError("bcast.Op(%r): plan() first" % self.name)
        plan, signature, out_signature, out_contiguous, _ = state
        # Every input an ndarray with the planned (shape, byte strides, dtype):
        # one tuple comparison (written out for the usual arities).
        n = len(arrays)
        if n == 2:
            x, y = arrays
            quick = (type(x) is _ndarray and type(y) is _ndarray and
                     (x.shape, x.strides, x.dtype, y.shape, y.strides, y.dtype) == signature)
        elif n == 1:
            x = arrays[0]
            quick = type(x) is _ndarray and (x.shape, x.strides, x.dtype) == signature
        else:
            found = []
            for a in arrays:
                if type(a) is not _ndarray:
                    break
                found += (a.shape, a.strides, a.dtype)
            quick = tuple(found) == signature
        given = out is not None
        if given:
            quick = (quick and type(out) is _ndarray and
                     (out.shape, out.strides, out.dtype) == out_signature and out.flags.writeable)
        elif quick and out_contiguous:
            out = np.empty(out_signature[0], out_signature[2])
        else:
            quick = False
        if not quick or not _OFFSET:
            return self._checked_call(state, arrays, out, threads)
        # Addresses are read on every call: numpy can give an array object new
        # data in place (pickle's __setstate__, resize(refcheck=False)). The
        # library checks their alignment and says which one is off.
        try:
            if n == 2:
                pointers = plan.pack_pointers(_from_address(_id(x) + _OFFSET).value,
                                              _from_address(_id(y) + _OFFSET).value)
            else:
                pointers = plan.pack_pointers(*[_from_address(_id(a) + _OFFSET).value
                                                for a in arrays])
        except struct.error:  # a NULL data pointer reads as None
            return self._checked_call(state, arrays, out, threads)
        # The c_void_p over out's data field is passed as it is: its value
        # is read by the call itself.
        if threads is None:
            status = _execute_raw(plan.handle, pointers, _from_address(_id(out) + _OFFSET))
        else:
            status = _execute_pool(plan.handle, pointers, _from_address(_id(out) + _OFFSET),
                                   _pool_handle(threads, "bcast.Op(%r)" % self.name))
        if status:
            check(status)
        return out if given or out.ndim or not self._scalar_results else out[()]

    def _checked_call(self, state, arrays, out, threads=None):
        """A call that missed the quick checks: every check with its own
        message, Python scalars converted, layouts equal up to extent-1 axes
        accepted."""
        plan, _, (out_shape, out_strides, _), out_contiguous, checks = state
        if len(arrays) != len(checks):
            raise TypeError("bcast.Op(%r) was planned for %d inputs, not %d"
                            % (self.name, len(checks), len(arrays)))
        addresses, keep = [], []
        for i, (a, (shape, strides, dtype)) in enumerate(zip(arrays, checks)):
            if not isinstance(a, _ndarray) or a.dtype != dtype:
                a = self._as_input(a, i, dtype)
            if a.shape != shape:
                raise ValueError("bcast.Op(%r): input %d has shape %s, the plan is for %s"
                                 % (self.name, i, a.shape, shape))
            if a.strides != strides and not _same_layout(a.strides, strides, shape):
                raise ValueError("bcast.Op(%r): input %d has byte strides %s, the plan is for %s"
                                 % (self.name, i, a.strides, strides))
            address = data_address(a)
            if address % dtype.itemsize:
                raise ValueError("bcast.Op(%r): input %d is not aligned to its %d-byte elements"
                                 % (self.name, i, dtype.itemsize))
            addresses.append(address)
            keep.append(a)  # converted inputs live until executed
        given = out is not None
        if given:
            self._check_out(out, out_shape, None if out_contiguous else out_strides)
        elif not out_contiguous:
            raise TypeError("bcast.Op(%r) was planned for output byte strides %s: pass out="
                            % (self.name, out_strides))
        else:
            out = np.empty(out_shape, self._result_dtype)
        if threads is None:
            check(_execute(plan.handle, plan.pack_pointers(*addresses), data_address(out)))
        else:
            check(_execute_pool(plan.handle, plan.pack_pointers(*addresses), data_address(out),
                                _pool_handle(threads, "bcast.Op(%r)" % self.name)))
        return out if given or out.ndim or not self._scalar_results else out[()]

    def _as_input(self, value, i, dtype):
        if isinstance(value, _ndarray):
            raise TypeError("bcast.Op(%r): input %d has dtype %s, the op is for %s"
                            % (self.name, i, value.dtype, dtype))
        return _arrays.convert(value, dtype, self._code == _enums.BF16_CODE and dtype != np.bool_,
                               "bcast.Op(%r) input %d" % (self.name, i))

    def _check_out(self, out, shape, strides):
        what = "bcast.Op(%r)" % self.name
        _arrays.check_out(out, self._result_dtype, what)
        _arrays.check_out_shape(out, shape, what)
        if strides is None:
            if not out.flags.c_contiguous:
                raise ValueError("%s: out has byte strides %s, the plan is for a contiguous "
                                 "output (plan with out_strides)" % (what, out.strides))
        elif out.strides != strides and not _same_layout(out.strides, strides, shape):
            raise ValueError("%s: out has byte strides %s, the plan is for %s"
                             % (what, out.strides, strides))
