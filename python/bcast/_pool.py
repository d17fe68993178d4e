"""bcast's thread pool from Python (bcast_pool), and what threads= means.

threads=None or 1: the calling thread alone (bcast_op_execute). An int n > 1,
or 0 for every CPU this process may run on: a pool of that many threads that
this module creates on first use and keeps for the process (one per count,
and per process: a forked child makes its own). A Pool: that pool. The call
releases the GIL while it runs, like every call into the library.
"""

import ctypes
import operator
import os
import threading

from ._library import c_size, c_void_p, check, lib

_create = lib["bcast_pool_create"]
_create.restype, _create.argtypes = ctypes.c_int32, [c_size, ctypes.POINTER(c_void_p)]
_count = lib["bcast_pool_threads"]
_count.restype, _count.argtypes = c_size, [c_void_p]
_destroy = lib["bcast_pool_destroy"]
_destroy.restype, _destroy.argtypes = None, [c_void_p]
# bcast_op_execute_pool(handle, inputs, output, pool), typed as _plans.execute.
execute_pool = lib["bcast_op_execute_pool"]
execute_pool.restype, execute_pool.argtypes = ctypes.c_int32, [c_void_p] * 4


def _thread_count(threads, what):
    if isinstance(threads, bool):
        raise TypeError("%s: threads must be an int, not bool" % what)
    try:
        n = operator.index(threads)
    except TypeError:
        raise TypeError("%s: threads must be None, an int or a bcast.Pool, not %r"
                        % (what, threads)) from None
    if n < 0:
        raise ValueError("%s: threads must be >= 0 (0: every CPU), not %d" % (what, n))
    return n


class Pool:
    """Threads that ops run on (bcast_pool). ``threads`` counts the calling
    thread, which works too (0: every CPU this process may run on); the others
    sleep between calls. Pass the pool as ``threads=`` to any op function or
    bcast.Op call: the result is the same as on one thread, and ops too small
    to gain run on the calling thread alone. One pool runs one op at a time
    (other callers wait their turn). ``close()`` (or leaving a ``with``
    block) stops the threads; a forked child cannot use its parent's pool."""

    def __init__(self, threads=0):
        n = _thread_count(threads, "bcast.Pool")
        handle = c_void_p()
        check(_create(n, ctypes.byref(handle)))
        self._handle = handle
        self._pid = os.getpid()

    @property
    def threads(self):
        """The thread count, the caller included (0 once closed)."""
        return _count(self._handle) if self._handle else 0

    def close(self):
        """Stops the threads. No op may be running on the pool."""
        handle, self._handle = self._handle, None
        if handle:
            _destroy(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None) and _destroy is not None:
            self.close()

    def __repr__(self):
        return "bcast.Pool(threads=%d)" % self.threads if self._handle else "bcast.Pool(closed)"


_shared = {}  # (pid, count) -> Pool
_lock = threading.Lock()


def pool_handle(threads, what):
    """The bcast_pool handle for a threads= argument; None: one thread."""
    if threads is None:
        return None
    if isinstance(threads, Pool):
        if not threads._handle:
            raise ValueError("%s: the bcast.Pool is closed" % what)
        return threads._handle
    n = _thread_count(threads, what)
    if n == 1:
        return None
    key = (os.getpid(), n)
    pool = _shared.get(key)
    if pool is None:
        with _lock:
            pool = _shared.get(key)
            if pool is None:
                pool = _shared[key] = Pool(n)
    return pool._handle
