"""The device's main loop, one pass at a time: capture -> debounce -> the game flow.

The same on the Pico (``main.py``) and in the simulator, which hands it fakes. A pass
never dies: an exception in the game flow shows the error screen and the title comes
back, while capture, debounce, the arbiter and the saved data carry on.

The error path itself cannot fail, whatever the fault:

- The watchdog is fed first thing in a pass, so a pass that fails anywhere has fed it.
- The screen shows ``Type: message``, or the type alone when the message cannot be
  had (its ``__str__`` raises, or runs out of memory).
- If the controller cannot take the error screen (``fail`` raises, say in the
  renderer), it takes it again with the renderer out of its reach: the renderer,
  told nothing, still starts the error screen from a clear one, as any new screen.
- A fault that repeats backs off: a fault in the pass right after a failed one, or
  one whose message the error screen shows already, is counted (``errors``) and kept
  (``last_error``), but the error screen is not set up again (so it is not redrawn
  and its time is not restarted), and ``run`` says so (the console prints it once).
  A pass that goes through ends the repeat: the next fault shows. So a part that
  fails at every pass shows its fault once while the passes, and the watchdog's
  feeding, go on.
- A tone is taken before it starts, so a tone that fails to start is not tried again
  at every pass; a buzzer that fails to start one is left silent for the rest of the
  power-on (its fault shows once, and the matches go on without sound).
"""

import gc

from drivers.debounce import Debouncer
from micropython import const
from spit.controller import Controller
from spit.modes import ERROR, MATCH
from spit.scheduler import SOUND

# The error screen shows 8 rows of 38 columns: a longer message only costs memory.
_MESSAGE_MAX = const(320)


def describe(error):
    """What the error screen says about ``error``: ``Type: message``, or the type alone
    when the message cannot be had."""
    name = type(error).__name__
    try:
        return "%s: %s" % (name, str(error)[:_MESSAGE_MAX])
    except Exception:  # noqa: BLE001 (a message that fails must not fail the error path)
        return name


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
    leaves drawing, the CPU seats' glances and tones to the next (``spit.scheduler``).

    Attributes: ``controller``, ``debouncer``, ``saved``, ``errors`` (how many passes
    failed), ``last_error`` and ``transcript_due`` (a finished game's transcript
    waits for the break that writes it)."""

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
        self._repeating = False  # the last pass failed: a fault now is the same run of them
        self._finished = None  # a game over whose transcript is still to be written
        self._finished_times = None  # and its press times
        self._told = False  # a save that failed was shown on the screen
        # A sound asked for in a pass, and when: it starts at the end of a pass in its turn.
        self._tone = None
        self._tone_at = 0
        sound = self._sound if buzzer is not None else None
        self.controller = Controller(
            saved, seed, now, renderer, sound, self._break, listener, self._game_over, clock
        )
        self.scheduler = self.controller.scheduler
        self.debouncer = Debouncer(capture, self.controller.touch, now)

    @property
    def session(self):
        """The match being played, or None."""
        return self.controller.session

    @property
    def transcript_due(self):
        """A finished game's transcript waits for the break that writes it."""
        return self._finished is not None

    def run(self, clock):
        """The device's loop: a pass at each ``clock()`` (ticks_us) until one fails; then
        ``last_error`` says why and the caller runs on. Returns True if the fault is
        on the error screen now, False if it repeats one (counted, not shown again).
        The ``try`` is entered once, not at every pass: on MicroPython a function whose
        locals, stack and ``try`` blocks (three words each, an ``except ... as`` two)
        take more than 11 words gets its frame from the heap at every call, which costs
        0.1-1 ms on the Pico depending on how the heap lies (``host_sim.bench.heap_frames``). The
        first pass, the one after a fault, is made apart: if it goes through, a fault
        after it is news (a note once, not at every pass)."""
        try:
            self.run_pass(clock())
            self._repeating = False
            while True:
                self.run_pass(clock())
        except Exception as error:  # noqa: BLE001 (any failure shows on the error screen)
            return self._failed(error, clock())

    def step(self, now):
        """One pass at ``now`` (ticks_us); a failure shows the error screen (the
        simulator's loop and the tests)."""
        try:
            self.run_pass(now)
        except Exception as error:  # noqa: BLE001 (any failure shows on the error screen)
            self._failed(error, now)
            return
        self._repeating = False

    def run_pass(self, now):
        """One pass of the main loop at ``now``, a failure raised."""
        if self.watchdog is not None:
            self.watchdog.feed()
        self.scheduler.begin()
        debouncer = self.debouncer
        debouncer.update(now)
        # A button down since power-on counts only once it has been released.
        self.controller.run(now, self.capture.pressed_mask() & ~debouncer.held_since_start)
        if self._tone is not None and self.scheduler.turn(SOUND):
            self._start_tone()
        buzzer = self.buzzer
        if buzzer is not None and buzzer.playing is not None:  # a call only while it sounds
            buzzer.update(now)

    def _failed(self, error, now):
        """The error screen for ``error``, unless it repeats a fault (module docstring);
        True if shown. Never raises."""
        self.errors += 1
        self.last_error = error
        message = describe(error)
        controller = self.controller
        shown = controller.mode == ERROR and controller.modes[ERROR].message == message
        repeat = self._repeating or shown
        self._repeating = True
        if repeat:
            return False
        try:
            controller.fail(message, now)
        except Exception:  # noqa: BLE001 (the renderer's, say: the screen is set up without it)
            self._fail_without_renderer(message, now)
        return True

    def _fail_without_renderer(self, message, now):
        """The error screen set up in the controller alone, when ``fail`` raised."""
        controller = self.controller
        scheduler = controller.scheduler
        renderer = scheduler.renderer
        scheduler.renderer = None  # the controller leaves the renderer alone then
        try:
            controller.fail(message, now)
        except Exception:  # noqa: BLE001 (counted; the passes go on with what is left)
            pass
        scheduler.renderer = renderer

    def overflows(self):
        """Presses lost because a buffer was full (the capture ring or the arbiter)."""
        return self.capture.overflows + self.controller.arbiter.overflows

    def _game_over(self, game, match):
        if self.transcripts is not None:
            # Written at the break that follows, with the save.
            self._finished = game
            self._finished_times = self.controller.session.table.controls.times
        if self.on_game_over is not None:
            self.on_game_over(game, match)

    def _sound(self, name, now):
        # Setting a tone up takes about 0.3 ms on the Pico: at the end of a pass, in its
        # turn (``spit.scheduler``), not in the pass of the press that asked for it.
        self._tone = name
        self._tone_at = now

    def _start_tone(self):
        name = self._tone
        self._tone = None  # taken first: a tone that fails to start is not asked again
        buzzer = self.buzzer
        if buzzer is None:
            return  # it failed once: silent from then on
        # Out of the loop's reach until the tone is under way: a buzzer that raises here
        # stays out, rather than failing every match at its first sound.
        self.buzzer = None
        buzzer.muted = self.saved.muted
        buzzer.play(name, self._tone_at)
        self.buzzer = buzzer

    def _break(self):
        # Between rounds: nobody is racing, and the screen shows a result anyway. The games
        # that may come next are imported (an import holds a pass up some 20 ms), then the
        # heap is collected, so that the save's file and text find room after a game.
        self.controller.prepare()
        gc.collect()
        if self._finished is not None:
            game, times = self._finished, self._finished_times
            self._finished = self._finished_times = None
            # Imported at the first game's end, not at boot: the device only writes
            # transcripts, and every module imported at boot takes heap and boot time.
            from spit.transcript import Transcript

            transcript = Transcript(game.seed, game.options, game.history, times, game.NAME)
            self.transcripts.add(list(transcript.lines()))
        storage = self.storage
        if storage is not None:
            self.controller.listener.reactions.save_into(self.saved)  # the records, with the rest
            if not storage.save(self.saved) and not self._told:
                # Said once, on the next ready screen: the tallies are kept until power-off.
                self._told = True
                self.controller.modes[MATCH].tell(storage.problem or "not saved")
