"""bcast: element-wise ops on numpy arrays under every broadcasting rule in use
(numpy/ONNX, OpenVINO none/pdpd/Broadcast, ONNX legacy axis, ncnn), through
libbcast's C API with ctypes.

    >>> import bcast, numpy as np
    >>> bcast.add(np.ones((2, 3, 4, 5), "f4"), np.ones((3, 1), "f4"),
    ...           rule="pdpd", axis=1).shape
    (2, 3, 4, 5)

The library is found through the environment variable BCAST_LIBRARY (a full
path), else the system's libbcast.so.1. Inputs are used without copying
(element strides, negative included); all data inputs must share one dtype
(bcast does not promote: TypeError). Refusals raise bcast.BcastError
subclasses carrying the library's message.

Plans are cached: a call with the same op, rule, dtypes, shapes and strides
as an earlier one runs the earlier plan (plan_cache_info, set_plan_cache_size,
clear_plan_cache). For a hot loop, bcast.Op plans once and checks only what
can change between calls. Calls are thread-safe; set_max_isa is process-wide
and clears the cache. threads= runs one call on many threads (a shared pool,
or a bcast.Pool), with the same result. bcast.fuse(fn) runs a function of
several ops in one pass over memory, with the same results.
"""

from .errors import (BcastError, IncompatibleShapesError, InternalError, InvalidArgumentError,
                     InvalidStateError, OutOfMemoryError, SizeOverflowError, ThreadError,
                     UnsupportedError)
from ._fuse import Fused, fuse
from ._op import Op
from ._pool import Pool
from ._plans import clear_plan_cache, plan_cache_info, set_plan_cache_size
from .info import explain, isa, isa_names, set_max_isa, version
from .ops import *  # noqa: F401,F403 (one function per op, listed in ops.__all__)
from .ops import __all__ as _ops
from .shapes import infer_expand_shape, infer_shape
from .partial import Conditions, infer_partial_expand_shape, infer_partial_shape
from .qlinear import qlinear

__version__ = "1.4.0"

__all__ = list(_ops) + [
    "infer_partial_shape", "infer_partial_expand_shape", "Conditions", "qlinear",
    "Op", "Pool", "fuse", "Fused", "plan_cache_info", "set_plan_cache_size", "clear_plan_cache", "infer_shape", "infer_expand_shape", "explain", "isa", "isa_names", "set_max_isa", "version",
    "BcastError", "InvalidArgumentError", "IncompatibleShapesError", "UnsupportedError",
    "OutOfMemoryError", "SizeOverflowError", "InvalidStateError", "InternalError",
    "ThreadError",
]
