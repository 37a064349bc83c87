"""Press to first pixel on every screen a press changes (SPEC 11), on the emulated Pico.

Each figure is the time from a button's pressing edge on the emulated chip's GPIO to the
first byte SPI0 sends the display after it, with the firmware booted as ``main.py``
boots it (its own configuration: the PIO capture, the DMA display bus) and driven only
by buttons, as people at the device drive it. They are emulated RP2040 figures:
interrupt entry and flash reads cost no extra cycles there, so a real Pico is a little
slower.

``screens_figures()`` powers the board on and walks one path through the screens,
both seats people; beside the board, a ``Mirror`` (the firmware's own loop on the host,
with the seed the title shows) says what each press does and what the screen must show,
and every screen a press brings is checked against it pixel for pixel (``EmulatedFace``):

- ``emu_boot_to_title_ms``: power-on to the last byte of the title, before SPI0 stays
  quiet for 300 ms;
- ``emu_press_to_pixel_us``: player 1's SPIT on the title (the ready screen comes),
  held on: two seconds later the settings open;
- ``emu_press_to_pixel_settings_cursor_us``: player 1's ``R`` in the settings (the
  cursor moves down a row), ``..._settings_value_us``: their ``C1`` on the game's row
  (Spit becomes Speed; a second ``C1`` puts it back, not measured) and
  ``..._settings_start_us``: their SPIT (saved, and a new match's ready screen);
- ``emu_press_to_pixel_ready_us``: player 1's SPIT on the ready screen (it shows their
  call), ``..._countdown_us``: player 2's SPIT after it (the countdown);
- ``emu_press_to_pixel_play_us``: player 1's first card played in the round by its
  button alone (quick play, the default);
- ``emu_press_to_pixel_refused_us``: player 1's card refused: it fitted a pile until
  player 2's card landed there 50.05 ms earlier, so it lost the race and the margin
  shows (``P2 by 50.0 ms``). A refusal of any other kind (a pile button with no card in
  hand, a card onto a pile it does not fit) sounds the buzzer and draws nothing;
- ``emu_press_to_pixel_slap_us``: player 1's slap at the round's end (the round
  result comes);
- ``emu_press_to_pixel_round_result_us``: player 1's SPIT on the round result (the
  next round's ready screen, their call shown).

The round is played out by both people pressing as fast as the device takes it, each
choosing as Spit's CPU player would (a tap every 51 ms): about 2.5 emulated seconds.
A figure whose press could not be made or did not bring its screen reads ``"failed:
<reason>"`` and the walk stops there; the figures before it stand. ``walk(pico)`` gives
the ``Walk`` itself, with the board's screen before and after each measured press.

``speed_screen_figures()`` measures the title's ``L`` on a power-on of its own
(``emu_speed_choose_to_pixel_us``: the other game, Speed, is chosen), then SPIT with
Speed chosen (``emu_speed_press_to_pixel_us``).
"""

from spit import keys
from spit.cards import adjacent
from spit.controller import HOLD_US as SETTINGS_HOLD_US
from spit.games import PHASE_PLAY, PHASE_SLAP, PLAY, kind_of, play
from spit.match_mode import EAGER_US
from spit.modes import COUNTDOWN_US
from spit.spit import SPIT_ACTION
from spit.spit_cpu import SpitCpu

from host_sim.emu.emulated_pico import EmulatedPico, EmulatorError
from host_sim.emu.fs_image import board_files
from host_sim.emu.screen import RESET_LINE
from host_sim.judging.face import EmulatedFace
from host_sim.judging.mirror import Mirror
from host_sim.judging.reading import read_seed

P1, P2 = 0, 1
P1_L = keys.button_id(P1, keys.LEFT)
P1_R = keys.button_id(P1, keys.RIGHT)
P1_C1 = keys.button_id(P1, keys.C1)
P1_SPIT = keys.button_id(P1, keys.SPIT)
P2_SPIT = keys.button_id(P2, keys.SPIT)
PREFIX = "emu_press_to_pixel_"
# The figures of the walk, in its order.
NAMES = (
    "emu_boot_to_title_ms",
    "emu_press_to_pixel_us",
    PREFIX + "settings_cursor_us",
    PREFIX + "settings_value_us",
    PREFIX + "settings_start_us",
    PREFIX + "ready_us",
    PREFIX + "countdown_us",
    PREFIX + "play_us",
    PREFIX + "refused_us",
    PREFIX + "slap_us",
    PREFIX + "round_result_us",
)

QUIET_US = 300_000  # SPI0 this long silent: the screen is drawn
TITLE_WITHIN_US = 4_000_000
SCREEN_US = 1_000_000  # a screen a press brings must be up by then
ANSWER_US = 100_000  # a press's first byte must come by then
TAP_US = 20_000
# Between a tap's release and the next press: the device ignores a button until it has
# read released for 10 ms. And 45 µs: taps then lie no whole number of milliseconds apart,
# so a reaction time (whole ms) reads the same on the board, which stamps a press some µs
# after its edge, and on the mirror (at 50.000 ms apart, a 100 ms reaction read 99 there).
GAP_US = 30_045
HOLD_US = 2 * TAP_US  # the old bench's tap (``speed_screen_figures``)
# A measured press comes this long after the display's last byte at least: at a screen at
# rest, with the break that follows a new screen (a collection, a save) over.
REST_US = 150_000
# A card played ``RACE_US`` after the other player's covered the pile it fitted: in the
# middle of the banner's 0.1 ms step, so the board (which stamps a press some µs after
# its edge) and the mirror write the same margin.
RACE_US = 50_050
ROUND_TAPS_MAX = 400  # a round of two quick people: about 50 taps
_SLICE_US = 20_000  # the boot's slices
_CPU_LEVEL = "lightning"  # always the careful look: the same choice for the same table


class WalkError(AssertionError):
    """A press of the walk could not be made, or did not bring its screen."""


class Shown:
    """One measured press: ``name`` (its figure), ``us`` (press to first byte), the
    board's decoded screen ``before`` the press and ``after`` it brought ``screen``
    (RGB bytes, ``VirtualDisplay.rgb()``), and the screen ``was`` before (names of
    ``spit.screens``)."""

    def __init__(self, name, us, before, after, was, screen):
        self.name = name
        self.us = us
        self.before = before
        self.after = after
        self.was = was
        self.screen = screen


class Walk:
    """Constructor: ``Walk(face)``: ``face`` an ``EmulatedFace`` of a board booting
    ``main.py``. Method: ``run()`` walks the screens. Attributes: ``figures`` (name ->
    value, or ``"failed: ..."`` where the walk stopped), ``shown`` (the ``Shown`` of
    every measured press, in order)."""

    def __init__(self, face):
        self.face = face
        self.figures = {}
        self.shown = []
        self._free_at = 0  # when the last tap's button may be pressed again
        self._cpus = (SpitCpu(P1, _CPU_LEVEL), SpitCpu(P2, _CPU_LEVEL))

    def run(self):
        steps = (self._boot, self._title, self._settings, self._ready, self._round, self._result)
        for step in steps:
            try:
                step()
            except (AssertionError, EmulatorError) as exc:
                failed = next(name for name in NAMES if name not in self.figures)
                self.figures[failed] = "failed: %s" % str(exc).strip().splitlines()[0]
                break
        return self.figures

    # -- the steps -----------------------------------------------------------------

    def _boot(self):
        """Power-on to the title drawn, in the slices ``screen_settled`` runs, so that
        the title's press lands where it always did; the mirror starts as soon as the
        title shows its seed."""
        face = self.face
        while face.last_sent_us is None or face.pico.now_us - face.last_sent_us < QUIET_US:
            if face.pico.now_us > TITLE_WITHIN_US:
                raise WalkError("the display never settled: %s" % face.pico.read()[-300:])
            face.run_us(_SLICE_US)
            if face.mirror is None and read_seed(face.picture()) is not None:
                face.mirror = Mirror(read_seed(face.picture()), face.pico.now_us)
        if face.mirror is None:
            raise WalkError("the screen the board settled on shows no seed: not the title")
        face.until_screen("title", SCREEN_US)
        self.figures["emu_boot_to_title_ms"] = round(face.last_sent_us / 1000, 1)

    def _title(self):
        """SPIT on the title, held on into the settings."""
        hold = SETTINGS_HOLD_US + 200_000
        pressed = self._measure("emu_press_to_pixel_us", P1_SPIT, "ready", hold_us=hold)
        self.face.run_until(pressed + SETTINGS_HOLD_US)
        self.face.until_screen("settings", SCREEN_US)

    def _settings(self):
        saved = self.face.mirror.device.handheld.saved
        self._measure(PREFIX + "settings_cursor_us", P1_R, "settings")
        self._tap(P1_L, "settings")  # back to the game's row
        self._measure(
            PREFIX + "settings_value_us",
            P1_C1,
            "settings",
            done=lambda: saved.game == "speed" or "C1 on the game's row did not choose Speed",
        )
        self._tap(P1_C1, "settings")
        if saved.game != "spit":
            raise WalkError("a second C1 on the game's row did not choose Spit again")
        self._measure(PREFIX + "settings_start_us", P1_SPIT, "ready")
        self.face.run_us(EAGER_US)  # the presses just after the one that starts a match

    def _ready(self):
        self._measure(PREFIX + "ready_us", P1_SPIT, "ready")
        self._measure(PREFIX + "countdown_us", P2_SPIT, "countdown")
        self.face.until_mirror(
            COUNTDOWN_US + SCREEN_US, "the round opened", lambda: self._game().phase == PHASE_PLAY
        )

    def _round(self):
        """Both people play the round out; player 1's first quick play and first lost
        race are measured, then their slap."""
        play_us, refused_us = PREFIX + "play_us", PREFIX + "refused_us"
        for _ in range(ROUND_TAPS_MAX):
            game = self._game()
            if game.phase == PHASE_SLAP:
                break
            if game.phase != PHASE_PLAY:
                self.face.run_us(GAP_US)
            elif refused_us in self.figures or not self._lose_a_race():
                self._next_action(play_us not in self.figures)
        else:
            raise WalkError("the round did not end in %d taps" % ROUND_TAPS_MAX)
        for name in (play_us, refused_us):
            if name not in self.figures:
                raise WalkError("the round ended before %s could be measured" % name)
        action = self._cpus[P1].slap_choice(self._game())
        pressed = self._controls().presses_for(P1, action) if action is not None else None
        if not pressed:
            raise WalkError("player 1 may not slap")
        self._measure(PREFIX + "slap_us", keys.button_id(P1, pressed[0]), "round result")

    def _result(self):
        self._measure(PREFIX + "round_result_us", P1_SPIT, "ready")

    # -- the round -------------------------------------------------------------

    def _next_action(self, measure_play):
        """The next keys of a person (player 1 first) as Spit's CPU would choose them;
        SPIT by both when nobody can move. Player 1's first quick play is measured."""
        game, controls = self._game(), self._controls()
        for player in (P1, P2):
            action = self._cpus[player].choose(game)
            if action is None or action == SPIT_ACTION:
                continue
            pressed = controls.presses_for(player, action)
            if not pressed:
                continue
            quick = player == P1 and kind_of(action) == PLAY and len(pressed) == 1
            if measure_play and quick:
                self._measure(
                    PREFIX + "play_us",
                    keys.button_id(P1, pressed[0]),
                    ("play", "stuck"),
                    done=_played(game, P1),
                )
                return
            for key in pressed:
                self._tap(keys.button_id(player, key))
            return
        if game.is_stuck():
            for player in (P1, P2):
                if not controls.called[player] and controls.spits(player):
                    self._tap(keys.button_id(player, keys.SPIT))
            return
        self.face.run_us(GAP_US)  # a card on its way: the table follows it

    def _lose_a_race(self):
        """Player 2 plays onto a pile a card of player 1's fitted, and player 1's card,
        which then fits neither pile, comes ``RACE_US`` after it: a lost race, measured.
        False when the table offers no such race now."""
        race = _race(self._game())
        if race is None:
            return False
        slot, action = race
        pressed = self._controls().presses_for(P2, action)
        if not pressed:
            return False
        for key in pressed:
            landed = self._tap(keys.button_id(P2, key))
        if self._game().phase != PHASE_PLAY or self._game().is_stuck():
            return True  # the stuck prompt would hide the margin: the next race, then
        device = self.face.mirror.device
        self._measure(
            PREFIX + "refused_us",
            keys.button_id(P1, slot),
            "play",
            at_us=landed + RACE_US,
            done=lambda: device.last_event == "P1 lost race" or "player 1's card lost no race",
        )
        return True

    # -- presses -------------------------------------------------------------------

    def _press_at(self, at_us, rest_us=0):
        """``at_us``, or the first time a finger may press: 1 ms from now, the last tap's
        button re-armed, and ``rest_us`` after the display's last byte."""
        if at_us is not None:
            return at_us
        face = self.face
        return max(face.pico.now_us + 1_000, self._free_at, face.last_sent_us + rest_us)

    def _tap(self, button, screen=None):
        """``button`` tapped, not measured; with ``screen``, the board must show it after
        (the mirror's picture of it). Returns the press's time."""
        at = self.face.press(button, self._press_at(None), TAP_US)
        self._free_at = at + TAP_US + GAP_US
        self.face.run_until(self._free_at - 1_000)
        if screen is not None:
            self.face.until_screen(screen, SCREEN_US)
        return at

    def _measure(self, name, button, screen, hold_us=TAP_US, at_us=None, done=None):
        """Press ``button`` at ``at_us`` (by default once the display has rested
        ``REST_US``); the figure ``name`` is the µs from the press to the first byte the
        display got after it, once the board shows ``screen`` (a name or names, as the
        mirror says it) as the mirror draws it, and ``done()`` (if given) is True: else
        it says what went wrong. Returns the press's time."""
        face = self.face
        at = self._press_at(at_us, REST_US)
        face.run_until(at - 1_000)
        before, was = face.picture(), face.mirror.screen_name()
        face.press(button, at, hold_us)
        names = (screen,) if isinstance(screen, str) else screen
        face.until_mirror(
            SCREEN_US,
            "the %s screen after a byte" % names[0],
            lambda: face.answered_us is not None and face.mirror.screen_name() in names,
        )
        us = round(face.answered_us - at, 1)
        if us > ANSWER_US:
            raise WalkError("the display's first byte came %.1f µs after the press" % us)
        problem = done() if done is not None else True
        if problem is not True:
            raise WalkError(problem)
        self.figures[name] = us
        self.shown.append(Shown(name, us, before, face.picture(), was, face.mirror.screen_name()))
        self._free_at = at + hold_us + GAP_US
        return at

    def _game(self):
        return self.face.mirror.device.session.table.game

    def _controls(self):
        return self.face.mirror.device.session.table.controls


def _played(game, player):
    """The ``done`` of a press that plays ``player``'s card: it did, or says not."""
    plays = len(game.history)

    def played():
        return len(game.history) > plays or "player %d's card was not played" % (player + 1)

    return played


def _race(game):
    """``(slot, action)``: player 2's ``action`` plays a card onto a pile whose top player
    1's card in ``slot`` also fits, and which then fits neither pile; or None."""
    if game.pile_count() != 2:
        return None
    for pile in (0, 1):
        top, other = game.middle[pile][-1], game.middle[1 - pile][-1]
        for slot in range(game.slots):
            card = game.stock_top(P1, slot)
            if card < 0 or not adjacent(card, top) or adjacent(card, other):
                continue
            for theirs in range(game.slots):
                action = play(P2, theirs, pile)
                if game.stock_top(P2, theirs) >= 0 and game.is_legal(action):
                    return slot, action
    return None


def walk(pico):
    """The walk on ``pico`` (booting ``main.py``): its ``Walk``, run."""
    walked = Walk(EmulatedFace(pico))
    walked.run()
    return walked


def screens_figures():
    """Power on and walk the screens: ``NAMES``' figures."""
    with EmulatedPico(files=board_files(main=True)) as pico:
        return walk(pico).figures


# -- the title alone, and Speed chosen there ------------------------------------


def screen_settled(pico):
    """Run until the display has been drawn and SPI0 has then been quiet for
    ``QUIET_US``; return the time of the last byte sent before that quiet."""
    last = None
    start = pico.now_us
    while last is None or pico.now_us - last < QUIET_US:
        if pico.now_us - start > TITLE_WITHIN_US:
            raise AssertionError("the display never settled: %s" % pico.read()[-300:])
        pico.run_us(_SLICE_US)
        sent = [t for t, dc, _ in pico.spi_log() if dc != RESET_LINE]
        if sent:
            last = sent[-1]
    return last


def press_shown_us(pico, button):
    """Press ``button`` now; the µs from the press to the first byte SPI0 sends after it."""
    press_us = pico.now_us + 1_000
    pico.buttons([(press_us, button, True), (press_us + HOLD_US, button, False)])
    pico.run_us(ANSWER_US)
    sent = [t for t, dc, _ in pico.spi_log() if dc != RESET_LINE and t >= press_us]
    if not sent:
        raise AssertionError("pressing button %d changed nothing on the display" % button)
    return round(sent[0] - press_us, 1)


def speed_screen_figures():
    """Boot to the title, choose Speed with player 1's ``L``, then press their SPIT."""
    with EmulatedPico(files=board_files(main=True)) as pico:
        screen_settled(pico)
        choose_us = press_shown_us(pico, P1_L)
        pico.run_us(TITLE_WITHIN_US)  # the title redrawn with Speed's word, and saved
        return {
            "emu_speed_choose_to_pixel_us": choose_us,
            "emu_speed_press_to_pixel_us": press_shown_us(pico, P1_SPIT),
        }
