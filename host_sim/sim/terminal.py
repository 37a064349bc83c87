"""The simulator in a terminal (curses): the same device as the window, its screens as text.

The table itself is ``spit.textview``'s; the other screens of the flow (title, attract
mode, settings, countdown, round result, game over, error) are named and shown as
lines. A terminal reports no key coming up, so a key taps its button (down for 40 ms);
Tab holds SPIT long enough to open the settings.
"""

import contextlib
import curses
import os
import textwrap
import time

from spit import games, keys, textview
from spit.modes import ATTRACT, ERROR, SELF_TEST, SETTINGS, TITLE
from spit.ticks import ticks_add

from host_sim.sim.keyboard import char_map, help_lines, key_label

HELP = help_lines() + ["Tab holds SPIT for the settings. ? shows the keys, Esc quits."]
SETTINGS_HOLD_US = 2_200_000
_P1_SPIT = keys.button_id(0, keys.SPIT)
_TAB = 9
_ESC = 27
_FRAME_S = 0.005
_CHOOSE = "L / R switch the game: %s" % " / ".join(games.title(g) for g in games.NAMES)


def screen_lines(device):
    """What the device's screen shows, as lines of text, whatever it shows."""
    controller = device.controller
    word = controller.word()  # the chosen game's, which a SPIT press starts
    mode = controller.mode
    lines = ["Spit handheld: " + device.screen_name(), ""]
    if mode == TITLE:
        start = "press %s (%s) to start a match" % (word, key_label(_P1_SPIT))
        game = "game: " + games.title(controller.saved.game)
        return lines + [word, game, _CHOOSE, start, "seed %d" % controller.seed]
    if mode == ATTRACT:
        table = controller.current.session.table
        playing = games.title(table.game.NAME)
        lines.append("the CPU plays %s: press %s to start a match" % (playing, word))
        return lines + textview.lines(table.game, table.controls)
    if mode == SETTINGS:
        lines.append("L / R move, a card button changes the row, %s saves and starts" % word)
        menu = controller.modes[SETTINGS].prepare()
        for i, (name, value) in enumerate(menu.read()):
            lines.append("%s %-12s %s" % (">" if i == menu.cursor else " ", name, value))
        return lines
    if mode == ERROR:
        message = controller.modes[ERROR].message
        return lines + ["error: " + message, "press %s for the title" % word]
    if mode == SELF_TEST:
        return lines + ["the self-test: every button counts its presses on the device"]
    if device.session is None:
        return lines + ["both press %s when ready (the cards are being dealt)" % word]
    return lines + device.lines() + _match_extra(device)


def _match_extra(device):
    name = device.screen_name()
    session = device.session
    game = session.table.game
    if name == "countdown":
        horizon = ticks_add(device.clock(), -session.arbiter.settle_us)
        left = session.table.controls.countdown_left(horizon)
        return ["the round opens in %d" % max(1, (left + 999_999) // 1_000_000)]
    if name == "round result":
        end = game.last_round
        how = "P%d cleared the stock" % (end.cleared + 1) if end.cleared >= 0 else "nobody moved"
        lines = ["round over: " + how]
        if end.slapper >= 0:
            lines.append("P%d slapped first" % (end.slapper + 1))
        return lines + [
            "P%d took %d, holds %d" % (p + 1, end.took[p], end.held[p]) for p in (0, 1)
        ]
    if name == "match result":
        return ["P%d wins the match" % (session.match.winner() + 1)]
    return []


def run(play):
    """Play in the terminal until Esc or Ctrl-C."""
    os.environ.setdefault("ESCDELAY", "25")  # Esc alone, not the start of a sequence
    with contextlib.suppress(KeyboardInterrupt):
        curses.wrapper(_loop, play)
    return 0


def _loop(screen, play):
    with contextlib.suppress(curses.error):  # a terminal that cannot hide its cursor
        curses.curs_set(0)
    screen.nodelay(True)
    screen.keypad(True)
    device = play.device
    pacer = play.pacer  # a key reaches its pin at the device's time it was read
    chars = char_map()
    show_help = True
    shown = None
    while True:
        key = screen.getch()
        while key != -1:
            if key == _ESC:
                return
            if key in (curses.KEY_F1, ord("?")):
                show_help = not show_help
            elif key == _TAB:
                pacer.tap(_P1_SPIT, SETTINGS_HOLD_US)
            elif key == curses.KEY_ENTER:
                pacer.tap(chars["\n"])
            elif 0 <= key < 256 and chr(key).lower() in chars:
                pacer.tap(chars[chr(key).lower()])
            key = screen.getch()
        play.pacer.catch_up()
        width = max(20, screen.getmaxyx()[1] - 1)
        lines = (textwrap.wrap(play.note, width) + [""] if play.note else []) + screen_lines(
            device
        )
        lines += [""] + play.status()
        if device.save_note():
            lines.append(device.save_note())
        if show_help:
            lines += [""] + HELP
        if lines != shown:
            _show(screen, lines, shown or [])
            shown = lines
        time.sleep(_FRAME_S)


def _show(screen, lines, before):
    rows, columns = screen.getmaxyx()
    screen.erase()
    for y, line in enumerate(lines[: rows - 1]):
        screen.addstr(y, 0, line[: columns - 1])
        if y >= len(before) or before[y] != line:
            screen.redrawln(y, 1)  # send the whole line, not curses' patch of the old one
    screen.refresh()
