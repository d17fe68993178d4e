"""The one way a call runs: a plan (from the one cache, or made for the
arrays), the C arguments, one execute (on the calling thread, a shared pool
or a bcast.Pool) and the result as numpy gives it. The op functions (_run),
bcast.Op and bcast.fuse all run here; they differ only in how they find the
plan for their arguments:

* an op function or a fused function keys the cache with everything that
  decides the plan, the arrays' (shape, byte strides, dtype) included, so a
  cached plan fits the arrays it was found for (cached());
* an Op holds its own plan and compares the arrays with it (checked_inputs()
  says what differs).

execute() checks out= against the plan, and leaves to the library only what
it checks itself: alignment and overlap (refused with nothing written).
"""

import numpy as np

from . import _arrays
from ._address import data_address, data_pointer
from ._library import check
from ._plans import CACHE, Shapes
from ._pool import pool_for

_ndarray = np.ndarray
_lookup, _touch, count_hit = CACHE.lookup, CACHE.touch, CACHE.count_hit


def signature(arrays):
    """The (shape, byte strides, dtype) of each array, flattened: what a plan
    was made for, and the cache key's tail."""
    return tuple(x for a in arrays for x in (a.shape, a.strides, a.dtype))


def cached(key):
    """The plan cached under key, made the most recent, or None (also for an
    unhashable key: the caller's general path says what is wrong)."""
    try:
        plan = _lookup(key)
    except TypeError:
        return None
    if plan is not None:
        try:
            _touch(key)
        except KeyError:  # evicted by another thread just now: still valid
            pass
    return plan


def planned(key, make, arrays, out, target=None, axes_mapping=None):
    """(plan, cached): the plan cached under key, or make() (an unplanned
    Plan) planned for arrays and for out's layout, then cached. Nothing is
    cached when out does not fit."""
    plan = CACHE.get(key)
    if plan is not None:
        return plan, True
    inputs = Shapes([a.shape for a in arrays], [_arrays.element_strides(a) for a in arrays])
    plan = make().plan(inputs, signature(arrays), out, None, target, axes_mapping)
    CACHE.put(key, plan)
    return plan, False


def checked_inputs(plan, values, bfloat16):
    """The inputs of a call on a plan it holds (bcast.Op), each converted if
    it is not an ndarray (Python scalars) and checked against the plan's
    signature, with a message naming the input."""
    sig = plan.signature
    if len(values) * 3 != len(sig):
        raise TypeError("%s was planned for %d inputs, not %d"
                        % (plan.what, len(sig) // 3, len(values)))
    arrays = []
    for i, value in enumerate(values):
        shape, strides, dtype = sig[3 * i:3 * i + 3]
        if not isinstance(value, _ndarray):
            value = _arrays.convert(value, dtype, bfloat16 and dtype != np.bool_,
                                    "%s input %d" % (plan.what, i))
        _arrays.check_input(value, i, shape, strides, dtype, plan.what)
        arrays.append(value)
    return arrays


def execute(plan, arrays, out, threads):
    """Runs plan on arrays (laid out as plan.signature says: the caller made
    sure) into out (checked here; None: a new array), on threads (None, a
    count or a bcast.Pool); returns the result: out, the new array, or a
    numpy scalar for a 0-d result without out= (plan.scalar_result)."""
    given = out is not None
    if not given:
        if not plan.out_contiguous:
            raise TypeError("%s was planned for output byte strides %s: pass out="
                            % (plan.what, plan.out_signature[1]))
        out = np.empty(plan.shape, plan.result_dtype)
    elif (type(out) is not _ndarray or (out.shape, out.strides, out.dtype) != plan.out_signature
          or not out.flags.writeable):
        _arrays.check_out_planned(out, plan.out_signature, plan.out_contiguous, plan.what)
    pointers = plan.pack(*[data_address(a) for a in arrays])
    out_pointer = data_pointer(out)  # read by the call itself: out lives until it returns
    kind = plan.kind
    pool = None if threads is None else pool_for(threads, plan.what)
    if pool is None:
        status = kind.execute(plan.handle, pointers, out_pointer)
    else:
        status = pool.run(plan.what, kind.execute_pool, plan.handle, pointers, out_pointer)
    if status:
        check(status)
    return out if given or out.ndim or not plan.scalar_result else out[()]
