"""Plans as data (explain), the CPU dispatch, the library version."""

import json

import numpy as np

from . import _arrays, _enums
from ._library import check, lib
from ._plans import CACHE, OP, Plan, Shapes, contiguous_strides, new_handle


def explain(*shapes_or_arrays, op="add", dtype=None, rule="numpy", axis=-1,
            target_shape=None, mode=None, axes_mapping=None):
    """The plan bcast would run, as a dict (bcast_op_describe's JSON): output
    shape, the coalesced loops with per-operand element strides, the inner
    kernel kind and the ISA. Arrays contribute their shape and strides as a
    call would run them (one whose strides are not whole elements as its
    copy) and, with dtype=None, their dtype, on which they must agree as in a
    call (for select: all but the condition); dtype= converts them as a call
    does. Plain shapes are contiguous; dtype otherwise defaults to float32. With
    target_shape (or op="copy"), every input is broadcast to the target under
    `mode` (default "bidirectional"), as bcast.expand does."""
    what = "bcast.explain"
    # The arrays as a call would run them: their dtypes agree (or convert to
    # dtype=), and one whose strides are not whole elements is copied.
    items = list(shapes_or_arrays)
    opcode = _enums.opcode(op)
    select = opcode == _enums.OPCODES["select"]
    data = [k for k, item in enumerate(items) if isinstance(item, np.ndarray) and not (select and k == 0)]
    if data:
        prepared, code, storage = _arrays.prepare_data([items[k] for k in data], dtype, what,
                                                       takes_dtype=True)
        for k, arr in zip(data, prepared):
            items[k] = arr
    else:
        code, storage = _arrays.storage_dtype(np.float32 if dtype is None else dtype)
    if select and items and isinstance(items[0], np.ndarray):
        items[0] = _arrays.prepare_condition(items[0], what)
    shapes, strides = [], []
    for item in items:
        if isinstance(item, np.ndarray):
            shapes.append(item.shape)
            strides.append(_arrays.element_strides(item))
        else:
            shapes.append(_arrays.as_shape(item))
            strides.append(None)
    contiguous = [s is None for s in strides]
    table = Shapes(shapes, None if all(contiguous) else [
        contiguous_strides(shape) if s is None else s for shape, s in zip(shapes, strides)])
    expanding = target_shape is not None or opcode == _enums.OPCODES["copy"]
    if expanding and target_shape is None:
        raise ValueError("bcast.explain: op='copy' needs target_shape")
    if expanding and rule != "numpy":
        raise TypeError("bcast.explain: broadcasting to target_shape is under mode=, it takes no rule=")
    if not expanding and mode is not None:
        raise TypeError("bcast.explain: mode= is the expand mode (with target_shape or op='copy'); "
                        "the op's broadcasting is rule=")
    rule_code = None if expanding else _enums.rule_code(rule)
    mode_code = _enums.expand_mode_code("bidirectional" if mode is None else mode) if expanding else None
    axes_mapping = _arrays.as_axes_mapping(axes_mapping, what)
    handle = new_handle(opcode, code, rule_code, _arrays.as_axis(axis, what), mode_code)
    result_dtype = np.dtype(np.bool_) if _enums._key(op, "op") in _enums.BOOL_RESULT_OPS else storage
    plan = Plan(OP, handle, what, result_dtype)
    plan.plan(table, (), target=None if target_shape is None else _arrays.as_target_shape(target_shape),
              axes_mapping=axes_mapping)
    return json.loads(plan.describe())


def isa():
    """The kernel set new plans use, one of isa_names()."""
    return lib.bcast_isa().decode()


def isa_names():
    """Every kernel set name set_max_isa takes, as the library lists them
    ("scalar" first), whether or not this build or CPU has it."""
    names = []
    while (name := lib.bcast_isa_name(len(names))) is not None:
        names.append(name.decode())
    return tuple(names)


def set_max_isa(name):
    """Caps the kernel set of plans made from now on, process-wide (the best
    the CPU supports up to `name`); InvalidArgumentError for unknown names.
    Clears the plan cache, whose plans chose their kernels when made (an
    Op object keeps its plan until it plans again)."""
    if isinstance(name, str):
        name = name.encode()
    if not isinstance(name, bytes):
        raise TypeError("bcast.set_max_isa: the name must be a str, not %s" % type(name).__name__)
    if b"\0" in name:  # C would read only up to it
        raise ValueError("bcast.set_max_isa: the name %r holds a NUL character" % (name,))
    check(lib.bcast_set_max_isa(name))
    CACHE.clear()


def version():
    """The loaded library's version, e.g. "1.0.0"."""
    return lib.bcast_version_string().decode()
