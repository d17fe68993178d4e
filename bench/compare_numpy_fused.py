#!/usr/bin/env python3
"""numpy against bcast.fuse on the normalisation tail (x - mean) * rstd * gamma + beta,
f32, NCHW (8,64,112,112) with (1,64,1,1) parameters and NHWC (8,112,112,64) with (64),
on numpy's own arrays. numpy runs it twice: as written (each op a new temporary) and
in place with out= (no allocation, one full pass per op); bcast.fuse runs it in one
pass into a preallocated out=. Best of interleaved rounds; the results are checked
equal first (f32 ops round alike in both).

    BCAST_LIBRARY=build/capi/libbcast.so.1 PYTHONPATH=python \\
        /usr/bin/python3 bench/compare_numpy_fused.py [--rounds N] [--smoke]
"""
import argparse
import time

import numpy as np

import bcast


def numpy_written(x, m, s, g, b, y):
    return (x - m) * s * g + b


def numpy_in_place(x, m, s, g, b, y):
    np.subtract(x, m, out=y)
    np.multiply(y, s, out=y)
    np.multiply(y, g, out=y)
    np.add(y, b, out=y)
    return y


def best(fn, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    fused = bcast.fuse(lambda x, m, s, g, b: (x - m) * s * g + b)
    cases = [("NCHW (8,64,112,112) + (1,64,1,1)", (8, 64, 112, 112), (1, 64, 1, 1)),
             ("NHWC (8,112,112,64) + (64)", (8, 112, 112, 64), (64,))]
    if args.smoke:
        cases = [(label, tuple(min(d, 4) for d in x), tuple(min(d, 4) for d in p))
                 for label, x, p in cases]
    print("| case | x offset | numpy as written | numpy in place | bcast.fuse | "
          "numpy written / fused | numpy in place / fused |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, xs, ps in cases:
        x = rng.uniform(-3, 3, xs).astype("f4")
        params = [rng.uniform(0.5, 2, ps).astype("f4") for _ in range(4)]
        # Each contender writes its own output: numpy's in-place pass leaves
        # its y dirty in the cache, where fused's streaming stores into the
        # same y would first have to evict it (2x on a Xeon, 2026-11-26).
        y = np.empty_like(x)
        y_np = np.empty_like(x)
        want = numpy_written(x, *params, None)
        got = fused(x, *params, out=y)
        if got.tobytes() != want.tobytes():
            raise SystemExit("compare_numpy_fused: %s: bcast.fuse differs from numpy" % label)
        t_written = t_in_place = t_fused = float("inf")
        for _ in range(args.rounds):  # interleaved: a slow patch hits all three
            t_written = min(t_written, best(lambda: numpy_written(x, *params, y), 1))
            t_in_place = min(t_in_place, best(lambda: numpy_in_place(x, *params, y_np), 1))
            t_fused = min(t_fused, best(lambda: fused(x, *params, out=y), 1))
        print("| %s | +%d | %.2f ms | %.2f ms | %.2f ms | %.2fx | %.2fx |" % (
            label, x.ctypes.data % 64, t_written * 1e3, t_in_place * 1e3, t_fused * 1e3,
            t_written / t_fused, t_in_place / t_fused))


if __name__ == "__main__":
    main()
