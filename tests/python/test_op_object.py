"""bcast.Op, the reusable op object: results against numpy, and every error
path of construction, plan() and a call.

Run by ctest as "python: package (pytest)" (see test_package.py for how to
run it by hand).
"""
import sys
import threading
import time

import numpy as np
import pytest

import bcast

RNG = np.random.default_rng(7)


def rand(shape, dtype="f4"):
    return RNG.uniform(-4, 4, shape).astype(dtype)


def test_the_issue_example():
    a, b = rand((2, 3, 4, 5)), rand((3, 1))
    op = bcast.Op("add", "f32", rule="pdpd", axis=1)
    assert op.plan([a.shape, b.shape]) == (2, 3, 4, 5)
    out = np.empty((2, 3, 4, 5), "f4")
    for _ in range(3):
        assert op(a, b, out=out) is out
        np.testing.assert_array_equal(out, a + b.reshape(1, 3, 1, 1))
    got = op(a, b)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, out)
    assert op.output_shape == (2, 3, 4, 5)
    assert op.describe()["rule"] == "pdpd"


@pytest.mark.parametrize("name, dtype", [("f32", "f4"), ("float64", "f8"), (np.int16, "i2"),
                                         ("u16", "u2"), ("i64", "i8"), ("float16", "f2"),
                                         ("i8", "i8"), ("u8", "u8")])  # numpy's i8, u8 win
def test_dtypes_by_any_name(name, dtype):
    a = (rand((5, 6)) * 10).astype(dtype)
    op = bcast.Op("mul", name)
    op.plan([a.shape, a.shape[1:]])
    np.testing.assert_array_equal(op(a, a[0]), a * a[0])


def test_strided_inputs_and_output():
    a = rand((6, 12))
    view = a[::-2, 1::3]  # (3, 4): negative and padded strides
    b = rand((4,))
    op = bcast.Op("sub", "f32")
    op.plan([view.shape, b.shape], strides=[[s // 4 for s in view.strides], None],
            out_strides=[1, 3])
    out = np.empty((4, 3), "f4").T
    op(view, b, out=out)
    np.testing.assert_array_equal(out, view - b)
    with pytest.raises(TypeError, match="planned for output byte strides"):
        op(view, b)


def test_layouts_that_differ_only_on_extent_1_axes_are_the_same():
    a = rand((4, 1, 5))
    b = rand((5,))
    op = bcast.Op("add", "f32")
    op.plan([a.shape, b.shape])
    odd = np.lib.stride_tricks.as_strided(a, a.shape, (a.strides[0], 999 * 4, a.strides[2]))
    np.testing.assert_array_equal(op(odd, b), a + b)


def test_select_comparison_and_expand():
    cond, x, y = rand((3, 4)) > 0, rand((3, 4)), rand((4,))
    sel = bcast.Op("select", "f32")
    sel.plan([cond.shape, x.shape, y.shape])
    np.testing.assert_array_equal(sel(cond, x, y), np.where(cond, x, y))
    less = bcast.Op("less", "f32")
    less.plan([x.shape, y.shape])
    got = less(x, y)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, x < y)
    expand = bcast.Op("copy", "i32", mode="numpy")
    data = np.arange(3, dtype="i4")
    assert expand.plan([data.shape], target=(2, 3)) == (2, 3)
    np.testing.assert_array_equal(expand(data), np.broadcast_to(data, (2, 3)))


def test_zero_d_results_and_python_scalars():
    op = bcast.Op("add", "f64")
    op.plan([(), ()])
    got = op(1.5, np.array(2.0))
    assert type(got) is np.float64 and got == 3.5
    out = np.empty((), "f8")
    assert op(1.0, 2.0, out=out) is out and out == 3.0
    op_i = bcast.Op("add", "i32")
    op_i.plan([(), ()])
    assert op_i(2, 3) == 5
    with pytest.raises(TypeError, match="cannot cast float64 to int32"):
        op_i(1.5, 2)


def test_construction_errors():
    with pytest.raises(ValueError, match="unknown op 'plus'"):
        bcast.Op("plus", "f32")
    with pytest.raises(bcast.UnsupportedError):
        bcast.Op("atan2", "i32")
    with pytest.raises(bcast.UnsupportedError, match="complex128"):
        bcast.Op("add", np.complex128)
    with pytest.raises(TypeError):
        bcast.Op("add", "f33")
    with pytest.raises(ValueError, match="unknown rule"):
        bcast.Op("add", "f32", rule="broadcast")
    with pytest.raises(ValueError, match="unknown expand mode"):
        bcast.Op("copy", "f32", mode="sideways")


def test_plan_errors_keep_the_previous_plan():
    a, b = rand((2, 3)), rand((3,))
    op = bcast.Op("add", "f32")
    op.plan([a.shape, b.shape])
    with pytest.raises(bcast.IncompatibleShapesError, match="3 vs 4"):
        op.plan([(2, 3), (4,)])
    with pytest.raises(ValueError, match="2 shapes but 1 strides"):
        op.plan([(2, 3), (3,)], strides=[[3, 1]])
    with pytest.raises(ValueError, match="do not fit shape"):
        op.plan([(2, 3), (3,)], strides=[[1], None])
    with pytest.raises(ValueError, match="out_strides .* do not fit the output shape"):
        op.plan([(2, 3), (3,)], out_strides=[1])
    with pytest.raises(ValueError, match="target shape goes with op 'copy'"):
        op.plan([(2, 3), (3,)], target=(2, 3))
    with pytest.raises(bcast.InvalidArgumentError):
        op.plan([(2, 3), (3,)], out_strides=[1, 1])  # overlapping output elements
    np.testing.assert_array_equal(op(a, b), a + b)  # the first plan still runs


def test_call_errors():
    a, b = rand((2, 3)), rand((3,))
    op = bcast.Op("add", "f32")
    with pytest.raises(bcast.InvalidStateError, match="plan"):
        op(a, b)
    with pytest.raises(bcast.InvalidStateError):
        op.output_shape
    op.plan([a.shape, b.shape])
    with pytest.raises(TypeError, match="planned for 2 inputs, not 1"):
        op(a)
    with pytest.raises(TypeError, match="input 1 has dtype float64, not float32; bcast does not promote"):
        op(a, b.astype("f8"))
    scalar = bcast.Op("add", "f32")
    scalar.plan([(2, 3), ()])
    for value in (np.float64(1), np.array(1.0)):  # a numpy scalar says it as a 0-d array does
        with pytest.raises(TypeError, match=r"^bcast.Op\('add'\): input 1 has dtype float64, not float32"):
            scalar(a, value)
    with pytest.raises(ValueError, match=r"input 0 has shape \(3, 2\), the plan is for \(2, 3\)"):
        op(a.T.copy(), b)
    with pytest.raises(ValueError, match="input 0 has byte strides"):
        op(rand((3, 2)).T, b)
    raw = np.zeros(4 * 3 + 1, np.uint8)
    with pytest.raises(bcast.InvalidArgumentError, match="input 1 at 0x[0-9a-f]+ is not aligned"):
        op(a, raw[1:].view("f4"))
    with pytest.raises(TypeError, match="out has dtype float64"):
        op(a, b, out=np.empty((2, 3), "f8"))
    with pytest.raises(ValueError, match="out has shape"):
        op(a, b, out=np.empty((3, 3), "f4"))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        op(a, b, out=[0.0] * 6)
    ro = np.empty((2, 3), "f4")
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        op(a, b, out=ro)
    with pytest.raises(ValueError, match="plan is for a contiguous output"):
        op(a, b, out=np.empty((3, 2), "f4").T)
    # Partial overlap of out and an input: the library refuses, nothing is written.
    buf = np.arange(12, dtype="f4")
    before = buf.copy()
    over = bcast.Op("add", "f32")
    over.plan([(6,), (6,)])
    with pytest.raises(bcast.InvalidArgumentError):
        over(buf[:6], buf[:6], out=buf[2:8])
    np.testing.assert_array_equal(buf, before)
    op.close()
    with pytest.raises(bcast.InvalidStateError):
        op(a, b)


def test_with_block_and_repr():
    with bcast.Op("max", "i32") as op:
        op.plan([(4,), (4,)])
        assert "planned for [(4,), (4,)]" in repr(op)
    assert "not planned" in repr(op)


def test_many_threads_call_one_op_while_it_is_planned_again():
    # The plan flips between two layouts while threads call: a call either
    # meets the plan of its own arrays and must be right, or is refused.
    wide, row = rand((64, 33)), rand((33,))
    tall = rand((33, 64)).T  # the same shape, other strides
    cases = [(wide, row, wide * row), (tall, row, tall * row)]
    layouts = [([wide.shape, row.shape], None), ([tall.shape, row.shape], [[1, 64], None])]
    op = bcast.Op("mul", "f32")
    op.plan(*layouts[0])
    failures, counts = [], [0, 0]
    stop = threading.Event()

    def call(which):
        a, b, expected = cases[which]
        out = np.empty(expected.shape, "f4")
        deadline = time.monotonic() + 10
        while counts[which] < 3000 and time.monotonic() < deadline:
            try:
                op(a, b, out=out)
            except ValueError as e:
                if "byte strides" not in str(e):
                    failures.append(str(e))
                continue
            counts[which] += 1
            if not np.array_equal(out, expected):
                failures.append("mismatch")

    def replan():
        i = 0
        while not stop.is_set():
            i += 1
            op.plan(*layouts[i % 2])  # a new handle swapped in under the callers

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often, not every 5 ms
    try:
        planner = threading.Thread(target=replan)
        planner.start()
        callers = [threading.Thread(target=call, args=(i % 2,)) for i in range(6)]
        for t in callers:
            t.start()
        for t in callers:
            t.join()
        stop.set()
        planner.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert min(counts) > 0  # both layouts ran


def test_an_array_given_new_data_in_place_is_read_at_its_new_address():
    # numpy lets an array object take new data in place (pickle's
    # __setstate__): a call must not use an address read before.
    op = bcast.Op("add", "f32")
    op.plan([(1024,), (1024,)])
    a, b, out = np.ones(1024, "f4"), np.ones(1024, "f4"), np.empty(1024, "f4")
    op(a, b, out=out)
    a.__setstate__((1, (1024,), np.dtype("f4"), False, np.full(1024, 5, "f4").tobytes()))
    out.__setstate__((1, (1024,), np.dtype("f4"), False, bytes(4096)))
    victim = np.zeros(1024, "f4")  # may land where out's old data was
    assert op(a, b, out=out) is out
    np.testing.assert_array_equal(out, np.full(1024, 6, "f4"))
    np.testing.assert_array_equal(victim, np.zeros(1024, "f4"))


def test_arguments_of_another_kind_of_op_are_refused():
    # mode= and axes_mapping= belong to op "copy" (expand), rule= to the others.
    with pytest.raises(TypeError, match=r"bcast.Op\('add'\) takes no mode="):
        bcast.Op("add", "f32", mode="numpy")
    with pytest.raises(TypeError, match="takes no rule="):
        bcast.Op("copy", "f32", rule="pdpd")
    with pytest.raises(ValueError, match="axes_mapping goes with a target shape"):
        bcast.Op("add", "f32").plan([(3,), (3,)], axes_mapping=[0])
    with pytest.raises(TypeError, match="mode= is the expand mode"):
        bcast.explain((3,), (3,), mode="numpy")
    with pytest.raises(ValueError, match="axes_mapping goes with a target shape"):
        bcast.explain((3,), (3,), axes_mapping=[0])
    with pytest.raises(TypeError, match="takes no rule="):
        bcast.explain((3,), op="copy", target_shape=(2, 3), rule="pdpd")
    # The expand mode still defaults to bidirectional, and can be named.
    expand = bcast.Op("copy", "f32")
    assert expand.plan([(3, 1)], target=(2, 1, 4)) == (2, 3, 4)
    assert bcast.Op("copy", "f32", mode="numpy").plan([(3,)], target=(2, 3)) == (2, 3)
    assert bcast.explain((3, 1), op="copy", target_shape=(1, 4))["output_shape"] == [3, 4]


def test_a_bfloat16_op_says_what_its_inputs_hold():
    # Its uint16 arrays hold bfloat16 bits: "convert it" to uint16 would give
    # wrong bits, so an input of another dtype gets the bfloat16 wording, as
    # the op functions give it, from an array and a numpy scalar alike.
    op = bcast.Op("add", "bfloat16")
    op.plan([(3,), (3,)])
    for value in (np.zeros(3, np.float32), np.float32(1)):
        with pytest.raises(TypeError, match=r"input 1: dtype='bfloat16' takes uint16 arrays of bfloat16 bits, not float32"):
            op(np.zeros(3, np.uint16), value)
    with pytest.raises(TypeError, match="dtype='bfloat16' takes uint16 arrays of bfloat16 bits, not float32"):
        bcast.add(np.zeros(3, np.uint16), np.zeros(3, np.float32), dtype="bfloat16")


@pytest.mark.parametrize("arity", [1, 2, 3])
def test_a_misaligned_out_is_refused_alike_for_every_input_count(arity):
    # Every count runs a matching call at once and leaves alignment to the
    # library (the compiled path and the ctypes one alike).
    op, inputs = {
        1: (bcast.Op("copy", "f32"), (rand((4,)),)),
        2: (bcast.Op("add", "f32"), (rand((4,)), rand((4,)))),
        3: (bcast.Op("select", "f32"), (np.ones(4, bool), rand((4,)), rand((4,)))),
    }[arity]
    op.plan([x.shape for x in inputs], target=(4,) if arity == 1 else None)
    out = np.zeros(17, np.uint8)[1:].view("f4")
    with pytest.raises(bcast.InvalidArgumentError, match="output at 0x[0-9a-f]+ is not aligned"):
        op(*inputs, out=out)
    assert not out.any()


def test_a_refusal_at_execute_is_named_by_the_call():
    # The library's own refusals (here: an overlapping out=) start with the
    # call, as the package's do.
    a = np.arange(12, dtype="f4")
    q = np.arange(12, dtype=np.uint8)
    op = bcast.Op("add", "f32")
    op.plan([(10,), (10,)])
    fused = bcast.fuse(lambda x, y: x * y)
    for what, call in [("bcast.add", lambda: bcast.add(a[:10], a[:10], out=a[1:11])),
                       (r"bcast.Op\('add'\)", lambda: op(a[:10], a[:10], out=a[1:11])),
                       ("bcast.fuse", lambda: fused(a[:10], a[:10], out=a[1:11])),
                       ("bcast.qlinear", lambda: bcast.qlinear("add", q[:10], q[:10], 1.0, 0, 1.0, 0, 1.0, 0,
                                                               out=q[1:11]))]:
        with pytest.raises(bcast.InvalidArgumentError, match="^%s: output overlaps input 0's byte range" % what):
            call()
    np.testing.assert_array_equal(a, np.arange(12, dtype="f4"))  # nothing written
    np.testing.assert_array_equal(q, np.arange(12, dtype=np.uint8))
