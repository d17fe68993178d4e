"""Create, configure, plan, execute and destroy one bcast_op per call.

Nothing is cached between calls, so calls from many threads never share a
handle (the C library's thread-safety contract needs exclusive access for
planning). Planning costs microseconds; callers that run one shape in a hot
loop are better served by the C API's plan-once, execute-many handles.
"""

import ctypes
import json

import numpy as np

from . import _arrays, _enums
from ._library import MAX_RANK, P_i64, PP_i64, P_size, c_i64, c_size, check, i64_array, lib


class _Shapes:
    """ranks / dims / element strides of some arrays as C arrays (kept alive
    as long as this object)."""

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

    @classmethod
    def of_arrays(cls, arrays):
        return cls([a.shape for a in arrays], [_arrays.element_strides(a) for a in arrays])


class Op:
    """A bcast_op handle, destroyed on leaving the `with` block."""

    def __init__(self, opcode, dtype_code, rule=None, axis=-1, expand_mode=None):
        self.handle = ctypes.c_void_p()
        check(lib.bcast_op_create(opcode, dtype_code, ctypes.byref(self.handle)))
        try:
            if rule is not None:
                check(lib.bcast_op_set_param(self.handle, _enums.PARAM_RULE, rule))
            if expand_mode is not None:
                check(lib.bcast_op_set_param(self.handle, _enums.PARAM_EXPAND_MODE,
                                             expand_mode))
            check(lib.bcast_op_set_param(self.handle, _enums.PARAM_AXIS, int(axis)))
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        lib.bcast_op_destroy(self.handle)
        self.handle = ctypes.c_void_p()

    def plan(self, inputs, out_strides=None, target=None, axes_mapping=None):
        """Plans for `inputs` (a _Shapes); with `target`, broadcasts every input
        to it (bcast_op_plan_to)."""
        out_str = None if out_strides is None else i64_array(out_strides)
        if target is None:
            check(lib.bcast_op_plan(self.handle, inputs.count, inputs.ranks, inputs.dims,
                                    inputs.strides, out_str))
            return
        mapping = None if axes_mapping is None else i64_array(axes_mapping)
        check(lib.bcast_op_plan_to(self.handle, inputs.count, inputs.ranks, inputs.dims,
                                   inputs.strides, len(target), i64_array(target), mapping,
                                   0 if axes_mapping is None else len(axes_mapping), out_str))

    def output_shape(self):
        dims, rank = (c_i64 * MAX_RANK)(), c_size()
        check(lib.bcast_op_output_shape(self.handle, MAX_RANK, ctypes.byref(rank), dims))
        return tuple(dims[i] for i in range(rank.value))

    def execute(self, arrays, out):
        pointers = (ctypes.c_void_p * len(arrays))(*[a.ctypes.data for a in arrays])
        check(lib.bcast_op_execute(self.handle, pointers, out.ctypes.data))

    def describe(self):
        size = lib.bcast_op_describe(self.handle, None, 0) + 1
        buf = ctypes.create_string_buffer(size)
        lib.bcast_op_describe(self.handle, buf, size)
        return json.loads(buf.value.decode())


def apply(op, values, *, rule="numpy", axis=-1, out=None, dtype=None, condition=False,
          target=None, expand_mode=None, axes_mapping=None):
    """Runs `op` on `values` and returns the result (a new array, or `out`).
    condition: values[0] is SELECT's bool condition. target: broadcast every
    input to this shape under expand_mode (OpenVINO Broadcast / ONNX Expand)."""
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
    else:
        rule_code, mode_code = _enums.rule_code(rule), None
    inputs = _Shapes.of_arrays(arrays)
    with Op(_enums.opcode(op), code, rule_code, axis, mode_code) as handle:
        handle.plan(inputs, target=target, axes_mapping=axes_mapping)
        shape = handle.output_shape()
        if out is None:
            out = np.empty(shape, result_dtype)
        else:
            _arrays.check_out_shape(out, shape, what)
            if not out.flags.c_contiguous:  # plan again for out's own layout
                handle.plan(inputs, _arrays.element_strides(out), target, axes_mapping)
        handle.execute(arrays, out)
    return out
