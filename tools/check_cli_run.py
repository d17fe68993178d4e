#!/usr/bin/python3
"""ctest helper for `bcast run`: writes .npy inputs with numpy, runs the CLI,
compares its .npy output with numpy's result (the oracle).

Usage: check_cli_run.py /path/to/bcast CHECK
CHECK is one of: ops, versions, bad-files, refusals. Prints one line per case
and exits non-zero if any case failed.
"""
import atexit
import io
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

CLI = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="bcast-cli-run-")
atexit.register(shutil.rmtree, TMP, True)
FAILED = []


def path(name):
    return os.path.join(TMP, name)


def save(name, array, version=None):
    with open(path(name), "wb") as f:
        np.lib.format.write_array(f, np.asarray(array), version=version, allow_pickle=True)
    return path(name)


def run(*args):
    return subprocess.run([CLI, "run"] + list(args), capture_output=True)


def check(case, ok, detail=""):
    print(("ok:   " if ok else "FAIL: ") + case + ("" if ok else ": " + detail))
    if not ok:
        FAILED.append(case)


def check_result(case, args, inputs, expected):
    names = [save("%s_in%d.npy" % (case.split()[0], i), a) for i, a in enumerate(inputs)]
    out = path("out.npy")
    r = run(*(list(args) + ["--out", out] + names))
    if r.returncode != 0:
        return check(case, False, "exit %d: %s" % (r.returncode, r.stderr.decode()))
    got = np.load(out)
    ok = got.shape == expected.shape and got.dtype == expected.dtype and \
        np.array_equal(got, expected, equal_nan=got.dtype.kind == "f")
    check(case, ok, "got %r %s, expected %r %s" % (got.shape, got.dtype, expected.shape,
                                                  expected.dtype))


def check_refusal(case, args, needle, rc=1):
    r = run(*args)
    err = r.stderr.decode()
    check(case, r.returncode == rc and needle in err, "exit %d, stderr %r" % (r.returncode, err))


def ops():
    rng = np.random.default_rng(7)
    a = rng.uniform(-4, 4, (2, 3, 4, 5)).astype("f4")
    b = rng.uniform(-4, 4, (3, 1)).astype("f4")
    check_result("add pdpd axis 1", ["--op", "add", "--rule", "pdpd", "--axis", "1"], [a, b],
                 a + b[None, :, :, None])
    b2 = rng.uniform(-4, 4, (4, 1)).astype("f4")
    check_result("sub numpy", ["--op", "SUB"], [a, b2], a - b2)
    x = rng.integers(-50, 50, (4, 6)).astype("i4")
    y = rng.integers(-50, 50, (6,)).astype("i4")
    check_result("less i4 -> bool", ["--op", "less"], [x, y], x < y)
    check_result("floor_divide i4", ["--op", "floor_divide"], [x, y | 1], x // (y | 1))
    m = rng.uniform(0, 1, (3, 4)).astype("f8")
    check_result("mean of three f8", ["--op", "mean"], [m, m[0], m[:, :1]],
                 (m + m[0] + m[:, :1]) / 3)
    u = rng.integers(0, 256, (5, 7)).astype("u1")
    check_result("bitwise_and u1", ["--op", "bitwise_and"], [u, u[0]], u & u[0])
    h = rng.uniform(-2, 2, (3, 2)).astype("f2")
    check_result("mul f2", ["--op", "mul"], [h, h], h * h)
    cond = rng.integers(0, 2, (2, 1)).astype(bool)
    s, t = rng.integers(0, 9, (2, 3)).astype("i8"), np.array(-1, "i8")
    check_result("select bool, i8", ["--op", "select"], [cond, s, t], np.where(cond, s, t))
    c3 = rng.uniform(-1, 1, (4, 3, 2)).astype("f4")
    c1 = rng.uniform(-1, 1, (4,)).astype("f4")
    check_result("ncnn outer-axis 1-D", ["--op", "add", "--rule", "ncnn"], [c3, c1],
                 c3 + c1[:, None, None])
    check_result("0-d inputs", ["--op", "max"], [np.float64(2), np.float64(-3)],
                 np.array(2.0))
    check_result("empty input", ["--op", "add"], [np.ones((0, 3), "u2"), np.ones(3, "u2")],
                 np.ones((0, 3), "u2"))
    check_result("logical_xor bool", ["--op", "logical_xor"], [cond, cond.T], cond ^ cond.T)
    # On bcast's pool: large enough to split (about 3 MiB moved), same result.
    big = rng.uniform(-4, 4, (512, 520)).astype("f4")
    row = rng.uniform(-4, 4, (520,)).astype("f4")
    check_result("add on 3 threads", ["--op", "add", "--threads", "3"], [big, row], big + row)
    check_result("add on every CPU", ["--op", "sub", "--threads", "0"], [big, row], big - row)


def versions():
    a = np.arange(12, dtype="i2").reshape(3, 4)
    for version in [(1, 0), (2, 0), (3, 0)]:
        name = save("v%d.npy" % version[0], a, version=version)
        r = run("--op", "add", "--out", path("out.npy"), name, name)
        got = np.load(path("out.npy")) if r.returncode == 0 else None
        check("read .npy %d.0" % version[0], got is not None and np.array_equal(got, a + a),
              r.stderr.decode())
    # What the CLI writes is what numpy writes: a 1.0 header, data 64-byte aligned.
    with open(path("out.npy"), "rb") as f:
        raw = f.read()
    header_end = 10 + int.from_bytes(raw[8:10], "little")
    check("writes .npy 1.0, 64-byte aligned", raw[6] == 1 and header_end % 64 == 0,
          "version %d, header end %d" % (raw[6], header_end))
    # -o names the output, after the inputs too (as in every Unix tool).
    r = run("--op", "add", path("v1.npy"), path("v1.npy"), "-o", path("short.npy"))
    check("-o FILE writes the result", r.returncode == 0 and
          np.array_equal(np.load(path("short.npy")), a + a), r.stderr.decode())
    r = subprocess.run([CLI, "run", "--op", "add", path("v1.npy"), path("v1.npy")],
                       capture_output=True)
    check("writes to stdout without --out", r.returncode == 0 and
          np.array_equal(np.load(io.BytesIO(r.stdout)), a + a), r.stderr.decode())


def bad_files():
    good = save("good.npy", np.ones(3, "f4"))
    with open(good, "rb") as f:
        raw = f.read()
    cases = [
        ("fortran order", save("fortran.npy", np.asfortranarray(np.ones((2, 3), "f4"))),
         "Fortran-order arrays are not supported"),
        ("big-endian", save("big.npy", np.ones(3, ">f4")), "big-endian data is not supported"),
        ("object dtype", save("object.npy", np.array([1, None], object)),
         "object arrays are not supported"),
        ("complex dtype", save("complex.npy", np.ones(3, "c8")), "is not supported"),
        ("structured dtype", save("struct.npy", np.zeros(2, [("a", "f4"), ("b", "i4")])),
         "structured dtypes are not supported"),
    ]
    for name, content in [("truncated.npy", raw[:-1]), ("header.npy", raw[:40]),
                          ("garbage.npy", b"not an npy file at all"),
                          ("trailing.npy", raw + b"\0\0\0\0")]:
        with open(path(name), "wb") as f:
            f.write(content)
    cases += [
        ("truncated data", path("truncated.npy"),
         "truncated: the header promises 12 bytes of data, the file has 11"),
        ("truncated header", path("header.npy"), "truncated header"),
        ("not a .npy file", path("garbage.npy"), "not a .npy file"),
        ("bytes after the data", path("trailing.npy"), "4 unexpected bytes after the array"),
        ("missing file", path("missing.npy"), "No such file or directory"),
    ]
    for case, name, needle in cases:
        check_refusal("refuses " + case, ["--op", "add", "--out", path("x.npy"), name, good],
                      needle)


def refusals():
    f4 = save("f4.npy", np.ones((2, 3), "f4"))
    i4 = save("i4.npy", np.ones(3, "i4"))
    f4b = save("f4b.npy", np.ones(4, "f4"))
    out = ["--out", path("x.npy")]
    check_refusal("mixed dtypes exit 1", ["--op", "add"] + out + [f4, i4],
                  "inputs have different dtypes")
    check_refusal("library refusal exit 1", ["--op", "add"] + out + [f4, f4b],
                  "BCAST_ERROR_INCOMPATIBLE_SHAPES: numpy: cannot broadcast dimension 1")
    check_refusal("unsupported op/dtype exit 1", ["--op", "atan2"] + out + [i4, i4],
                  "BCAST_ERROR_UNSUPPORTED")
    check_refusal("no inputs exit 2", ["--op", "add"] + out, "no input files given", rc=2)
    check_refusal("unknown op exit 2", ["--op", "frob"] + out + [f4, f4], "unknown op", rc=2)
    check_refusal("bad --threads exit 2", ["--op", "add", "--threads", "-1"] + out + [f4, f4],
                  "bad --threads", rc=2)
    check("nothing written on refusal", not os.path.exists(path("x.npy")))


CHECKS = {"ops": ops, "versions": versions, "bad-files": bad_files, "refusals": refusals}
if len(sys.argv) != 3 or sys.argv[2] not in CHECKS:
    sys.exit("usage: check_cli_run.py /path/to/bcast {%s}" % ",".join(CHECKS))
CHECKS[sys.argv[2]]()
print("%s: %d failed" % (sys.argv[2], len(FAILED)))
sys.exit(1 if FAILED else 0)
