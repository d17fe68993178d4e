#!/usr/bin/python3
"""bcast's quantized ops next to ONNX Runtime's (npm onnxruntime-node), in one run.

Usage:
  BCAST_ORT_NODE_MODULES=DIR/node_modules /usr/bin/python3 bench/ort_quantized.py \
      BUILD/capi/libbcast.so.1 [--sets N] [--seed S] [--runs R] [--no-count] [--no-bench]

1. The disagreement count (issue 37, item 8): for N random parameter sets per
   dtype (u8, i8) and op (ADD, MUL), drawn by tests/python/qdq_oracle.py as
   quantization-notes.md section 6 asks (log-uniform ratios 2^-20..2^20, zero
   points uniform, both ends forced in two of every four sets)
   and all 65,536 byte pairs, the outputs where each of these differs from ORT's
   own QDQ graph run with graph optimisations disabled (the reference):
     * ORT, the same QDQ graph with optimisations enabled (ORT fuses each group
       into QLinearAdd / QLinearMul; the kernels the profiler saw are printed),
     * ORT's com.microsoft QLinearAdd / QLinearMul node itself,
     * bcast's quantized op.
2. The benchmark: ADD on the issue's bench cases, u8 and i8, one thread: ORT's
   QLinearAdd kernel time from its profiler (enableProfiling; the trace's
   QLinearAdd kernel durations, best of R runs; the best session.run() wall time,
   feeds to outputs, beside it) next to bcast.qlinear (the Python package, its
   plan cached) into a preallocated output, all three arrays 64-byte aligned
   numpy buffers (best of R runs, after one warm-up).
   ORT's inputs are the node Buffers its runner read the bytes into; its output
   is ORT's own allocation. Both sides' results are compared too.
Exits 1 where bcast differs from ORT's QDQ graph; prints "skipped" and exits 0
where onnxruntime-node is not installed (see tools/ort/ort_models.py).
"""
import argparse
import datetime
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "ort"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))
import ort_models  # noqa: E402
from qdq_oracle import NP_DT, RANGE, all_pairs, random_params  # noqa: E402

M = 1024 * 1024
BENCH_CASES = [("(16M)+(16M)", (16 * M,), (16 * M,)),
               ("(8,112,112,64)+(64)", (8, 112, 112, 64), (64,)),
               ("(8,64,112,112)+(1,64,1,1)", (8, 64, 112, 112), (1, 64, 1, 1)),
               ("(16M)+()", (16 * M,), ())]
CHUNK = 50  # parameter sets per ORT session (one node group each)


def machine():
    info = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    flags = set(info.get("flags", "").split())
    isa = [f for f in ("avx2", "fma", "avx512f", "avx512bw", "avx512vbmi") if f in flags]
    return "%s, family %s model %s (%s), %d CPUs" % (
        info.get("model name", platform.processor() or "?"), info.get("cpu family", "?"),
        info.get("model", "?"), " ".join(isa), os.cpu_count())


def exact_quotients(op, dtype, params, a, b):
    """The QDQ graph's pre-rounding quotient op(dq(a), dq(b)) / sy in float64: where its
    magnitude passes 2^31, a float-to-int32 conversion without a clamp overflows."""
    (sa, za), (sb, zb), (sy, _) = params
    da = (a.astype(np.float64) - za) * sa
    db = (b.astype(np.float64) - zb) * sb
    return (da + db if op == "ADD" else da * db) / sy


def count_disagreements(bcast, node_modules, n_sets, seed):
    print("## Disagreements with ORT's QDQ graph (optimisations disabled), all 65,536 pairs\n")
    print("Cells: outputs one step off + further off + off where |exact quotient| >= 2^31 "
          "(sets with any).\n")
    print("| dtype | op | sets | pairs | ORT QDQ optimised (kernels run) | ORT contrib node | bcast |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    examples = {}
    opt_vs_contrib = 0
    bcast_off = 0
    for dtype in ("u8", "i8"):
        a, b = all_pairs(dtype)
        for op in ("ADD", "MUL"):
            rng = np.random.default_rng([seed, ("u8", "i8").index(dtype), ("ADD", "MUL").index(op)])
            sets = random_params(rng, dtype, n_sets)
            diff = {name: [0, 0, 0, 0] for name in ("opt", "contrib", "bcast")}
            fused = set()
            for start in range(0, n_sets, CHUNK):
                chunk = sets[start:start + CHUNK]
                shape = (a.shape, b.shape)
                jobs = [dict(model=ort_models.qdq_model(op, dtype, chunk, *shape), optimize=False),
                        dict(model=ort_models.qdq_model(op, dtype, chunk, *shape), optimize=True,
                             profile=True),
                        dict(model=ort_models.qlinear_model(op, dtype, chunk, *shape), optimize=False)]
                for job in jobs:
                    job.update(a=a, b=b, outputs=len(chunk))
                (ref, _, _), (opt, trace, _), (contrib, _, _) = ort_models.run_models(node_modules, jobs)
                fused |= set(ort_models.kernel_times_us(trace))
                for k, params in enumerate(chunk):
                    huge = np.abs(exact_quotients(op, dtype, params, a, b)) >= 2.0 ** 31
                    (sa, za), (sb, zb), (sy, zy) = params
                    mine = bcast.qlinear(op.lower(), a, b, sa, za, sb, zb, sy, zy)
                    opt_vs_contrib += int(np.count_nonzero(opt[k] != contrib[k]))
                    for name, got in (("opt", opt[k]), ("contrib", contrib[k]), ("bcast", mine)):
                        step = np.abs(got.astype(np.int32) - ref[k].astype(np.int32))
                        kinds = (step == 1) & ~huge, (step > 1) & ~huge, (step > 0) & huge
                        for c, where in enumerate(kinds):
                            diff[name][c] += int(np.count_nonzero(where))
                            if where.any() and (dtype, op, c) not in examples and name != "opt":
                                i, j = np.argwhere(where)[0]
                                examples[(dtype, op, c)] = "%s %s %s %s: a=%d b=%d QDQ %d, %s %d" % (
                                    dtype, op, name, params, a[i, 0], b[0, j], ref[k][i, j], name,
                                    got[i, j])
                        diff[name][3] += bool(step.any())
            bcast_off += sum(diff["bcast"][:3])
            cell = {n: "%d + %d + %d (%d sets)" % tuple(v) for n, v in diff.items()}
            print("| %s | %s | %d | %d | %s (%s) | %s | %s |" % (
                dtype, op, n_sets, n_sets * 65536, cell["opt"], ", ".join(sorted(fused)),
                cell["contrib"], cell["bcast"]))
    print("\nORT's optimised QDQ graph and its contrib node differ on %d outputs." % opt_vs_contrib)
    if examples:
        print("\nFirst disagreement of each kind:\n")
        for key in sorted(examples):
            print("- " + examples[key])
    print()
    return bcast_off


def aligned_empty(shape, dtype, align=64):
    n = int(np.prod(shape, dtype=np.int64))
    raw = np.empty(n + align, dtype=np.uint8)
    off = (-raw.ctypes.data) % align
    return raw[off:off + n].view(dtype).reshape(shape)


def bench(bcast, node_modules, runs, seed):
    print("## ADD, one thread: ORT QLinearAdd (profiler kernel time) and bcast.qlinear\n")
    print("| case | dtype | ORT QLinearAdd kernel | ORT run() wall | bcast | ORT kernel / bcast "
          "| bcast ns/element | outputs differing |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    rng = np.random.default_rng(seed)
    for dtype in ("u8", "i8"):
        lo, hi = RANGE[dtype]
        mid = (lo + hi + 1) // 2
        params = ((0.02, mid + 3), (0.03, mid - 7), (0.05, mid + 1))
        for label, a_shape, b_shape in BENCH_CASES:
            a, b = aligned_empty(a_shape, np.dtype(NP_DT[dtype])), \
                aligned_empty(b_shape, np.dtype(NP_DT[dtype]))
            a[...] = rng.integers(lo, hi + 1, size=a_shape)
            b[...] = rng.integers(lo, hi + 1, size=b_shape)
            job = dict(model=ort_models.qlinear_model("ADD", dtype, [params], a_shape, b_shape),
                       a=a, b=b, outputs=1, runs=runs, profile=True)
            (ort_out,), trace, run_ms = ort_models.run_models(node_modules, [job])[0]
            ort_us = min(ort_models.kernel_times_us(trace)["QLinearAdd"])
            args = [x for p in params for x in p]  # QLinearAdd's order: sa, za, sb, zb, sy, zy
            out = aligned_empty(ort_out.shape, a.dtype)
            bcast.qlinear("add", a, b, *args, out=out, threads=1)  # plans (cached), warms up
            best = float("inf")
            for _ in range(runs):
                t0 = time.perf_counter()
                bcast.qlinear("add", a, b, *args, out=out, threads=1)
                best = min(best, time.perf_counter() - t0)
            differ = int(np.count_nonzero(out != ort_out))
            print("| %s | %s | %.3f ms | %.3f ms | %.3f ms | %.2f | %.3f | %d |" % (
                label, dtype, ort_us / 1e3, run_ms, best * 1e3, ort_us / 1e6 / best,
                best * 1e9 / out.size, differ))
            del a, b, out, ort_out
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library", help="libbcast.so built with the quantized ops")
    ap.add_argument("--sets", type=int, default=100, help="parameter sets per dtype and op")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--runs", type=int, default=5, help="timed runs per side and case")
    ap.add_argument("--no-count", action="store_true")
    ap.add_argument("--no-bench", action="store_true")
    args = ap.parse_args()
    node_modules, why = ort_models.find_node_modules()
    if node_modules is None:
        print("ort_quantized: skipped: " + why)
        return 0
    os.environ["BCAST_LIBRARY"] = os.path.abspath(args.library)
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
    import bcast
    print("# bcast quantized vs ONNX Runtime\n")
    print("- date: %s" % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    print("- machine: %s" % machine())
    with open("/proc/loadavg") as f:
        print("- load average at the start: %s" % " ".join(f.read().split()[:3]))
    print("- onnxruntime-node %s (CPU provider, intra-op threads 1); bcast ISA %s"
          % (ort_models.ort_version(node_modules), bcast.isa()))
    print()
    bcast_off = 0
    if not args.no_count:
        bcast_off = count_disagreements(bcast, node_modules, args.sets, args.seed)
    if not args.no_bench:
        bench(bcast, node_modules, args.runs, args.seed)
    if bcast_off:
        print("ort_quantized: FAILED: bcast differs from ORT's QDQ graph on %d outputs" % bcast_off)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
