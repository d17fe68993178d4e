"""bcast's thread pool from Python (bcast_pool), and what threads= means.

threads=None or 1: the calling thread alone (bcast_op_execute). An int n > 1,
or 0 for every CPU this process may run on: a pool of that many threads that
this module creates on first use and keeps for the process (one per count,
and per process: a forked child makes its own). A Pool: that pool. The call
releases the GIL while it runs, like every call through ctypes (the compiled
call path, bcast._fastcall, keeps it for calls of fewer than 16K elements,
where taking it back would cost more than the call).

The C pool must not be destroyed while an execute runs on it, so a Pool
counts the calls running on it (Pool.run) and close() waits for them; a call
on a closed pool raises.
"""

import ctypes
import os
import threading

import numpy as np

from ._arrays import as_int
from ._library import SIZE_MAX, OwnsHandles, c_void_p, check, lib


def _thread_count(threads, what, accepts="None, an int or a bcast.Pool"):
    try:
        n = as_int(threads, what + ": threads")
    except TypeError as e:
        if isinstance(threads, (bool, np.bool_)):
            raise
        raise TypeError("%s: threads must be %s, not %r" % (what, accepts, threads)) from e
    if n < 0:
        raise ValueError("%s: threads must be >= 0 (0: every CPU), not %d" % (what, n))
    if n > SIZE_MAX:
        raise OverflowError("%s: threads=%d is more than a size_t holds" % (what, n))
    return n


class Pool(OwnsHandles):
    """Threads that ops run on (bcast_pool). ``threads`` counts the calling
    thread, which works too (0: every CPU this process may run on); the others
    sleep between calls. Pass the pool as ``threads=`` to any op function,
    bcast.Op or bcast.fuse call: the result is the same as on one thread, and
    ops too small to gain run on the calling thread alone. One pool runs one
    op at a time (other callers wait their turn). ``close()`` (or leaving a
    ``with`` block) waits for the calls running on the pool, then stops its
    threads; later calls on it raise. A forked child cannot use its parent's
    pool."""

    def __init__(self, threads=0):
        n = _thread_count(threads, "bcast.Pool", "an int")
        handle = c_void_p()
        check(lib.bcast_pool_create(n, ctypes.byref(handle)))
        self._threads = lib.bcast_pool_threads(handle)
        self._pid = os.getpid()
        self._running = 0  # calls on the pool now (run)
        self._idle = threading.Condition(threading.Lock())
        self._handle = handle

    @property
    def threads(self):
        """The thread count, the caller included (0 once closed)."""
        return self._threads if self._handle else 0

    def run(self, what, execute, *args):
        """execute(*args, pool handle): one call on the pool, which close()
        waits for; `what` names the caller if the pool is closed."""
        with self._idle:
            handle = self._handle
            if not handle:
                raise ValueError("%s: the bcast.Pool is closed" % what)
            self._running += 1
        try:
            return execute(*args, handle)
        finally:
            with self._idle:
                self._running -= 1
                if not self._running:
                    self._idle.notify_all()

    def close(self):
        """Waits for the calls running on the pool, then stops its threads.
        Calls made after close() raise ValueError."""
        with self._idle:
            handle, self._handle = self._handle, None
            # A forked child's copy counts calls that ran in the parent's
            # threads: nothing to wait for, and destroy only forgets the pool.
            while self._running and self._pid == os.getpid():
                self._idle.wait()
        if handle:
            lib.bcast_pool_destroy(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None) and lib is not None:
            self.close()

    def __repr__(self):
        return "bcast.Pool(threads=%d)" % self._threads if self._handle else "bcast.Pool(closed)"


_shared = {}  # (pid, count) -> Pool
_lock = threading.Lock()


def pool_for(threads, what):
    """The Pool for a threads= argument; None: the calling thread alone."""
    if threads is None:
        return None
    if isinstance(threads, Pool):
        if not threads._handle:
            raise ValueError("%s: the bcast.Pool is closed" % what)
        return threads
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
    return pool
