"""A person's path on the emulated Pico, from power-on, judged from its screen.

The firmware boots as ``main.py`` boots it on MicroPython's official UF2 in rp2040js;
buttons are pressed at emulated times, and every step is judged from the screen decoded
from the bytes the firmware sends the display: it must be, pixel for pixel, what the
firmware's renderer draws on the host for the same presses (``host_sim.judging.mirror``),
with the seed the board's title shows. The board runs the configuration's pin-IRQ
capture: the PIO backend, stepped with every CPU cycle, makes the emulator four times
slower, and the capture has tests of its own (``test_emu.py``).
"""

import pytest
from helpers.person import match_line, match_lines
from spit import keys
from spit.contest import DEFAULT_RACE_WINDOW_US
from spit.games import MOVE, PHASE_PLAY, PHASE_SLAP, kind_of
from spit.options import Options
from spit.savedata import SaveData
from spit.session import NEXT_MATCH_US
from spit.speed_cpu import SpeedCpu
from spit.spit import SPIT_ACTION
from spit.spit_cpu import SpitCpu

from host_sim.emu.emulated_pico import EmulatedPico, firmware_paths
from host_sim.emu.fs_image import board_files, capture_setup
from host_sim.judging.face import EmulatedFace, ScreenMismatch
from host_sim.judging.mirror import Mirror
from host_sim.judging.reading import read_seed

pytestmark = [pytest.mark.emulated_pico, pytest.mark.person_path]

if firmware_paths() is None:
    pytest.skip(
        "no MicroPython UF2 / RP2040 boot ROM (PICO_UF2, PICO_BOOTROM): emulated Pico skipped",
        allow_module_level=True,
    )

P1, P2 = 0, 1
P1_SPIT = keys.button_id(P1, keys.SPIT)
P2_SPIT = keys.button_id(P2, keys.SPIT)
P1_L = keys.button_id(P1, keys.LEFT)
# Well past boot's budget (``emu_boot_to_title_ms``); the board is idle until then anyway.
BOOT_TO_TITLE_US = 4_000_000
SCREEN_US = 1_000_000  # a screen a press brings must be up by then
COUNTDOWN_US = 3_000_000
READ_US = 500_000  # a person reads the ready screen before pressing SPIT again
# A key held 30 ms, then released 50 ms (as a 12 Hz tap) before the next: the device
# ignores a button until it has read released for 10 ms.
KEY_HOLD_US = 30_000
KEY_GAP_US = 80_000
EAGER_LATER_US = 2_300_000  # both SPIT presses after the eager ones, as in the report
# A whole match of one game: 65 to 151 actions in dry runs on the host (15 seeds); many
# more would mean the script goes round in circles.
ACTIONS_MAX = 1_000


def power_on(pico, shots, options=None):
    """The board up to its title; a mirror with the seed the title shows beside it."""
    face = EmulatedFace(pico, shots=shots)
    face.until(lambda: read_seed(face.picture()) is not None, BOOT_TO_TITLE_US, "the title")
    face.mirror = Mirror(read_seed(face.picture()), pico.now_us, options)
    face.until_screen("title", SCREEN_US)
    return face


def tap_keys(face, player, pressed):
    for key in pressed:
        face.press(keys.button_id(player, key), hold_us=KEY_HOLD_US)
        face.run_us(KEY_GAP_US)


def board(files=None):
    return EmulatedPico(files=board_files(extra={**capture_setup("irq"), **(files or {})}))


def until_the_round_opens(face):
    """After both SPIT presses: the countdown, then the round's first table."""
    mirror = face.mirror
    face.until_screen("countdown", SCREEN_US)
    face.until_mirror(
        COUNTDOWN_US + SCREEN_US,
        "the round opened",
        lambda: mirror.screen_name() in ("play", "stuck"),
    )


def both_spit(face):
    pressed = face.press(P1_SPIT)
    face.press(P2_SPIT, pressed + 150_000)


def single_game_settings():
    saved = SaveData()
    saved.options = Options.parse("match=single")
    return saved.options, {"spit.json": saved.text().encode()}


def test_the_ready_screen_says_which_game_of_the_match_comes_and_the_score(tmp_path):
    saved = SaveData()
    saved.games = [1, 0]  # the board was switched off after game 1 of a best of three
    with board({"spit.json": saved.text().encode()}) as pico:
        face = power_on(pico, str(tmp_path))
        face.mirror.device.handheld.saved.games = [1, 0]
        face.press(P1_SPIT)
        face.until_screen("ready", SCREEN_US)
        line = match_line((1, 0))
        assert match_lines(face.picture()) == (line, line), "on both halves"


def next_keys(table, cpus):
    """``([(player, keys), ...], wait_us)``: what the two people press next, from the table
    both the board and the mirror show, after waiting ``wait_us``: a card by player 1 if
    they have one, else by player 2 (their CPU strategy picks it); SPIT by both when
    nobody can move; a slap by one of them; in Speed, SPIT by a player out of cards."""
    game, controls = table.game, table.controls
    for player in (P1, P2):
        if game.phase == PHASE_SLAP:
            action = cpus[player].slap_choice(game)
        elif game.phase == PHASE_PLAY:
            action = cpus[player].choose(game)
        else:
            return [], 0
        if action is not None and action != SPIT_ACTION:
            pressed = controls.presses_for(player, action)
            if pressed:
                # A card's button just after the other player covered the pile it fitted
                # is that card losing the race, not a card picked up to fill a gap.
                wait = DEFAULT_RACE_WINDOW_US if kind_of(action) == MOVE else 0
                return [(player, pressed)], wait
    if game.phase == PHASE_PLAY and game.is_stuck():
        calls = [(player, [keys.SPIT]) for player in (P1, P2) if not controls.called[player]]
        return calls, 0
    return [], 0


def play_next(face, table, cpus):
    """The next keys pressed (``next_keys``), then the board must show the table they
    changed, as the mirror shows it."""
    moves, wait = next_keys(table, cpus)
    assert moves, "nobody has a key to press on the %s screen" % face.mirror.screen_name()
    done = len(table.game.history)
    face.run_us(wait)
    for player, pressed in moves:
        tap_keys(face, player, pressed)
    face.until_mirror(
        SCREEN_US, "the table after %s" % moves, lambda: len(table.game.history) > done
    )


def test_from_power_on_to_a_persons_first_card_played(tmp_path):
    with board() as pico:
        face = power_on(pico, str(tmp_path))
        face.press(P1_SPIT)
        face.until_screen("ready", SCREEN_US)
        face.run_us(READ_US)
        both_spit(face)
        until_the_round_opens(face)
        dealt = face.picture()
        table = face.mirror.device.session.table
        cpus = (SpitCpu(P1), SpitCpu(P2))
        while table.game.plays == 0:  # a deal may need a gap filled, or a spit, first
            play_next(face, table, cpus)
        face.until(lambda: face.picture() != dealt, SCREEN_US, "the card on its pile")


def eager_spits(delay_us, shots):
    """P1 presses SPIT on the title and P2 ``delay_us`` later, as two eager players do;
    2.3 s later both press SPIT, and the countdown must come."""
    with board() as pico:
        face = EmulatedFace(pico, shots=shots)
        face.until(lambda: read_seed(face.picture()) is not None, BOOT_TO_TITLE_US, "the title")
        # What the screens look like on the usual path: P2 does not press early.
        usual = Mirror(read_seed(face.picture()), pico.now_us)
        usual.run_until(pico.now_us + 50_000)
        title = usual.picture()
        usual.press(P1_SPIT, usual.now_us + 1_000, 40_000)
        usual.run_until(usual.now_us + SCREEN_US)
        ready = usual.picture()
        usual.press(P1_SPIT, usual.now_us + 1_000, 40_000)
        usual.press(P2_SPIT, usual.now_us + 20_000, 40_000)
        usual.run_until(usual.now_us + 200_000)
        assert usual.screen_name() == "countdown"
        countdown = usual.picture()

        pressed = face.press(P1_SPIT)
        face.press(P2_SPIT, pressed + delay_us)
        face.run_until(pressed + EAGER_LATER_US)
        both = face.press(P1_SPIT)
        face.press(P2_SPIT, both + 20_000)
        try:
            face.until_shows(
                lambda: countdown,
                SCREEN_US,
                "the countdown",
                known={"the title": title, "the ready screen": ready},
            )
        except ScreenMismatch as failed:
            pytest.fail(
                "P1 pressed SPIT on the title and P2 %d ms later; 2.3 s later both pressed"
                " SPIT and the countdown did not come (a frozen device ignores presses):\n%s"
                % (delay_us // 1000, failed)
            )


def test_eager_spits_on_the_title_still_reach_the_countdown(tmp_path):
    eager_spits(60_000, str(tmp_path))


@pytest.mark.soak
@pytest.mark.parametrize("delay_ms", [20, 100, 160, 210])
def test_eager_spits_at_any_delay_still_reach_the_countdown(delay_ms, tmp_path):
    eager_spits(delay_ms * 1000, str(tmp_path))


def choose_speed(face):
    """``L`` on the title: Speed, its word on the title of the board and the mirror."""
    face.press(P1_L)
    saved = face.mirror.device.handheld.saved
    face.until_mirror(SCREEN_US, "Speed chosen", lambda: saved.game == "speed")


def test_speed_chosen_on_the_title_from_power_on_to_a_persons_first_card_played(tmp_path):
    with board() as pico:
        face = power_on(pico, str(tmp_path))
        choose_speed(face)
        face.press(P1_SPIT)
        face.until_screen("ready", SCREEN_US)
        face.run_us(READ_US)
        both_spit(face)
        until_the_round_opens(face)
        table = face.mirror.device.session.table
        assert table.game.NAME == "speed"
        dealt = face.picture()
        cpus = (SpeedCpu(P1), SpeedCpu(P2))
        while table.game.plays == 0:  # both may be stuck from the opening: a flip first
            play_next(face, table, cpus)
        face.until(lambda: face.picture() != dealt, SCREEN_US, "the card on its pile")


@pytest.mark.soak
def test_a_whole_match_of_speed_to_the_match_result(tmp_path):
    with board() as pico:
        face = power_on(pico, str(tmp_path))
        mirror = face.mirror
        choose_speed(face)
        cpus = (SpeedCpu(P1, "lightning"), SpeedCpu(P2, "lightning"))
        face.press(P1_SPIT)
        face.until_screen("ready", SCREEN_US)
        shown = play_to_the_match_result(face, cpus)
    assert {"play", "game over"} <= set(shown) and mirror.device.handheld.saved.matches != [0, 0]
    assert "error" not in shown and "round result" not in shown, shown


def play_to_the_match_result(face, cpus):
    """Both people play on until the match result, then the title comes; the screens
    shown before it, in order."""
    mirror = face.mirror
    shown = []
    for _ in range(ACTIONS_MAX):
        name = mirror.screen_name()
        if not shown or shown[-1] != name:
            shown.append(name)
        if name == "match result":
            break
        if name in ("ready", "round result", "game over"):
            if name == "game over":
                face.until_screen("ready", 6 * SCREEN_US)  # it leaves by itself
                wins = mirror.device.session.match.wins
                of = 2 * mirror.device.session.match.games_to_win() - 1
                line = match_line(wins, of)
                assert match_lines(face.picture()) == (line, line)
            face.run_us(READ_US)
            both_spit(face)
            until_the_round_opens(face)
            continue
        play_next(face, mirror.device.session.table, cpus)
    else:
        pytest.fail("no match result after %d actions: %s" % (ACTIONS_MAX, shown))
    face.until_screen("match result", SCREEN_US)
    face.until_screen("title", NEXT_MATCH_US + SCREEN_US)  # the people choose what comes next
    return shown


@pytest.mark.soak
def test_a_whole_match_to_the_match_result(tmp_path):
    options, files = single_game_settings()
    with board(files) as pico:
        face = power_on(pico, str(tmp_path), options)
        cpus = (SpitCpu(P1, "lightning"), SpitCpu(P2, "lightning"))
        face.press(P1_SPIT)
        face.until_screen("ready", SCREEN_US)
        shown = play_to_the_match_result(face, cpus)
    assert {"play", "slap", "round result"} <= set(shown), shown
    assert "error" not in shown, shown
