"""The buzzer's pin as sound: a square wave at the PWM's frequency while its duty is on.

The firmware plays its tones on the fake ``machine.PWM`` exactly as on the piezo; the
window listens to that pin and plays what a piezo would, so muting the sound in the
device's settings silences the window too. With no audio device the window stays
silent and says nothing.
"""

import array
import os

import pygame

RATE = 44_100
_LEVEL = 3000  # a quiet square wave: a piezo, not a speaker


class Speaker:
    """Constructor: ``Speaker(pwm)``. Call ``update()`` after the main loop's passes.
    Attributes: ``tone`` (the Hz sounding now, 0 for silence), ``audible`` (an audio
    device was opened)."""

    def __init__(self, pwm):
        self.pwm = pwm
        self.tone = 0
        self._waves = {}
        try:
            _quietly(lambda: pygame.mixer.init(RATE, -16, 1, 512))
            self.audible = True
        except pygame.error:
            self.audible = False

    def update(self):
        hz = self.pwm.freq() if self.pwm.duty_u16() else 0
        if hz == self.tone:
            return
        self.tone = hz
        if self.audible:
            pygame.mixer.stop()
            if hz:
                self._wave(hz).play(loops=-1)

    def _wave(self, hz):
        wave = self._waves.get(hz)
        if wave is None:
            period = max(2, round(RATE / hz))
            high = period // 2
            cycle = [_LEVEL] * high + [-_LEVEL] * (period - high)
            wave = pygame.mixer.Sound(buffer=array.array("h", cycle * max(1, 4410 // period)))
            self._waves[hz] = wave
        return wave

    def close(self):
        if self.audible:
            pygame.mixer.quit()


def _quietly(call):
    """``call()`` with file descriptor 2 on /dev/null: on a machine without a sound card,
    ALSA prints its whole search for one there, and pygame raises anyway."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            return call()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
