"""Finding and loading libbcast, and the ctypes prototypes of its C API.

Lookup order: the environment variable BCAST_LIBRARY (a full path; if it is
set and fails to load, that is an error, there is no fallback), then the
system's "libbcast.so.1" (the SONAME of ABI 1, found by the dynamic loader),
then ctypes.util.find_library("bcast"). The library is loaded with RTLD_LOCAL
so its symbols never leak into other extension modules.
"""

import ctypes
import ctypes.util
import os

from .errors import error_for_status

ABI_MAJOR = 1  # the SONAME's number; bcast_version() // 10000 must match
SONAME = "libbcast.so.1"
MAX_RANK = 32  # BCAST_MAX_RANK

c_i32, c_i64, c_size, c_void_p = ctypes.c_int32, ctypes.c_int64, ctypes.c_size_t, ctypes.c_void_p
P_i64 = ctypes.POINTER(c_i64)
P_size = ctypes.POINTER(c_size)
PP_i64 = ctypes.POINTER(P_i64)

# name: (restype, argtypes), exactly as in <bcast/bcast.h>.
_PROTOTYPES = {
    "bcast_version": (ctypes.c_uint32, []),
    "bcast_version_string": (ctypes.c_char_p, []),
    "bcast_status_string": (ctypes.c_char_p, [c_i32]),
    "bcast_last_error": (ctypes.c_char_p, []),
    "bcast_infer_shape": (c_i32, [c_i32, c_i64, c_size, P_size, PP_i64, c_size, P_size, P_i64]),
    "bcast_infer_expand_shape": (c_i32, [c_i32, c_size, P_i64, c_size, P_i64, P_i64, c_size,
                                         c_i64, c_size, P_size, P_i64]),
    "bcast_dtype_size": (c_size, [c_i32]),
    "bcast_op_supports": (c_i32, [c_i32, c_i32]),
    "bcast_op_create": (c_i32, [c_i32, c_i32, ctypes.POINTER(c_void_p)]),
    "bcast_op_set_param": (c_i32, [c_void_p, c_i32, c_i64]),
    "bcast_op_get_param": (c_i32, [c_void_p, c_i32, P_i64]),
    "bcast_op_plan": (c_i32, [c_void_p, c_size, P_size, PP_i64, PP_i64, P_i64]),
    "bcast_op_plan_to": (c_i32, [c_void_p, c_size, P_size, PP_i64, PP_i64, c_size, P_i64,
                                 P_i64, c_size, P_i64]),
    "bcast_op_output_shape": (c_i32, [c_void_p, c_size, P_size, P_i64]),
    "bcast_op_execute": (c_i32, [c_void_p, ctypes.POINTER(c_void_p), c_void_p]),
    "bcast_op_describe": (c_size, [c_void_p, ctypes.c_char_p, c_size]),
    "bcast_op_destroy": (None, [c_void_p]),
    "bcast_isa": (ctypes.c_char_p, []),
    "bcast_set_max_isa": (c_i32, [ctypes.c_char_p]),
}


def _candidates():
    """(description, thing to dlopen) in lookup order."""
    explicit = os.environ.get("BCAST_LIBRARY")
    if explicit:
        return [("BCAST_LIBRARY=" + explicit, explicit)]
    found = ctypes.util.find_library("bcast")
    names = [SONAME] + ([found] if found and found != SONAME else [])
    return [(name, name) for name in names]


def _load():
    tried = []
    for description, name in _candidates():
        try:
            lib = ctypes.CDLL(name, mode=os.RTLD_LOCAL)
        except OSError as e:
            tried.append("%s: %s" % (description, e))
            continue
        for fname, (restype, argtypes) in _PROTOTYPES.items():
            f = getattr(lib, fname)
            f.restype, f.argtypes = restype, argtypes
        major = lib.bcast_version() // 10000
        if major != ABI_MAJOR:
            tried.append("%s: library version %s, this package needs %d.x" % (
                description, lib.bcast_version_string().decode(), ABI_MAJOR))
            continue
        return lib
    raise ImportError("bcast: cannot load libbcast (set BCAST_LIBRARY to its full path): " +
                      "; ".join(tried))


lib = _load()


def last_error():
    return lib.bcast_last_error().decode("utf-8", "replace")


def check(status):
    """Raises the exception for a failing bcast_status, with the library's
    message; read at once, since the message is per thread and the next
    failing call replaces it."""
    if status != 0:
        message = last_error()
        name = lib.bcast_status_string(status).decode()
        raise error_for_status(status, message or name, name)


def i64_array(values):
    """A C int64_t array holding `values` (at least one slot, so the pointer is
    never NULL)."""
    values = [int(v) for v in values]
    return (c_i64 * max(len(values), 1))(*values)
