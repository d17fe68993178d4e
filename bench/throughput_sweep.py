#!/usr/bin/python3
"""Throughput of f32 ADD against size: bcast tuned and untuned, numpy, the same-run roofline.

Usage:
  /usr/bin/python3 bench/throughput_sweep.py BUILD/capi/libbcast.so.1 --tuning FILE --out sweep.json
      [--roofline BUILD/bench/bcast_roofline_py.so] [--threads 1,2] [--repeats N] [--quick]

FILE is a tuning file written by `bcast tune` on this host (README, "Tuning").
Two cases, n = 1K .. 16M output elements in powers of 4 (--quick: 4K and 256K):
  same shape  (n)+(n)        reads a and b, writes y
  broadcast   (n/64,64)+(64) reads a, writes y (b is 256 B and stays in L1)
on 1 and on 2 threads (--threads). For every point, in this one process and in
alternated rounds (compare_numpy.time_alternating), each the min per call:
  bcast tuned        ADD planned once, executed through the C API (ctypes; on a
                     bcast_pool of that many threads), the tuning file in force
                     (bcast_tuning_load_string before each of its repeats)
  bcast untuned      the same with the built-in tuning (the process runs with
                     BCAST_TUNING=off; bcast_tuning_load_string(NULL) restores it)
  bcast tuned, +0    bcast tuned on 64-byte aligned copies of the arrays
  numpy              np.add(a, b, out=y) (numpy runs on one thread)
  roofline           `bcast bench`'s same-run roofline (tools/cli_roofline.hpp
                     through bench/roofline_py.cpp): the plainest vector loop
                     moving the case's bytes (y=a+b, or y=a+c for the broadcast
                     row), on as many threads as bcast, each on its share, the
                     faster of normal and non-temporal stores, on the same arrays
Every series but "+0" runs on numpy's own arrays, at the alignment numpy gives
(each point records address % 64 of a, b and y). GB/s counts each input once
plus the output once, as bcast_bench does; each call pays one Python call
(ufunc dispatch or ctypes), which dominates the smallest sizes.
bench/plot_throughput.py draws the JSON.
"""
import argparse
import ctypes
import functools
import json
import os
import platform
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
# The untuned series is the built-in tuning: the first lookup must find no file.
os.environ["BCAST_TUNING"] = "off"

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_numpy import (OK, REPEAT_SECONDS, BcastAdd, cpu_model, load_library,  # noqa: E402
                           make_inputs, offset_label, time_alternating)

SIZES = [1024 * 4 ** k for k in range(8)]  # 1K .. 16M elements
QUICK_SIZES = [4096, 256 * 1024]
QUICK_REPEAT_SECONDS = 0.002
ROW = 64  # the broadcast case's row length
ALIGN = 64
DTYPE_F32 = 0  # <bcast/bcast.h> BCAST_DTYPE_F32

CASES = {
    "same shape (n)+(n)": lambda n: ((n,), (n,)),
    "row broadcast (n/64,64)+(64)": lambda n: ((n // ROW, ROW), (ROW,)),
}
# Series names, in the JSON and the plot.
SERIES = ("bcast_tuned", "bcast_untuned", "bcast_tuned_aligned64", "numpy", "roofline")


def aligned_copy(array):
    """A copy starting on a cache line (bcast_bench's +0 layout)."""
    raw = np.empty(array.nbytes + ALIGN, np.uint8)
    skip = -raw.ctypes.data % ALIGN
    copy = raw[skip:skip + array.nbytes].view(array.dtype).reshape(array.shape)
    copy[...] = array
    return copy


class Roofline:
    """bench/roofline_py.cpp: `bcast bench`'s roofline loop on the given arrays."""

    def __init__(self, module, inputs, out, threads):
        self.lib = module
        count = len(inputs)
        pointers = (ctypes.c_void_p * count)(*[x.ctypes.data for x in inputs])
        sizes = (ctypes.c_size_t * count)(*[x.nbytes for x in inputs])
        self.handle = module.bcast_roofline_py_create(count, pointers, sizes, out.ctypes.data,
                                                      out.nbytes, DTYPE_F32, threads)
        if not self.handle:
            raise RuntimeError(f"the roofline on {threads} threads could not start")
        self.bytes = module.bcast_roofline_py_bytes(self.handle)
        # A private function object called through partials, as BcastAdd's execute.
        run = module["bcast_roofline_py_run"]
        run.restype = ctypes.c_int
        handle = ctypes.c_void_p(self.handle)
        self.normal = functools.partial(run, handle, ctypes.c_int(0))
        self.streaming = functools.partial(run, handle, ctypes.c_int(1))

    def close(self):
        self.lib.bcast_roofline_py_destroy(self.handle)


def load_roofline(path):
    module = ctypes.CDLL(path, mode=os.RTLD_LOCAL)
    module.bcast_roofline_py_create.argtypes = [
        ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t),
        ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int32, ctypes.c_int]
    module.bcast_roofline_py_create.restype = ctypes.c_void_p
    module.bcast_roofline_py_bytes.argtypes = [ctypes.c_void_p]
    module.bcast_roofline_py_bytes.restype = ctypes.c_size_t
    module.bcast_roofline_py_destroy.argtypes = [ctypes.c_void_p]
    return module


class Tunings:
    """Puts the tuning file's text or the built-in tuning in force."""

    def __init__(self, lib, path):
        self.lib = lib
        with open(path, "rb") as f:
            self.text = f.read()
        self.untuned = self.describe()["info"]["source"]  # nothing loaded yet: the lookup's
        self.tuned()
        self.tuned_text = self.describe()
        self.builtin()
        # Each series must run under the tuning it is named after.
        sources = (self.tuned_text["info"]["source"], self.describe()["info"]["source"])
        if sources != ("string", self.untuned) or "BCAST_TUNING=off" not in self.untuned:
            raise SystemExit(f"throughput_sweep: the tuning did not switch: {sources}")
        key = self.tuned_text["key"]
        self.host = f"{key['vendor']} family {key['family']} model {key['model']}"

    def describe(self):
        size = self.lib.bcast_tuning_describe(None, 0) + 1
        buf = ctypes.create_string_buffer(size)
        self.lib.bcast_tuning_describe(buf, size)
        return json.loads(buf.value.decode())

    def tuned(self):
        if self.lib.bcast_tuning_load_string(self.text, len(self.text)) != OK:
            raise SystemExit(f"throughput_sweep: the tuning file: {self.lib.bcast_last_error().decode()}")

    def builtin(self):
        self.lib.bcast_tuning_load_string(None, 0)


def check(name, out, expected):
    if not np.array_equal(out, expected):
        raise SystemExit(f"throughput_sweep: {name} differs from numpy")


def measure_point(lib, module, tunings, pool, threads, shapes, repeats, seconds):
    case = dict(dtype="f32", a=shapes[0], b=shapes[1], rule=1, axis=-1)  # rule 1: numpy
    a, b = make_inputs(case)  # numpy's own arrays, at numpy's alignment
    y = np.empty(np.broadcast_shapes(a.shape, b.shape), np.float32)
    expected = np.add(a, b)
    a64, b64, y64 = aligned_copy(a), aligned_copy(b), aligned_copy(y)
    nbytes = a.nbytes + b.nbytes + y.nbytes
    roofline = Roofline(module, [a, b], y, threads)
    ops = []
    try:
        # Each op planned under the tuning it is timed with.
        tunings.tuned()
        ops.append(BcastAdd(lib, case, a, b, y, pool))
        ops.append(BcastAdd(lib, case, a64, b64, y64, pool))
        tunings.builtin()
        ops.append(BcastAdd(lib, case, a, b, y, pool))
        tuned, aligned, untuned = ops
        for name, op, out, tune in (("bcast tuned", tuned, y, tunings.tuned),
                                    ("bcast tuned +0", aligned, y64, tunings.tuned),
                                    ("bcast untuned", untuned, y, tunings.builtin)):
            out[...] = 0
            tune()
            op._check(op.execute())
            check(name, out, expected)
        if roofline.normal() != 0 or roofline.streaming() != 0:
            raise SystemExit(f"throughput_sweep: the roofline on {threads} threads did not run")
        fns = [tuned.execute, untuned.execute, aligned.execute, functools.partial(np.add, a, b, out=y),
               roofline.normal, roofline.streaming]
        before = [tunings.tuned, tunings.builtin, tunings.tuned, None, None, None]
        t = time_alternating(fns, repeats, seconds, before)
    finally:
        tunings.builtin()
        for op in ops:
            op.close()
        roofline.close()
    # The roofline's time for the case's bytes, as `bcast bench` scales it.
    t_roof = min(t[4], t[5]) * nbytes / roofline.bytes
    seconds_of = dict(zip(SERIES, t[:4] + [t_roof]))
    return dict(n=int(y.size), bytes=nbytes, offsets=offset_label(a, b, y), seconds=seconds_of,
                roofline_streaming=t[5] < t[4])


def make_pool(lib, threads):
    if threads == 1:
        return None
    pool = ctypes.c_void_p()
    if lib.bcast_pool_create(threads, ctypes.byref(pool)) != OK:
        raise SystemExit(f"throughput_sweep: bcast_pool_create: {lib.bcast_last_error().decode()}")
    return pool.value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("library", help="path to the built libbcast.so.1")
    parser.add_argument("--tuning", required=True, help="a tuning file `bcast tune` wrote on this host")
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--roofline", help="bcast_roofline_py.so (default: ../bench/bcast_roofline_py.so "
                        "from the library's directory)")
    parser.add_argument("--threads", default="1,2", help="thread counts, e.g. 1,2")
    parser.add_argument("--repeats", type=int, help="alternated rounds per point (default 9, --quick 2)")
    parser.add_argument("--quick", action="store_true",
                        help="two sizes, short repeats: a check that everything runs, not a measurement")
    args = parser.parse_args()

    lib = load_library(args.library)
    roofline_path = args.roofline or os.path.join(os.path.dirname(os.path.abspath(args.library)), "..",
                                                  "bench", "bcast_roofline_py.so")
    module = load_roofline(roofline_path)
    tunings = Tunings(lib, args.tuning)
    threads = [int(t) for t in args.threads.split(",")]
    sizes = QUICK_SIZES if args.quick else SIZES
    repeats = args.repeats or (2 if args.quick else 9)
    seconds = QUICK_REPEAT_SECONDS if args.quick else REPEAT_SECONDS
    started = time.time()
    result = dict(
        bcast_version=lib.bcast_version_string().decode(), isa=lib.bcast_isa().decode(),
        numpy=np.__version__, python=platform.python_version(), cpu=cpu_model(), cpu_key=tunings.host,
        cpus=os.cpu_count(),
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        load_average_before=" ".join(f"{x:.2f}" for x in os.getloadavg()),
        quick=args.quick, repeats=repeats, repeat_seconds=seconds, threads=threads, sizes=sizes,
        tuned=dict(file=os.path.abspath(args.tuning), choices=tunings.tuned_text["choices"]),
        untuned=tunings.untuned,
        alignment="numpy's own arrays (offsets per point); bcast_tuned_aligned64 on 64-byte aligned copies",
        roofline="bcast bench's same-run roofline loop (y=a+b or y=a+c) on every thread, "
                 "faster of normal and non-temporal stores",
        panels=[])
    for t in threads:
        pool = make_pool(lib, t)
        try:
            for name, shapes_of in CASES.items():
                points = []
                for n in sizes:
                    p = measure_point(lib, module, tunings, pool, t, shapes_of(n), repeats, seconds)
                    points.append(p)
                    gbps = {k: p["bytes"] / s / 1e9 for k, s in p["seconds"].items()}
                    print(f"{t} thread(s) {name:30} n={n:>9} {p['offsets']:>14}  "
                          + "  ".join(f"{k} {v:6.1f}" for k, v in gbps.items()) + " GB/s", flush=True)
                result["panels"].append(dict(case=name, threads=t, points=points))
        finally:
            if pool is not None:
                lib.bcast_pool_destroy(pool)
    result["load_average_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    result["seconds_total"] = round(time.time() - started, 1)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.out} in {result['seconds_total']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
