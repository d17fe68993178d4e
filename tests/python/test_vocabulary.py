"""The vocabulary's copies against the library's own names (C API 1.3).

python/bcast/_enums.py and the man page docs/bcast.1 spell out the op, dtype,
rule and expand-mode names; the library is the one list (the op table in
src/core/op_info.hpp). Every name and integer of those copies is checked
here through ctypes calls of bcast_*_name / bcast_*_from_name /
bcast_op_output_dtype, both ways: nothing missing, nothing extra.

Run by ctest as "python: vocabulary (pytest)":
    BCAST_LIBRARY=build/capi/libbcast.so PYTHONPATH=python \\
        /usr/bin/python3 -m pytest -q tests/python/test_vocabulary.py
(BCAST_CLI=build/tools/bcast adds the CLI's help texts.)
"""
import ctypes
import os
import pathlib
import re
import subprocess

import numpy as np
import pytest

from bcast import _enums

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIB = ctypes.CDLL(os.environ["BCAST_LIBRARY"])
for kind in ("opcode", "dtype", "rule", "expand_mode"):
    getattr(LIB, "bcast_%s_name" % kind).restype = ctypes.c_char_p
    getattr(LIB, "bcast_%s_name" % kind).argtypes = [ctypes.c_int32]
    getattr(LIB, "bcast_%s_from_name" % kind).restype = ctypes.c_int32
    getattr(LIB, "bcast_%s_from_name" % kind).argtypes = [ctypes.c_char_p,
                                                          ctypes.POINTER(ctypes.c_int32)]
LIB.bcast_op_output_dtype.restype = ctypes.c_int32
LIB.bcast_op_output_dtype.argtypes = [ctypes.c_int32, ctypes.c_int32,
                                      ctypes.POINTER(ctypes.c_int32)]
LIB.bcast_op_supports.restype = ctypes.c_int32
LIB.bcast_op_supports.argtypes = [ctypes.c_int32, ctypes.c_int32]
LIB.bcast_last_error.restype = ctypes.c_char_p
LIB.bcast_isa_name.restype = ctypes.c_char_p
LIB.bcast_isa_name.argtypes = [ctypes.c_int32]

# Names a copy may hold beyond the library's: alias -> the library's name.
RULE_ALIASES = {"multidirectional": "numpy"}  # ONNX's name for the numpy rule


def names(kind):
    """The library's names of one kind, by value (0 up to the first NULL)."""
    name_of = getattr(LIB, "bcast_%s_name" % kind)
    found = []
    while len(found) < 1000 and name_of(len(found)) is not None:
        found.append(name_of(len(found)).decode())
    return found


def value(kind, name):
    out = ctypes.c_int32(-1)
    status = getattr(LIB, "bcast_%s_from_name" % kind)(name.encode(), ctypes.byref(out))
    assert status == 0, LIB.bcast_last_error().decode()
    return out.value


def check_copy(kind, copy, aliases=None):
    """copy (name -> integer) holds exactly the library's names of `kind`, in
    lower case, with the library's integers; aliases map to their name's."""
    aliases = aliases or {}
    library = names(kind)
    assert library, kind
    for name, code in copy.items():
        canonical = aliases.get(name, name)
        assert value(kind, canonical) == code, (kind, name)
        assert library[code].lower() == canonical, (kind, name)
    assert sorted(set(copy) - set(aliases)) == sorted(n.lower() for n in library)


def test_opcodes():
    check_copy("opcode", _enums.OPCODES)


def test_rules():
    check_copy("rule", _enums.RULES, RULE_ALIASES)


def test_expand_modes():
    check_copy("expand_mode", _enums.EXPAND_MODES)


def test_dtype_names_and_codes():
    check_copy("dtype", _enums.DTYPE_NAMES)
    assert _enums.BF16_CODE == value("dtype", "bf16")
    assert _enums.BOOL_CODE == value("dtype", "bool")


def test_numpy_dtypes_map_to_the_library_dtype_of_their_kind_and_size():
    # float32 -> "f32", uint8 -> "u8", bool -> "bool": by numpy's own description.
    mapped = set()
    for dtype in (np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16,
                  np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.bool_):
        dtype = np.dtype(dtype)
        name = "bool" if dtype.kind == "b" else "%s%d" % (dtype.kind, 8 * dtype.itemsize)
        assert _enums.numpy_dtype_code(dtype) == value("dtype", name), dtype
        mapped.add(name)
    # Every library dtype but bfloat16 (no numpy dtype) has its numpy dtype.
    assert mapped == set(names("dtype")) - {"bf16"}


def test_bool_result_ops():
    """An op returns bool when every dtype it takes gives a BOOL result."""
    bool_code = value("dtype", "bool")
    dtypes = range(len(names("dtype")))
    expected = set()
    for code, name in enumerate(names("opcode")):
        results = set()
        for dt in dtypes:
            if LIB.bcast_op_supports(code, dt):
                out = ctypes.c_int32(-1)
                assert LIB.bcast_op_output_dtype(code, dt, ctypes.byref(out)) == 0
                results.add(out.value if out.value == bool_code or out.value == dt else None)
        assert None not in results, name  # BOOL or the input dtype, nothing else
        if results == {bool_code}:
            expected.add(name.lower())
    assert set(_enums.BOOL_RESULT_OPS) == expected
    assert {"less", "logical_xor"} <= expected and "bitwise_and" not in expected


# The man page lists each kind after "one of:", up to "(" or ".".
MAN_LISTS = {"op": "opcode", "dtype": "dtype", "rule": "rule", "expand": "expand_mode", "isa": "isa"}


def man_page_list(option):
    text = (ROOT / "docs" / "bcast.1").read_text()
    paragraph = re.search(r"^\.BI \\-\\-%s \"[^\n]*\n(.*?)^\.TP" % option, text,
                          re.S | re.M)
    assert paragraph, "docs/bcast.1 has no --%s paragraph" % option
    listed = re.search(r"one of:\s*([^(.]*)", paragraph.group(1))
    assert listed, "the --%s paragraph lists no names after 'one of:'" % option
    return [w for w in re.split(r"[\s,]+", listed.group(1)) if w]


@pytest.mark.parametrize("option", sorted(MAN_LISTS))
def test_man_page_lists_the_library_names(option):
    listed = man_page_list(option)
    library = [n.lower() for n in names(MAN_LISTS[option])]
    assert sorted(set(listed) - set(library)) == [], "names the library does not have"
    assert sorted(set(library) - set(listed)) == [], "library names the man page misses"
    assert listed == library, "in the library's order"


@pytest.mark.skipif("BCAST_CLI" not in os.environ, reason="BCAST_CLI is not set")
def test_cli_help_lists_the_library_names():
    # The CLI is a program of its own: under the sanitizer build it carries its
    # own ASan runtime, which the interpreter's preloaded one must not meet.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    help_text = subprocess.run([os.environ["BCAST_CLI"], "plan", "--help"], check=True,
                               capture_output=True, text=True, env=env).stdout
    ops = re.search(r"--op OP .*?\n((?:\s{16}\S.*\n)+)", help_text).group(1).split()
    assert ops == [n.lower() for n in names("opcode")]
    dtypes = re.search(r"--dtype DT +(.*)\n", help_text).group(1).split()
    assert dtypes == names("dtype")
    isas = re.search(r"--isa NAME .*one of:\n\s+(.*)\n", help_text).group(1)
    assert isas.split(", ") == names("isa")


def test_isa_names():
    """Every kernel set the dispatch knows, and the cap takes each of them."""
    import bcast
    listed = names("isa")
    assert listed[0] == "scalar" and {"sse2", "avx2", "avx512", "neon"} <= set(listed)
    assert LIB.bcast_isa_name(-1) is None
    assert bcast.isa_names() == tuple(listed)
    assert bcast.isa() in listed
    LIB.bcast_set_max_isa.argtypes = [ctypes.c_char_p]
    LIB.bcast_isa.restype = ctypes.c_char_p
    in_force = LIB.bcast_isa()
    try:
        for name in listed:
            assert LIB.bcast_set_max_isa(name.encode()) == 0, name
        assert LIB.bcast_set_max_isa(b"avx3") != 0
        message = LIB.bcast_last_error().decode()
        assert message.endswith("(expected one of: %s)" % ", ".join(listed)), message
    finally:
        LIB.bcast_set_max_isa(in_force)  # what was in force: the best up to it


def test_every_op_has_its_python_function():
    import bcast
    missing = [n.lower() for n in names("opcode") if not callable(getattr(bcast, n.lower(), None))]
    assert missing == []


def test_man_page_names_the_library_version():
    LIB.bcast_version_string.restype = ctypes.c_char_p
    header = re.search(r'^\.TH BCAST 1 "[^"]*" "bcast ([^"]+)"', (ROOT / "docs" / "bcast.1").read_text(), re.M)
    assert header, "docs/bcast.1 has no .TH line naming the version"
    assert header.group(1) == LIB.bcast_version_string().decode()
