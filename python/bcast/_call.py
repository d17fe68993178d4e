"""The one way a call runs: a plan (from the one cache, or made for the
arrays), the C arguments, one execute (on the calling thread, a shared pool
or a bcast.Pool) and the result as numpy gives it. The op functions (_run),
bcast.Op and bcast.fuse all run here; they differ only in how they find the
plan for their arguments:

* an op function or a fused function keys the cache with everything that
  decides the plan, the (shape, byte strides, dtype) of the inputs and of
  out= included (key()), so a cached plan fits the arrays it was found for;
  on a miss, planned() plans for them, out= checked first;
* an Op holds its own plan and compares the arrays and out= with it
  (checked_inputs() and _arrays.check_out_planned() say what differs).

execute() then checks only what no key holds (out is writeable) and leaves
to the library what it checks itself: alignment and overlap (refused with
nothing written).
"""

import struct

import numpy as np

from . import _arrays
from ._address import data_address, data_field as _new_field, fields as _fields
from ._library import check
from ._plans import CACHE, Shapes
from ._pool import pool_for

_ndarray = np.ndarray
_empty = np.empty
_field = _fields.get  # id(array) -> the view of its data field (_address)
_id = id
_struct_error = struct.error
_lookup, _touch, count_hit = CACHE.lookup, CACHE.touch, CACHE.count_hit


def signature(arrays):
    """The (shape, byte strides, dtype) of each array, flattened: what a plan
    was made for, and the cache key's tail."""
    return tuple(x for a in arrays for x in (a.shape, a.strides, a.dtype))


def key(head, arrays, out):
    """The cache key of a call: head (what decides the plan besides the
    arrays), out's (shape, byte strides, dtype) or None, then the inputs'
    signature. The hot paths build the same tuple inline: None for out sits
    where out's shape would, so keys of different input counts never meet."""
    return head + ((None,) if out is None else (out.shape, out.strides, out.dtype)) + signature(arrays)


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


def checked(plan, values, out, bfloat16):
    """The inputs of a call on a plan it holds (bcast.Op), each converted if
    it is not an ndarray (Python scalars) and checked against the plan's
    signature, and out= against its out_signature, with a message naming
    what differs."""
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
    if out is not None:
        _arrays.check_out_planned(out, plan.out_signature, plan.out_contiguous, plan.what)
    return arrays


def execute(plan, arrays, out, threads):
    """Runs plan on arrays and into out (None: a new array), all laid out as
    the plan says (the caller's key or checks made sure), on threads (None,
    a count or a bcast.Pool); returns the result: out, the new array, or a
    numpy scalar for a 0-d result without out= (plan.scalar_result). Every
    call comes here: it is written for speed (the usual two inputs apart)."""
    given = out is not None
    if not given:
        if not plan.out_contiguous:
            raise TypeError("%s was planned for output byte strides %s: pass out="
                            % (plan.what, plan.out_signature[1]))
        out = _empty(plan.shape, plan.result_dtype)
    elif not out.flags.writeable:
        raise ValueError("%s: out is read-only" % plan.what)
    # Addresses are read on every call: numpy can give an array object new
    # data in place (pickle's __setstate__, resize(refcheck=False)).
    try:
        if len(arrays) == 2:
            x, y = arrays
            pointers = plan.pack((_field(_id(x)) or _new_field(x)).value,
                                 (_field(_id(y)) or _new_field(y)).value)
        else:
            pointers = plan.pack(*[(_field(_id(a)) or _new_field(a)).value for a in arrays])
    except _struct_error:  # a NULL data pointer reads as None
        pointers = plan.pack(*[data_address(a) for a in arrays])
    # The view of out's data field goes as it is: the call itself reads it.
    out_pointer = _field(_id(out)) or _new_field(out)
    if threads is None:
        status = plan.run(plan.handle, pointers, out_pointer)
    else:
        pool = pool_for(threads, plan.what)
        if pool is None:
            status = plan.run(plan.handle, pointers, out_pointer)
        else:
            status = pool.run(plan.what, plan.kind.execute_pool, plan.handle, pointers,
                              out_pointer)
    if status:
        check(status)
    return out if given or out.ndim or not plan.scalar_result else out[()]
