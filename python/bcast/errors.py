"""Exceptions raised for the library's refusals, one class per bcast_status.

Each class also derives from the built-in exception a Python caller would
expect (a shape refusal is a ValueError, an unsupported dtype a TypeError...),
so ``except ValueError`` keeps working. ``str(error)`` is the library's own
message (bcast_last_error), e.g.
"numpy: cannot broadcast dimension 1: 3 vs 4 (shapes (2,3,5) and (4,5))".
"""

__all__ = [
    "BcastError",
    "InvalidArgumentError",
    "IncompatibleShapesError",
    "UnsupportedError",
    "OutOfMemoryError",
    "SizeOverflowError",
    "InvalidStateError",
    "InternalError",
    "ThreadError",
]


class BcastError(Exception):
    """A bcast call failed. ``status`` is the bcast_status code, ``status_name``
    its name (e.g. "BCAST_ERROR_INCOMPATIBLE_SHAPES"), ``message`` the library's
    message."""

    status = None

    def __init__(self, message, status=None, status_name=None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        self.status_name = status_name


class InvalidArgumentError(BcastError, ValueError):
    """BCAST_ERROR_INVALID_ARGUMENT: bad axis, rank, enum value, overlap..."""

    status = 1


class IncompatibleShapesError(BcastError, ValueError):
    """BCAST_ERROR_INCOMPATIBLE_SHAPES: the rule refuses these shapes."""

    status = 2


class UnsupportedError(BcastError, TypeError, NotImplementedError):
    """BCAST_ERROR_UNSUPPORTED: the (op, dtype) pair or arity is not offered."""

    status = 3


class OutOfMemoryError(BcastError, MemoryError):
    """BCAST_ERROR_OUT_OF_MEMORY."""

    status = 4


class SizeOverflowError(BcastError, OverflowError):
    """BCAST_ERROR_SIZE_OVERFLOW: an element count or byte size overflows."""

    status = 5


class InvalidStateError(BcastError, RuntimeError):
    """BCAST_ERROR_INVALID_STATE (a bug in this package if it ever escapes)."""

    status = 6


class InternalError(BcastError, RuntimeError):
    """BCAST_ERROR_INTERNAL: a bug in libbcast; please report it."""

    status = 7


class ThreadError(BcastError, OSError):
    """BCAST_ERROR_SYSTEM: the system refused a thread (a Pool's)."""

    status = 8


_BY_STATUS = {cls.status: cls for cls in (
    InvalidArgumentError, IncompatibleShapesError, UnsupportedError, OutOfMemoryError,
    SizeOverflowError, InvalidStateError, InternalError, ThreadError)}


def error_for_status(status, message, status_name=None):
    """The exception instance for a non-zero bcast_status (unknown codes give
    a plain BcastError)."""
    cls = _BY_STATUS.get(status, BcastError)
    return cls(message, status, status_name)
