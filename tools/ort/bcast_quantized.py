"""bcast's quantized binary ops through the C API (ctypes), for the ORT comparisons.

A QuantizedOp is one bcast_op of dtype u8/i8 with each input's and the output's
scale and zero point set (bcast_op_set_quantization, since 1.4), planned for
contiguous inputs under the numpy rule and executed on the calling thread.
"""
import ctypes
import os

import numpy as np

OK = 0
OUTPUT = ctypes.c_size_t(-1).value  # BCAST_OUTPUT
DTYPE = {"u8": 5, "i8": 4}
OP = {"ADD": 0, "SUB": 1, "MUL": 2}


def load(path):
    lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL)
    p, sz, i64p = ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int64)
    signatures = {
        "bcast_op_create": [ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(p)],
        "bcast_op_set_quantization": [p, sz, ctypes.c_float, ctypes.c_int32],
        "bcast_op_plan": [p, sz, ctypes.POINTER(sz), ctypes.POINTER(i64p), p, p],
        "bcast_op_execute": [p, ctypes.POINTER(p), p],
        "bcast_op_destroy": [p],
    }
    for name, args in signatures.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = ctypes.c_int32
    for name in ("bcast_last_error", "bcast_isa"):
        getattr(lib, name).restype = ctypes.c_char_p
    return lib


class QuantizedOp:
    """op ("ADD", "SUB", "MUL") on dtype ("u8", "i8") with params ((sa, za), (sb, zb))
    and output (sy, zy)."""

    def __init__(self, lib, op, dtype, params, out_params):
        self.lib = lib
        self.h = ctypes.c_void_p()
        self._check(lib.bcast_op_create(OP[op], DTYPE[dtype], ctypes.byref(self.h)), "create")
        for operand, (scale, zp) in list(enumerate(params)) + [(OUTPUT, out_params)]:
            self._check(lib.bcast_op_set_quantization(self.h, operand, scale, zp),
                        "set_quantization(%s)" % ("output" if operand == OUTPUT else operand))
        self.shapes = None

    def _check(self, status, what):
        if status != OK:
            raise RuntimeError("bcast_op_%s: status %d: %s"
                               % (what, status, self.lib.bcast_last_error().decode()))

    def plan(self, a_shape, b_shape):
        shapes = (tuple(a_shape), tuple(b_shape))
        ranks = (ctypes.c_size_t * 2)(*[len(s) for s in shapes])
        self._dims = [(ctypes.c_int64 * max(len(s), 1))(*s) for s in shapes]
        dims = (ctypes.POINTER(ctypes.c_int64) * 2)(
            *[ctypes.cast(d, ctypes.POINTER(ctypes.c_int64)) for d in self._dims])
        self._check(self.lib.bcast_op_plan(self.h, 2, ranks, dims, None, None), "plan")
        self.shapes = shapes

    def execute(self, a, b, out):
        """out = op(a, b), all C-contiguous numpy arrays of the planned shapes."""
        if self.shapes != (a.shape, b.shape):
            self.plan(a.shape, b.shape)
        ptrs = (ctypes.c_void_p * 2)(a.ctypes.data, b.ctypes.data)
        self._check(self.lib.bcast_op_execute(self.h, ptrs, ctypes.c_void_p(out.ctypes.data)),
                    "execute")
        return out

    def __call__(self, a, b):
        dtype = a.dtype
        out = np.empty(np.broadcast_shapes(a.shape, b.shape), dtype=dtype)
        return self.execute(np.ascontiguousarray(a), np.ascontiguousarray(b), out)

    def __del__(self):
        if self.h:
            self.lib.bcast_op_destroy(self.h)
