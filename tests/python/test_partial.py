"""bcast.infer_partial_shape: the notation, the three semantics on worked
examples, strict's conditions against the static rule, and the onnx semantics
against onnx.shape_inference itself on generated single-node models (skipped,
saying so, where the onnx module is not importable)."""

import random

import numpy as np
import pytest

import bcast


def test_notation_round_trip():
    shape, conds = bcast.infer_partial_shape(("N", 3, (2, 8), (2, None), None), (1,))
    assert shape == ("N", 3, (2, 8), (2, None), None)
    assert conds == ()
    assert bcast.infer_partial_shape(None, (2, 3), semantics="onnx") is None
    shape, _ = bcast.infer_partial_shape(None, (2, 3))
    assert shape == (Ellipsis, 2, 3)
    assert bcast.infer_partial_shape((Ellipsis, 5), (Ellipsis, 1), semantics="strict")[0] == (
        Ellipsis, 5)


def test_three_semantics_disagree():
    # partial-shapes-notes.md section 4, rows 1, 5 and 10.
    assert bcast.infer_partial_shape(("N",), (None,), semantics="onnx") == (None,)
    assert bcast.infer_partial_shape(("N",), (None,), semantics="openvino") == ("N",)
    assert bcast.infer_partial_shape((3,), ("N",), semantics="onnx") == (3,)
    shape, conds = bcast.infer_partial_shape((3,), ("N",))
    assert shape == (3,) and list(conds) == ["N == 1 or N == 3"]
    assert conds.holds((3,), (1,)) and conds.holds((3,), (3,)) and not conds.holds((3,), (2,))
    assert bcast.infer_partial_shape((2, 1), (None,), rule="pdpd", axis=1,
                                     semantics="openvino") == (2, None)
    shape, conds = bcast.infer_partial_shape((2, 1), (None,), rule="pdpd", axis=1)
    assert shape == (2, 1) and list(conds) == ["in1[0] == 1"]
    with pytest.raises(bcast.UnsupportedError):
        bcast.infer_partial_shape((2, 1), (None,), rule="pdpd", semantics="onnx")


def test_refusals_and_bad_arguments():
    with pytest.raises(bcast.IncompatibleShapesError, match="3 vs 4..10"):
        bcast.infer_partial_shape(((4, 10),), (3,))
    with pytest.raises(bcast.IncompatibleShapesError, match="no values of the unknown"):
        bcast.infer_partial_shape(("N", "N"), (3, 4), rule="none")
    with pytest.raises(bcast.InvalidArgumentError, match="empty or negative interval"):
        bcast.infer_partial_shape(((5, 2),), (1,))
    with pytest.raises(ValueError, match="unknown semantics"):
        bcast.infer_partial_shape((1,), semantics="tvm")
    with pytest.raises(TypeError):
        bcast.infer_partial_shape((1.5,))


def test_expand_modes():
    assert bcast.infer_partial_expand_shape((1, 2, None), (None, None, None),
                                            semantics="onnx") == (None, 2, None)
    shape, conds = bcast.infer_partial_expand_shape((None, 1), ("N", 3), mode="numpy")
    assert shape == ("N", 3) and list(conds) == ["in0[0] == 1 or in0[0] == N"]


def _static_agrees(conds, shapes, infer):
    """conds hold on each tuple of static shapes exactly when infer accepts it."""
    for static in shapes:
        try:
            infer(*static)
            ok = True
        except (bcast.IncompatibleShapesError, bcast.InvalidArgumentError):
            ok = False
        assert conds.holds(*static) == ok, static


def test_unknown_ranks_that_decide_the_alignment():
    # Each worked out by hand from the rule texts, rank by rank.
    # pdpd at axis 0: B of rank 0..2, each dim 1 or A's.
    shape, conds = bcast.infer_partial_shape((2, 3), None, rule="pdpd", axis=0)
    assert shape == (2, 3)
    assert list(conds) == ["rank(in1) <= 2", "in1[0] == 1 or in1[0] == 2",
                           "in1[1] == 1 or in1[1] == 3"]
    _static_agrees(conds, [((2, 3), b) for b in [(), (1,), (2,), (3,), (2, 3), (2, 1), (1, 1, 1)]],
                   lambda a, b: bcast.infer_shape(a, b, rule="pdpd", axis=0))
    # onnx_legacy at axis 0: (5) alone would have to equal A[0] = 4; (x,5)
    # fits with x a leading 1 or 4.
    shape, conds = bcast.infer_partial_shape((4, 5), (Ellipsis, 5), rule="onnx_legacy", axis=0)
    assert shape == (4, 5)
    assert list(conds) == ["rank(in1) == 2", "in1[0] == 1 or in1[0] == 4"]
    _static_agrees(conds, [((4, 5), b) for b in [(5,), (1, 5), (4, 5), (2, 5), (1, 4, 5)]],
                   lambda a, b: bcast.infer_shape(a, b, rule="onnx_legacy", axis=0))
    # ncnn: B (3) goes innermost (3 != 5); (b,3) on the outer axes meets 2;
    # rank 3 is numpy; rank 4 puts A on B's outer axes, output (5,2,3,3).
    shape, conds = bcast.infer_partial_shape((5, 2, 3), (Ellipsis, 3), rule="ncnn")
    assert shape == (Ellipsis, (2, 5), (2, 3), 3)
    assert list(conds) == ["rank(in1) <= 4", "rank(in1) <= 1 or rank(in1) >= 3",
                           "in1[0] == 1 or in1[0] == 5 or rank(in1) <= 1",
                           "in1[1] == 1 or in1[1] == 2", "in1[2] == 1 or in1[2] == 3"]
    _static_agrees(conds, [((5, 2, 3), b) for b in [(3,), (1, 3), (5, 2, 3), (1, 1, 3),
                                                    (5, 2, 3, 3), (1, 2, 1, 3), (2, 2, 3, 3)]],
                   lambda a, b: bcast.infer_shape(a, b, rule="ncnn"))
    # Broadcast explicit, one mapping entry: rank-0 data needs target[1] == 1.
    shape, conds = bcast.infer_partial_expand_shape(None, (2, 3), mode="explicit",
                                                    axes_mapping=[1])
    assert shape == (2, 3)
    assert list(conds) == ["rank(in0) == 1", "in0[0] == 1 or in0[0] == 3"]
    _static_agrees(conds, [(d, (2, 3)) for d in [(), (1,), (3,), (2,)]],
                   lambda d, t: bcast.infer_expand_shape(d, t, mode="explicit", axes_mapping=[1]))
    # Broadcast pdpd, default axis: the data at the target's end, merged
    # both ways, the target of any rank from 2.
    shape, conds = bcast.infer_partial_expand_shape((2, 1), None, mode="pdpd")
    assert shape == (Ellipsis, 2, None)
    assert list(conds) == ["rank(in1) >= 2", "in1[-2] == 1 or in1[-2] == 2"]
    _static_agrees(conds, [((2, 1), t) for t in [(2,), (1, 7), (3, 7), (4, 2, 7), (4, 3, 7)]],
                   lambda d, t: bcast.infer_expand_shape(d, t, mode="pdpd"))


def _assignments(shapes, rng):
    """A random static assignment of partial shapes (symbols consistent)."""
    values = {}
    out = []
    for s in shapes:
        dims = []
        for d in s:
            if isinstance(d, str):
                dims.append(values.setdefault(d, rng.choice([1, 2, 3])))
            elif d is None:
                dims.append(rng.choice([1, 2, 3]))
            else:
                dims.append(d)
        out.append(tuple(dims))
    return out


def test_strict_conditions_match_the_static_rule():
    rng = random.Random(7)
    for _ in range(400):
        shapes = [tuple(rng.choice([1, 2, 3, "N", "M", None]) for _ in range(rng.randint(0, 3)))
                  for _ in range(rng.randint(1, 3))]
        try:
            _, conds = bcast.infer_partial_shape(*shapes)
        except bcast.IncompatibleShapesError:
            for _ in range(20):
                with pytest.raises(bcast.IncompatibleShapesError):
                    bcast.infer_shape(*_assignments(shapes, rng))
            continue
        for _ in range(20):
            static = _assignments(shapes, rng)
            try:
                bcast.infer_shape(*static)
                ok = True
            except bcast.IncompatibleShapesError:
                ok = False
            assert conds.holds(*static) == ok, (shapes, static, conds)


# ONNX ops whose shape inference is multidirectional broadcasting (or copies
# input 0: PRelu), with input element types that the op accepts.
_F, _B, _I, _U = 1, 9, 6, 12  # FLOAT, BOOL, INT32, UINT32
_ONNX_OPS = [
    ("Add", [_F, _F], {}), ("Sub", [_F, _F], {}), ("Mul", [_F, _F], {}), ("Div", [_F, _F], {}),
    ("Pow", [_F, _F], {}), ("Mod", [_I, _I], {}), ("Equal", [_F, _F], {}),
    ("Less", [_F, _F], {}), ("Greater", [_F, _F], {}), ("LessOrEqual", [_F, _F], {}),
    ("GreaterOrEqual", [_F, _F], {}), ("And", [_B, _B], {}), ("Or", [_B, _B], {}),
    ("Xor", [_B, _B], {}), ("BitShift", [_U, _U], {"direction": "LEFT"}),
    ("Max", [_F] * 3, {}), ("Min", [_F] * 3, {}), ("Mean", [_F] * 3, {}), ("Sum", [_F] * 3, {}),
    ("Where", [_B, _F, _F], {}), ("PRelu", [_F, _F], {}),
]


# Defined by a function body since opset 16: ONNX (1.12 at least) infers
# their shape through Less/Greater and Or but drops an error there, leaving
# the output without a shape where Less itself refuses. Counted as a refusal.
_FUNCTION_OPS = ("LessOrEqual", "GreaterOrEqual")


def _random_onnx_shape(rng):
    if rng.random() < 0.05:
        return None
    return tuple(rng.choice([1, 1, 2, 3, 0, "a", "b", None]) for _ in range(rng.randint(0, 4)))


def _onnx_dims(type_proto):
    t = type_proto.tensor_type
    if not t.HasField("shape"):
        return None
    dims = []
    for d in t.shape.dim:
        if d.HasField("dim_value"):
            dims.append(d.dim_value)
        elif d.HasField("dim_param") and not d.dim_param.startswith("unk__"):
            dims.append(d.dim_param)
        else:
            dims.append(None)
    return tuple(dims)


def test_onnx_semantics_agree_with_onnx_shape_inference():
    onnx = pytest.importorskip("onnx", reason="the onnx module (Debian python3-onnx) is not "
                                              "installed: ONNX agreement not checked")
    from onnx import helper, shape_inference

    rng = random.Random(20261127)
    checked = 0
    for k in range(3000):
        op, types, attrs = _ONNX_OPS[k % len(_ONNX_OPS)]
        shapes = [_random_onnx_shape(rng) for _ in types]
        if op == "Max" or op == "Min" or op == "Mean" or op == "Sum":
            shapes = shapes[:rng.randint(1, 3)]
            types = types[:len(shapes)]
        names = ["x%d" % i for i in range(len(shapes))]
        node = helper.make_node(op, names, ["y"], **attrs)
        graph = helper.make_graph(
            [node], "g",
            [helper.make_tensor_value_info(n, t, s) for n, t, s in zip(names, types, shapes)],
            [helper.make_tensor_value_info("y", 0, None)])
        model = helper.make_model(graph)
        rule = "unidirectional" if op == "PRelu" else "numpy"
        try:
            inferred = shape_inference.infer_shapes(model, strict_mode=True)
            expected = _onnx_dims(inferred.graph.output[0].type)
        except Exception:  # onnx refuses: "Incompatible dimensions"
            expected = "refused"
        try:
            got = bcast.infer_partial_shape(*shapes, rule=rule, semantics="onnx")
        except bcast.IncompatibleShapesError:
            got = "refused"
        if op in _FUNCTION_OPS and expected is None and got == "refused":
            expected = "refused"
        assert got == expected, (op, shapes)
        checked += 1
    assert checked == 3000


def test_onnx_expand_agrees_with_onnx_shape_inference():
    pytest.importorskip("onnx", reason="the onnx module (Debian python3-onnx) is not installed: "
                                       "ONNX agreement not checked")
    from onnx import TensorProto, helper, shape_inference

    rng = random.Random(36)
    for _ in range(600):
        data = _random_onnx_shape(rng)
        length = rng.randint(0, 4)
        inputs = [helper.make_tensor_value_info("x", _F, data)]
        initializers = []
        if rng.random() < 0.5:  # the target's values are a constant
            values = [rng.choice([0, 1, 1, 2, 3]) for _ in range(length)]
            initializers.append(helper.make_tensor("s", TensorProto.INT64, (length,), values))
            target = tuple(values)
        else:  # only the target's length is known: that many anonymous dims
            inputs.append(helper.make_tensor_value_info("s", TensorProto.INT64, (length,)))
            target = (None,) * length
        graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g", inputs,
                                  [helper.make_tensor_value_info("y", 0, None)], initializers)
        try:
            inferred = shape_inference.infer_shapes(helper.make_model(graph), strict_mode=True)
            expected = _onnx_dims(inferred.graph.output[0].type)
        except Exception:
            expected = "refused"
        try:
            got = bcast.infer_partial_expand_shape(data, target, mode="bidirectional",
                                                   semantics="onnx")
        except bcast.IncompatibleShapesError:
            got = "refused"
        assert got == expected, (data, target)


def test_numbers_are_checked_not_wrapped_or_truncated():
    with pytest.raises(OverflowError, match="does not fit int64"):
        bcast.infer_partial_shape((2 ** 64 + 3,), (3,))
    with pytest.raises(TypeError):
        bcast.infer_partial_shape(((1.5, 3),), (2,))
    with pytest.raises(TypeError):
        bcast.infer_partial_shape(((True, 3),), (2,))
    with pytest.raises(TypeError, match="axis"):
        bcast.infer_partial_shape((2, 3, 4), (3,), rule="pdpd", axis=1.7)
    with pytest.raises(TypeError, match="axes_mapping"):
        bcast.infer_partial_expand_shape((3,), (2, 3), mode="explicit", axes_mapping=[1.9])
    with pytest.raises(ValueError, match="NUL"):
        bcast.infer_partial_shape(("N\0a",), ("N\0b",))
    with pytest.raises(TypeError, match="partial shape"):
        bcast.infer_partial_shape("NM", (2, 3))
    import numpy as np
    assert bcast.infer_partial_shape((np.int64(2), 3), (3,))[0] == (2, 3)  # as infer_shape takes them


def test_conditions_hold_only_for_shapes_the_partial_shapes_allow():
    _, c = bcast.infer_partial_shape(("N", 3), ("M", 3))
    assert c.holds((2, 3), (1, 3)) and not c.holds((2, 3), (4, 3))
    for shapes, why in ((((2, 5), (2, 7)), "extent 5 at axis 1"), (((2, 3),), "1 shapes for 2"),
                        (((2, 3, 1), (2, 3)), "rank 3")):
        with pytest.raises(ValueError, match=why):
            c.holds(*shapes)
    _, c = bcast.infer_partial_shape(("N", "N"), (1, 1))
    with pytest.raises(ValueError, match="N would be both 2 and 5"):
        c.holds((2, 5), (1, 1))
    _, c = bcast.infer_partial_shape((..., "N", 3), ("M", 3))
    assert not c.holds((7, 2, 3), (4, 3)) and c.holds((7, 4, 3), (4, 3))


@pytest.mark.parametrize("semantics", ["strict", "onnx", "openvino"])
@pytest.mark.parametrize("rule", ["pdpd", "onnx_legacy"])
def test_an_axis_below_minus_one_is_refused_under_every_semantics(semantics, rule):
    with pytest.raises(bcast.InvalidArgumentError, match="axis -2 is invalid"):
        bcast.infer_partial_shape((2, 3, 4), (3, 4), rule=rule, axis=-2, semantics=semantics)


def test_refusals_print_symbols_by_name():
    with pytest.raises(bcast.InvalidArgumentError, match=r"target shape \(2,N,1\.\.5\)"):
        bcast.infer_partial_expand_shape(("M", 3), (2, "N", (1, 5)), mode="explicit",
                                         axes_mapping=[-5, 0])


def test_an_unhashable_semantics_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown semantics"):
        bcast.infer_partial_shape((1,), semantics=[])


def test_symbols_and_arguments_that_are_not_what_they_look_like_are_refused():
    # "" names no symbol, as in the C API (and ONNX's empty dim_param).
    shape, conditions = bcast.infer_partial_shape(("",), ("",))
    assert shape == (None,) and conditions.holds((1,), (3,)) and not conditions.holds((2,), (3,))
    with pytest.raises(ValueError, match="UTF-8"):
        bcast.infer_partial_shape(("\ud800",), (3,))
    _, conditions = bcast.infer_partial_shape(("N",), ("M",))
    with pytest.raises(TypeError, match="shape 0 is a sequence of ints"):
        conditions.holds(3, (3,))
    with pytest.raises(TypeError, match="shape 0 is a sequence of ints"):
        conditions.holds(np.array(3), (3,))
    with pytest.raises(TypeError, match="axes_mapping is a sequence of ints"):
        bcast.infer_partial_expand_shape((3,), (2, 3), mode="explicit", axes_mapping=1)
    # Any iterable of axes, as the op functions take it.
    assert bcast.infer_partial_expand_shape((3,), (2, 3), mode="explicit",
                                            axes_mapping=(a for a in [1]))[0] == (2, 3)


def test_a_symbol_with_a_line_break_keeps_one_condition_per_clause():
    _, conditions = bcast.infer_partial_shape(("A\nB",), ("M",))
    assert conditions == ("in0[0] == 1 or M == 1 or in0[0] == M",)
    assert conditions.holds((1,), (3,)) and not conditions.holds((2,), (3,))


def test_conditions_copy_as_themselves_and_refuse_pickling():
    import copy
    import pickle
    _, conditions = bcast.infer_partial_shape(("N",), ("M",))
    assert copy.copy(conditions) is conditions and copy.deepcopy(conditions) is conditions
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(conditions)
