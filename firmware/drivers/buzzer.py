"""The piezo buzzer: tones from ``spit.sounds`` played without ever blocking the loop.

``play(name, now)`` starts a sound; ``update(now)``, called on every pass of the main
loop, moves to the next note when the current one is due to end, and silences the
buzzer after the last. A new sound replaces the one playing. Each note ends a fixed
time after the previous one should have ended, not after the pass that noticed it, so
a slow pass shortens one note instead of stretching the whole sound.

Silence is a duty of 0, not ``deinit()``: on the rp2 port ``deinit()`` stops the whole
PWM slice (shared with the pin's neighbour), while a duty of 0 holds the pin low with the
slice running, so the next note needs only a frequency and a duty.

Constructor
    ``Buzzer(pwm, muted=False)``: ``pwm`` is a built ``machine.PWM`` on the buzzer pin.

Methods
    ``play(name, now)``, ``update(now)`` (allocates nothing), ``stop()``, ``deinit()``.

Class variables
    ``muted``: set True to silence the buzzer (and stop what is playing).
    ``playing``: the name of the sound playing, or None.
"""

from micropython import const
from spit.sounds import SOUNDS
from spit.ticks import ticks_add, ticks_diff

# Half duty gives a piezo its strongest fundamental.
_LOUD = const(32768)


class Buzzer:
    def __init__(self, pwm, muted=False):
        self._pwm = pwm
        self._muted = muted
        self.playing = None
        self._notes = ()
        self._next = 0  # index in _notes of the note after the one sounding
        self._ends = 0  # when the sounding note ends (ticks_us)
        pwm.duty_u16(0)

    @property
    def muted(self):
        return self._muted

    @muted.setter
    def muted(self, muted):
        self._muted = muted
        if muted:
            self.stop()

    def play(self, name, now):
        """Start sound ``name`` (a key of ``SOUNDS``) at ``now`` (ticks_us)."""
        notes = SOUNDS[name]
        if self._muted:
            return
        self.playing = name
        self._notes = notes
        self._next = 0
        self._sound_next(now)

    def update(self, now):
        """Move on when the sounding note is over; call on every pass of the loop."""
        if self.playing is not None and ticks_diff(now, self._ends) >= 0:
            self._sound_next(self._ends)

    def stop(self):
        if self.playing is not None:
            self.playing = None
            self._pwm.duty_u16(0)

    def deinit(self):
        """Release the PWM slice (at power-down or before handing the pin on)."""
        self.stop()
        self._pwm.deinit()

    def _sound_next(self, start):
        notes = self._notes
        i = self._next
        if i >= len(notes):
            self.stop()
            return
        hz = notes[i]
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(_LOUD)
        else:
            self._pwm.duty_u16(0)
        self._next = i + 2
        self._ends = ticks_add(start, notes[i + 1] * 1000)
