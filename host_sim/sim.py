"""``make sim``: play Spit on the laptop through the firmware's own modules.

Keys press fake button pins; the firmware's IRQ capture, debounce, arbiter, controls
and rules do the rest, exactly as on the device. Either seat may be the CPU. With
``--headless`` the CPU plays itself through the same path in simulated time and
prints one JSON line per game.

    python -m host_sim.sim [--p1 human|LEVEL] [--p2 human|LEVEL] [--seed S] [rule flags]
    python -m host_sim.sim --headless --games 3
"""

import argparse
import json
import sys
import time

from drivers.buttons import IrqButtons
from handheld import Handheld
from machine import Pin
from spit import keys, textview
from spit.cpu import LEVEL_NAMES
from spit.savedata import PERSON, SaveData
from spit.ticks import TICKS_PERIOD, ticks_add, ticks_diff

from host_sim import terminal
from host_sim.flags import add_rule_options, options_of

HUMAN = "human"
PRESS_US = 40_000  # how long a key press holds the button down

KEYMAP = {}
for _player, (_name, _cards, _left, _right, _spit) in enumerate(terminal.KEYS):
    for _key, _char in enumerate(_cards.split()):
        KEYMAP[_char] = keys.button_id(_player, _key)
    KEYMAP[_left.lower()] = keys.button_id(_player, keys.LEFT)
    KEYMAP[_right.lower()] = keys.button_id(_player, keys.RIGHT)
    KEYMAP[_spit.lower()] = keys.button_id(_player, keys.SPIT)


class Device:
    """The simulated handheld: 16 fake button pins and IRQ capture around the firmware's own
    main loop (``handheld.Handheld``)."""

    def __init__(self, clock, options, seed, seats=(HUMAN, HUMAN)):
        self.clock = clock
        self.pins = [Pin(i, Pin.IN, Pin.PULL_UP) for i in range(keys.BUTTON_COUNT)]
        self.buttons = IrqButtons(self.pins, clock)
        saved = SaveData()
        saved.options = options
        saved.seats = [PERSON if seat == HUMAN else seat for seat in seats]
        self.handheld = Handheld(
            self.buttons, clock(), saved, seed, listener=self._event, on_game_over=self._game_over
        )
        self.handheld.controller.new_match(clock())
        self.last_event = ""
        self.finished = []  # the games played, as result dicts
        self._releases = []

    def press(self, button):
        """A finger on ``button``: down now, up ``PRESS_US`` later."""
        pin = self.pins[button]
        if pin.value():
            pin.press()
            self._releases.append((button, ticks_add(self.clock(), PRESS_US)))

    def step(self):
        """One pass of the main loop."""
        now = self.clock()
        for release in list(self._releases):
            if ticks_diff(now, release[1]) >= 0:
                self.pins[release[0]].release()
                self._releases.remove(release)
        self.handheld.step(now)

    @property
    def session(self):
        return self.handheld.session

    def lines(self):
        table = self.session.table
        match = self.session.match
        return textview.lines(
            table.game, table.controls, match.options.word, self.last_event, match.wins
        )

    def _event(self, event, player, detail):
        self.last_event = textview.event_text(event, player, detail)

    def _game_over(self, game, match):
        outcome = game.outcome()
        self.finished.append(
            {
                "seed": game.seed,
                "winner": outcome.winner + 1,
                "reason": outcome.reason,
                "rounds": game.round,
                "plays": game.plays,
                "spits": game.spits,
                "slaps": game.slaps,
                "match": list(match.wins),
            }
        )


class SimulatedClock:
    """``ticks_us`` in simulated time, wrapping at 2**30 like the device."""

    def __init__(self, start=0):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, us):
        self.now = (self.now + us) % TICKS_PERIOD


def wall_clock():
    return (time.monotonic_ns() // 1000) % TICKS_PERIOD


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="host_sim.sim", description=__doc__.split("\n")[0])
    seats = [HUMAN, *LEVEL_NAMES]
    parser.add_argument("--p1", choices=seats, default=HUMAN, help="player 1: human or a level")
    parser.add_argument("--p2", choices=seats, default=HUMAN, help="player 2: human or a level")
    parser.add_argument("--seed", type=int, default=None, help="the match seed (default: time)")
    parser.add_argument("--headless", action="store_true", help="CPU against CPU, no screen")
    parser.add_argument("--games", type=int, default=1, help="games to play with --headless")
    add_rule_options(parser)
    return parser.parse_args(argv)


def run_headless(args, out=sys.stdout):
    """CPU against CPU through the whole input path, 1 ms per main-loop pass."""
    seats = [level if level != HUMAN else "steady" for level in (args.p1, args.p2)]
    clock = SimulatedClock()
    device = Device(clock, options_of(args), 1 if args.seed is None else args.seed, seats)
    printed = 0
    while printed < args.games:
        device.step()
        clock.advance(1000)
        for result in device.finished[printed:]:
            print(json.dumps(result), file=out)
            printed += 1
    return 0


def run_terminal(args):
    import curses

    seed = args.seed if args.seed is not None else time.time_ns() % 1_000_000
    device = Device(wall_clock, options_of(args), seed, (args.p1, args.p2))

    def play(screen):
        curses.curs_set(0)
        screen.nodelay(True)
        show_help = True
        while True:
            key = screen.getch()
            while key != -1:
                if key == 27:
                    return
                char = chr(key).lower() if 0 <= key < 256 else ""
                if char == "?":
                    show_help = not show_help
                elif char in KEYMAP:
                    show_help = False
                    device.press(KEYMAP[char])
                key = screen.getch()
            device.step()
            screen.erase()
            text = device.lines() + ([""] + terminal.HELP if show_help else [])
            for y, line in enumerate(text[: screen.getmaxyx()[0] - 1]):
                screen.addstr(y, 0, line[: screen.getmaxyx()[1] - 1])
            screen.refresh()
            time.sleep(0.002)

    curses.wrapper(play)
    return 0


def main(argv=None):
    args = parse_args(argv)
    if args.headless:
        return run_headless(args)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("host_sim.sim needs a terminal to play; try --headless", file=sys.stderr)
        return 2
    return run_terminal(args)


if __name__ == "__main__":
    sys.exit(main())
