"""The op functions' way to their plan (then _call runs it).

Plans are cached under everything that decides them: the op, the dtype=
argument, rule, axis, expand target, mode and mapping, and every input's
shape, byte strides and dtype, and out's too when out= is given.
A call whose inputs are all ndarrays looks its plan up straight away (the
hot path); anything else (Python scalars, lists, other dtypes, copies the
library needs) is prepared first and then looked up the same way, under the
key of what is finally executed. A cached plan the library refuses to run on
the arrays as they are (a misaligned view) goes the general path too, which
copies what the library cannot read in place.
"""

import numpy as np

from . import _arrays, _enums
from ._call import count_hit, execute, key, planned, run_cached
from ._fuse import is_traced, traced_call
from ._plans import OP, Plan, new_handle
from ._pool import pool_for


def binary(op, x, y, rule, axis, out, dtype, threads=None):
    """apply() for two inputs, the hot path written out: most calls are this one."""
    # No caller code between reading the arrays' layouts and the call:
    # threads= is resolved first (an __index__), and a key's head holds
    # exact types (the cache's hash and compare run no caller code).
    if threads is not None:
        threads = pool_for(threads, "bcast." + op)
    if type(rule) is not str:
        rule = _enums.plain(rule)
    if dtype is None and type(axis) is int and type(rule) is str:
        result = run_cached((op, rule, axis, None), (x, y), out, threads)
        if result is not None:
            return result
    return apply(op, (x, y), rule=rule, axis=axis, out=out, dtype=dtype, threads=threads)


def apply(op, values, *, rule="numpy", axis=-1, out=None, dtype=None, condition=False,
          target=None, expand_mode=None, axes_mapping=None, threads=None):
    """Runs `op` on `values` and returns the result (a new array, a numpy
    scalar for a 0-d result, or `out`). condition: values[0] is SELECT's bool
    condition. target: broadcast every input to this shape under expand_mode
    (OpenVINO Broadcast / ONNX Expand). threads: _pool.pool_for's."""
    # A target is bcast.expand's call (bcast.copy is its other name).
    what = "bcast." + ("expand" if target is not None else op)
    if not values:
        raise TypeError("%s: no arrays given" % what)
    if type(out) is tuple:  # numpy accepts out=(array,)
        out = _arrays.single_out(out, what)
    if is_traced(values):  # inside bcast.fuse: a node, not a call
        if target is not None:
            raise TypeError("%s: broadcasting to a target shape cannot be fused (call it outside "
                            "the fused function)" % what)
        return traced_call(op, values, rule, axis, out, dtype, threads)
    axis = _arrays.as_axis(axis, what)
    pool = pool_for(threads, what)
    if type(rule) is not str:
        rule = _enums.plain(rule)
    if dtype is None and target is None and type(rule) is str:
        result = run_cached((op, rule, axis, None), tuple(values), out, pool)
        if result is not None:
            return result
    # Names checked before the arrays are read (a str subclass runs no code
    # of its own from here: _enums).
    if target is not None:
        rule_code, mode_code = None, _enums.expand_mode_code(expand_mode)
        axes_mapping = _arrays.as_axes_mapping(axes_mapping, what)
    else:
        rule_code, mode_code = _enums.rule_code(rule), None
    if condition:
        data, code, storage = _arrays.prepare_data(values[1:], dtype, what, takes_dtype=True)
        arrays = [_arrays.prepare_condition(values[0], what)] + data
    else:
        arrays, code, storage = _arrays.prepare_data(values, dtype, what, takes_dtype=True)
    result_dtype = np.dtype(np.bool_) if op in _enums.BOOL_RESULT_OPS else storage
    if out is not None:
        _arrays.check_out(out, result_dtype, what)
    extra = None
    if dtype is not None or target is not None:
        extra = (code, target, mode_code, axes_mapping)

    def make():
        return Plan(OP, new_handle(_enums.opcode(op), code, rule_code, axis, mode_code), what,
                    result_dtype, op not in _enums.ARRAY_RESULT_OPS)

    plan, hit = planned(key((op, rule, axis, extra), arrays, out), make, arrays, out, target,
                        axes_mapping)
    result = execute(plan, arrays, out, pool)
    if hit:
        count_hit()
    return result
