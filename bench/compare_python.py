#!/usr/bin/python3
"""Per-call time of bcast from Python against numpy and the C API.

Usage:
  /usr/bin/python3 bench/compare_python.py BUILD/capi/libbcast.so.1
      [--bench BUILD/bench/bcast_bench] [--repeats N] [--filter TEXT] [--no-c-bench]

For every case of the bcast_bench matrix (`bcast_bench --list`), on arrays
numpy allocated itself, each into a preallocated output, timed in alternating
repeats (min per call):
  numpy     np.add(a, b, out=out)
  package   bcast.add(a, b, rule=..., axis=..., out=out): the cached plan
  Op        op(a, b, out=out) of a bcast.Op planned once
  ctypes    one bare bcast_op_execute through ctypes on the same arrays
            (arguments prepared once): the floor for any Python caller
  C API     bcast_bench's own min for the case (C, 64-byte aligned buffers),
            from one `bcast_bench --json` run made here
The two rows of the 16-element case without out= (a new array per call, as
np.add(a, b) does) follow the table. The package runs on its compiled call
path when the build has it (BCAST_EXTENSION=off: on ctypes alone).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_numpy as cn  # noqa: E402 (the matrix, timing and ctypes helpers)

RULE_NAMES = {0: "none", 1: "numpy", 2: "unidirectional", 3: "pdpd", 4: "onnx_legacy", 5: "ncnn"}
DTYPE_NAMES = {"f32": "f32", "f16": "f16", "i8": "i8"}
SMALL, MEDIUM = "(16)+(16)", "(1,512,7,7)+(1,512,1,1)"


def c_bench_times(bench, cases):
    """{(label, dtype): min seconds} from one bcast_bench --json run."""
    times = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.json")
        # --offsets 0: one row per case, at the 64-byte alignment the table names.
        subprocess.run([bench, "--offsets", "0", "--json", path], check=True, stdout=subprocess.DEVNULL,
                       env=cn.bench_env())
        with open(path) as f:
            report = json.load(f)
    for c in report["cases"]:
        if c["bcast"] and not c["error"]:
            times[(c["case"], c["dtype"])] = c["bcast"][0]["time"]["min_ns"] * 1e-9
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("library", help="path to the built libbcast.so.1")
    parser.add_argument("--bench", help="bcast_bench (default: ../bench/bcast_bench from the library's directory)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--filter", default="", help="only cases whose 'label dtype' contains this")
    parser.add_argument("--no-c-bench", action="store_true", help="skip the bcast_bench run")
    args = parser.parse_args()

    os.environ["BCAST_LIBRARY"] = os.path.abspath(args.library)
    # The package's compiled call path from the same build, unless
    # BCAST_EXTENSION says otherwise ("off": ctypes alone).
    built = glob.glob(os.path.join(os.path.dirname(os.path.abspath(args.library)), "..", "python",
                                   "_fastcall*.so"))
    if built:
        os.environ.setdefault("BCAST_EXTENSION", built[0])
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
    import bcast
    from bcast._extension import fastcall

    lib = cn.load_library(args.library)
    bench = args.bench or os.path.join(os.path.dirname(os.path.abspath(args.library)), "..", "bench", "bcast_bench")
    cases = [c for c in cn.read_matrix(bench) if args.filter in f"{c['label']} {c['dtype']}"]
    c_times = {} if args.no_c_bench else c_bench_times(bench, cases)

    print("# bcast from Python: ADD per call, single thread\n")
    print(f"- bcast {bcast.version()} (kernel set `{bcast.isa()}`), numpy {np.__version__}, "
          f"Python {sys.version.split()[0]}, "
          f"{'compiled call path' if fastcall else 'ctypes path alone'}")
    print(f"- CPU: {cn.cpu_model()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())};"
          f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"- min per call over {args.repeats} alternating repeats, into a preallocated out;"
          " arrays allocated by numpy; C API = bcast_bench's min (64-byte aligned buffers)\n")
    print("| case | dtype | numpy | package | Op | ctypes | C API | numpy / package |"
          " package / ctypes | package / C API |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    small = None
    for case in cases:
        a, b = cn.make_inputs(case)
        b_numpy = b.reshape(case["b_numpy"])
        out = np.empty(np.broadcast_shapes(a.shape, b_numpy.shape), a.dtype)
        expected = np.add(a, b_numpy)
        rule, axis = RULE_NAMES[case["rule"]], case["axis"]
        op = bcast.Op("add", DTYPE_NAMES[case["dtype"]], rule=rule, axis=axis)
        op.plan([a.shape, b.shape])
        bare = cn.BcastAdd(lib, case, a, b, out)
        # Closures, not functools.partial: a partial with keywords merges
        # dicts on every call, which would be timed as the contender's.
        package = lambda: bcast.add(a, b, rule=rule, axis=axis, out=out)  # noqa: E731
        checks = [(package, "package"), (lambda: op(a, b, out=out), "Op"), (bare.execute, "ctypes")]
        try:
            for run, name in checks:
                out[...] = 0
                run()
                if not np.array_equal(out, expected):
                    sys.exit(f"compare_python: wrong result from {name} on {case['label']}")
            t_numpy, t_package, t_op, t_bare = cn.time_alternating(
                [lambda: np.add(a, b_numpy, out=out), package, checks[1][0], bare.execute],
                args.repeats)
        finally:
            bare.close()
        t_c = c_times.get((case["label"], case["dtype"]))
        c_cells = (cn.fmt_time(t_c), f"{t_package / t_c:.2f}x") if t_c else ("-", "-")
        print(f"| {case['label']} | {case['dtype']} | {cn.fmt_time(t_numpy)} | {cn.fmt_time(t_package)}"
              f" | {cn.fmt_time(t_op)} | {cn.fmt_time(t_bare)} | {c_cells[0]} | {t_numpy / t_package:.2f}x"
              f" | {t_package / t_bare:.2f}x | {c_cells[1]} |", flush=True)
        if case["label"] == SMALL and case["dtype"] == "f32":
            small = (a, b, op)

    if small:
        a, b, op = small
        t_numpy, t_package, t_op = cn.time_alternating(
            [lambda: np.add(a, b), lambda: bcast.add(a, b), lambda: op(a, b)], args.repeats)
        print(f"\n{SMALL} f32 with a new output per call: numpy {cn.fmt_time(t_numpy)},"
              f" package {cn.fmt_time(t_package)}, Op {cn.fmt_time(t_op)}")
    info = bcast.plan_cache_info()
    print(f"\nplan cache: {info.hits} hits, {info.misses} misses, {info.currsize} plans")


if __name__ == "__main__":
    main()
