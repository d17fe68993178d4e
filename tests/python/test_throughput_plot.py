"""README's picture docs/throughput.png cannot go stale: the sweep that
measures it (bench/throughput_sweep.py, in its quick mode) and the script that
draws it (bench/plot_throughput.py) run here into a temporary directory, and
the PNG they make must be valid and carry the run's metadata; the committed
picture must name the project's current major.minor version
(CMakeLists.txt's project(VERSION)), so a version bump without a redraw fails.

Run by ctest as "bench: throughput plot (pytest)" (needs BCAST_LIBRARY,
BCAST_ROOFLINE_PY and BCAST_CLI; skipped where matplotlib is not installed)
and "docs: throughput.png names the current version".
"""
import json
import os
import re
import struct
import subprocess
import sys
import zlib

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
from compare_numpy import bench_env  # noqa: E402 (the CLI's environment under a sanitizer build)

SWEEP = os.path.join(ROOT, "bench", "throughput_sweep.py")
PLOT = os.path.join(ROOT, "bench", "plot_throughput.py")
COMMITTED = os.path.join(ROOT, "docs", "throughput.png")
SERIES = {"bcast_tuned", "bcast_untuned", "bcast_tuned_aligned64", "numpy", "roofline"}


def png_text(path):
    """The tEXt chunks of a PNG, read by the format's rules (not matplotlib's):
    the signature, IHDR first with a non-empty image, every chunk's CRC, IEND last."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    at, names, text = 8, [], {}
    while at < len(data):
        length, name = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert len(body) == length and crc == zlib.crc32(name + body), f"bad {name!r} chunk"
        names.append(name)
        if name == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
            assert width > 0 and height > 0
        if name == b"tEXt":
            key, value = body.split(b"\0", 1)
            text[key.decode("latin-1")] = value.decode("latin-1")
        at += 12 + length
    assert names[0] == b"IHDR" and names[-1] == b"IEND" and b"IDAT" in names, names
    return text


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        match = re.search(r"project\(bcast VERSION (\d+)\.(\d+)\.(\d+)", f.read())
    assert match, "CMakeLists.txt names no project(bcast VERSION x.y.z)"
    return tuple(int(x) for x in match.groups())


def run(*args):
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    assert done.returncode == 0, f"{args[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_quick_sweep_draws_a_png_with_its_settings(tmp_path):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        pytest.skip("throughput plot skipped: matplotlib is not installed (apt-get install python3-matplotlib)")
    tuning = tmp_path / "tuning.json"
    done = subprocess.run([os.environ["BCAST_CLI"], "tune", "--quick", "--out", str(tuning)],
                          capture_output=True, text=True, env=bench_env())
    assert done.returncode == 0, done.stderr
    sweep, png = tmp_path / "sweep.json", tmp_path / "throughput.png"
    run(SWEEP, os.environ["BCAST_LIBRARY"], "--roofline", os.environ["BCAST_ROOFLINE_PY"],
        "--tuning", str(tuning), "--out", str(sweep), "--quick", "--threads", "1,2")
    with open(sweep) as f:
        result = json.load(f)
    assert {(p["case"], p["threads"]) for p in result["panels"]} == {
        (case, t) for case in ("same shape (n)+(n)", "row broadcast (n/64,64)+(64)") for t in (1, 2)}
    for panel in result["panels"]:
        for point in panel["points"]:
            assert set(point["seconds"]) == SERIES
            assert all(0 < s < 1 for s in point["seconds"].values()), point
            # Bytes each execute moves: a, b and y of f32, from the case's shapes.
            n = point["n"]
            b = n if panel["case"].startswith("same") else 64
            assert point["bytes"] == 4 * (n + b + n)
    assert "BCAST_TUNING=off" in result["untuned"]

    run(PLOT, str(sweep), str(png))
    text = png_text(png)
    assert text["bcast version"] == "%d.%d.%d" % project_version()
    settings = json.loads(text["bcast sweep settings"])
    assert settings["quick"] is True and settings["threads"] == [1, 2]
    assert settings["tuned"]["file"] == str(tuning)


def test_committed_png_names_the_current_version():
    text = png_text(COMMITTED)
    major, minor, _ = project_version()
    drawn = text.get("bcast version", "(none: drawn before the plot script wrote metadata)")
    assert drawn.split(".")[:2] == [str(major), str(minor)], (
        f"docs/throughput.png shows bcast {drawn}, the project is {major}.{minor}: redraw it "
        "(README, 'Throughput.')")
    assert json.loads(text["bcast sweep settings"])["quick"] is False, "docs/throughput.png is a quick run"
