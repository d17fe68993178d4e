"""The data address of an ndarray, at a fraction of ``arr.ctypes.data``'s cost.

``arr.ctypes.data`` builds a helper object on every access (about half a
microsecond, more than a whole 16-element add). numpy's C API reads the
address from the array object itself (PyArray_DATA: the ``data`` field right
after the object header), and CPython's id() is the object's address, so
ctypes can read that field directly. On CPython the offset is found and
checked at import against ``arr.ctypes.data`` on arrays of several kinds;
where it does not hold (a debug or free-threaded build's larger header), and
on other Python implementations, OFFSET is None and ``data_address`` falls
back to ``arr.ctypes.data``.
"""

import ctypes
import sys

import numpy as np

_c_void_p = ctypes.c_void_p


def _slow(arr):
    return arr.ctypes.data


def _find_offset():
    if sys.implementation.name != "cpython":  # id() is not an address elsewhere
        return None
    probes = [np.empty(3, "f4"), np.zeros((2, 3), "i8")[:, ::-1], np.ones(0, "u1"),
              np.ones((), "f8"), np.arange(10, dtype="i2")[3:], np.ones(4, ">f4")]
    for offset in (ctypes.sizeof(ctypes.c_void_p) * 2, ctypes.sizeof(ctypes.c_void_p) * 4):
        try:
            if all(_c_void_p.from_address(id(p) + offset).value == p.ctypes.data
                   or (p.ctypes.data == 0 and _c_void_p.from_address(id(p) + offset).value is None)
                   for p in probes):
                return offset
        except (ValueError, OverflowError, TypeError):
            return None
    return None


OFFSET = _find_offset()

# id(array) -> a c_void_p over that array's data field (data_field), which
# costs a third less than a new view per call. A view fits any ndarray that
# lives at that address later too (the field is at the same offset in all of
# them), and is only read for a live ndarray there, so it never goes stale;
# the map is emptied when it grows past _FIELDS_MAX.
fields = {}
_FIELDS_MAX = 4096

if OFFSET is None:
    def data_address(arr):
        """The address of arr's element (0, ..., 0) (an int; 0 for none)."""
        return arr.ctypes.data

    def data_field(arr):
        """arr's data pointer as a ctypes.c_void_p (fields stays empty here:
        there is no field to read in place)."""
        return _c_void_p(arr.ctypes.data)
else:
    def data_address(arr, _from_address=_c_void_p.from_address, _id=id, _offset=OFFSET):
        """The address of arr's element (0, ..., 0) (an int; 0 for none);
        arr must be a numpy.ndarray."""
        return _from_address(_id(arr) + _offset).value or 0

    def data_field(arr, _from_address=_c_void_p.from_address, _id=id, _offset=OFFSET):
        """A c_void_p over arr's data field, read when used (pass it to the
        library, or read .value), kept in `fields` for later calls with an
        array at the same address; arr must be a numpy.ndarray."""
        if len(fields) >= _FIELDS_MAX:
            fields.clear()
        view = fields[_id(arr)] = _from_address(_id(arr) + _offset)
        return view
