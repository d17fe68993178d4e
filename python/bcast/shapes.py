"""Shape inference without data (bcast_infer_shape, bcast_infer_expand_shape)."""

import ctypes

from . import _enums
from ._arrays import as_axes_mapping, as_axis, as_shape, as_target_shape
from ._library import MAX_RANK, c_i64, c_size, check, i64_array, lib
from ._plans import Shapes


def _result(call):
    dims, rank = (c_i64 * MAX_RANK)(), c_size()
    check(call(MAX_RANK, ctypes.byref(rank), dims))
    return tuple(dims[i] for i in range(rank.value))


def infer_shape(*shapes, rule="numpy", axis=-1):
    """The output shape of an element-wise op on inputs of these shapes (ints,
    sequences of ints, or arrays) under `rule`; raises IncompatibleShapesError
    with the library's message when the rule refuses them."""
    table = Shapes([as_shape(s) for s in shapes])
    rule = _enums.rule_code(rule)
    axis = as_axis(axis, "bcast.infer_shape")
    return _result(lambda capacity, rank, dims: lib.bcast_infer_shape(
        rule, axis, table.count, table.ranks, table.dims, capacity, rank, dims))


def infer_expand_shape(data_shape, target_shape, mode="bidirectional", axes_mapping=None,
                       axis=-1):
    """The shape of data_shape broadcast to target_shape under `mode` (see
    bcast.expand)."""
    data, target = as_shape(data_shape), as_target_shape(target_shape)
    mode = _enums.expand_mode_code(mode)
    axis = as_axis(axis, "bcast.infer_expand_shape")
    axes_mapping = as_axes_mapping(axes_mapping, "bcast.infer_expand_shape")
    mapping = None if axes_mapping is None else i64_array(axes_mapping)
    count = 0 if axes_mapping is None else len(axes_mapping)
    return _result(lambda capacity, rank, dims: lib.bcast_infer_expand_shape(
        mode, len(data), i64_array(data), len(target), i64_array(target), mapping, count,
        axis, capacity, rank, dims))
