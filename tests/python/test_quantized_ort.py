"""bcast's quantized ADD, SUB, MUL against ONNX Runtime's QDQ graph (pytest).

The oracle is ONNX Runtime itself (npm onnxruntime-node, run by node): the model
DequantizeLinear(a), DequantizeLinear(b) -> Add/Sub/Mul -> QuantizeLinear with
graph optimisations disabled, so that ORT runs its DQ and Q kernels one by one
(enabled, it would fuse them into QLinearAdd / QLinearMul, a float
approximation that bench/ort_quantized.py counts the disagreements of).
quantization-notes.md section 2: ORT's Q kernel divides by the scale, clamps in
float before rounding half to even, so huge quotients and infinities saturate
as bcast's do, and NaN lands on the dtype's minimum, bcast's documented choice:
no input is excluded here.

Skipped, saying why, where node, onnxruntime-node (tools/ort/ort_models.py says
how to install it and BCAST_ORT_NODE_MODULES) or python3-onnx is missing.
"""
import os
import sys

import numpy as np
import pytest

import bcast
from qdq_oracle import NP_DT, RANGE, SPECIAL, all_pairs, random_params, shift_params

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "ort"))
import ort_models  # noqa: E402

pytest.importorskip("onnx", reason="python3-onnx is not installed: no ONNX models to give ORT")
NODE_MODULES, WHY_NOT = ort_models.find_node_modules()
if NODE_MODULES is None:
    pytest.skip("ONNX Runtime comparison skipped: " + WHY_NOT, allow_module_level=True)

OPS = ["ADD", "SUB", "MUL"]
DTYPES = ["u8", "i8"]


def qlinear(op, a, b, params):
    """bcast's quantized op, the arguments in QLinearAdd's order."""
    (sa, za), (sb, zb), (sy, zy) = params
    return bcast.qlinear(op.lower(), a, b, sa, za, sb, zb, sy, zy)


def param_sets(dtype, seed):
    """qdq_oracle's special sets (exact ties, quotients beyond int32, all-zero
    results, +-inf and inf - inf = NaN from scales near FLT_MAX, the extreme normal
    scales) and 8 random ones."""
    return ([shift_params(s, dtype) for s in SPECIAL]
            + random_params(np.random.default_rng(seed), dtype, 8))


def ort_qdq(jobs_args, profile=False):
    """ORT's QDQ outputs (optimisations disabled) for [(op, dtype, sets, a, b)], one session each."""
    jobs = [dict(model=ort_models.qdq_model(op, dtype, sets, a.shape, b.shape), a=a, b=b,
                 outputs=len(sets), optimize=False, profile=profile)
            for op, dtype, sets, a, b in jobs_args]
    return ort_models.run_models(NODE_MODULES, jobs)


def assert_equal(got, want, a, b, what):
    bad = np.argwhere(got != want)
    if bad.size:
        ga, gb = np.broadcast_arrays(a, b)
        first = [(int(ga[tuple(i)]), int(gb[tuple(i)]), int(got[tuple(i)]), int(want[tuple(i)]))
                 for i in bad[:5]]
        pytest.fail("%s: %d of %d outputs differ from ORT's QDQ graph; (a, b, bcast, ORT): %s"
                    % (what, len(bad), got.size, first))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPS)
def test_all_byte_pairs_match_ort_qdq(op, dtype):
    a, b = all_pairs(dtype)
    sets = param_sets(dtype, seed=37 + OPS.index(op) * 2 + DTYPES.index(dtype))
    (outs, trace, _), = ort_qdq([(op, dtype, sets, a, b)], profile=True)
    # The oracle really ran node by node: DQ and Q kernels, no fused QLinear op.
    ran = set(ort_models.kernel_times_us(trace))
    assert ran == {"DequantizeLinear", ort_models.ONNX_OP[op], "QuantizeLinear"}, ran
    for params, want in zip(sets, outs):
        got = qlinear(op, a, b, params)
        assert_equal(got, want, a, b, "%s %s %s" % (op, dtype, params))


# Broadcasting shapes beyond the all-pairs grid: a trailing row, two-sided,
# a scalar on either side, NCHW per-channel, equal shapes.
SHAPES = [((2, 3, 4, 5), (5,)), ((8, 1, 6), (1, 7, 1)), ((), (3, 4)), ((3, 4), ()),
          ((2, 4, 3, 3), (1, 4, 1, 1)), ((33,), (33,))]


@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_shapes_match_ort_qdq(dtype):
    rng = np.random.default_rng(7 + DTYPES.index(dtype))
    lo, hi = RANGE[dtype]
    cases = []
    for op in OPS:
        for a_shape, b_shape in SHAPES:
            a = rng.integers(lo, hi + 1, size=a_shape).astype(NP_DT[dtype])
            b = rng.integers(lo, hi + 1, size=b_shape).astype(NP_DT[dtype])
            cases.append((op, dtype, random_params(rng, dtype, 2), a, b))
    for (op, _, sets, a, b), (outs, _, _) in zip(cases, ort_qdq(cases)):
        for params, want in zip(sets, outs):
            got = qlinear(op, a, b, params)
            assert got.shape == want.shape
            assert_equal(got, want, a, b, "%s %s %s+%s %s" % (op, dtype, a.shape, b.shape, params))
