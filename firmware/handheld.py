"""The device's main loop, one pass at a time: capture -> debounce -> the game flow.

The same on the Pico (``main.py``) and in the simulator, which hands it fakes. A pass
never dies: an exception in the game flow shows the error screen and the title comes
back, while capture, debounce, the arbiter and the saved data carry on.
"""

import gc

from drivers.debounce import Debouncer
from spit.controller import Controller
from spit.pace import Pace
from spit.transcript import Transcript


class Handheld:
    """Constructor: ``Handheld(capture, now, saved, seed, renderer=None, buzzer=None,
    storage=None, watchdog=None, listener=None, on_game_over=None, transcripts=None,
    clock=None)``:
    ``capture`` is a button capture backend (``IrqButtons`` or ``PioButtons``) and
    ``now`` the time of its first pin reading; ``saved`` the ``SaveData`` loaded at
    boot, kept up to date and written through ``storage`` between rounds; ``seed``
    deals the matches; ``renderer`` draws, ``buzzer`` sounds, ``watchdog`` is fed every
    pass; ``listener`` gets the controls' events and ``on_game_over(game, match)`` each
    finished game; its transcript (with the press times) goes to ``transcripts`` at
    the break that follows. With ``clock`` (``time.ticks_us``), a pass that runs late
    leaves drawing and the CPU seats' glances to the next (``spit.pace``).

    Attributes: ``controller``, ``debouncer``, ``saved``, ``errors`` (how many passes
    failed) and ``last_error``."""

    def __init__(
        self,
        capture,
        now,
        saved,
        seed,
        renderer=None,
        buzzer=None,
        storage=None,
        watchdog=None,
        listener=None,
        on_game_over=None,
        transcripts=None,
        clock=None,
    ):
        self.capture = capture
        self.saved = saved
        self.buzzer = buzzer
        self.storage = storage
        self.watchdog = watchdog
        self.transcripts = transcripts
        self.on_game_over = on_game_over
        self.errors = 0
        self.last_error = None
        self._finished = None  # a game over whose transcript is still to be written
        # A sound asked for in a pass, and when: it starts at the beginning of the next.
        self._tone = None
        self._tone_at = 0
        sound = self._sound if buzzer is not None else None
        self.pace = Pace(clock)
        self.controller = Controller(
            saved, seed, now, renderer, sound, self._break, listener, self._game_over, self.pace
        )
        self.debouncer = Debouncer(capture, self.controller.touch, now)

    @property
    def session(self):
        """The match being played, or None."""
        return self.controller.session

    def run(self, clock):
        """The device's loop: a pass at each ``clock()`` (ticks_us) until one fails; then
        the error screen is up, ``last_error`` says why and the caller runs on. The
        ``try`` is entered once, not at every pass: on MicroPython a function whose
        locals, stack and ``try`` blocks (three words each, an ``except ... as`` two)
        take more than 11 words gets its frame from the heap at every call, which costs
        0.1-1 ms on the Pico depending on how the heap lies (``host_sim.frames``)."""
        try:
            while True:
                self.run_pass(clock())
        except Exception as error:  # noqa: BLE001 (any failure shows on the error screen)
            self._failed(error, clock())

    def step(self, now):
        """One pass at ``now`` (ticks_us); a failure shows the error screen (the
        simulator's loop and the tests)."""
        try:
            self.run_pass(now)
        except Exception as error:  # noqa: BLE001 (any failure shows on the error screen)
            self._failed(error, now)

    def run_pass(self, now):
        """One pass of the main loop at ``now``, a failure raised."""
        self.pace.begin()
        if self._tone is not None:
            self._start_tone()
        if self.watchdog is not None:
            self.watchdog.feed()
        self.debouncer.update(now)
        self.controller.run(now, self.capture.pressed_mask())
        if self.buzzer is not None:
            self.buzzer.update(now)

    def _failed(self, error, now):
        self.errors += 1
        self.last_error = error
        self.controller.fail("%s: %s" % (type(error).__name__, error), now)

    def overflows(self):
        """Presses lost because a buffer was full (the capture ring or the arbiter)."""
        return self.capture.overflows + self.controller.arbiter.overflows

    def _game_over(self, game, match):
        if self.transcripts is not None:
            # Written at the break that follows, with the save.
            self._finished = (game, self.controller.session.table.controls.times)
        if self.on_game_over is not None:
            self.on_game_over(game, match)

    def _sound(self, name, now):
        # Setting a tone up takes about 0.2 ms on the Pico: not in the pass of the press
        # that asked for it, which has a card to put down first.
        self._tone = name
        self._tone_at = now

    def _start_tone(self):
        buzzer = self.buzzer
        buzzer.muted = self.saved.muted
        buzzer.play(self._tone, self._tone_at)
        self._tone = None

    def _break(self):
        # Between rounds: nobody is racing, and the screen shows a result anyway.
        if self._finished is not None:
            game, times = self._finished
            self._finished = None
            self.transcripts.add(Transcript(game.seed, game.options, game.history, times).text())
        if self.storage is not None:
            self.storage.save(self.saved)
        gc.collect()
