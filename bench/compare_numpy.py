#!/usr/bin/python3
"""numpy against bcast (through ctypes) on the bcast_bench case matrix.

Usage:
  /usr/bin/python3 bench/compare_numpy.py BUILD/capi/libbcast.so.1
      [--bench BUILD/bench/bcast_bench] [--isa NAME] [--repeats N] [--filter TEXT]

The matrix comes from `bcast_bench --list` (one source of truth; by default the
bcast_bench next to the library's build directory). For every case, in one
process: numpy runs np.add(a, b, out=out) into a preallocated out; bcast runs
the same ADD planned once through the C API (ctypes), executed into the same
out, after its result was checked against numpy's. Both are timed in
alternating repeats; the table gives the min per call of each and
numpy / bcast (> 1: bcast is faster). Both sides pay a Python call per
execution (ufunc dispatch vs. ctypes), which dominates the tiny cases.

Every array is numpy's own allocation (np.empty and friends), never a 64-byte
aligned copy: bcast runs at the alignment its Python callers give it, mostly
16 bytes. The `offset` column gives each array's address % 64, as
bcast_bench's column does for its buffers.
"""
import argparse
import ctypes
import functools
import os
import platform
import subprocess
import sys
import time

import numpy as np

# <bcast/bcast.h>
OK = 0
OP_ADD = 0
DTYPES = {"f32": (0, np.float32), "f16": (2, np.float16), "i8": (4, np.int8)}
PARAM_RULE, PARAM_AXIS = 0, 1

# The targets: at least as fast as numpy, 5x on the short periodic rows.
FIVE_X_CASES = {"(4M,3)+(3)", "(1M,7)+(1,7)", "(1,112,112,3)+(3)"}

REPEAT_SECONDS = 0.02  # one timed repeat runs the call at least this long


def load_library(path):
    lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL)
    i64p = ctypes.POINTER(ctypes.c_int64)
    lib.bcast_op_create.argtypes = [ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)]
    lib.bcast_op_set_param.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64]
    lib.bcast_op_plan.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t),
                                  ctypes.POINTER(i64p), ctypes.c_void_p, ctypes.c_void_p]
    lib.bcast_op_execute.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
    lib.bcast_op_destroy.argtypes = [ctypes.c_void_p]
    lib.bcast_set_max_isa.argtypes = [ctypes.c_char_p]
    lib.bcast_pool_create.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]
    lib.bcast_pool_destroy.argtypes = [ctypes.c_void_p]
    lib.bcast_op_execute_pool.argtypes = lib.bcast_op_execute.argtypes + [ctypes.c_void_p]
    lib.bcast_tuning_load_string.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.bcast_tuning_describe.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.bcast_tuning_describe.restype = ctypes.c_size_t
    for name in ("bcast_op_create", "bcast_op_set_param", "bcast_op_plan", "bcast_op_execute",
                 "bcast_set_max_isa", "bcast_pool_create", "bcast_op_execute_pool",
                 "bcast_tuning_load_string"):
        getattr(lib, name).restype = ctypes.c_int32
    for name in ("bcast_last_error", "bcast_isa", "bcast_version_string"):
        getattr(lib, name).restype = ctypes.c_char_p
    return lib


def bench_env():
    """The environment for running bcast_bench: ours without LD_PRELOAD, which
    a sanitizer build sets for the Python interpreter, not for a program
    linked with its own sanitizer runtime."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def read_matrix(bench):
    """Cases from `bcast_bench --list`: label, dtype, a, b, rule, axis, b as numpy sees it."""
    listing = subprocess.run([bench, "--list"], check=True, capture_output=True, text=True,
                             env=bench_env()).stdout
    dims = lambda text: tuple(int(d) for d in text.split(",") if d)
    cases = []
    for line in listing.splitlines():
        label, dtype, a, b, rule, axis, b_numpy = line.split("\t")
        cases.append(dict(label=label, dtype=dtype, a=dims(a), b=dims(b), rule=int(rule),
                          axis=int(axis), b_numpy=dims(b_numpy)))
    return cases


class BcastAdd:
    """ADD planned once for a case; execute() runs it into out (on a
    bcast_pool's threads when a pool is given)."""

    def __init__(self, lib, case, a, b, out, pool=None):
        self.lib = lib
        self.op = ctypes.c_void_p()
        self._check(lib.bcast_op_create(OP_ADD, DTYPES[case["dtype"]][0], ctypes.byref(self.op)))
        self._check(lib.bcast_op_set_param(self.op, PARAM_RULE, case["rule"]))
        self._check(lib.bcast_op_set_param(self.op, PARAM_AXIS, case["axis"]))
        i64p = ctypes.POINTER(ctypes.c_int64)
        shapes = [(ctypes.c_int64 * max(len(s), 1))(*s) for s in (case["a"], case["b"])]
        ranks = (ctypes.c_size_t * 2)(len(case["a"]), len(case["b"]))
        dims = (i64p * 2)(*[ctypes.cast(s, i64p) for s in shapes])
        self._check(lib.bcast_op_plan(self.op, 2, ranks, dims, None, None))
        self.inputs = (ctypes.c_void_p * 2)(a.ctypes.data, b.ctypes.data)
        self.out = ctypes.c_void_p(out.ctypes.data)
        # A private function object without argtypes: every argument is already
        # a ctypes object, so ctypes passes it as is instead of running each
        # argtype's from_param (about 100 ns of a 16-element call).
        if pool is None:
            self.execute = functools.partial(lib["bcast_op_execute"], self.op, self.inputs, self.out)
        else:
            self.execute = functools.partial(lib["bcast_op_execute_pool"], self.op, self.inputs,
                                             self.out, ctypes.c_void_p(pool))
        self.execute.func.restype = ctypes.c_int32

    def _check(self, status):
        if status != OK:
            raise RuntimeError(self.lib.bcast_last_error().decode())

    def close(self):
        self.lib.bcast_op_destroy(self.op)


def per_call_seconds(fn, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def calls_per_repeat(fn, seconds=REPEAT_SECONDS):
    """Enough calls for one repeat to last about `seconds` (the first call warms up)."""
    once = per_call_seconds(fn, 1)
    calls = 1
    while once * calls < seconds / 8 and calls < 1 << 20:
        calls *= 8
        once = per_call_seconds(fn, calls)
    return max(1, int(seconds / max(once, 1e-9)))


def time_alternating(fns, repeats, seconds=REPEAT_SECONDS, before=None):
    """Min per call of each function, timed in alternating repeats (a busy
    machine disturbs all of them alike), the order reversed every other
    round. before[i], when given, runs untimed ahead of fns[i]'s calibration
    and each of its repeats (e.g. to put a tuning in force)."""
    before = before or [None] * len(fns)

    def ready(i):
        if before[i] is not None:
            before[i]()

    calls = []
    for i, f in enumerate(fns):
        ready(i)
        calls.append(calls_per_repeat(f, seconds))
    best = [float("inf")] * len(fns)
    for r in range(repeats):
        for i in (range(len(fns)) if r % 2 == 0 else reversed(range(len(fns)))):
            ready(i)
            best[i] = min(best[i], per_call_seconds(fns[i], calls[i]))
    return best


def time_pair(f, g, repeats):
    """Min per call of f and g, timed in alternating repeats."""
    nf, ng = calls_per_repeat(f), calls_per_repeat(g)
    tf, tg = [], []
    for _ in range(repeats):
        tf.append(per_call_seconds(f, nf))
        tg.append(per_call_seconds(g, ng))
    return min(tf), min(tg)


def make_inputs(case):
    """The values bcast_bench uses: every sum exact in f32, f16 and i8."""
    dtype = DTYPES[case["dtype"]][1]
    a = (np.arange(int(np.prod(case["a"])), dtype=np.int64) % 64).astype(dtype).reshape(case["a"])
    b = (np.arange(int(np.prod(case["b"])), dtype=np.int64) % 31 - 15).astype(dtype).reshape(case["b"])
    return a, b


def offset_label(a, b, out):
    """Address % 64 of each array: "+16" when all agree, else "a+16 b+48 y+16"."""
    offsets = [x.ctypes.data % 64 for x in (a, b, out)]
    if len(set(offsets)) == 1:
        return f"+{offsets[0]}"
    return " ".join(f"{name}+{o}" for name, o in zip("aby", offsets))


def fmt_time(seconds):
    ns = seconds * 1e9
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} us"
    return f"{ns / 1e6:.2f} ms"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("library", help="path to the built libbcast.so.1")
    parser.add_argument("--bench", help="bcast_bench (default: ../bench/bcast_bench from the library's directory)")
    parser.add_argument("--isa", help="cap bcast's kernel set (bcast_set_max_isa)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--filter", default="", help="only cases whose 'label dtype' contains this")
    args = parser.parse_args()

    lib = load_library(args.library)
    bench = args.bench or os.path.join(os.path.dirname(os.path.abspath(args.library)), "..", "bench", "bcast_bench")
    if args.isa and lib.bcast_set_max_isa(args.isa.encode()) != OK:
        sys.exit(f"compare_numpy: {lib.bcast_last_error().decode()}")

    print("# numpy vs bcast (ctypes): ADD, single thread\n")
    print(f"- bcast {lib.bcast_version_string().decode()}, kernel set `{lib.bcast_isa().decode()}`"
          f" (BCAST_MAX_ISA={os.environ.get('BCAST_MAX_ISA', '(unset)')}, --isa {args.isa or '(none)'});"
          f" numpy {np.__version__}; Python {platform.python_version()}")
    print(f"- CPU: {cpu_model()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())};"
          f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"- min per call over {args.repeats} alternating repeats; numpy / bcast > 1: bcast is faster")
    print("- numpy and bcast run on the same arrays, all numpy's own allocations; `offset` = address % 64"
          " of a, b and the output y (one number: all three)\n")
    print("| # | case | dtype | offset | numpy | bcast | numpy / bcast | target | met |")
    print("|---|---|---|---|---:|---:|---:|---:|---|")
    failed = False
    for number, case in enumerate((c for c in read_matrix(bench)
                                   if args.filter in f"{c['label']} {c['dtype']}"), 1):
        a, b = make_inputs(case)
        b_numpy = b.reshape(case["b_numpy"])  # PDPD's b as numpy aligns it (a view)
        expected = np.add(a, b_numpy)
        out = np.empty_like(expected)
        offset = offset_label(a, b, out)
        op = BcastAdd(lib, case, a, b, out)
        try:
            op._check(op.execute())
            if not np.array_equal(out, expected):
                print(f"| {number} | {case['label']} | {case['dtype']} | {offset} | WRONG RESULT from bcast |")
                failed = True
                continue
            t_numpy, t_bcast = time_pair(functools.partial(np.add, a, b_numpy, out=out), op.execute,
                                         args.repeats)
        finally:
            op.close()
        target = 5.0 if case["label"] in FIVE_X_CASES else 1.0
        ratio = t_numpy / t_bcast
        print(f"| {number} | {case['label']} | {case['dtype']} | {offset} | {fmt_time(t_numpy)}"
              f" | {fmt_time(t_bcast)} | {ratio:.2f}x | >= {target:.0f}x | {'yes' if ratio >= target else 'no'} |",
              flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
