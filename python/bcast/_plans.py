"""Planned op handles, and the cache that keeps them between calls.

A plan costs several C calls (create, set the rule, plan, read the output
shape) and some Python work around them; running a cached one costs a single
bcast_op_execute. Thread safety rests on one rule: a Planned is planned
before anybody else can see it and never planned again, so any number of
threads may execute it at once, which the C API allows on a planned op. The
cache only ever hands out such objects (PlanCache says when it locks). A
plan evicted (or cleared) while another thread still runs it is destroyed
when that thread lets go of it, not before.
"""

import collections
import ctypes
import itertools
import struct
import sys
import threading

from . import _enums
from ._library import MAX_RANK, c_i64, c_size, check, i64_array, lib, P_i64

# bcast_op_execute(handle, inputs, output) as a private function object whose
# argument types take the output address as an int and the inputs as a
# pointer array (Planned.pack_pointers).
execute = lib["bcast_op_execute"]
execute.restype, execute.argtypes = ctypes.c_int32, [ctypes.c_void_p] * 3
# The same without argument types, for bcast.Op's hot path, which keeps its
# output pointer as a ctypes.c_void_p: a little less per call. Never pass it
# a plain int (it would go as a C int).
execute_raw = lib["bcast_op_execute"]
execute_raw.restype = ctypes.c_int32
_destroy = lib.bcast_op_destroy


class Planned:
    """One bcast_op handle and, once planned, what a caller needs to run it:
    the output shape and dtype and the packing of the input pointers. Whoever creates one
    plans it before sharing it; after that it is only executed."""

    __slots__ = ("handle", "shape", "result_dtype", "out_itemsize", "itemsizes",
                 "scalar_result", "pack_pointers")

    def __init__(self, handle, result_dtype):
        self.handle = handle  # a ctypes.c_void_p (new_handle), owned from here on
        self.result_dtype = result_dtype
        self.out_itemsize = 1 if result_dtype is None else result_dtype.itemsize
        self.shape = None
        self.itemsizes = ()  # each input's element size, for the alignment checks
        self.scalar_result = True  # a 0-d result without out= becomes a numpy scalar

    def plan(self, inputs, out_strides=None, target=None, axes_mapping=None):
        """Plans the handle for `inputs` (a Shapes); with `target`, every input
        is broadcast to it (bcast_op_plan_to). Only before sharing."""
        out_str = None if out_strides is None else i64_array(out_strides)
        if target is None:
            check(lib.bcast_op_plan(self.handle, inputs.count, inputs.ranks, inputs.dims,
                                    inputs.strides, out_str))
        else:
            mapping = None if axes_mapping is None else i64_array(axes_mapping)
            check(lib.bcast_op_plan_to(self.handle, inputs.count, inputs.ranks, inputs.dims,
                                       inputs.strides, len(target), i64_array(target), mapping,
                                       0 if axes_mapping is None else len(axes_mapping),
                                       out_str))
        dims, rank = (c_i64 * MAX_RANK)(), c_size()
        check(lib.bcast_op_output_shape(self.handle, MAX_RANK, ctypes.byref(rank), dims))
        self.shape = tuple(dims[:rank.value])
        # pack_pointers(*addresses): the inputs' addresses as the C array that
        # bcast_op_execute reads, in a bytes object (a fifth of the cost of a
        # ctypes array; immutable, so threads may share one).
        self.pack_pointers = struct.Struct("%dP" % max(inputs.count, 1)).pack

    def describe(self):
        """bcast_op_describe's JSON text."""
        size = lib.bcast_op_describe(self.handle, None, 0) + 1
        buf = ctypes.create_string_buffer(size)
        lib.bcast_op_describe(self.handle, buf, size)
        return buf.value.decode()

    def __del__(self):
        handle, self.handle = self.handle, None
        if handle is not None and _destroy is not None:
            _destroy(handle)


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
    """Bounds the plan cache to `maxsize` plans (0 turns caching off);
    the least recently used plans beyond it are dropped at once."""
    maxsize = int(maxsize)
    if maxsize < 0:
        raise ValueError("the plan cache size must be >= 0, not %d" % maxsize)
    CACHE.resize(maxsize)


def clear_plan_cache():
    """Drops every cached plan and zeroes the hit and miss counts."""
    CACHE.clear()


def new_handle(opcode, dtype_code, rule=None, axis=-1, expand_mode=None):
    """A created and configured bcast_op handle (a ctypes.c_void_p) that the
    caller owns; destroyed again if configuring it fails."""
    handle = ctypes.c_void_p()
    check(lib.bcast_op_create(opcode, dtype_code, ctypes.byref(handle)))
    try:
        if rule is not None:
            check(lib.bcast_op_set_param(handle, _enums.PARAM_RULE, rule))
        if expand_mode is not None:
            check(lib.bcast_op_set_param(handle, _enums.PARAM_EXPAND_MODE, expand_mode))
        check(lib.bcast_op_set_param(handle, _enums.PARAM_AXIS, int(axis)))
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
