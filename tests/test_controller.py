"""The device's flow over its screens, driven through the handheld's main loop on fake pins."""

import pytest
from drivers.buttons import IrqButtons
from handheld import Handheld
from machine import Pin
from spit import keys
from spit.controller import HOLD_US, Controller
from spit.games import MOVE, PHASE_DEALING, PHASE_OVER, PHASE_PLAY, PHASE_READY, kind_of, player_of
from spit.match_mode import EAGER_US, READY_US, ROUND_RESULT_US
from spit.modes import (
    ATTRACT,
    ATTRACT_US,
    COUNTDOWN_US,
    ERROR,
    ERROR_US,
    MATCH,
    SELF_TEST,
    SETTINGS,
    TITLE,
    TITLE_US,
)
from spit.savedata import SaveData
from spit.scheduler import TAKE
from spit.session import NEXT_GAME_US, NEXT_MATCH_US, NO_WINS
from spit.spit import SPIT_ACTION
from spit.static_screens import match_code

P1_SPIT = keys.button_id(0, keys.SPIT)
P2_SPIT = keys.button_id(1, keys.SPIT)


class Screen:
    """A renderer that remembers what it was last asked to show, and the pass's share
    of it (``spit.scheduler``)."""

    def __init__(self):
        self.name = None
        self.args = ()
        self.share = None
        self.invalidated = 0
        self.busy = False  # draws each screen whole
        self.late = False  # an answer's region always has room: no clock
        self.screens = self  # the static screens, as the renderer's ``screens``

    def invalidate(self):
        self.invalidated += 1

    def step(self, share):
        return False  # nothing drawn without its values: the screen is called

    def __getattr__(self, name):
        def draw(*args):
            self.name = name
            self.args = args[:-1]
            self.share = args[-1]

        return draw


class Sounds:
    def __init__(self):
        self.played = []
        self.muted = False
        self.playing = None  # as the buzzer's: nothing sounds, so the loop need not call

    def play(self, name, now):
        self.played.append(name)

    def update(self, now):
        pass


class Watchdog:
    def __init__(self):
        self.fed = 0

    def feed(self):
        self.fed += 1


class Storage:
    def __init__(self):
        self.saves = []

    def save(self, data):
        self.saves.append((list(data.games), list(data.matches), data.options.text()))
        return True


class Device:
    def __init__(self, seats=("person", "person"), start=(1 << 30) - 3_000_000):
        self.pins = [Pin(b, Pin.IN, Pin.PULL_UP) for b in range(keys.BUTTON_COUNT)]
        self.now = start
        self.saved = SaveData()
        self.saved.seats = list(seats)
        self.screen = Screen()
        self.sounds = Sounds()
        self.watchdog = Watchdog()
        self.storage = Storage()
        capture = IrqButtons(self.pins, lambda: self.now)
        self.handheld = Handheld(
            capture,
            self.now,
            self.saved,
            77,
            self.screen,
            self.sounds,
            self.storage,
            self.watchdog,
            clock=lambda: self.now,  # the device's pace, on the test's clock
        )
        self.controller = self.handheld.controller

    def run(self, ms):
        for _ in range(ms):
            self.now = (self.now + 1000) % (1 << 30)
            self.handheld.step(self.now)

    def tap(self, button, ms=50):
        before = self.controller.mode
        self.pins[button].press()
        self.run(ms)
        self.pins[button].release()
        self.run(ms)
        if before != MATCH and self.controller.mode == MATCH:
            self.run(EAGER_US // 1000)  # nobody answers the ready screen sooner

    def hold(self, button, ms):
        self.pins[button].press()
        self.run(ms)
        self.pins[button].release()
        self.run(20)

    def both_spit(self):
        self.pins[P1_SPIT].press()
        self.pins[P2_SPIT].press()
        self.run(30)
        self.pins[P1_SPIT].release()
        self.pins[P2_SPIT].release()
        self.run(30)


def test_power_on_shows_the_title_and_spit_starts_a_match_at_its_ready_screen():
    device = Device()
    device.run(10)
    assert device.controller.mode == TITLE and device.screen.name == "title"
    assert device.screen.args == ("SPIT", 77)
    device.tap(P2_SPIT)
    assert device.controller.mode == MATCH and device.screen.name == "ready"
    assert device.screen.args[1] == (False, False), "the title press is not a call"
    assert device.controller.session.match.seed == 77


def test_ready_countdown_play_with_sounds():
    device = Device()
    device.tap(P1_SPIT)
    device.tap(P1_SPIT)
    assert device.screen.name == "ready" and device.screen.args[1] == (True, False)
    device.tap(P2_SPIT)
    assert device.screen.name == "countdown" and device.screen.args == (3,)
    device.run(COUNTDOWN_US // 1000 - 900)
    assert device.screen.name == "countdown" and device.screen.args == (1,)
    device.run(1000)
    assert device.screen.name == "play"
    assert device.controller.session.table.game.phase == PHASE_PLAY
    assert device.sounds.played.count("count") == 3 and device.sounds.played[-1] == "go"
    assert device.storage.saves, "saved when the match began, not during it"
    saves = len(device.storage.saves)
    device.run(2000)
    assert len(device.storage.saves) == saves


def test_one_player_mode_names_the_cpu_seat_and_the_cpu_is_ready_by_itself():
    device = Device(seats=("person", "lightning"))
    device.tap(P1_SPIT)
    device.tap(P1_SPIT)
    device.run(1500)
    assert device.screen.name in ("countdown", "play")
    assert device.screen.args[-1] == (False, True) or device.screen.name == "countdown"


def test_round_result_then_ready_and_a_save_between_rounds():
    device = Device(seats=("lightning", "lightning"))
    device.tap(P1_SPIT)
    game = device.controller.session.table.game
    for _ in range(400):
        device.run(500)
        if game.round >= 1:
            break
    assert game.round >= 1
    if game.phase == PHASE_READY:
        assert device.screen.name in ("round_result", "countdown", "ready")
    assert any(saved for saved in device.storage.saves)
    assert "round" in device.sounds.played


def test_hold_spit_two_seconds_between_games_opens_the_settings():
    device = Device()
    device.tap(P1_SPIT)  # a match, at the ready screen of its first game
    device.hold(P2_SPIT, HOLD_US // 1000 - 100)
    assert device.controller.mode == MATCH, "not quite two seconds"
    device.hold(P2_SPIT, HOLD_US // 1000 + 50)
    assert device.controller.mode == SETTINGS and device.screen.name == "settings"
    rows, cursor, _ = device.screen.args
    names = [name for name, _ in rows]
    assert names[:2] == ["game", "layout"] and names[-3:] == ["P1", "P2", "sound"]
    assert cursor == 0


def test_the_settings_menu_is_made_in_the_title_s_break_not_at_boot():
    controller = Controller(SaveData(), 77, 0, Screen())
    assert controller.modes[SETTINGS].menu is None, "not at boot: boot's time"
    controller.prepare()  # what the break does
    menu = controller.modes[SETTINGS].menu
    assert menu is not None and controller.modes[SETTINGS].prepare() is menu


def test_a_changed_setting_shows_what_every_row_reads_afresh():
    device = Device()
    device.hold(P1_SPIT, HOLD_US // 1000 + 50)
    device.run(50)
    menu = device.controller.modes[SETTINGS].menu
    for row in range(len(menu.rows)):
        device.tap(keys.button_id(0, keys.C1))  # the row's next value
        shown = [list(pair) for pair in menu.rows]
        assert shown == menu.read(), "row %d" % row
        device.tap(keys.button_id(0, keys.RIGHT))


def test_holding_spit_during_play_is_a_spit_call_not_the_settings():
    device = Device()
    device.tap(P1_SPIT)
    device.both_spit()
    device.run(COUNTDOWN_US // 1000 + 10)
    assert device.controller.session.table.game.phase == PHASE_PLAY
    device.hold(P1_SPIT, HOLD_US // 1000 + 500)
    assert device.controller.mode == MATCH


def test_settings_change_values_and_spit_starts_a_new_match_with_them():
    device = Device()
    device.hold(P1_SPIT, HOLD_US // 1000 + 50)
    device.run(50)
    assert device.controller.mode == SETTINGS
    device.saved.games = [1, 0]
    device.tap(keys.button_id(0, keys.RIGHT))  # down from "game" to "layout"
    device.tap(keys.button_id(1, keys.C3))  # layout: 1-5 -> 3x5
    device.tap(keys.button_id(0, keys.RIGHT))  # down to "middle"
    for _ in range(3):  # up past the top: "sound", the last row
        device.tap(keys.button_id(0, keys.LEFT))
    device.tap(keys.button_id(0, keys.C1))  # sound off
    rows, cursor, _ = device.screen.args
    assert rows[:2] == [["game", "spit"], ["layout", "3x5"]] and rows[cursor] == ["sound", "off"]
    device.tap(P1_SPIT)
    assert device.controller.mode == MATCH
    assert device.controller.session.table.game.options.layout == "3x5"
    assert device.saved.muted and device.saved.games == [0, 0], "the match reset"
    assert device.storage.saves[-1][2].startswith("layout=3x5")


def test_attract_mode_plays_itself_and_no_press_reaches_its_game():
    device = Device()
    device.run(TITLE_US // 1000 + 10)
    assert device.controller.mode == ATTRACT
    device.run(COUNTDOWN_US // 1000 + 8000)
    attract = device.controller.current.session.table.game
    assert attract.plays > 0 and device.screen.name == "play"
    assert device.screen.args[2] == (True, True)
    before = attract.history[:]
    device.tap(keys.button_id(0, keys.C1))  # a card button: the title, not a card played
    assert attract.history[: len(before)] == before
    assert all(action >> 8 & 1 in (0, 1) for action in attract.history)
    device.run(TITLE_US // 1000 + 10)
    device.tap(P1_SPIT)
    assert device.controller.mode == MATCH and device.controller.modes[ATTRACT].session is None


def test_the_title_stays_twenty_seconds_and_each_press_keeps_it_up():
    device = Device()
    device.run(19_900)
    assert device.controller.mode == TITLE and TITLE_US >= 20_000_000
    device.tap(keys.button_id(1, keys.C2))  # somebody at the buttons
    device.run(TITLE_US // 1000 - 200)
    assert device.controller.mode == TITLE
    device.run(200)
    assert device.controller.mode == ATTRACT


@pytest.mark.parametrize("key", [keys.C1, keys.C5])
@pytest.mark.parametrize("player", [0, 1])
def test_any_button_but_spit_in_attract_mode_brings_the_title_back(key, player):
    device = Device()
    device.run(TITLE_US // 1000 + 10)
    assert device.controller.mode == ATTRACT
    device.run(3000)
    device.tap(keys.button_id(player, key))
    assert device.controller.mode == TITLE and device.screen.name == "title"
    assert device.screen.args == ("SPIT", device.controller.seed) and device.saved.game == "spit"
    assert device.controller.modes[ATTRACT].session is None
    device.run(TITLE_US // 1000 - 500)
    assert device.controller.mode == TITLE, "the title stays its whole time"


@pytest.mark.parametrize("key", [keys.LEFT, keys.RIGHT])
def test_l_or_r_in_attract_mode_choose_the_other_game_on_the_title(key):
    device = Device()
    device.saved.games = [1, 0]
    device.run(TITLE_US // 1000 + 10)
    assert device.controller.mode == ATTRACT
    device.tap(keys.button_id(1, key))
    assert device.controller.mode == TITLE and device.saved.game == "speed"
    assert device.screen.name == "title" and device.screen.args[0] == "SPEED"
    assert device.saved.games == [0, 0], "Speed does not resume Spit's match"
    device.run(TITLE_US // 1000 + 10)  # attract mode again; L again: Spit
    assert device.controller.mode == ATTRACT
    device.tap(keys.button_id(0, keys.LEFT))
    assert device.controller.mode == TITLE and device.screen.args[0] == "SPIT"
    device.tap(P1_SPIT)
    assert device.controller.session.table.game.NAME == "spit"


def test_attract_mode_returns_to_the_title():
    device = Device()
    device.run(TITLE_US // 1000 + 10)
    device.run(ATTRACT_US // 1000 + 10)
    assert device.controller.mode == TITLE


def test_attract_mode_plays_spit_and_speed_in_turn():
    device = Device()
    played = []
    for _ in range(3):
        device.run(TITLE_US // 1000 + 10)
        played.append(device.controller.current.session.table.game.NAME)
        for _ in range(ATTRACT_US // 100_000 + 1):  # its game's end, or a minute
            device.run(100)
            if device.controller.mode == TITLE:
                break
        assert device.controller.mode == TITLE
    assert played == ["spit", "speed", "spit"]


def test_l_or_r_on_the_title_choose_the_game_and_a_match_of_it_starts_afresh():
    device = Device()
    device.saved.games = [1, 0]  # a Spit match left half played
    device.tap(keys.button_id(1, keys.RIGHT))
    assert device.saved.game == "speed" and device.screen.args[0] == "SPEED"
    assert device.saved.games == [0, 0], "Speed does not resume Spit's match"
    device.run(TITLE_US // 1000 - 500)
    assert device.controller.mode == TITLE, "a choice keeps the title up its whole time"
    assert device.storage.saves, "the choice is saved"
    device.tap(P1_SPIT)
    assert device.controller.session.table.game.NAME == "speed"
    assert device.screen.name == "ready" and device.screen.args[0] == "SPEED"
    device.tap(keys.button_id(0, keys.LEFT))  # L in a match is no choice of game
    assert device.saved.game == "speed"


def test_game_over_then_match_result_keep_the_tallies():
    device = Device(seats=("lightning", "lightning"))
    device.saved.options.set("match", "single")
    device.tap(P1_SPIT)
    session = device.controller.session
    for _ in range(600_000):  # a pass at a time, so the game over is seen as it comes
        device.run(1)
        if session.table.game.phase == PHASE_OVER:
            break
    device.run(10)
    winner = session.match.winner()
    assert device.screen.name == "match_result" and device.screen.args[0] == winner
    assert device.saved.matches[winner] == 1 and device.saved.games == [0, 0]
    assert "game" in device.sounds.played
    device.run(NEXT_MATCH_US // 1000 + 10)
    assert device.screen.name == "ready", "CPU against CPU: nobody to choose, the next match"
    assert device.screen.args[4] == match_code(NO_WINS, 1)
    assert device.controller.session.match.seed != 77


def _play_as_a_person(device):
    """The person at P1 plays on against the CPU (calls on each ready screen) until the
    game is over."""
    game = device.controller.session.table.game
    for _ in range(20_000):
        device.run(100)
        if game.phase == PHASE_OVER:
            return
        if device.screen.name in ("ready", "round_result"):
            if not device.controller.session.table.controls.called[0]:
                device.tap(P1_SPIT)
        else:
            _person_moves(device, game)
    raise AssertionError("the game never ended")


def test_after_the_match_result_the_title_with_the_game_to_choose():
    device = Device(seats=("person", "lightning"))
    device.saved.options.set("match", "single")
    device.tap(P1_SPIT)
    device.tap(P1_SPIT)
    next_seed = device.controller.seed
    _play_as_a_person(device)
    device.run(20)
    assert device.screen.name == "match_result"
    device.run(NEXT_MATCH_US // 1000 - 200)
    assert device.screen.name == "match_result", "long enough to read"
    device.run(300)
    assert device.controller.mode == TITLE and device.screen.name == "title"
    assert device.screen.args == ("SPIT", next_seed) and device.controller.session is None
    assert next_seed < 1 << 24, "a small int on the device, drawn with the heap locked"
    assert device.saved.games == [0, 0] and sum(device.saved.matches) == 1
    device.tap(keys.button_id(0, keys.RIGHT))  # the other game, for the next match
    device.tap(P1_SPIT)
    assert device.controller.session.table.game.NAME == "speed"
    assert device.controller.session.match.seed == next_seed


@pytest.mark.parametrize("seats", [("person", "person"), ("person", "lightning")])
def test_a_ready_screen_left_alone_gives_way_to_the_title_and_the_tally_stays(seats):
    device = Device(seats=seats)
    device.saved.games = [1, 0]  # game 2 of a best of three
    device.tap(P1_SPIT)
    assert device.screen.name == "ready" and device.screen.args[4] == match_code([1, 0], 2)
    device.run(READY_US // 2000)
    device.tap(keys.button_id(1, keys.C3))  # somebody at the buttons
    device.run(READY_US // 1000 - 200)
    assert device.controller.mode == MATCH and device.screen.name == "ready"
    device.run(200)
    assert device.controller.mode == TITLE and device.screen.name == "title"
    assert device.saved.games == [1, 0], "the match waits on the title"
    assert READY_US <= 60_000_000, "a person who walked away is not waited for long"
    device.tap(P1_SPIT)
    assert device.screen.name == "ready" and device.screen.args[4] == match_code([1, 0], 2)


def test_the_ready_screen_says_which_game_of_the_match_comes_and_the_score():
    device = Device(seats=("lightning", "lightning"))
    device.tap(P1_SPIT)
    assert device.screen.name == "ready" and device.screen.args[4] == match_code(NO_WINS, 2)
    session = device.controller.session
    for _ in range(600_000):
        device.run(1)
        if session.table.game.phase == PHASE_OVER:
            break
    assert session.match.winner() < 0
    device.run(NEXT_GAME_US // 1000 + 10)
    assert device.screen.name == "ready" and session.table.game.round == 0
    assert device.screen.args[4] == match_code(session.match.wins, 2)
    assert sum(session.match.wins) == 1
    single = Device()
    single.saved.options.set("match", "single")
    single.tap(P1_SPIT)
    assert single.screen.name == "ready" and single.screen.args[4] == match_code(NO_WINS, 1) == -1


@pytest.mark.parametrize("when", ["title", "play"])
def test_an_exception_shows_the_error_screen_and_the_title_comes_back(when, monkeypatch):
    device = Device()
    device.saved.matches = [4, 2]
    if when == "play":
        device.tap(P1_SPIT)
        device.both_spit()
        device.run(COUNTDOWN_US // 1000 + 10)
        table = device.controller.session.table

        def broken(*args):
            raise ValueError("the rules broke")

        monkeypatch.setattr(table, "clocks", broken)
    else:
        monkeypatch.setattr(device.controller.modes[ATTRACT], "enter", lambda now: 1 // 0)
        device.run(TITLE_US // 1000)
    device.run(5)
    assert device.controller.mode == ERROR and device.screen.name == "error"
    assert device.handheld.errors == 1
    message = device.screen.args[0]
    assert ("ValueError: the rules broke" if when == "play" else "ZeroDivisionError") in message
    device.run(ERROR_US // 1000 + 10)
    assert device.controller.mode == TITLE
    assert device.saved.matches == [4, 2]
    device.tap(P2_SPIT)
    assert device.controller.mode == MATCH, "capture kept working"
    assert device.watchdog.fed > ERROR_US // 1000


def _person_moves(device, game):
    """The person at P1 plays their first legal action, calls when stuck, slaps."""
    controls = device.controller.session.table.controls
    mine = [a for a in game.legal_actions() if a != SPIT_ACTION and player_of(a) == 0]
    plays = [a for a in mine if kind_of(a) != MOVE]
    if game.phase == PHASE_PLAY and game.is_stuck():
        device.tap(P1_SPIT)
    elif plays or (game.phase == PHASE_PLAY and game.dig_move(0) >= 0):
        action = plays[0] if plays else game.dig_move(0)
        for key in controls.presses_for(0, action) or ():
            device.tap(keys.button_id(0, key), 20)


def _to_the_round_result(device):
    """Run until the first round has ended; its result is on screen."""
    game = device.controller.session.table.game
    for _ in range(1200):
        device.run(100)
        if game.round >= 1 and game.phase != PHASE_DEALING:
            break  # ended, and the next round dealt (in passes of their own)
        if device.saved.seats[0] == "person":
            _person_moves(device, game)
    assert game.round == 1 and game.phase == PHASE_READY
    assert device.screen.name == "round_result" and device.screen.args[0] is game.last_round
    assert device.controller.screen_name() == "round result"
    return device.controller.session.table.controls


WRAP_S = (1 << 30) // 1_000_000 + 1  # a little over one ticks_us period


def _wait_s(device, seconds):
    """Nobody touches anything for ``seconds``: a pass every 100 ms."""
    for _ in range(seconds * 10):
        device.now = (device.now + 100_000) % (1 << 30)
        device.handheld.step(device.now)


@pytest.mark.parametrize("wraps", [1, 2])
def test_the_round_result_never_comes_back_across_the_tick_wrap(wraps):
    device = Device(seats=("person", "lightning"))
    device.tap(P1_SPIT)
    device.tap(P1_SPIT)
    _to_the_round_result(device)
    device.run(ROUND_RESULT_US // 1000 + 100)
    assert device.screen.name == "ready"
    device.controller.session.table.hold = True  # the CPU seat waits for the person
    for _ in range(wraps * 4):
        _wait_s(device, WRAP_S // 4)
        assert device.screen.name == "ready"


@pytest.mark.parametrize("wraps", [1, 2])
def test_a_reaction_clock_left_running_across_the_tick_wrap_records_nothing(wraps):
    device = Device()
    device.tap(P1_SPIT)
    device.both_spit()
    device.run(COUNTDOWN_US // 1000 + 100)
    game = device.controller.session.table.game
    assert game.phase == PHASE_PLAY and game.can_play(0)
    for _ in range(wraps):
        _wait_s(device, WRAP_S)
    device.run(869)  # played 869 ms after a whole number of wraps
    _person_moves(device, game)
    assert device.controller.session.table.controls.times, "a card was played"
    reactions = device.controller.listener.reactions
    assert reactions.session[0].count == 0 and reactions.personal[0].best_ms == 0
    assert device.saved.best_ms[0] == 0


def test_the_round_result_stays_to_be_read_and_no_cpu_seat_shortens_it():
    device = Device(seats=("lightning", "lightning"))
    device.tap(P1_SPIT)
    controls = _to_the_round_result(device)
    for _ in range(ROUND_RESULT_US // 1000 - 150):
        assert device.screen.name == "round_result"
        assert controls.called == [False, False], "the CPU seats wait for the reading"
        device.run(1)
    device.run(300)
    assert device.screen.name in ("ready", "countdown")
    assert ROUND_RESULT_US >= 3_000_000, "long enough to read when nobody calls"


def test_a_person_calling_spit_leaves_the_round_result_at_once():
    device = Device(seats=("person", "lightning"))
    device.tap(P1_SPIT)
    device.tap(P2_SPIT)  # the CPU seat's button: nobody's call but the CPU's
    device.tap(P1_SPIT)
    controls = _to_the_round_result(device)
    device.run(200)
    assert device.screen.name == "round_result"
    device.pins[P1_SPIT].press()
    device.run(5)
    assert controls.called[0] and device.screen.name in ("ready", "countdown")


def test_self_test_counts_presses_times_them_and_calibrates_the_tie_window():
    device = Device()
    device.controller.self_test(device.now)
    device.run(5)
    assert device.controller.mode == SELF_TEST and device.screen.name == "self_test"
    assert device.sounds.played == ["scale"]
    p1_l, p2_r = keys.button_id(0, keys.LEFT), keys.button_id(1, keys.RIGHT)
    device.tap(keys.button_id(1, keys.C4))
    presses, ages, bins, lines = device.screen.args
    assert presses[keys.button_id(1, keys.C4)] == 1 and sum(presses) == 1
    assert ages[keys.button_id(1, keys.C4)] == 1 and ages[0] == -1
    device.run(1500)
    assert device.screen.args[1][keys.button_id(1, keys.C4)] == 16
    assert lines[1] == "press L or R together: 100 more"
    for i in range(100):
        gap = (i % 7) * 6  # 0-36 µs apart, player 2 later
        device.pins[p1_l].press()
        device.now += gap
        device.pins[p2_r].press()
        device.run(20)
        device.pins[p1_l].release()
        device.pins[p2_r].release()
        device.run(20)
    presses, ages, bins, lines = device.screen.args
    assert presses[p1_l] == presses[p2_r] == 100
    assert sum(bins) == 100 and bins[0] > 0 and bins[3] > 0 and bins[4] == 0
    assert lines[0].startswith("pairs 100  99.9%: 36 us")
    assert lines[1] == "tie window 60 us: hold SPIT to save"
    device.hold(P1_SPIT, HOLD_US // 1000 + 50)
    assert device.controller.mode == TITLE
    assert device.saved.tie_us == 60 and device.controller.arbiter.tie_us == 60


def test_leaving_the_self_test_without_enough_pairs_keeps_the_tie_window():
    device = Device()
    device.controller.self_test(device.now)
    device.hold(P2_SPIT, HOLD_US // 1000 + 50)
    assert device.controller.mode == TITLE and device.saved.tie_us == 100


def test_reaction_times_show_after_a_round_for_each_person():
    device = Device(seats=("person", "lightning"))
    device.tap(P1_SPIT)
    device.tap(P1_SPIT)
    controller = device.controller
    game = controller.session.table.game
    device.run(COUNTDOWN_US // 1000 + 1500)
    assert game.phase == PHASE_PLAY
    # P1's clock started when the opening spit gave them a card to play.
    ms = controller.listener.reactions.played(0, device.now)
    assert 100 <= ms <= COUNTDOWN_US // 1000
    controller.modes[MATCH].round_over(device.now)
    assert controller.listener.reactions.figures == [ms, ms, ms, 0, 0, 0]
    assert device.saved.best_ms[0] == 0, "kept until the break writes the save"
    controller.scheduler.on_break()  # the break, which writes the save
    assert device.saved.best_ms[0] == ms, "the record goes into the saved data"


def test_a_round_ended_by_the_last_card_played_is_taken_up_as_a_slapped_one_is():
    from helpers.positions import position

    device = Device()
    device.tap(P1_SPIT)
    device.run(10)
    # A one-pile round where P1's last stock card fits the pile: its press ends the round.
    game = position(["7H"], ["9C"], middle=["6S"], packs=(5, 5), options="middle=one")
    device.controller.session.lay_out(game)
    device.run(10)
    saves = len(device.storage.saves)
    device.tap(keys.button_id(0, keys.C1))
    device.run(100)
    assert game.round == 1 and game.phase == PHASE_READY
    assert "round" in device.sounds.played and device.screen.name == "round_result"
    assert len(device.storage.saves) > saves, "the break between rounds came"


def test_the_spit_mask_names_both_spit_buttons():
    from spit.controller import _SPITS

    spits = 1 << keys.button_id(0, keys.SPIT) | 1 << keys.button_id(1, keys.SPIT)
    assert spits == _SPITS


def _paced_controller(screen=None):
    """A controller on a screen (a ``Screen``), its scheduler reading a clock the test
    moves."""
    from spit.controller import Controller

    clock = [0]
    screen = screen or Screen()
    controller = Controller(SaveData(), 77, 0, screen, clock=lambda: clock[0])
    return clock, controller.scheduler, screen, controller


def test_a_late_pass_leaves_the_drawing_to_a_later_pass():
    from spit.scheduler import HOLD_PASSES

    clock, scheduler, screen, controller = _paced_controller()
    for now in range(1000, 1000 * (HOLD_PASSES + 1), 1000):
        scheduler.begin()
        clock[0] += 5_000  # the pass spent 5 ms before drawing
        controller.run(now, 0)
        assert screen.name is None
    scheduler.begin()
    clock[0] += 5_000
    controller.run(9000, 0)
    assert screen.name == "title", "the pass after those draws, late or not"


def test_a_pass_that_commits_a_press_leaves_the_drawing_to_the_next():
    from spit.scheduler import HOLD_PASSES

    _, scheduler, screen, controller = _paced_controller()
    for now in range(1000, 1000 * (HOLD_PASSES + 2), 1000):
        scheduler.begin()
        scheduler.carried = True  # a press went in: the drawing waits, however long it has waited
        controller.run(now, 0)
        assert screen.name is None
    scheduler.begin()
    controller.run(9000, 0)
    assert screen.name == "title"


def test_a_new_screen_is_drawn_at_once_however_late_the_pass():
    clock, scheduler, screen, controller = _paced_controller()
    controller.touch(P1_SPIT, 500)
    scheduler.begin()
    clock[0] += 5_000  # every pass runs late
    controller.run(2000, 0)
    assert controller.mode == MATCH and screen.name == "ready", "the press's answer"


def test_the_break_waits_for_the_new_screen_and_takes_a_pass_of_its_own():
    from spit.controller import Controller

    breaks = []
    screen = Screen()
    controller = Controller(SaveData(), 77, 0, screen, on_break=lambda: breaks.append(1))
    controller.run(1000, 0)  # the title
    controller.touch(P1_SPIT, 2500)
    screen.busy = True  # the ready screen goes out a piece a pass
    for now in range(10_000, 20_000, 1000):
        controller.run(now, 0)
    assert controller.mode == MATCH
    assert breaks == [] and controller.session is None, "no break, no deal while drawing"
    screen.busy = False
    screen.name = None
    controller.run(30_000, 0)
    assert breaks == [1] and screen.name is None, "the ready screen is up: the break alone"
    controller.run(31_000, 0)
    assert controller.session is not None, "then the deal"


def test_a_screen_that_keeps_drawing_holds_the_break_back_no_longer_than_its_wait():
    from spit.controller import Controller
    from spit.scheduler import BREAK_WAIT_US

    breaks = []
    screen = Screen()
    controller = Controller(SaveData(), 77, 0, screen, on_break=lambda: breaks.append(1))
    controller.run(1000, 0)
    controller.touch(P1_SPIT, 1500)
    screen.busy = True  # never done
    now = 10_000
    while not breaks and now < 10 * BREAK_WAIT_US:
        controller.run(now, 0)
        now += 1000
    assert breaks and now <= 10_000 + BREAK_WAIT_US + 5000


class CountingScreen(Screen):
    """A ``Screen`` that counts the play screen's calls."""

    def __init__(self):
        super().__init__()
        self.plays = 0

    def play(self, *args):
        self.plays += 1
        self.name = "play"


def test_passes_leave_a_drawn_play_screen_alone_until_something_happens():
    from spit.spit import Game

    device = Device()
    device.screen = screen = CountingScreen()
    device.controller.scheduler.renderer = screen
    device.tap(P1_SPIT)  # the match
    device.both_spit()
    device.run(COUNTDOWN_US // 1000 + 100)
    table = device.controller.session.table
    assert table.game.phase == PHASE_PLAY and screen.name == "play"
    drawn = screen.plays
    device.run(200)
    assert screen.plays == drawn, "nothing happened: no pass asked for the screen"
    device.tap(keys.button_id(0, keys.C1))  # a card picked up
    assert screen.plays == drawn + 1 and table.controls.hand[0] == 0
    device.run(50)
    assert screen.plays == drawn + 1
    screen.name = None
    device.controller.session.lay_out(Game(5))  # another table: its screen is drawn
    device.run(4)  # once each player's cards are shuffled and laid out, a pass each
    assert screen.name == "ready"


class TakingScreen(Screen):
    """A ``Screen`` that tells its calls that draw from those that only take values."""

    def __getattr__(self, name):
        def draw(*args):
            if args[-1] != TAKE:
                self.name = name

        return draw


def _passes_in_a_match(screen_busy):
    """A match's passes with the screen ``screen_busy`` (left something to draw): for
    each pass, whether it drew (a call without ``taking``) and whether it moved the game
    (``Session.run``)."""
    clock, scheduler, screen, controller = _paced_controller(TakingScreen())
    controller.saved.seats = ["lightning", "lightning"]
    controller.new_match(1000)
    moved = []
    run = controller.session.run

    def counted(now):
        moved.append(now)
        run(now)

    controller.session.run = counted
    screen.busy = screen_busy
    passes = []
    for now in range(2000, 14_000, 1000):
        scheduler.begin()
        screen.name = None
        controller.run(now, 0)
        clock[0] += 1000
        passes.append((screen.name is not None, now in moved))
    return passes


def test_in_a_game_what_the_screen_left_is_drawn_in_passes_of_its_own():
    from spit.scheduler import ALONE_MAX

    answer, *passes = _passes_in_a_match(screen_busy=True)
    assert answer == (True, False), "the new match's first call is its pass's work"
    assert (True, True) not in passes, "then a pass draws or moves the game, not both"
    assert passes.count((True, False)) >= len(passes) * ALONE_MAX // (ALONE_MAX + 1)
    run = 0  # passes in a row that only drew
    for drew, _ in passes:
        run = run + 1 if drew else 0
        assert run <= ALONE_MAX, "the game moves at least every few passes"
    quiet = _passes_in_a_match(screen_busy=False)[1:]
    assert quiet.count((True, True)) >= 8, "a screen with nothing left: the game's passes call it"
    for before, after in zip(quiet, quiet[1:], strict=False):
        if after == (True, False):
            assert before == (False, True), "a pass draws alone only what the last turned away"


def test_a_due_press_moves_the_game_before_the_screen_draws_alone():
    clock, scheduler, screen, controller = _paced_controller(TakingScreen())
    controller.new_match(1000)
    controller.run(2000, 0)  # the ready screen's answer
    screen.busy = True
    controller.touch(keys.button_id(0, keys.SPIT), 2500)
    now = clock[0] = 2500 + controller.arbiter.settle_us
    scheduler.begin()
    screen.name = None
    controller.run(now, 0)
    assert controller.session.table.controls.called[0], "the press went in"
    assert screen.name is None, "and nothing was drawn in its pass"


def test_the_pass_that_deals_the_next_round_leaves_the_last_one_s_end_to_the_next():
    from helpers.positions import position
    from spit.games import PHASE_DEALING, PHASE_SLAP, slap

    clock, scheduler, screen, controller = _paced_controller()
    controller.new_match(1000)
    controller.run(2000, 0)  # the ready screen's answer
    controller.run(3000, 0)  # its break
    game = position(["7H"], ["5C"], ["6S", "JD 10D"], packs=(5, 5), phase=PHASE_SLAP)
    controller.session.lay_out(game)
    scheduler.begin()
    controller.run(3500, 0)  # the controller sees the round waiting for its slap
    game.apply(slap(1, 1))  # the round's end, as the slap's press would make it
    assert game.phase == PHASE_DEALING
    now = 4000
    for expected in ("shuffling", "shuffling", "shuffling", "shuffled", "dealt", "taken up"):
        scheduler.begin()
        clock[0] = now
        controller.run(now, 0)
        now += 1000
        if expected == "shuffling":
            assert game.phase == PHASE_DEALING and not game.shuffled
        elif expected == "shuffled":  # with room for the next round's actions
            assert game.phase == PHASE_DEALING and game.shuffled
        elif expected == "dealt":
            assert game.phase == PHASE_READY and game.round == 1
            assert not controller.scheduler._break_due, "the round's end waits for the next pass"
        else:
            assert controller.scheduler._break_due, "then the round's end: its break is due"


def test_a_person_at_a_cpu_match_leaves_it_for_the_settings_at_any_time():
    device = Device(seats=("lightning", "lightning"))
    device.tap(P1_SPIT)
    game = device.controller.session.table.game
    device.run(COUNTDOWN_US // 1000 + 2_000)
    assert game.phase == PHASE_PLAY and game.round == 0, "in the middle of a round"
    device.hold(P2_SPIT, HOLD_US // 1000 + 100)
    assert device.controller.mode == SETTINGS


@pytest.mark.parametrize(
    ("module", "owners"),
    [
        ("spit.controller", {"_STAY": "spit.modes.STAY"}),
        ("spit.match_mode", {"_TITLE": "spit.modes.TITLE", "_SPENT": "spit.modes.SPENT"}),
        ("spit.match_mode", {"_SETTINGS": "spit.modes.SETTINGS", "_STAY": "spit.modes.STAY"}),
        ("spit.scheduler", {"_STAY": "spit.modes.STAY", "_SPENT": "spit.modes.SPENT"}),
        ("spit.scheduler", {"_PHASE_DEALING": "spit.games.PHASE_DEALING"}),
    ],
)
def test_the_flows_folded_copies_hold_their_owners_values(module, owners):
    import importlib

    copies = importlib.import_module(module)
    for copy, owner in owners.items():
        where, name = owner.rsplit(".", 1)
        assert getattr(copies, copy) == getattr(importlib.import_module(where), name), copy
