"""The compiled call path, the extension module bcast._fastcall: loaded or
not (then `fastcall` is None and every call goes through ctypes alone).

The environment variable BCAST_EXTENSION chooses:

* unset (or empty): bcast._fastcall if it is installed with the package,
  else the ctypes path;
* "off": the ctypes path, even if the extension is installed;
* a full path: that file (the build tree's, for the tests); failing to load
  it is an error, there is no fallback (as for BCAST_LIBRARY).

_call.py says what the extension does; it never changes what a call does,
only how fast the common case runs.
"""

import importlib.machinery
import importlib.util
import os

_NAME = "bcast._fastcall"


def _from_file(path):
    loader = importlib.machinery.ExtensionFileLoader(_NAME, path)
    spec = importlib.util.spec_from_file_location(_NAME, path, loader=loader)
    try:
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except (ImportError, OSError) as e:
        raise ImportError("bcast: cannot load BCAST_EXTENSION=%s: %s" % (path, e)) from e
    return module


def _load():
    choice = os.environ.get("BCAST_EXTENSION", "")
    if choice == "off":
        return None
    if choice:
        return _from_file(choice)
    try:
        from . import _fastcall
    except ImportError:  # a pure-Python install
        return None
    return _fastcall


fastcall = _load()
