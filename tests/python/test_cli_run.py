"""`bcast run` (the CLI on .npy files) against numpy: numpy writes the
inputs and computes the expected result; the CLI's refusals name what is
wrong, exit 1 (the data) or 2 (the usage), and write nothing.

Run by ctest as "cli: run (pytest, vs numpy)":
    BCAST_CLI=build/tools/bcast /usr/bin/python3 -m pytest -q tests/python/test_cli_run.py
"""
import io
import os
import subprocess

import numpy as np
import pytest

from qdq_oracle import qdq

CLI = os.environ["BCAST_CLI"]
RNG = np.random.default_rng(7)


def save(path, array, version=None):
    with open(path, "wb") as f:
        np.lib.format.write_array(f, np.asarray(array), version=version, allow_pickle=True)
    return str(path)


def run(*args):
    return subprocess.run([CLI, "run"] + [str(a) for a in args], capture_output=True)


def rand(shape, dtype="f4"):
    return RNG.uniform(-4, 4, shape).astype(dtype)


def ints(low, high, shape, dtype):
    return RNG.integers(low, high, shape).astype(dtype)


A, B, B2 = rand((2, 3, 4, 5)), rand((3, 1)), rand((4, 1))
X, Y = ints(-50, 50, (4, 6), "i4"), ints(-50, 50, (6,), "i4")
M = RNG.uniform(0, 1, (3, 4)).astype("f8")
U = ints(0, 256, (5, 7), "u1")
H = rand((3, 2), "f2") / 2
COND = ints(0, 2, (2, 1), bool)
S, T = ints(0, 9, (2, 3), "i8"), np.array(-1, "i8")
C3, C1 = rand((4, 3, 2)) / 4, rand((4,)) / 4
# Large enough for the pool to split (about 3 MiB moved).
BIG, ROW = rand((512, 520)), rand((520,))

RESULTS = [
    ("add pdpd axis 1", ["--op", "add", "--rule", "pdpd", "--axis", "1"], [A, B],
     A + B[None, :, :, None]),
    ("sub numpy", ["--op", "SUB"], [A, B2], A - B2),
    ("less i4 -> bool", ["--op", "less"], [X, Y], X < Y),
    ("floor_divide i4", ["--op", "floor_divide"], [X, Y | 1], X // (Y | 1)),
    ("mean of three f8", ["--op", "mean"], [M, M[0], M[:, :1]], (M + M[0] + M[:, :1]) / 3),
    ("bitwise_and u1", ["--op", "bitwise_and"], [U, U[0]], U & U[0]),
    ("mul f2", ["--op", "mul"], [H, H], H * H),
    ("select bool, i8", ["--op", "select"], [COND, S, T], np.where(COND, S, T)),
    ("ncnn outer-axis 1-D", ["--op", "add", "--rule", "ncnn"], [C3, C1], C3 + C1[:, None, None]),
    ("0-d inputs", ["--op", "max"], [np.float64(2), np.float64(-3)], np.array(2.0)),
    ("empty input", ["--op", "add"], [np.ones((0, 3), "u2"), np.ones(3, "u2")],
     np.ones((0, 3), "u2")),
    ("logical_xor bool", ["--op", "logical_xor"], [COND, COND.T], COND ^ COND.T),
    ("add on 3 threads", ["--op", "add", "--threads", "3"], [BIG, ROW], BIG + ROW),
    ("sub on every CPU", ["--op", "sub", "--threads", "0"], [BIG, ROW], BIG - ROW),
    ("quantized u8 add", ["--op", "add", "--quant", "0.02:128", "--quant", "0.05:120",
                          "--quant", "0.04:3"], [U, U[0]],
     qdq("ADD", U, U[0], (0.02, 128), (0.05, 120), (0.04, 3), "u8")),
    ("quantized i8 mul", ["--op", "mul", "--quant", "0.1:-3", "--quant", "0.2:5",
                          "--quant", "0.3:0"], [U.astype("i1"), U[:, :1].astype("i1")],
     qdq("MUL", U.astype("i1"), U[:, :1].astype("i1"), (0.1, -3), (0.2, 5), (0.3, 0), "i8")),
]


@pytest.mark.parametrize("args, inputs, expected", [r[1:] for r in RESULTS],
                         ids=[r[0] for r in RESULTS])
def test_result_is_numpys(tmp_path, args, inputs, expected):
    names = [save(tmp_path / ("in%d.npy" % i), a) for i, a in enumerate(inputs)]
    out = tmp_path / "out.npy"
    r = run(*args, "--out", out, *names)
    assert r.returncode == 0, r.stderr.decode()
    got = np.load(out)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
def test_reads_every_npy_version(tmp_path, version):
    a = np.arange(12, dtype="i2").reshape(3, 4)
    name = save(tmp_path / "in.npy", a, version=version)
    r = run("--op", "add", "--out", tmp_path / "out.npy", name, name)
    assert r.returncode == 0, r.stderr.decode()
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), a + a)


def test_writes_what_numpy_writes(tmp_path):
    """A 1.0 header, the data 64-byte aligned."""
    name = save(tmp_path / "in.npy", np.arange(12, dtype="i2"))
    assert run("--op", "add", "--out", tmp_path / "out.npy", name, name).returncode == 0
    raw = (tmp_path / "out.npy").read_bytes()
    assert raw[6] == 1
    assert (10 + int.from_bytes(raw[8:10], "little")) % 64 == 0


def test_dash_o_names_the_output_after_the_inputs_too(tmp_path):
    """As in every Unix tool."""
    a = np.arange(12, dtype="i2")
    name = save(tmp_path / "in.npy", a)
    r = run("--op", "add", name, name, "-o", tmp_path / "short.npy")
    assert r.returncode == 0, r.stderr.decode()
    np.testing.assert_array_equal(np.load(tmp_path / "short.npy"), a + a)


def test_writes_to_stdout_without_out(tmp_path):
    a = np.arange(12, dtype="i2")
    name = save(tmp_path / "in.npy", a)
    r = run("--op", "add", name, name)
    assert r.returncode == 0, r.stderr.decode()
    np.testing.assert_array_equal(np.load(io.BytesIO(r.stdout)), a + a)


def _saved(array):
    return lambda tmp_path: save(tmp_path / "bad.npy", array)


def _written(content):
    def write(tmp_path):
        (tmp_path / "bad.npy").write_bytes(content(_good_bytes(tmp_path)))
        return str(tmp_path / "bad.npy")
    return write


def _good_bytes(tmp_path):
    return open(save(tmp_path / "raw.npy", np.ones(3, "f4")), "rb").read()


BAD_FILES = [
    ("fortran order", _saved(np.asfortranarray(np.ones((2, 3), "f4"))),
     "Fortran-order arrays are not supported"),
    ("big-endian", _saved(np.ones(3, ">f4")), "big-endian data is not supported"),
    ("object dtype", _saved(np.array([1, None], object)), "object arrays are not supported"),
    ("complex dtype", _saved(np.ones(3, "c8")), "is not supported"),
    ("structured dtype", _saved(np.zeros(2, [("a", "f4"), ("b", "i4")])),
     "structured dtypes are not supported"),
    ("truncated data", _written(lambda raw: raw[:-1]),
     "truncated: the header promises 12 bytes of data, the file has 11"),
    ("truncated header", _written(lambda raw: raw[:40]), "truncated header"),
    ("not a .npy file", _written(lambda raw: b"not an npy file at all"), "not a .npy file"),
    ("bytes after the data", _written(lambda raw: raw + b"\0\0\0\0"),
     "4 unexpected bytes after the array"),
    ("missing file", lambda tmp_path: str(tmp_path / "missing.npy"), "No such file or directory"),
    ("text after the header's dict", _written(lambda raw: raw.replace(b"), }", b"), }x", 1)),
     "unexpected text after the header's dict"),
    ("NUL in the header", _written(lambda raw: raw.replace(b"), }", b"), }\0", 1)),
     "a NUL byte in the header"),
    ("a directory", lambda tmp_path: (os.mkdir(tmp_path / "dir"), str(tmp_path / "dir"))[1],
     "Is a directory"),
    # Refused at its first bytes, not read whole (it never ends).
    ("an endless non-.npy stream", lambda tmp_path: "/dev/zero", "/dev/zero: not a .npy file"),
    ("a 4 GiB header", _written(lambda raw: raw[:6] + b"\x02\x00\xff\xff\xff\xff"), "a header of 4294967295 bytes"),
    ("the magic alone", _written(lambda raw: raw[:8]), "truncated header"),
]


@pytest.mark.parametrize("make, needle", [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES])
def test_refuses_a_bad_file(tmp_path, make, needle):
    good = save(tmp_path / "good.npy", np.ones(3, "f4"))
    r = run("--op", "add", "--out", tmp_path / "x.npy", make(tmp_path), good)
    assert r.returncode == 1
    assert needle in r.stderr.decode()
    assert not (tmp_path / "x.npy").exists()


REFUSALS = [
    ("mixed dtypes", ["--op", "add"], ["f4", "i4"], 1, "inputs have different dtypes"),
    ("select on a float condition", ["--op", "select"], ["f4", "f4", "f4"], 1,
     "select's condition"),
    ("library refusal", ["--op", "add"], ["f4", "f4b"], 1,
     "BCAST_ERROR_INCOMPATIBLE_SHAPES: numpy: cannot broadcast dimension 1"),
    ("unsupported op/dtype", ["--op", "atan2"], ["i4", "i4"], 1, "BCAST_ERROR_UNSUPPORTED"),
    ("no inputs", ["--op", "add"], [], 2, "no input files given"),
    ("unknown op", ["--op", "frob"], ["f4", "f4"], 2, "unknown op"),
    ("bad --threads", ["--op", "add", "--threads", "-1"], ["f4", "f4"], 2, "bad --threads"),
    ("bad --quant", ["--op", "add", "--quant", "x"], ["f4", "f4"], 2, "bad --quant 'x'"),
    ("--quant count", ["--op", "add", "--quant", "1:0"], ["f4", "f4"], 2, "--quant given 1 times"),
    ("--quant on f32", ["--op", "add"] + ["--quant", "1:0"] * 3, ["f4", "f4"], 1,
     "only u8 and i8 ops are quantized"),
    ("unknown op number", ["--op", "9999"], ["f4", "f4"], 2, "unknown op number '9999'"),
    ("unknown --isa", ["--op", "add", "--isa", "bogus"], ["f4", "f4"], 2, "--isa: unknown ISA 'bogus'"),
    ("empty --isa", ["--op", "add", "--isa", ""], ["f4", "f4"], 2, "--isa needs a kernel set name"),
    ("an option given twice", ["--op", "add", "--op", "mul"], ["f4", "f4"], 2, "--op given twice"),
]


@pytest.mark.parametrize("args, inputs, rc, needle", [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_refusal_exits_nonzero_and_writes_nothing(tmp_path, args, inputs, rc, needle):
    arrays = {"f4": np.ones((2, 3), "f4"), "i4": np.ones(3, "i4"), "f4b": np.ones(4, "f4")}
    names = [save(tmp_path / (name + ".npy"), arrays[name]) for name in inputs]
    r = run(*args, "--out", tmp_path / "x.npy", *names)
    assert r.returncode == rc
    assert needle in r.stderr.decode()
    assert not (tmp_path / "x.npy").exists()


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path):
    # A full disk, as a file-size limit gives it: the write fails, and the
    # file named by -o (here an existing one, and an input) keeps its bytes.
    import resource
    import signal

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    big = save(tmp_path / "big.npy", np.arange(1000, dtype="f4"))
    keep = save(tmp_path / "keep.npy", np.zeros(5, "f4"))
    before = {p: open(p, "rb").read() for p in (big, keep)}
    for out in (keep, big):
        r = subprocess.run([CLI, "run", "--op", "add", "-o", out, big, big], capture_output=True,
                           preexec_fn=limit)
        assert r.returncode == 1 and out + ": File too large" in r.stderr.decode()
    assert {p: open(p, "rb").read() for p in (big, keep)} == before
    assert sorted(os.listdir(tmp_path)) == ["big.npy", "keep.npy"]  # no temporary left


def _as_nobody():
    """Runs the child as nobody when the tests run as root (root may write any file)."""
    if os.getuid() == 0:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)


def test_a_file_this_user_may_not_write_is_refused_and_kept():
    # The output is written beside and renamed over, which the directory
    # alone would allow: a read-only file must be refused as writing it would.
    import shutil
    import tempfile
    try:  # as nobody, the checkout may be out of reach (a home directory)
        probe = subprocess.run([CLI, "plan", "3", "3"], capture_output=True, preexec_fn=_as_nobody)
    except PermissionError:
        probe = None
    if probe is None or probe.returncode != 0:
        pytest.skip("user nobody cannot run %s here" % CLI)
    work = tempfile.mkdtemp(dir="/tmp")
    try:
        os.chmod(work, 0o777)
        a = save(os.path.join(work, "a.npy"), np.arange(4, dtype="f4"))
        os.chmod(a, 0o644)
        ro = save(os.path.join(work, "ro.npy"), np.zeros(1, "f4"))
        os.chmod(ro, 0o444)
        before = open(ro, "rb").read()
        r = subprocess.run([CLI, "run", "--op", "add", "-o", ro, a, a], capture_output=True,
                           preexec_fn=_as_nobody)
        assert r.returncode == 1 and ro + ": Permission denied" in r.stderr.decode()
        assert open(ro, "rb").read() == before and os.stat(ro).st_mode & 0o777 == 0o444
        # A file that is writable but not ours is still replaced whole (its
        # owner then is the writer: the rename keeps a failed write harmless);
        # its set-id bits go with the owner it lost, as a write in place by
        # this user would clear them.
        for name, mode in (("other.npy", 0o666), ("setid.npy", 0o6666)) if os.getuid() == 0 else ():
            other = save(os.path.join(work, name), np.zeros(1, "f4"))
            os.chmod(other, mode)
            r = subprocess.run([CLI, "run", "--op", "add", "-o", other, a, a], capture_output=True,
                               preexec_fn=_as_nobody)
            assert r.returncode == 0, r.stderr.decode()
            assert os.stat(other).st_uid == 65534 and os.stat(other).st_mode & 0o7777 == 0o666
            np.testing.assert_array_equal(np.load(other), np.arange(4, dtype="f4") * 2)
        kept = ["other.npy", "setid.npy"] if os.getuid() == 0 else []
        assert sorted(os.listdir(work)) == sorted(["a.npy", "ro.npy"] + kept)
    finally:
        shutil.rmtree(work)


def test_the_output_file_is_replaced_as_the_same_file(tmp_path):
    # Written beside and renamed only where that is the same file: its mode
    # stays, a link's target is written (the link stays), a file with two
    # names keeps both, and a FIFO is written into, not replaced.
    a = save(tmp_path / "a.npy", np.arange(4, dtype="f4"))
    want = np.arange(4, dtype="f4") * 2
    out = save(tmp_path / "out.npy", np.zeros(1, "f4"))
    os.chmod(out, 0o600)
    assert run("--op", "add", "-o", out, a, a).returncode == 0
    assert os.stat(out).st_mode & 0o777 == 0o600
    os.symlink("out.npy", tmp_path / "link.npy")
    assert run("--op", "mul", "-o", tmp_path / "link.npy", a, a).returncode == 0
    assert os.path.islink(tmp_path / "link.npy")
    np.testing.assert_array_equal(np.load(out), np.arange(4, dtype="f4") ** 2)
    os.link(out, tmp_path / "second.npy")
    assert run("--op", "add", "-o", out, a, a).returncode == 0
    assert os.stat(out).st_nlink == 2
    np.testing.assert_array_equal(np.load(tmp_path / "second.npy"), want)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    assert run("--op", "add", "-o", fifo, a, a).returncode == 0
    np.testing.assert_array_equal(np.load(io.BytesIO(reader.communicate()[0])), want)
    assert os.path.exists(fifo) and not os.path.isfile(fifo)
    assert sorted(os.listdir(tmp_path)) == ["a.npy", "fifo", "link.npy", "out.npy", "second.npy"]


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path):
    # Ctrl-C, kill or a closed terminal at any moment: the output is the old
    # file or the whole new one, and nothing named out.npy.XXXXXX stays.
    import signal
    import time
    a = save(tmp_path / "a.npy", np.arange(1 << 21, dtype="f4"))
    out = tmp_path / "out.npy"
    old = save(out, np.zeros(3, "f4"))
    new = np.arange(1 << 21, dtype="f4") * 2
    for k in range(24):
        child = subprocess.Popen([CLI, "run", "--op", "add", "--threads", "2", "-o", str(out), a, a],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.002 * k)
        child.send_signal((signal.SIGINT, signal.SIGTERM, signal.SIGHUP)[k % 3])
        child.wait()
        assert sorted(os.listdir(tmp_path)) == ["a.npy", "out.npy"]
        written = np.load(out)
        assert written.shape == (3,) or np.array_equal(written, new)
