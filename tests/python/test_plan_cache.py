"""The package's plan cache: hits, eviction, bounds, concurrent threads and
invalidation, with every result checked against numpy.

Run by ctest as "python: package (pytest)" (see test_package.py for how to
run it by hand).
"""
import threading

import numpy as np
import pytest

import bcast
from bcast import _plans

RNG = np.random.default_rng(20261125)


def rand(shape, dtype="f4"):
    return RNG.uniform(-4, 4, shape).astype(dtype)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts from an empty cache of the default size."""
    bcast.set_plan_cache_size(_plans.DEFAULT_SIZE)
    bcast.clear_plan_cache()
    yield
    bcast.set_plan_cache_size(_plans.DEFAULT_SIZE)
    bcast.clear_plan_cache()


def test_a_repeated_call_runs_the_cached_plan():
    a, b, out = rand((4, 5)), rand((5,)), np.empty((4, 5), "f4")
    assert bcast.plan_cache_info() == (0, 0, _plans.DEFAULT_SIZE, 0)
    for _ in range(3):
        np.testing.assert_array_equal(bcast.add(a, b), a + b)
    assert bcast.plan_cache_info() == (2, 1, _plans.DEFAULT_SIZE, 1)
    # out= given is another key (the output's strides are part of it).
    for _ in range(2):
        assert bcast.add(a, b, out=out) is out
        np.testing.assert_array_equal(out, a + b)
    info = bcast.plan_cache_info()
    assert (info.hits, info.misses, info.currsize) == (3, 2, 2)


def test_the_key_tells_apart_everything_that_changes_the_plan():
    a = rand((3, 4))
    b = rand((4,))
    bits = np.full(2, 0x3F80, np.uint16)
    calls = [
        (lambda: bcast.add(a, b), a + b),
        (lambda: bcast.add(a[::-1], b), a[::-1] + b),           # negative strides
        (lambda: bcast.add(a.T.copy().T, b), a + b),            # Fortran order
        (lambda: bcast.sub(a, b), a - b),                       # another op
        (lambda: bcast.add(a.astype("f8"), b.astype("f8")), a.astype("f8") + b.astype("f8")),
        (lambda: bcast.add(a, b[:3].reshape(3, 1), rule="pdpd", axis=0), a + b[:3, None]),
        (lambda: bcast.add(a, rand((3, 1))[:, :1] * 0, rule="numpy"), a + 0),
        (lambda: bcast.less(a, b), a < b),
        (lambda: bcast.expand(b, (2, 4)), np.broadcast_to(b, (2, 4))),
        (lambda: bcast.expand(b[:1], (2, 3), mode="numpy"), np.broadcast_to(b[:1], (2, 3))),
        # The same uint16 arrays as integers and as bfloat16 bits (1.0 + 1.0 = 2.0).
        (lambda: bcast.add(bits, bits), bits + bits),
        (lambda: bcast.add(bits, bits, dtype="bfloat16"), np.full(2, 0x4000, np.uint16)),
    ]
    for _ in range(2):  # the second round runs from the cache
        for call, expected in calls:
            got = call()
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_array_equal(got, expected)
    info = bcast.plan_cache_info()
    assert info.misses == len(calls) and info.hits == len(calls)


def test_out_with_its_own_layout_and_in_place():
    a, b = rand((6, 5)), rand((5,))
    out = np.empty((5, 6), "f4").T  # a transposed output
    for _ in range(2):
        bcast.mul(a, b, out=out)
        np.testing.assert_array_equal(out, a * b)
    x = a.copy()
    for _ in range(2):
        bcast.add(x, b, out=x)
    np.testing.assert_array_equal(x, a + b + b)


def test_the_cache_keeps_to_its_bound_over_10000_shapes():
    b = np.ones(1, "f4")
    for n in range(1, 10001):
        bcast.add(np.zeros(n, "f4"), b)
    info = bcast.plan_cache_info()
    assert info.currsize == _plans.DEFAULT_SIZE and info.misses == 10000
    # The most recent shapes are cached, the oldest were evicted.
    bcast.add(np.zeros(10000, "f4"), b)
    bcast.add(np.zeros(1, "f4"), b)
    info = bcast.plan_cache_info()
    assert (info.hits, info.misses) == (1, 10001)


def test_least_recently_used_is_evicted_first():
    bcast.set_plan_cache_size(2)
    x, y, z = np.ones(1, "f4"), np.ones(2, "f4"), np.ones(3, "f4")
    bcast.add(x, x)
    bcast.add(y, y)
    bcast.add(x, x)      # x is now the most recent
    bcast.add(z, z)      # evicts y
    assert bcast.plan_cache_info().currsize == 2
    hits = bcast.plan_cache_info().hits
    bcast.add(x, x)
    assert bcast.plan_cache_info().hits == hits + 1
    bcast.add(y, y)
    assert bcast.plan_cache_info().hits == hits + 1  # y had to be planned again


def test_size_zero_turns_caching_off_and_shrinking_evicts_at_once():
    a = rand((3,))
    for n in range(1, 6):
        bcast.add(np.ones(n, "f4"), np.ones(n, "f4"))
    bcast.set_plan_cache_size(2)
    assert bcast.plan_cache_info().currsize == 2
    bcast.set_plan_cache_size(0)
    assert bcast.plan_cache_info().currsize == 0
    for _ in range(3):
        np.testing.assert_array_equal(bcast.add(a, a), a + a)
    assert bcast.plan_cache_info().currsize == 0
    with pytest.raises(ValueError, match=">= 0"):
        bcast.set_plan_cache_size(-1)


def test_set_max_isa_clears_the_cache():
    a, b = rand((9, 17)), rand((17,))
    bcast.add(a, b)
    assert bcast.plan_cache_info().currsize == 1
    before = bcast.isa()
    try:
        bcast.set_max_isa("scalar")
        assert bcast.plan_cache_info().currsize == 0
        np.testing.assert_array_equal(bcast.add(a, b), a + b)
        plans = list(_plans.CACHE._plans.values())
        assert len(plans) == 1 and '"isa":"scalar"' in plans[0].describe().replace(" ", "")
    finally:
        bcast.set_max_isa(before)
    assert bcast.plan_cache_info().currsize == 0


def test_errors_are_not_cached_and_stay_as_clear():
    a = rand((2, 3, 5))
    for _ in range(2):
        with pytest.raises(bcast.IncompatibleShapesError, match="3 vs 4"):
            bcast.add(a, rand((4, 5)))
        with pytest.raises(ValueError, match=r"out has shape \(3, 2\)"):
            bcast.add(a[0], a[0], out=np.empty((3, 2), "f4"))
    bcast.add(a[0], a[0])
    with pytest.raises(ValueError, match=r"out has shape \(3, 2\)"):  # after a hit too
        bcast.add(a[0], a[0], out=np.empty((3, 2), "f4"))
    ro = np.empty((3, 5), "f4")
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        bcast.add(a[0], a[0], out=ro)
    with pytest.raises(TypeError, match="the result is float32"):
        bcast.add(a[0], a[0], out=np.empty((3, 5), "f8"))


def test_a_hit_is_a_call_that_ran_a_cached_plan():
    raw = np.zeros(4 * 8 + 1, np.uint8)
    view = raw[1:].view("f4")  # misaligned: its key finds a plan, the copy runs it
    aligned = np.arange(8, dtype="f4")
    bcast.add(aligned, aligned)
    for _ in range(3):
        bcast.add(view, aligned)
    with pytest.raises(ValueError, match="out has shape"):
        bcast.add(aligned, aligned, out=np.empty(3, "f4"))
    info = bcast.plan_cache_info()
    assert (info.hits, info.misses) == (3, 1)  # the refused call ran and cached nothing


def test_misaligned_inputs_are_copied_even_when_their_plan_is_cached():
    raw = np.zeros(4 * 8 + 1, np.uint8)
    view = raw[1:].view("f4")  # a float32 view at an odd address
    view[:] = np.arange(8)
    assert not view.flags.aligned
    aligned = np.arange(8, dtype="f4")
    for _ in range(2):
        np.testing.assert_array_equal(bcast.add(aligned, aligned), aligned * 2)
        np.testing.assert_array_equal(bcast.add(view, aligned), aligned * 2)


def test_threads_hammering_mixed_shapes_with_evictions():
    bcast.set_plan_cache_size(3)  # smaller than the mix: plans are evicted while in use
    cases = []
    for n in range(1, 9):
        a, b = rand((n, 7)), rand((7,))
        cases.append((a, b, a * b))
        cases.append((a[::-1], b, a[::-1] * b))
    failures = []

    def work(seed):
        order = np.random.default_rng(seed).permutation(len(cases) * 40) % len(cases)
        for i in order:
            a, b, expected = cases[i]
            got = bcast.mul(a, b)
            if not np.array_equal(got, expected):
                failures.append((i, got))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    info = bcast.plan_cache_info()
    assert info.currsize == 3 and info.hits + info.misses == 8 * 40 * len(cases)


class _MeddlingName(str):
    """A name whose hash and compare resize an array: had the cache hashed
    it after reading the arrays' layouts, the cached plan would run on a
    buffer that is no longer there."""
    victims = []
    calls = 0

    def __hash__(self):
        type(self).calls += 1
        while self.victims:
            self.victims.pop().resize(1, refcheck=False)
        return str.__hash__(self)

    def __eq__(self, other):
        type(self).calls += 1
        return str.__eq__(self, other)


@pytest.mark.parametrize("call", ["add", "select", "expand", "qlinear"])
def test_a_str_subclass_as_a_name_runs_none_of_its_code_in_the_cache(call):
    n = 1 << 16
    a, b = rand(n), rand(n)
    q = np.arange(n, dtype=np.uint8)
    runs = {
        "add": (lambda name, out: bcast.add(a, b, rule=name, out=out), a + b, "f4"),
        "select": (lambda name, out: bcast.select(a > 0, a, b, rule=name, out=out),
                   np.where(a > 0, a, b), "f4"),
        "expand": (lambda name, out: bcast.expand(a, (2, n), mode=name, out=out),
                   np.broadcast_to(a, (2, n)), "f4"),
        # scales 1, zero points 0: the exact sum, saturated
        "qlinear": (lambda name, out: bcast.qlinear(name, q, q, 1.0, 0, 1.0, 0, 1.0, 0, out=out),
                    np.minimum(q.astype(int) * 2, 255).astype(np.uint8), np.uint8),
    }
    run, expected, dtype = runs[call]
    name = _MeddlingName({"expand": "numpy", "qlinear": "add"}.get(call, "numpy"))
    _MeddlingName.calls = 0
    for _ in range(3):  # planned, then cached
        out = np.empty(expected.shape, dtype)
        _MeddlingName.victims = [out]
        assert run(name, out) is out
        np.testing.assert_array_equal(out, expected)
    assert _MeddlingName.calls == 0


def test_threads_and_reprs_run_before_any_array_is_read():
    # An __index__ (threads=) or a __repr__ (qlinear's op and scales, kept
    # for messages) is caller code: it runs before the arrays' layouts are
    # read, so an array it resizes is planned as it then is.
    n = 1 << 16

    class Threads:
        victim = None

        def __index__(self):
            if Threads.victim is not None:
                Threads.victim.resize(1, refcheck=False)
                Threads.victim = None
            return 2

    op = bcast.Op("add", "f32")
    op.plan([(n,), (n,)])
    fused = bcast.fuse(lambda p, q: p + q)
    for call in (lambda x, y, t: bcast.add(x, y, threads=t), lambda x, y, t: fused(x, y, threads=t)):
        for _ in range(2):  # planned, then cached
            x, y = rand(n), rand(n)
            Threads.victim = x
            result = call(x, y, Threads())
            assert x.shape == (1,)
            np.testing.assert_array_equal(result, x + y)
    x, y = rand(n), rand(n)
    Threads.victim = x
    with pytest.raises(ValueError, match=r"input 0 has shape \(1,\), the plan is for \(65536,\)"):
        op(x, y, threads=Threads())

    class Meddling(float):
        victim = None

        def __repr__(self):
            if Meddling.victim is not None:
                Meddling.victim.resize(1, refcheck=False)
                Meddling.victim = None
            return float.__repr__(self)

    q = np.arange(n, dtype=np.uint8)
    for _ in range(2):
        a = q.copy()
        Meddling.victim = a
        result = bcast.qlinear("add", a, q, Meddling(1.0), 0, 1.0, 0, 1.0, 0)
        assert a.shape == (1,)
        np.testing.assert_array_equal(result, np.minimum(a.astype(int) + q, 255).astype(np.uint8))


def test_a_str_enum_rule_hits_the_cache_as_its_value_does():
    import enum

    class Rule(str, enum.Enum):  # what enum.StrEnum is (Python 3.11)
        NUMPY = "numpy"
        PDPD = "pdpd"

    a, b = rand((2, 3)), rand((3,))
    for _ in range(3):
        np.testing.assert_array_equal(bcast.add(a, b, rule=Rule.NUMPY), a + b)
    np.testing.assert_array_equal(bcast.add(a, b, rule="numpy"), a + b)
    hits, misses = bcast.plan_cache_info()[:2]
    assert (hits, misses) == (3, 1)  # one plan, found by the member and the str alike
