"""Finding and loading libbcast, and the ctypes prototypes of its C API (every
one the package calls is declared here, nowhere else).

Lookup order: the environment variable BCAST_LIBRARY (a full path; if it is
set and fails to load, that is an error, there is no fallback), then the
system's "libbcast.so.1" (the SONAME of ABI 1, found by the dynamic loader),
then ctypes.util.find_library("bcast"). The library is loaded with RTLD_LOCAL
so its symbols never leak into other extension modules.
"""

import ctypes
import operator
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
P_void_p = ctypes.POINTER(c_void_p)
SIZE_MAX = 2 ** (8 * ctypes.sizeof(c_size)) - 1  # a larger Python int would be cut by ctypes

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
    "bcast_op_describe": (c_size, [c_void_p, ctypes.c_char_p, c_size]),
    "bcast_op_destroy": (None, [c_void_p]),
    "bcast_op_set_quantization": (c_i32, [c_void_p, c_size, ctypes.c_float, c_i32]),
    "bcast_isa": (ctypes.c_char_p, []),
    "bcast_isa_name": (ctypes.c_char_p, [c_i32]),
    "bcast_set_max_isa": (c_i32, [ctypes.c_char_p]),
    "bcast_pool_create": (c_i32, [c_size, P_void_p]),
    "bcast_pool_threads": (c_size, [c_void_p]),
    "bcast_pool_destroy": (None, [c_void_p]),
    "bcast_expr_create": (c_i32, [c_i32, c_size, P_void_p]),
    "bcast_expr_set_input_dtype": (c_i32, [c_void_p, c_size, c_i32]),
    "bcast_expr_set_quantization": (c_i32, [c_void_p, c_size, c_i32, ctypes.c_float, c_i32]),
    "bcast_expr_add_node": (c_i32, [c_void_p, c_i32, c_i32, c_i64, c_size, P_size, P_size]),
    "bcast_expr_set_output": (c_i32, [c_void_p, c_size]),
    "bcast_expr_plan": (c_i32, [c_void_p, c_size, P_size, PP_i64, PP_i64, P_i64]),
    "bcast_expr_output_shape": (c_i32, [c_void_p, c_size, P_size, P_i64]),
    "bcast_expr_describe": (c_size, [c_void_p, ctypes.c_char_p, c_size]),
    "bcast_expr_destroy": (None, [c_void_p]),
}

# The executes, which every call makes, have no argument types: the callers
# pass only ctypes objects (handles, the data-field views of _address) and
# bytes (the packed input pointers), which ctypes hands over as they are, a
# fifth cheaper than converting through argtypes. Never pass them a plain int
# (it would go as a C int).
_UNTYPED = ("bcast_op_execute", "bcast_op_execute_pool", "bcast_expr_execute",
            "bcast_expr_execute_pool")


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
        for fname in _UNTYPED:
            getattr(lib, fname).restype = c_i32
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


def check(status, context=None):
    """Raises the exception for a failing bcast_status, with the library's
    message (after `context`, which names what the caller passed); read at
    once, since the message is per thread and the next failing call replaces
    it."""
    if status != 0:
        name = lib.bcast_status_string(status).decode()
        message = last_error() or name
        raise error_for_status(status, "%s: %s" % (context, message) if context else message, name)


class OwnsHandles:
    """Base of the classes that own a C handle (bcast.Op, bcast.Pool): a copy
    would share the handle, which one copy may replan or free under the
    other, so copying and pickling are refused."""

    __slots__ = ()

    def __copy__(self):
        raise TypeError("bcast.%s cannot be copied: it owns a C handle (make a new one)" % type(self).__name__)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        raise TypeError("bcast.%s cannot be pickled: it owns a C handle" % type(self).__name__)


def int64_value(value, what):
    """value (an int) within the library's int64_t: OverflowError outside it
    (ctypes would wrap it silently)."""
    value = operator.index(value)
    if not -2 ** 63 <= value < 2 ** 63:
        raise OverflowError("%s %d does not fit int64" % (what, value))
    return value


def i64_array(values, what="a value"):
    """A C int64_t array holding `values` (at least one slot, so the pointer is
    never NULL); OverflowError for a value outside int64."""
    values = [int64_value(v, what) for v in values]
    return (c_i64 * max(len(values), 1))(*values)


def output_shape(function, handle):
    """The planned output shape that bcast_op_output_shape or
    bcast_expr_output_shape (`function`) reports for `handle`."""
    dims, rank = (c_i64 * MAX_RANK)(), c_size()
    check(function(handle, MAX_RANK, ctypes.byref(rank), dims))
    return tuple(dims[:rank.value])


def describe(function, handle):
    """bcast_op_describe's or bcast_expr_describe's (`function`) JSON text."""
    size = function(handle, None, 0) + 1
    buf = ctypes.create_string_buffer(size)
    function(handle, buf, size)
    return buf.value.decode()
