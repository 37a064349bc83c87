"""Sound: the tone table and the buzzer driver over a PWM that records what it is told."""

import pytest
from drivers.buzzer import Buzzer
from spit.sounds import NAMES, SOUNDS, length_ms
from spit.ticks import TICKS_PERIOD, ticks_add, ticks_diff

# The rp2 port's system clock, which the PWM divides down.
SYS_HZ = 125_000_000


class RecordingPwm:
    """``machine.PWM`` as the rp2 port behaves for the calls the buzzer makes:
    ``freq(hz)`` refuses what the slice's divider cannot reach (``ValueError``, as
    ``ports/rp2/machine_pwm.c`` does), ``duty_u16(x)`` keeps ``x`` (the port clamps above
    65535), ``deinit()`` stops the slice, and a duty write starts it again. ``log`` holds
    every call as ``(method, value)``."""

    def __init__(self):
        self.hz = 0
        self.duty = 0
        self.running = True
        self.log = []

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        if hz <= 0:
            raise ValueError("freq must be positive")  # the port would divide by zero
        # The port keeps the counter's TOP under 65535 and the divider (16ths) under 256.
        div16 = 16 if (SYS_HZ + hz // 2) // hz < 65534 else -(-16 * SYS_HZ // (65534 * hz))
        if div16 >= 256 * 16:
            raise ValueError("freq too small")
        self.log.append(("freq", hz))
        self.hz = hz

    def duty_u16(self, value=None):
        if value is None:
            return self.duty
        assert 0 <= value <= 65535
        self.log.append(("duty_u16", value))
        self.duty = value
        self.running = True

    def deinit(self):
        self.log.append(("deinit", None))
        self.running = False

    def sounding(self):
        """The pitch heard: 0 for silence."""
        return self.hz if self.running and self.duty else 0


def heard(buzzer, pwm, start, until_ms, step_us=1000):
    """The pitch heard at each ``step_us`` from ``start`` for ``until_ms``, updating the
    buzzer before each look as the main loop does."""
    pitches = []
    for i in range(until_ms * 1000 // step_us):
        buzzer.update(ticks_add(start, i * step_us))
        pitches.append(pwm.sounding())
    return pitches


def expected(name, until_ms):
    """The pitch the table asks for at each ms."""
    notes = SOUNDS[name]
    pitches = []
    for i in range(0, len(notes), 2):
        pitches += [notes[i]] * notes[i + 1]
    return (pitches + [0] * until_ms)[:until_ms]


def test_every_event_has_a_sound():
    for name in ("play", "illegal", "count", "go", "spit", "slap", "round", "game", "scale"):
        assert name in SOUNDS
    assert list(NAMES) == sorted(SOUNDS)


@pytest.mark.parametrize("name", sorted(SOUNDS))
def test_notes_are_audible_and_short(name):
    notes = SOUNDS[name]
    assert len(notes) % 2 == 0 and notes[0] > 0
    pwm = RecordingPwm()
    for i in range(0, len(notes), 2):
        hz, ms = notes[i], notes[i + 1]
        assert hz == 0 or 200 <= hz <= 5000  # where a small piezo is heard
        if hz:
            pwm.freq(hz)  # the rp2 PWM takes it
        assert 10 <= ms <= 500
    assert length_ms(name) <= (1500 if name == "scale" else 800)


def test_the_fake_pwm_refuses_what_the_rp2_slice_cannot_reach():
    pwm = RecordingPwm()
    pwm.freq(8)
    with pytest.raises(ValueError):
        pwm.freq(7)
    with pytest.raises(ValueError):
        pwm.freq(0)


@pytest.mark.parametrize("name", sorted(SOUNDS))
def test_each_sound_plays_its_notes_at_their_times_then_stops(name):
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    span = length_ms(name) + 50
    buzzer.play(name, 5_000)
    assert heard(buzzer, pwm, 5_000, span) == expected(name, span)
    assert buzzer.playing is None
    assert pwm.log[-1] == ("duty_u16", 0)


def test_play_returns_at_once_and_only_update_moves_on():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    buzzer.play("game", 0)
    assert pwm.sounding() == SOUNDS["game"][0]
    # Without update the note would go on forever: nothing inside waits for time.
    assert buzzer.playing == "game" and pwm.sounding() == 1047
    buzzer.update(119_999)
    assert pwm.sounding() == 1047
    buzzer.update(120_000)
    assert pwm.sounding() == 1319


def test_starts_silent():
    pwm = RecordingPwm()
    Buzzer(pwm)
    assert pwm.log == [("duty_u16", 0)]


def test_plays_right_across_the_tick_wrap():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    start = TICKS_PERIOD - 150_000
    buzzer.play("round", start)
    assert heard(buzzer, pwm, start, 400) == expected("round", 400)


def test_a_slow_pass_shortens_one_note_but_not_the_sound():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    buzzer.play("scale", 0)
    buzzer.update(190_000)  # the first note was due to end at 150 ms
    assert pwm.sounding() == 587
    buzzer.update(299_999)
    assert pwm.sounding() == 587
    buzzer.update(300_000)  # 150 ms after the first note's end, not after 190 ms
    assert pwm.sounding() == 659


def test_a_new_sound_replaces_the_one_playing():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    buzzer.play("game", 0)
    buzzer.update(100_000)
    buzzer.play("illegal", 100_000)
    assert buzzer.playing == "illegal"
    assert heard(buzzer, pwm, 100_000, 300) == expected("illegal", 300)


def test_rests_are_silent():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    buzzer.play("illegal", 0)
    buzzer.update(80_000)
    assert buzzer.playing == "illegal" and pwm.sounding() == 0


def test_muted_plays_nothing_and_muting_stops_a_sound():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm, muted=True)
    buzzer.play("go", 0)
    assert buzzer.playing is None and pwm.log == [("duty_u16", 0)]
    buzzer.muted = False
    buzzer.play("go", 0)
    assert pwm.sounding() == 1760
    buzzer.muted = True
    assert pwm.sounding() == 0 and buzzer.playing is None
    buzzer.update(1_000_000)
    assert pwm.sounding() == 0


def test_an_unknown_sound_is_a_key_error_and_changes_nothing():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    buzzer.play("spit", 0)
    with pytest.raises(KeyError):
        buzzer.play("fanfare", 10_000)
    assert buzzer.playing == "spit" and pwm.sounding() == 1047


def test_deinit_silences_and_releases_the_pwm():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    buzzer.play("go", 0)
    buzzer.deinit()
    assert pwm.log[-2:] == [("duty_u16", 0), ("deinit", None)]
    assert pwm.sounding() == 0


def test_update_makes_at_most_two_pwm_calls():
    pwm = RecordingPwm()
    buzzer = Buzzer(pwm)
    buzzer.play("scale", 0)
    for t in range(0, 2_000_000, 997):
        before = len(pwm.log)
        buzzer.update(t)
        assert len(pwm.log) - before <= 2
    assert ticks_diff(2_000_000, 0) > length_ms("scale") * 1000


VM_NO_ALLOCATION = """
import gc, micropython, time
from drivers.buzzer import Buzzer

class Pwm:
    def __init__(self):
        self.hz = 0
        self.duty = 0
        self.changes = 0
    def freq(self, hz):
        self.hz = hz
        self.changes += 1
    def duty_u16(self, duty):
        self.duty = duty
        self.changes += 1
    def deinit(self):
        pass

pwm = Pwm()
buzzer = Buzzer(pwm)
START = time.ticks_add(0, -400_000)  # just before the wrap

def passes(n):
    now = START
    while n:
        buzzer.update(now)
        now = time.ticks_add(now, 997)
        n -= 1

def measure():
    buzzer.play("scale", START)
    gc.collect()
    before = gc.mem_alloc()
    micropython.heap_lock()
    try:
        passes(2000)
    finally:
        micropython.heap_unlock()
    print(gc.mem_alloc() - before, pwm.changes, pwm.duty, buzzer.playing)
"""


def test_update_allocates_nothing_on_micropython(mpvm):
    # 2000 passes about 1 ms apart play the whole scale across the tick wrap.
    allocated, changes, duty, playing = mpvm(VM_NO_ALLOCATION, calls=["measure()"]).split()
    assert allocated == "0"
    assert int(changes) == 1 + 2 * 8 + 1  # silence, 8 notes of freq + duty, silence
    assert (duty, playing) == ("0", "None")
