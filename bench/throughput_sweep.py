#!/usr/bin/python3
"""Throughput of f32 ADD against size: bcast (ctypes), numpy and a memmove roofline.

Usage:
  /usr/bin/python3 bench/throughput_sweep.py BUILD/capi/libbcast.so.1 --out sweep.json
      [--bench BUILD/bench/bcast_bench] [--repeats N]

Two cases, n = 1K .. 16M elements in powers of 4:
  same shape  (n)+(n)        reads a and b, writes y
  broadcast   (n/64,64)+(64) reads a, writes y (b is 256 B and stays in L1)
For every point, in this one process and in alternating repeats: numpy's
np.add(a, b, out=y), bcast's ADD planned once and executed through the C API,
and the roofline reference below. Each gets the min per call over the repeats;
GB/s counts each input once plus the output once, as bcast_bench does. All
buffers start on a 64-byte boundary, as in bcast_bench, so a point does not
depend on where malloc happened to put an array.
bench/plot_throughput.py draws the JSON.

Roofline reference, and why it is this one: Python cannot run a plain C
streaming loop without compiling one, so the reference is glibc's memmove
(ctypes.memmove, the tuned copy numpy's np.copyto also ends in) over half the
case's bytes, i.e. the same bytes read plus written. For the broadcast case that
is exactly the case's traffic (one read stream, one write stream). For the
same-shape case the mix is 1:1 instead of 2 reads : 1 write, which costs a
little more per byte once in DRAM (more write traffic) — the line is a fair
roofline there. In cache a fused loop issues loads and stores in the same
cycles and beats a copy, so the line is a floor, not a ceiling, at small n;
every implementation, the reference included, also pays one Python call per
execution, which dominates the smallest sizes. As a cross-check, the C
reference loops of bcast_bench (the plainest fused y=a+b / y=a+c loops, best of
normal and non-temporal stores) are run for the matrix cases of the same shape
and added as separate points.
"""
import argparse
import ctypes
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_numpy import (BcastAdd, calls_per_repeat, cpu_model, load_library,  # noqa: E402
                           make_inputs, per_call_seconds)

SIZES = [1024 * 4 ** k for k in range(8)]  # 1K .. 16M elements
ROW = 64  # the broadcast case's row length
ALIGN = 64  # every buffer starts on a cache line

CASES = {
    "same shape (n)+(n)": lambda n: ((n,), (n,)),
    "broadcast (n/64,64)+(64)": lambda n: ((n // ROW, ROW), (ROW,)),
}

# bcast_bench matrix cases whose C reference loop moves the bytes of a sweep case.
BENCH_CROSS_CHECK = {
    "same shape (n)+(n)": ["(64K)+(64K) f32", "(16M)+(16M) f32"],
    "broadcast (n/64,64)+(64)": ["(8,112,112,64)+(64) f32", "(16M)+() f32"],
}


def time_alternating(fns, repeats):
    """Min per call of each function, timed in alternating repeats (a busy
    machine disturbs all of them alike)."""
    calls = [calls_per_repeat(f) for f in fns]
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, f in enumerate(fns):
            best[i] = min(best[i], per_call_seconds(f, calls[i]))
    return best


def aligned_empty(shape, dtype):
    """An array starting on a cache line, like bcast_bench's buffers: where numpy
    puts a large array is page offset 16, and results must not depend on it."""
    count, itemsize = int(np.prod(shape)), np.dtype(dtype).itemsize
    raw = np.empty(count * itemsize + ALIGN, np.uint8)
    skip = -raw.ctypes.data % ALIGN
    return raw[skip:skip + count * itemsize].view(dtype).reshape(shape)


def aligned_copy(array):
    copy = aligned_empty(array.shape, array.dtype)
    copy[...] = array
    return copy


def memmove_reference(nbytes_moved):
    """A copy of nbytes_moved / 2 bytes: the same bytes read plus written."""
    half = max(1, nbytes_moved // 2)
    src, dst = aligned_copy(np.ones(half, np.uint8)), aligned_empty(half, np.uint8)
    src_addr, dst_addr = src.ctypes.data, dst.ctypes.data
    move = ctypes.memmove
    return lambda: move(dst_addr, src_addr, half), (src, dst)  # keep buffers alive


def measure_point(lib, shapes, repeats):
    a_shape, b_shape = shapes
    case = dict(dtype="f32", a=a_shape, b=b_shape, rule=1, axis=-1)  # rule 1: numpy
    a, b = (aligned_copy(x) for x in make_inputs(case))
    expected = aligned_empty(np.broadcast_shapes(a_shape, b_shape), np.float32)
    out = aligned_empty(expected.shape, np.float32)
    nbytes = a.nbytes + b.nbytes + out.nbytes
    reference, _buffers = memmove_reference(nbytes)
    op = BcastAdd(lib, case, a, b, out)
    try:
        np.add(a, b, out=expected)
        op.execute()
        if not np.array_equal(out, expected):
            raise RuntimeError(f"bcast result differs from numpy for {a_shape}+{b_shape}")
        t_numpy, t_bcast, t_ref = time_alternating(
            [lambda: np.add(a, b, out=expected), op.execute, reference], repeats)
    finally:
        op.close()
    return dict(n=int(out.size), bytes=nbytes, seconds=dict(numpy=t_numpy, bcast=t_bcast, roofline=t_ref))


def bench_cross_check(bench, labels):
    """The C reference loop of each named bcast_bench case: [{n, bytes, seconds}]."""
    points = []
    for label in labels:
        with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
            # --offsets 0: this sweep's arrays start on a cache line too.
            subprocess.run([bench, "--filter", label, "--offsets", "0", "--budget-ms", "500",
                            "--json", tmp.name],
                           check=True, stdout=subprocess.DEVNULL)
            with open(tmp.name) as f:
                report = json.load(f)
        for c in report["cases"]:
            if f"{c['case']} {c['dtype']}" == label and not c["error"]:
                points.append(dict(case=label, n=int(np.prod(c["a"])), bytes=int(c["bytes"]),
                                   seconds=c["reference_time"]["min_ns"] * 1e-9))
    return points


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("library", help="path to the built libbcast.so.1")
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--bench", help="bcast_bench for the C reference cross-check "
                        "(default: ../bench/bcast_bench from the library's directory; skipped if absent)")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()

    lib = load_library(args.library)
    bench = args.bench or os.path.join(os.path.dirname(os.path.abspath(args.library)), "..", "bench", "bcast_bench")
    started = time.time()
    result = dict(
        bcast_version=lib.bcast_version_string().decode(), isa=lib.bcast_isa().decode(),
        numpy=np.__version__, python=platform.python_version(), cpu=cpu_model(), cpus=os.cpu_count(),
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        load_average_before=" ".join(f"{x:.2f}" for x in os.getloadavg()),
        repeats=args.repeats, alignment_bytes=ALIGN, roofline="glibc memmove of half the bytes (same bytes read + written)",
        cases=[])
    for name, shapes_of in CASES.items():
        points = []
        for n in SIZES:
            p = measure_point(lib, shapes_of(n), args.repeats)
            points.append(p)
            gbps = {k: p["bytes"] / t / 1e9 for k, t in p["seconds"].items()}
            print(f"{name:26} n={n:>9}  " + "  ".join(f"{k} {v:6.1f} GB/s" for k, v in gbps.items()),
                  flush=True)
        cross = bench_cross_check(bench, BENCH_CROSS_CHECK[name]) if os.path.exists(bench) else []
        result["cases"].append(dict(name=name, points=points, bench_reference=cross))
    result["load_average_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    result["seconds_total"] = round(time.time() - started, 1)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.out} in {result['seconds_total']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
