"""One call of an op function: find (or make) the plan, run it, return the result.

Plans are cached (_plans.CACHE) under everything that decides them: the op,
the dtype= argument, rule, axis, expand target, mode and mapping, and every
input's shape, byte strides and dtype, and the output's strides when out= is
given. A call whose inputs are all ndarrays the library can read as they are
looks its plan up straight away (the fast path); anything else (Python scalars, lists, other
dtypes, copies the library needs) is prepared first and then looked up the
same way, under the key of what is finally executed.
"""

import ctypes

import numpy as np

from . import _arrays, _enums
from ._address import OFFSET as _OFFSET, data_address
from ._library import check
from ._plans import CACHE, Planned, Shapes, execute, new_handle
from ._fuse import is_traced, traced_call
from ._pool import execute_pool, pool_handle

_get = CACHE.get
_lookup, _touch, _count_hit = CACHE.lookup, CACHE.touch, CACHE.count_hit
_from_address = ctypes.c_void_p.from_address  # with _OFFSET: numpy's PyArray_DATA (_address)
_id = id
_ndarray = np.ndarray
_MISS = object()


def _key(op, rule, axis, extra, arrays, out):
    """The cache key of a call on these exact arrays; extra is None for a
    plain call, else (dtype argument, target, mode, mapping). A TypeError if
    some argument is unhashable (the general path refuses such a call)."""
    key = [op, rule, axis, extra, None if out is None else out.strides]
    for a in arrays:
        key += (a.shape, a.strides, a.dtype)
    return tuple(key)


def _run(plan, arrays, out, cached, pool=None):
    """Runs plan on arrays into out (allocated if None) and returns the
    result, or _MISS with nothing run when an address is not aligned to its
    element size or out= does not fit the plan: the general path copies such
    inputs and explains such outputs. cached: count the run as a cache hit."""
    addresses = []
    for a, itemsize in zip(arrays, plan.itemsizes):
        address = data_address(a)
        if address % itemsize:
            return _MISS
        addresses.append(address)
    given = out is not None
    if not given:
        out = np.empty(plan.shape, plan.result_dtype)
    elif (out.dtype != plan.result_dtype or out.shape != plan.shape
          or not out.flags.writeable):
        return _MISS
    out_address = data_address(out)
    if out_address % plan.out_itemsize:
        return _MISS
    if cached:
        _count_hit()
    if pool is None:
        status = execute(plan.handle, plan.pack_pointers(*addresses), out_address)
    else:
        status = execute_pool(plan.handle, plan.pack_pointers(*addresses), out_address, pool)
    if status:
        check(status)
    if given or out.ndim or not plan.scalar_result:
        return out
    return out[()]  # a ufunc gives a numpy scalar, not a 0-d array


def binary(op, x, y, rule, axis, out, dtype, threads=None):
    """apply() for two inputs, with the hot path written out (the cache
    look-up, the address reads, the checks of _run, the C call): most calls
    are this one."""
    if (dtype is None and type(x) is _ndarray and type(y) is _ndarray and _OFFSET
            and (out is None or type(out) is _ndarray)):
        key = (op, rule, axis, None, None if out is None else out.strides,
               x.shape, x.strides, x.dtype, y.shape, y.strides, y.dtype)
        try:
            plan = _lookup(key)
        except TypeError:  # an unhashable argument: the general path says what
            plan = None
        if plan is not None:
            try:
                _touch(key)
            except KeyError:  # evicted by another thread just now: still valid
                pass
            xa = _from_address(_id(x) + _OFFSET).value
            ya = _from_address(_id(y) + _OFFSET).value
            sx, sy = plan.itemsizes
            if out is None:
                result = np.empty(plan.shape, plan.result_dtype)
            elif (out.dtype == plan.result_dtype and out.shape == plan.shape
                  and out.flags.writeable):
                result = out
            else:
                result = None
            if result is not None and xa and ya and not (xa % sx or ya % sy):
                out_address = _from_address(_id(result) + _OFFSET).value
                if out_address and not out_address % plan.out_itemsize:
                    _count_hit()
                    if threads is None:
                        status = execute(plan.handle, plan.pack_pointers(xa, ya), out_address)
                    else:
                        status = execute_pool(plan.handle, plan.pack_pointers(xa, ya),
                                              out_address, pool_handle(threads, "bcast." + op))
                    if status:
                        check(status)
                    return result if out is not None or result.ndim else result[()]
    return apply(op, (x, y), rule=rule, axis=axis, out=out, dtype=dtype, threads=threads)


def apply(op, values, *, rule="numpy", axis=-1, out=None, dtype=None, condition=False,
          target=None, expand_mode=None, axes_mapping=None, threads=None):
    """Runs `op` on `values` and returns the result (a new array, a numpy
    scalar for a 0-d result, or `out`). condition: values[0] is SELECT's bool
    condition. target: broadcast every input to this shape under expand_mode
    (OpenVINO Broadcast / ONNX Expand). threads: _pool.pool_handle's."""
    if type(out) is tuple:  # numpy accepts out=(array,)
        if len(out) != 1:
            raise TypeError("bcast.%s: out must be one array, not a tuple of %d" % (op, len(out)))
        out = out[0]
    if target is None and is_traced(values):  # inside bcast.fuse: a node, not a call
        return traced_call(op, values, rule, axis, out, dtype, threads)
    pool = None if threads is None else pool_handle(threads, "bcast." + op)
    if dtype is None and target is None and (out is None or type(out) is _ndarray):
        for v in values:
            if type(v) is not _ndarray:
                break
        else:
            try:
                plan = _get(_key(op, rule, axis, None, values, out))
            except TypeError:
                plan = None
            if plan is not None:
                result = _run(plan, values, out, True, pool)
                if result is not _MISS:
                    return result
    return _prepared(op, values, rule, axis, out, dtype, condition, target, expand_mode,
                     axes_mapping, pool)


def _prepared(op, values, rule, axis, out, dtype, condition, target, expand_mode, axes_mapping,
              pool):
    """The general path: convert and check everything, plan on a cache miss."""
    what = "bcast." + op
    if condition:
        data, code, storage = _arrays.prepare_data(values[1:], dtype, what)
        arrays = [_arrays.prepare_condition(values[0], what)] + data
    else:
        arrays, code, storage = _arrays.prepare_data(values, dtype, what)
    result_dtype = np.dtype(np.bool_) if op in _enums.BOOL_RESULT_OPS else storage
    if out is not None:
        _arrays.check_out(out, result_dtype, what)
    if target is not None:
        target = _arrays.as_shape(target)
        rule_code, mode_code = None, _enums.expand_mode_code(expand_mode)
        if axes_mapping is not None:
            axes_mapping = tuple(int(v) for v in axes_mapping)
    else:
        rule_code, mode_code = _enums.rule_code(rule), None
    extra = None
    if dtype is not None or target is not None:
        extra = (dtype, target, expand_mode, axes_mapping)
    key = _key(op, rule, axis, extra, arrays, out)
    plan = _get(key)
    cached = plan is not None
    if not cached:
        plan = Planned(new_handle(_enums.opcode(op), code, rule_code, axis, mode_code),
                       result_dtype)
        inputs = Shapes([a.shape for a in arrays], [_arrays.element_strides(a) for a in arrays])
        plan.plan(inputs, target=target, axes_mapping=axes_mapping)
        if out is not None:
            _arrays.check_out_shape(out, plan.shape, what)
            if not out.flags.c_contiguous:  # plan again for out's own layout
                plan.plan(inputs, _arrays.element_strides(out), target, axes_mapping)
        plan.itemsizes = tuple(a.itemsize for a in arrays)
        plan.scalar_result = op not in _enums.ARRAY_RESULT_OPS
        CACHE.put(key, plan)
    elif out is not None:
        _arrays.check_out_shape(out, plan.shape, what)
    result = _run(plan, arrays, out, cached, pool)
    if result is _MISS:  # only an out= that the library cannot write gets here
        raise ValueError("%s: out is misaligned" % what)
    return result
