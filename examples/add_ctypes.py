import ctypes, os, sys
import numpy as np

lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "libbcast.so.1", mode=os.RTLD_LOCAL)
i64p = ctypes.POINTER(ctypes.c_int64)
lib.bcast_op_create.argtypes = [ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)]
lib.bcast_op_plan.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t),
                              ctypes.POINTER(i64p), ctypes.POINTER(i64p), i64p]
lib.bcast_op_output_shape.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                      ctypes.POINTER(ctypes.c_size_t), i64p]
lib.bcast_op_execute.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.bcast_op_destroy.argtypes = [ctypes.c_void_p]
lib.bcast_last_error.restype = ctypes.c_char_p
for f in ("bcast_op_create", "bcast_op_plan", "bcast_op_output_shape", "bcast_op_execute"):
    getattr(lib, f).restype = ctypes.c_int32
BCAST_OP_ADD, BCAST_DTYPE_F32 = 0, 0

def add(a, b):
    """a + b for float32 arrays (any strides, numpy broadcasting)."""
    arrays = [np.asarray(a, np.float32), np.asarray(b, np.float32)]
    shapes = [(ctypes.c_int64 * max(x.ndim, 1))(*x.shape) for x in arrays]
    strides = [(ctypes.c_int64 * max(x.ndim, 1))(*[s // 4 for s in x.strides]) for x in arrays]
    ranks = (ctypes.c_size_t * 2)(*[x.ndim for x in arrays])
    dims = (i64p * 2)(*[ctypes.cast(s, i64p) for s in shapes])
    strd = (i64p * 2)(*[ctypes.cast(s, i64p) for s in strides])
    op = ctypes.c_void_p()
    if lib.bcast_op_create(BCAST_OP_ADD, BCAST_DTYPE_F32, ctypes.byref(op)) != 0:
        raise RuntimeError(lib.bcast_last_error().decode())
    try:
        if lib.bcast_op_plan(op, 2, ranks, dims, strd, None) != 0:  # element strides
            raise ValueError(lib.bcast_last_error().decode())
        rank, out_dims = ctypes.c_size_t(), (ctypes.c_int64 * 32)()
        lib.bcast_op_output_shape(op, 32, ctypes.byref(rank), out_dims)
        out = np.empty(tuple(out_dims[: rank.value]), np.float32)
        ptrs = (ctypes.c_void_p * 2)(arrays[0].ctypes.data, arrays[1].ctypes.data)
        if lib.bcast_op_execute(op, ptrs, out.ctypes.data) != 0:
            raise RuntimeError(lib.bcast_last_error().decode())
        return out
    finally:
        lib.bcast_op_destroy(op)

a = np.arange(6, dtype=np.float32).reshape(2, 3)
print(add(a.T, [10, 20]))            # a transposed view, no copy
try:
    add(np.ones((2, 3, 5)), np.ones((4, 5)))
except ValueError as e:
    print("refused:", e)
