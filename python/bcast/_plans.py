"""Planned handles (an op's or a fused expression's), and the one cache that
keeps them between calls.

A plan costs several C calls (create, set the parameters, plan, read the
output shape) and some Python work around them; running a cached one costs a
single execute. Thread safety rests on one rule: a Plan is planned before
anybody else can see it and never planned again, so any number of threads may
execute it at once, which the C API allows on a planned op or expression. The
cache only ever hands out such objects (PlanCache says when it locks). A plan
evicted (or cleared) while another thread still runs it is destroyed when
that thread lets go of it, not before.
"""

import collections
import ctypes
import itertools
import operator
import struct
import sys
import threading

from . import _arrays, _enums
from ._extension import fastcall
from ._library import (c_size, check, describe, i64_array, lib, output_shape, P_i64)


class Kind:
    """The C functions of one kind of handle: an op's (bcast_op_*) or a fused
    expression's (bcast_expr_*)."""

    __slots__ = ("execute", "execute_address", "execute_pool", "output_shape", "describe",
                 "destroy", "_plan")

    def __init__(self, prefix, plan):
        self.execute = getattr(lib, prefix + "execute")
        self.execute_address = ctypes.cast(self.execute, ctypes.c_void_p).value  # for _fastcall
        self.execute_pool = getattr(lib, prefix + "execute_pool")
        self.output_shape = getattr(lib, prefix + "output_shape")
        self.describe = getattr(lib, prefix + "describe")
        self.destroy = getattr(lib, prefix + "destroy")
        self._plan = plan


def _plan_op(handle, inputs, out_strides, target, axes_mapping):
    if target is None:
        return lib.bcast_op_plan(handle, inputs.count, inputs.ranks, inputs.dims, inputs.strides,
                                 out_strides)
    mapping = None if axes_mapping is None else i64_array(axes_mapping)
    return lib.bcast_op_plan_to(handle, inputs.count, inputs.ranks, inputs.dims, inputs.strides,
                                len(target), i64_array(target), mapping,
                                0 if axes_mapping is None else len(axes_mapping), out_strides)


def _plan_expr(handle, inputs, out_strides, target, axes_mapping):
    return lib.bcast_expr_plan(handle, inputs.count, inputs.ranks, inputs.dims, inputs.strides,
                               out_strides)


OP = Kind("bcast_op_", _plan_op)
EXPR = Kind("bcast_expr_", _plan_expr)


def contiguous_strides(shape):
    """The element strides of a C-contiguous array of `shape`, as numpy lays
    out a new one."""
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return strides[::-1]


class Plan:
    """One planned handle and what a call needs to run it: the layouts it was
    planned for (`signature`: shape, byte strides and dtype of each input;
    `out_signature`: the output's), the packing of the input pointers, and
    the result's form. Whoever creates one plans it before sharing it; after
    that it is only executed (_call.execute)."""

    __slots__ = ("handle", "kind", "run", "what", "shape", "result_dtype", "scalar_result",
                 "signature", "out_signature", "call_signature", "out_contiguous", "pack", "keep",
                 "runner")

    def __init__(self, kind, handle, what, result_dtype, scalar_result=True, keep=()):
        self.handle = handle  # a ctypes.c_void_p, owned from here on
        self.kind = kind
        self.run = kind.execute  # bcast_op_execute or bcast_expr_execute
        self.what = what  # names the caller in messages: "bcast.add", "bcast.Op('add')"...
        self.result_dtype = result_dtype
        # A 0-d result without out= is a numpy scalar, as from a ufunc.
        self.scalar_result = scalar_result
        self.shape = None
        self.signature = ()
        self.keep = keep  # inputs that go with every call (a fused expression's constants)
        self.runner = None  # the compiled path's copy of what a call needs, once planned

    def plan(self, inputs, signature, out=None, out_strides=None, target=None, axes_mapping=None):
        """Plans the handle for `inputs` (a Shapes; `signature` says the same as
        the arrays' (shape, byte strides, dtype) triples, flattened) and an
        output laid out like `out` (an ndarray, checked to have the output
        shape first) or with element strides `out_strides` (None: C order).
        With `target`, every input is broadcast to it (ops only). Only
        before sharing."""
        if target is None and axes_mapping is not None:
            raise ValueError("%s: axes_mapping goes with a target shape (op 'copy', mode='explicit')"
                             % self.what)
        check(self.kind._plan(self.handle, inputs, None, target, axes_mapping))
        self.shape = output_shape(self.kind.output_shape, self.handle)
        if out is not None:  # the output's shape first: the library reads one stride per axis
            _arrays.check_out_shape(out, self.shape, self.what)
            out_strides = _arrays.element_strides(out)
        contiguous = contiguous_strides(self.shape)
        strides = contiguous
        if out_strides is not None:
            strides = [operator.index(s) for s in out_strides]
            if len(strides) != len(self.shape):
                raise ValueError("%s: out_strides %s do not fit the output shape %s"
                                 % (self.what, tuple(strides), self.shape))
            if not _arrays.same_layout(strides, contiguous, self.shape):
                check(self.kind._plan(self.handle, inputs, i64_array(strides), target,
                                      axes_mapping))
        # A call without out= allocates a C-order output: only a plan for one.
        self.out_contiguous = _arrays.same_layout(strides, contiguous, self.shape)
        itemsize = self.result_dtype.itemsize
        self.out_signature = (self.shape, tuple(s * itemsize for s in strides), self.result_dtype)
        self.signature = signature
        self.call_signature = signature + self.out_signature  # with out=, for bcast.Op
        # pack(*addresses): the inputs' addresses as the C array the execute
        # reads, in a bytes object (a fifth of the cost of a ctypes array;
        # immutable, so threads may share one).
        self.pack = struct.Struct("%dP" % max(inputs.count, 1)).pack
        if fastcall is not None:
            self.runner = fastcall.Runner(self.handle.value, self.kind.execute_address,
                                          signature, self.out_signature, self.out_contiguous,
                                          self.scalar_result, self.keep)
        return self

    def describe(self):
        """bcast_op_describe's or bcast_expr_describe's JSON text."""
        return describe(self.kind.describe, self.handle)

    def __del__(self):
        handle, self.handle = self.handle, None
        if handle is not None:
            self.kind.destroy(handle)


CacheInfo = collections.namedtuple("CacheInfo", "hits misses maxsize currsize")

DEFAULT_SIZE = 1024  # plans, each a few hundred bytes to a few KiB: a model's worth of shapes


class PlanCache:
    """A bounded LRU map from a call's key to its Planned, safe to share
    between threads.

    A hit is three steps that callers on the hot path make themselves:
    lookup(key), touch(key) (a KeyError if another thread evicted the key
    meanwhile: the plan is still valid) and, once the plan runs, count_hit().
    With the GIL each is a single step (the keys hash and compare in C), so
    they take no lock; changes (put, clear, resize) take it among themselves.
    Without a GIL (a free-threaded build) lookup and touch take it too.
    """

    def __init__(self, maxsize=DEFAULT_SIZE):
        self._plans = collections.OrderedDict()
        self._lock = threading.Lock()
        self._maxsize = maxsize
        self.misses = 0
        # next() of an itertools.count is one step: it counts the hits. Reading
        # it takes a next() too, so reads are counted (under the lock) and
        # subtracted.
        self._hits = itertools.count()
        self._reads = 0
        self._hits_base = 0  # the count at the last clear()
        self.count_hit = self._hits.__next__
        if _gil_enabled():
            self.lookup = self._plans.get
            self.touch = self._plans.move_to_end
        else:
            self.lookup = self._locked(self._plans.get)
            self.touch = self._locked(self._plans.move_to_end)

    def _locked(self, method):
        def call(key):
            with self._lock:
                return method(key)
        return call

    def _count_now(self):
        """The hits counted so far (call with the lock held)."""
        n = next(self._hits) - self._reads
        self._reads += 1
        return n

    def get(self, key):
        """The plan stored under key, made the most recent, or None. Counts
        nothing: the caller calls count_hit() when it runs the plan."""
        plan = self.lookup(key)
        if plan is not None:
            try:
                self.touch(key)
            except KeyError:
                pass
        return plan

    def put(self, key, plan):
        """Stores a plan just made for key (counted as a miss; another
        thread's plan for the same key is replaced: both are correct) and
        evicts the least recently used ones beyond the bound."""
        with self._lock:
            self.misses += 1
            if self._maxsize == 0:
                return
            self._plans[key] = plan
            self._plans.move_to_end(key)
            while len(self._plans) > self._maxsize:
                self._plans.popitem(last=False)

    def clear(self):
        with self._lock:
            self._plans.clear()
            self._hits_base = self._count_now()
            self.misses = 0

    def resize(self, maxsize):
        with self._lock:
            self._maxsize = maxsize
            while len(self._plans) > maxsize:
                self._plans.popitem(last=False)

    def info(self):
        with self._lock:
            return CacheInfo(self._count_now() - self._hits_base, self.misses, self._maxsize,
                             len(self._plans))


def _gil_enabled():
    check_gil = getattr(sys, "_is_gil_enabled", None)  # Python 3.13 and later
    return check_gil is None or check_gil()


CACHE = PlanCache()


def plan_cache_info():
    """The package's plan cache: CacheInfo(hits, misses, maxsize, currsize),
    as functools.lru_cache reports it. A hit is a call that ran a cached
    plan, a miss a plan that had to be made."""
    return CACHE.info()


def set_plan_cache_size(maxsize):
    """Bounds the plan cache to `maxsize` plans (an int >= 0; 0 turns caching
    off); the least recently used plans beyond it are dropped at once."""
    maxsize = _arrays.as_int(maxsize, "bcast.set_plan_cache_size: the size")
    if maxsize < 0:
        raise ValueError("the plan cache size must be >= 0, not %d" % maxsize)
    CACHE.resize(maxsize)


def clear_plan_cache():
    """Drops every cached plan and zeroes the hit and miss counts."""
    CACHE.clear()


def new_handle(opcode, dtype_code, rule=None, axis=-1, expand_mode=None, context=None):
    """A created and configured bcast_op handle (a ctypes.c_void_p) that the
    caller owns; destroyed again if configuring it fails. axis: an int
    (_arrays.as_axis checked it). context: what a refused creation's message
    starts with (the call, where the library's message alone would not say)."""
    handle = ctypes.c_void_p()
    check(lib.bcast_op_create(opcode, dtype_code, ctypes.byref(handle)), context)
    try:
        if rule is not None:
            check(lib.bcast_op_set_param(handle, _enums.PARAM_RULE, rule))
        if expand_mode is not None:
            check(lib.bcast_op_set_param(handle, _enums.PARAM_EXPAND_MODE, expand_mode))
        check(lib.bcast_op_set_param(handle, _enums.PARAM_AXIS, axis))
    except BaseException:
        lib.bcast_op_destroy(handle)
        raise
    return handle


class Shapes:
    """ranks / dims / element strides of some inputs as C arrays (kept alive
    as long as this object); strides None means every input is contiguous."""

    def __init__(self, shapes, strides=None):
        self._dims = [i64_array(s) for s in shapes]
        self.count = len(shapes)
        self.ranks = (c_size * max(self.count, 1))(*[len(s) for s in shapes])
        self.dims = (P_i64 * max(self.count, 1))(*[ctypes.cast(d, P_i64) for d in self._dims])
        self.strides = None
        if strides is not None:
            self._strides = [i64_array(s) for s in strides]
            self.strides = (P_i64 * max(self.count, 1))(
                *[ctypes.cast(s, P_i64) for s in self._strides])
