"""The one way a call runs: a plan (from the one cache, or made for the
arrays), the C arguments, one execute (on the calling thread, a shared pool
or a bcast.Pool) and the result as numpy gives it. The op functions (_run),
bcast.Op and bcast.fuse all run here; they differ only in how they find the
plan for their arguments:

* an op function or a fused function keys the cache with everything that
  decides the plan, the (shape, byte strides, dtype) of the inputs and of
  out= included (key()), so a cached plan fits the arrays it was found for:
  run_cached() is their first step; on a miss, planned() plans for them,
  out= checked first, and execute() runs the plan;
* an Op holds its own plan: run_planned() compares the arrays and out= with
  it (checked() and _arrays.check_out_planned() say what differs).

execute() then checks only what no key holds (out is writeable) and leaves
to the library what it checks itself: alignment and overlap (refused with
nothing written).

The compiled path. When the extension bcast._fastcall is loaded (_extension
says when), run_cached, run_planned and execute below are its functions: they
do the common case (every value an ndarray laid out as the plan says, out=
writeable or None, threads=None) in C and hand every other call, and every
call the library refuses, to the Python functions here, which stay the
definition: the extension raises no message of its own, so both paths check
and say the same.

How a new function plugs in (say bcast.qlinear), as _run.apply does it:
1. result = run_cached(head, arrays, out, threads), head a tuple naming the
   function and every parameter that decides its plan: a hit ends here;
2. otherwise prepare the arguments (_arrays), then plan, hit =
   planned(key(head, arrays, out), make, arrays, out), make() returning an
   unplanned Plan of its C handle (_plans: a bcast_op handle is of Kind OP;
   another handle type needs its own Kind, its execute included);
3. result = execute(plan, arrays, out, threads), then count_hit() if hit.
A function that holds its plan (as bcast.Op does) calls run_planned
instead. The extension needs no change: it reads what it needs from
Plan.runner.
"""

import struct

import numpy as np

from . import _arrays
from ._address import data_address, data_field as _new_field, fields as _fields
from ._extension import fastcall
from ._library import check
from ._plans import CACHE, Shapes
from ._pool import pool_for
from .errors import InvalidArgumentError

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
        if type(value) is not _ndarray:  # a subclass too: its plain view (convert's asarray)
            value = _arrays.convert(value, dtype, bfloat16 and dtype != np.bool_,
                                    "%s: input %d" % (plan.what, i), exact=True)
        _arrays.check_input(value, i, shape, strides, dtype, plan.what, bfloat16 and dtype != np.bool_)
        arrays.append(value)
    if out is not None:
        _arrays.check_out_planned(out, plan.out_signature, plan.out_contiguous, plan.what)
    return arrays


def run_cached(head, arrays, out, threads):
    """The result of a call (head: what decides its plan besides the
    arrays; arrays: a tuple) run on the plan cached for it, or None: no plan
    is cached for it, a value is not an ndarray (out= too), the key is
    unhashable, or the library refuses to run the plan on the arrays as they
    are (a misaligned view). On None the caller's general path prepares the
    arguments (copies what the library cannot read in place) and plans."""
    if out is not None and type(out) is not _ndarray:
        return None
    if len(arrays) == 2:  # the usual call: its key written out
        x, y = arrays
        if type(x) is not _ndarray or type(y) is not _ndarray:
            return None
        if out is None:
            k = head + (None, x.shape, x.strides, x.dtype, y.shape, y.strides, y.dtype)
        else:
            k = head + (out.shape, out.strides, out.dtype,
                        x.shape, x.strides, x.dtype, y.shape, y.strides, y.dtype)
    else:
        for a in arrays:
            if type(a) is not _ndarray:
                return None
        k = key(head, arrays, out)
    try:
        plan = _lookup(k)
    except TypeError:  # unhashable: the general path says what is wrong
        return None
    if plan is None:
        return None
    try:
        _touch(k)  # the most recent now
    except KeyError:  # evicted by another thread just now: still valid
        pass
    try:
        result = execute(plan, arrays, out, threads)
    except InvalidArgumentError:  # e.g. misaligned: the general path copies it
        return None
    count_hit()
    return result


def run_planned(plan, values, out, threads, bfloat16):
    """bcast.Op's call on the plan it holds: every input (and out=) an
    ndarray with the planned (shape, byte strides, dtype) runs at once (one
    tuple comparison, written out for the usual call); anything else is
    converted and checked first (checked())."""
    if len(values) == 2:
        x, y = values
        if type(x) is _ndarray and type(y) is _ndarray:
            if out is None:
                if (x.shape, x.strides, x.dtype, y.shape, y.strides, y.dtype) == plan.signature:
                    return execute(plan, values, None, threads)
            elif (type(out) is _ndarray and
                  (x.shape, x.strides, x.dtype, y.shape, y.strides, y.dtype,
                   out.shape, out.strides, out.dtype) == plan.call_signature):
                return execute(plan, values, out, threads)
    elif all(type(v) is _ndarray for v in values):  # as the two-input test, any count
        if out is None:
            if signature(values) == plan.signature:
                return execute(plan, values, None, threads)
        elif (type(out) is _ndarray and
              signature(values) + (out.shape, out.strides, out.dtype) == plan.call_signature):
            return execute(plan, values, out, threads)
    out = _arrays.single_out(out, plan.what)
    return execute(plan, checked(plan, values, out, bfloat16), out, threads)


def execute(plan, arrays, out, threads):
    """Runs plan on arrays (then the plan's own constants, plan.keep) and
    into out (None: a new array), all laid out as the plan says (the caller's
    key or checks made sure), on threads (None, a count or a bcast.Pool);
    returns the result: out, the new array, or a numpy scalar for a 0-d
    result without out= (plan.scalar_result). Every call comes here: it is
    written for speed (the usual two inputs apart)."""
    if plan.keep:
        arrays = tuple(arrays) + plan.keep
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
    if status:  # named by the call, as every other refusal is
        check(status, plan.what)
    return out if given or out.ndim or not plan.scalar_result else out[()]


if fastcall is not None:  # the compiled path (see the top): the same functions, in C
    fastcall.setup(execute, run_planned, _lookup, _touch, count_hit, InvalidArgumentError)
    execute, run_cached, run_planned = fastcall.execute, fastcall.run_cached, fastcall.run_planned
