"""threads= and bcast.Pool against numpy: the same results on many threads.

Run by ctest as part of "python: package (pytest)". numpy is the oracle.
"""
import os
import threading

import numpy as np
import pytest

import bcast

RNG = np.random.default_rng(20261125)


def rand(shape, dtype="f4"):
    return RNG.uniform(-4, 4, shape).astype(dtype)


# Large enough to split (a few MiB moved), and shaped for each kernel kind.
CASES = {
    "same shape": (lambda: (rand((1 << 19,)), rand((1 << 19,))), np.add, bcast.add),
    "row over rows": (lambda: (rand((512, 1031)), rand((1031,))), np.subtract, bcast.sub),
    "per channel": (lambda: (rand((4, 64, 56, 56)), rand((1, 64, 1, 1))), np.multiply,
                    bcast.mul),
    "short period": (lambda: (rand((200000, 3)), rand((3,))), np.maximum, bcast.max),
    "outer product": (lambda: (rand((700, 1), "f8"), rand((1, 900), "f8")), np.add, bcast.add),
    "transposed input": (lambda: (rand((800, 600)).T, rand((800,))), np.add, bcast.add),
    "int compare": (lambda: (RNG.integers(-9, 9, (600, 700)).astype("i2"),
                             RNG.integers(-9, 9, (700,)).astype("i2")), np.less, bcast.less),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("threads", [None, 1, 2, 3, 0, "pool"])
def test_threads_give_numpys_result(name, threads):
    make, ref, fn = CASES[name]
    x, y = make()
    if threads == "pool":
        with bcast.Pool(3) as pool:
            got = fn(x, y, threads=pool)
    else:
        got = fn(x, y, threads=threads)
    assert np.array_equal(got, ref(x, y))


def test_threads_with_out_in_place_select_and_expand():
    x, y = rand((1024, 777)), rand((777,))
    want = x + y
    got = bcast.add(x, y, out=x, threads=2)
    assert got is x and np.array_equal(x, want)
    cond = RNG.integers(0, 2, (1024, 1)).astype(bool)
    assert np.array_equal(bcast.select(cond, x, y, threads=3), np.where(cond, x, y))
    assert np.array_equal(bcast.expand(y, (2000, 777), threads=0),
                          np.broadcast_to(y, (2000, 777)))
    a, b, c = rand((300, 400)), rand((400,)), rand((300, 1))
    assert np.allclose(bcast.add(a, b, c, threads=2), a + b + c, rtol=0, atol=1e-5)


def test_small_and_empty_calls_on_a_pool():
    with bcast.Pool(2) as pool:
        assert bcast.add(np.float32(2), np.float32(3), threads=pool) == 5
        assert bcast.add(np.ones((0, 3)), np.ones(3), threads=pool).shape == (0, 3)
        assert np.array_equal(bcast.mul(np.arange(16.0), 2.0, threads=pool), np.arange(16.0) * 2)


def test_op_object_runs_on_threads():
    x, y = rand((512, 1031)), rand((1031,))
    op = bcast.Op("sub", np.float32)
    op.plan([x.shape, y.shape])
    with bcast.Pool(3) as pool:
        assert np.array_equal(op(x, y, threads=pool), x - y)
        out = np.empty_like(x)
        assert op(x, y, out=out, threads=2) is out and np.array_equal(out, x - y)
        # The checked path (a Python list needs converting) takes threads= too.
        small = bcast.Op("add", np.float64)
        small.plan([(3,), (3,)])
        assert np.array_equal(small([1, 2, 3], np.ones(3), threads=pool), [2.0, 3.0, 4.0])


def test_pool_life_cycle():
    pool = bcast.Pool(3)
    assert pool.threads == 3 and repr(pool) == "bcast.Pool(threads=3)"
    pool.close()
    pool.close()
    assert pool.threads == 0 and repr(pool) == "bcast.Pool(closed)"
    with pytest.raises(ValueError, match="closed"):
        bcast.add(np.ones(3), np.ones(3), threads=pool)
    with bcast.Pool() as every_cpu:
        assert every_cpu.threads == len(os.sched_getaffinity(0))
    for _ in range(20):
        with bcast.Pool(2):
            pass


def test_bad_threads_arguments():
    x = np.ones(3)
    with pytest.raises(ValueError, match=">= 0"):
        bcast.add(x, x, threads=-1)
    for flag in (True, np.True_):
        with pytest.raises(TypeError, match="threads must be an int, not bool"):
            bcast.add(x, x, threads=flag)
    with pytest.raises(TypeError, match="bcast.Pool"):
        bcast.add(x, x, threads="2")
    with pytest.raises(bcast.InvalidArgumentError, match="at most 4096"):
        bcast.Pool(5000)


def test_python_threads_share_one_pool():
    x, y = rand((512, 1031)), rand((1031,))
    want = x * y
    wrong = []
    with bcast.Pool(2) as pool:
        def work():
            for _ in range(10):
                if not np.array_equal(bcast.mul(x, y, threads=pool), want):
                    wrong.append(1)
        workers = [threading.Thread(target=work) for _ in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    assert not wrong


def test_a_forked_child_gets_its_own_shared_pool():
    x, y = rand((512, 1031)), rand((1031,))
    want = x + y
    assert np.array_equal(bcast.add(x, y, threads=2), want)  # the parent's shared pool
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = 0 if np.array_equal(bcast.add(x, y, threads=2), want) else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_closing_a_pool_while_a_call_runs_on_it_waits_for_the_call():
    # close() on one Python thread while another runs a call on the pool: the
    # call either completes with the right result (close() waited for it) or
    # is refused cleanly (the pool was closed first); the pool is never freed
    # under a running call (which crashed or hung before, and which ASan
    # builds of this test report).
    import time
    x, y = rand((1 << 22,)), rand((1 << 22,))
    want = x + y
    for attempt in range(8):
        pool = bcast.Pool(2)
        started, events = threading.Event(), []

        def call():
            started.set()
            try:
                got = bcast.add(x, y, threads=pool)
                events.append(("done", np.array_equal(got, want)))
            except ValueError as e:
                events.append(("refused", "closed" in str(e)))

        # Daemon threads, joined with a bound: a hang fails the test, not the run.
        worker = threading.Thread(target=call, daemon=True)
        worker.start()
        started.wait()
        time.sleep(0.0005 * attempt)
        closer = threading.Thread(target=pool.close, daemon=True)
        closer.start()
        closer.join(60)
        worker.join(60)
        assert not closer.is_alive() and not worker.is_alive(), "close() or the call hung"
        assert len(events) == 1 and events[0][1], events
        assert pool.threads == 0
        with pytest.raises(ValueError, match="closed"):
            bcast.add(x, y, threads=pool)
        with pytest.raises(ValueError, match="closed"):
            bcast.fuse(lambda a, b: a * b)(x, y, threads=pool)
