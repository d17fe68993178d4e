"""Small ONNX models of bcast's quantized ops, run by ONNX Runtime (npm onnxruntime-node).

Used by tests/python/test_quantized_ort.py and bench/ort_quantized.py. Two model
kinds, each holding one group of nodes per parameter set so that one ORT session
covers many sets on the same inputs:
  * qdq_model: DequantizeLinear(a), DequantizeLinear(b) -> Add/Sub/Mul ->
    QuantizeLinear (ai.onnx opset 13), scales and zero points as initializers.
    Run with graph optimisations disabled it is ORT's QDQ reference; enabled,
    ORT fuses each group into QLinearAdd / QLinearMul on the CPU provider.
  * qlinear_model: com.microsoft QLinearAdd / QLinearMul with the same
    parameters.
tools/ort/run_models.js runs them; inputs and outputs travel as raw bytes in
files of a temporary directory.

onnxruntime-node is installed outside the repository
(`npm install --ignore-scripts onnxruntime-node` in any directory; its CPU
library ships in the package): BCAST_ORT_NODE_MODULES names that node_modules
directory, else npm's global one is tried. find_node_modules() says why where
it is absent.
"""
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run_models.js")

DTYPES = {"u8": np.uint8, "i8": np.int8}
ORT_TYPE = {"u8": "uint8", "i8": "int8"}
OPSET = 13
IR_VERSION = 7  # opset 13's IR; ORT reads it whatever its own newest is
ONNX_OP = {"ADD": "Add", "SUB": "Sub", "MUL": "Mul"}
QLINEAR_OP = {"ADD": "QLinearAdd", "MUL": "QLinearMul"}  # ORT has no QLinearSub


def find_node_modules():
    """(node_modules directory holding onnxruntime-node, None) or (None, why not)."""
    node = shutil.which("node")
    if node is None:
        return None, "node (nodejs) is not installed"
    candidates = []
    if os.environ.get("BCAST_ORT_NODE_MODULES"):
        candidates.append(os.environ["BCAST_ORT_NODE_MODULES"])
    elif shutil.which("npm"):
        root = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True)
        if root.returncode == 0 and root.stdout.strip():
            candidates.append(root.stdout.strip())
    for d in candidates:
        if os.path.isfile(os.path.join(d, "onnxruntime-node", "package.json")):
            return d, None
    return None, ("onnxruntime-node not found (BCAST_ORT_NODE_MODULES=%s, else npm's global "
                  "node_modules); install it with `npm install --ignore-scripts onnxruntime-node` "
                  "in a directory outside the repository and set BCAST_ORT_NODE_MODULES to its "
                  "node_modules" % os.environ.get("BCAST_ORT_NODE_MODULES", "unset"))


def _helpers():
    import onnx
    from onnx import TensorProto, helper
    elem = {"u8": TensorProto.UINT8, "i8": TensorProto.INT8}
    return onnx, helper, TensorProto, elem


def _model(dtype, param_sets, a_shape, b_shape, group_nodes, domains):
    """The model over inputs a, b: per parameter set k ((sa, za), (sb, zb), (sy, zy)),
    initializers {a,b,y}k_scale and {a,b,y}k_zp and the nodes group_nodes(helper, k)
    that compute output yk."""
    onnx, helper, TensorProto, elem = _helpers()
    nodes, inits = [], []
    for k, params in enumerate(param_sets):
        for name, (scale, zp) in zip(("a%d" % k, "b%d" % k, "y%d" % k), params):
            inits += [helper.make_tensor(name + "_scale", TensorProto.FLOAT, [],
                                         [float(np.float32(scale))]),
                      helper.make_tensor(name + "_zp", elem[dtype], [], [int(zp)])]
        nodes += group_nodes(helper, k)
    y_shape = list(np.broadcast_shapes(tuple(a_shape), tuple(b_shape)))
    graph = helper.make_graph(
        nodes, "bcast_quantized",
        [helper.make_tensor_value_info("a", elem[dtype], list(a_shape)),
         helper.make_tensor_value_info("b", elem[dtype], list(b_shape))],
        [helper.make_tensor_value_info("y%d" % k, elem[dtype], y_shape)
         for k in range(len(param_sets))],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in domains],
                              producer_name="bcast")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model.SerializeToString()


def qdq_model(op, dtype, param_sets, a_shape, b_shape):
    """DQ, DQ -> op -> Q per parameter set; outputs y0.. in order."""
    def group(helper, k):
        return [
            helper.make_node("DequantizeLinear", ["a", "a%d_scale" % k, "a%d_zp" % k], ["da%d" % k]),
            helper.make_node("DequantizeLinear", ["b", "b%d_scale" % k, "b%d_zp" % k], ["db%d" % k]),
            helper.make_node(ONNX_OP[op], ["da%d" % k, "db%d" % k], ["v%d" % k]),
            helper.make_node("QuantizeLinear", ["v%d" % k, "y%d_scale" % k, "y%d_zp" % k], ["y%d" % k]),
        ]
    return _model(dtype, param_sets, a_shape, b_shape, group, [("", OPSET)])


def qlinear_model(op, dtype, param_sets, a_shape, b_shape):
    """com.microsoft QLinearAdd / QLinearMul per parameter set; outputs y0.. in order."""
    def group(helper, k):
        return [helper.make_node(
            QLINEAR_OP[op],
            ["a", "a%d_scale" % k, "a%d_zp" % k, "b", "b%d_scale" % k, "b%d_zp" % k,
             "y%d_scale" % k, "y%d_zp" % k],
            ["y%d" % k], domain="com.microsoft")]
    return _model(dtype, param_sets, a_shape, b_shape, group, [("", OPSET), ("com.microsoft", 1)])


def run_models(node_modules, jobs, threads=1):
    """Runs each job dict(model=bytes, a=array, b=array, outputs=n, optimize=bool,
    runs=1, profile=False) in one node process. Returns, per job, (list of its n
    output arrays, the parsed profile trace or None, the shortest run() wall time in ms)."""
    with tempfile.TemporaryDirectory(prefix="bcast-ort-") as tmp:
        specs, shapes = [], []
        for j, job in enumerate(jobs):
            a, b = np.asarray(job["a"]), np.asarray(job["b"])
            dtype = {np.dtype(np.uint8): "u8", np.dtype(np.int8): "i8"}[a.dtype]
            files = {}
            for name, x in (("a", a), ("b", b)):
                files[name] = os.path.join(tmp, "job%d_%s.bin" % (j, name))
                np.ascontiguousarray(x).tofile(files[name])
            model = os.path.join(tmp, "job%d.onnx" % j)
            with open(model, "wb") as f:
                f.write(job["model"])
            specs.append({
                "model": model, "optimize": bool(job.get("optimize")), "threads": threads,
                "inputs": {name: {"file": files[name], "type": ORT_TYPE[dtype], "dims": list(x.shape)}
                           for name, x in (("a", a), ("b", b))},
                "outputs": ["y%d" % k for k in range(job["outputs"])],
                "output_file": os.path.join(tmp, "job%d_out.bin" % j),
                "runs": int(job.get("runs", 1)),
                "profile_prefix": os.path.join(tmp, "job%d_trace" % j) if job.get("profile") else None,
            })
            shapes.append((DTYPES[dtype], np.broadcast_shapes(a.shape, b.shape), job["outputs"]))
        jobs_file = os.path.join(tmp, "jobs.json")
        with open(jobs_file, "w") as f:
            json.dump({"jobs": specs}, f)
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
        env["NODE_PATH"] = node_modules  # no sanitizer runtime in node
        done = subprocess.run(["node", RUNNER, jobs_file], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError("onnxruntime-node failed:\n" + done.stderr)
        results = []
        for spec, (np_dtype, shape, n), info in zip(specs, shapes, json.loads(done.stdout)):
            flat = np.fromfile(spec["output_file"], dtype=np_dtype)
            outs = [x.reshape(shape) for x in np.split(flat, n)]
            trace = None
            if info["profile"]:
                with open(info["profile"]) as f:
                    trace = json.load(f)
            results.append((outs, trace, info["best_run_ms"]))
        return results


def kernel_times_us(trace):
    """{op type: [kernel durations in microseconds, one per run]} from an ORT profile trace."""
    times = {}
    for ev in trace:
        if ev.get("cat") == "Node" and ev.get("name", "").endswith("_kernel_time"):
            times.setdefault(ev["args"]["op_name"], []).append(ev["dur"])
    return times



def ort_version(node_modules):
    with open(os.path.join(node_modules, "onnxruntime-node", "package.json")) as f:
        return json.load(f)["version"]
