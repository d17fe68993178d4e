"""bcast.qlinear: 8-bit quantized element-wise ops, exactly ONNX's QDQ graph.

A u8 or i8 array q stands for scale * (q - zero_point). qlinear dequantizes
each input, runs the op in float32 and quantizes the result to (y_scale,
y_zero_point), rounding half to even and saturating: bit for bit what
DequantizeLinear -> op -> QuantizeLinear gives (docs/quantization.md). It is
one more function on the package's one call path (_call.py): its plans are
cached under the op, the rule and axis and the quantization parameters.
"""


from . import _arrays, _enums
from ._call import count_hit, execute, key, planned, run_cached
from ._fuse import is_traced
from ._library import check, lib
from ._plans import OP, Plan, new_handle
from ._pool import pool_for
from .errors import UnsupportedError

_UNSUPPORTED = UnsupportedError.status

def qlinear(op, a, b, a_scale, a_zero_point, b_scale, b_zero_point, y_scale, y_zero_point, *,
            rule="numpy", axis=-1, out=None, threads=None):
    """qlinear(op, a, b, a_scale, a_zero_point, b_scale, b_zero_point, y_scale,
    y_zero_point, *, rule="numpy", axis=-1, out=None, threads=None)

    op(a, b) on quantized uint8 or int8 arrays (both of one dtype), as ONNX
    Runtime's QLinearAdd takes its arguments: each array with its scale and
    zero point, then the output's. op: "add", "sub", "rsub", "mul", "div",
    "rdiv", "max", "min", "squared_difference" or "prelu". Returns an array of
    the inputs' dtype (or out=). Each scale and zero point is a number or a
    0-d or one-element array (per-tensor, as ONNX keeps them). rule, axis, out
    and threads as for bcast.add.
    """
    what = "bcast.qlinear"
    if is_traced((a, b)):
        raise TypeError("%s cannot be fused: give bcast.fuse the quantization of its arguments "
                        "(quantized=) and of its result (output=)" % what)
    out = _arrays.single_out(out, what)
    axis = _arrays.as_axis(axis, what)
    pool = pool_for(threads, what)
    given = (("a", a_scale, a_zero_point), ("b", b_scale, b_zero_point), ("y", y_scale, y_zero_point))
    params = ()
    for name, scale, zero_point in given:
        params += _arrays.quantization(scale, zero_point, "%s: %s_scale" % (what, name),
                                       "%s: %s_zero_point" % (what, name))
    op, rule = _enums.plain(op), _enums.plain(rule)  # exact types in a key: _run.binary
    head = ("qlinear", op, rule, axis, params)
    if type(op) is str and type(rule) is str:
        result = run_cached(head, (a, b), out, pool)
        if result is not None:
            return result
    opcode, rule_code = _enums.opcode(op), _enums.rule_code(rule)
    # Every text a refusal may need, made now: a repr is caller code, which
    # must not run once the arrays' layouts are read.
    op_context = "%s(%r)" % (what, op)
    contexts = ["%s: %s_scale=%r, %s_zero_point=%r" % (what, name, scale, name, zero_point)
                for name, scale, zero_point in given]
    checked = [_arrays.quantized_array(value, "%s: %s" % (what, name))
               for name, value in (("a", a), ("b", b))]
    arrays, code, storage = _arrays.prepare_data(checked, None, what)
    if out is not None:
        _arrays.check_out(out, storage, what)

    def make():
        handle = new_handle(opcode, code, rule_code, axis, context=op_context)
        try:
            for k, operand in enumerate((0, 1, _arrays.OUTPUT_OPERAND)):
                status = lib.bcast_op_set_quantization(handle, operand, params[2 * k], params[2 * k + 1])
                # A refused value is named as the caller passed it; an op
                # without a quantized form by the op.
                check(status, op_context if status == _UNSUPPORTED else contexts[k])
        except BaseException:
            lib.bcast_op_destroy(handle)
            raise
        return Plan(OP, handle, what, storage)

    plan, hit = planned(key(head, arrays, out), make, arrays, out)
    result = execute(plan, arrays, out, pool)
    if hit:
        count_hit()
    return result
