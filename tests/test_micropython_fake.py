"""The fake ``micropython`` module behaves like the device's where the firmware relies on it."""

import micropython
import pytest

from host_sim.vm.micropython_vm import run


@pytest.fixture(autouse=True)
def fresh_micropython():
    micropython.reset()
    yield
    micropython.reset()


def test_fake_is_the_one_on_the_path():
    assert micropython.__file__.replace("\\", "/").endswith("host_sim/fakes/micropython.py")


def test_const_and_native_are_transparent():
    def add(a, b):
        return a + b

    assert micropython.const(7) == 7
    assert micropython.native(add) is add


def test_viper_does_not_compile_on_the_host_as_on_the_vm():
    with pytest.raises(SyntaxError, match="^invalid micropython decorator$"):
        micropython.viper(lambda: None)


def test_schedule_runs_later_in_order():
    ran = []
    micropython.schedule(ran.append, "first")
    micropython.schedule(ran.append, "second")
    assert ran == []
    assert micropython.run_scheduled() == 2
    assert ran == ["first", "second"]
    assert micropython.run_scheduled() == 0


def test_schedule_queue_holds_eight_like_rp2():
    for i in range(micropython.SCHEDULE_DEPTH):
        micropython.schedule(print, i)
    assert micropython.SCHEDULE_DEPTH == 8
    with pytest.raises(RuntimeError, match="^schedule queue full$"):
        micropython.schedule(print, "one too many")
    micropython.run_scheduled()
    micropython.schedule(print, "room again")


def test_callback_scheduled_by_a_callback_waits_for_the_next_run():
    ran = []

    def again(n):
        ran.append(n)
        micropython.schedule(again, n + 1)

    micropython.schedule(again, 0)
    micropython.run_scheduled()
    micropython.run_scheduled()
    assert ran == [0, 1]


def test_failing_callback_propagates_and_the_rest_stay_queued():
    ran = []
    micropython.schedule(lambda _: 1 / 0, None)
    micropython.schedule(ran.append, "later")
    with pytest.raises(ZeroDivisionError):
        micropython.run_scheduled()
    micropython.run_scheduled()
    assert ran == ["later"]


def test_heap_lock_nests_and_unlock_returns_depth():
    micropython.heap_lock()
    micropython.heap_lock()
    assert micropython.heap_unlock() == 1
    assert micropython.heap_unlock() == 0
    with pytest.raises(RuntimeError, match="without heap_lock"):
        micropython.heap_unlock()


def test_alloc_emergency_exception_buf_is_recorded():
    micropython.alloc_emergency_exception_buf(100)
    assert micropython.emergency_exception_buf_size == 100


@pytest.mark.micropython_vm
def test_fake_agrees_with_the_micropython_vm():
    # The queue is filled from inside a callback, where no other callback runs; the
    # VM's queue is 4 deep (rp2's is 8), so only the error is compared.
    script = """
import micropython
micropython.heap_lock()
micropython.heap_lock()
print(micropython.heap_unlock(), micropython.heap_unlock())

def fill(_):
    try:
        for i in range(20):
            micropython.schedule(print, i)
    except RuntimeError as e:
        print(type(e).__name__, e)

micropython.schedule(fill, None)
"""
    vm_lines = run(script + "for _ in range(10):\n    pass\n").splitlines()
    assert vm_lines == ["1 0", "RuntimeError schedule queue full", "0", "1", "2", "3"]

    host = []
    micropython.heap_lock()
    micropython.heap_lock()
    host.append("%d %d" % (micropython.heap_unlock(), micropython.heap_unlock()))
    with pytest.raises(RuntimeError) as caught:
        for i in range(20):
            micropython.schedule(print, i)
    host.append("%s %s" % (type(caught.value).__name__, caught.value))
    assert host == vm_lines[:2]
