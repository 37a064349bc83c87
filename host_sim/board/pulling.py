"""``make pull``: the finished games' transcripts on the board into ``./transcripts``,
never over a different file already there, then the board restarts."""

import json
import os
import re

from host_sim.board.errors import FlashError
from host_sim.board.scripts import STOP_WATCHDOG, TRANSCRIPTS, transcripts_script

PULLED = "transcripts"  # where make pull puts them, in the current folder


def _game_order(name):
    """``game-2.txt`` before ``game-10.txt``."""
    number = re.search(r"\d+", name)
    return (int(number.group()) if number else -1, name)


def _place_for(folder, name, data):
    """Where a pulled transcript goes in ``folder``: its own name, or ``game-2-2.txt`` and
    on when another file has it; None when the same transcript is there already."""
    stem, dot, ext = name.rpartition(".")
    candidate, copy = name, 1
    while os.path.exists(os.path.join(folder, candidate)):
        with open(os.path.join(folder, candidate), "rb") as f:
            if f.read() == data:
                return None
        copy += 1
        candidate = "%s-%d%s%s" % (stem, copy, dot, ext)
    return candidate


def _shown(folder):
    """``folder`` as a person finds it from here."""
    relative = os.path.relpath(folder)
    return folder if relative.startswith("..") else relative + "/"


def pull(board, folder, say=print):
    """Copy the finished games' transcripts on ``board`` into ``folder`` (never over a
    different file already there), say how many and where, and restart the board so its
    game comes back. Returns the names written."""
    board.run(STOP_WATCHDOG)  # it would reset the board in the middle of the copy
    names = sorted(json.loads(board.run(transcripts_script())), key=_game_order)
    if not names:
        say("No finished games on the board yet; restarting the board.")
        board.reset()
        return []
    written, there = [], 0
    try:
        os.makedirs(folder, exist_ok=True)
        for name in names:
            data = board.read(TRANSCRIPTS + "/" + name)
            place = _place_for(folder, name, data)
            if place is None:
                there += 1
                continue
            with open(os.path.join(folder, place), "wb") as f:
                f.write(data)
            written.append(place)
    except OSError as error:
        raise FlashError("cannot copy the transcripts into %s: %s"
                         % (_shown(folder), error.strerror or error)) from None
    say(_pulled(written, there, folder))
    if written:
        say('Replay one: make sim ARGS="--replay %s%s"' % (_shown(folder), written[-1]))
    say("Restarting the board.")
    board.reset()
    return written


def _pulled(written, there, folder):
    """The summary of a pull, in one line."""
    if not written:
        return "Nothing new: the board's %d finished games are in %s already." % (
            there, _shown(folder))
    games = ("1 finished game's transcript" if len(written) == 1
             else "%d finished games' transcripts" % len(written))
    already = ""
    if there:
        already = " (%d %s there already)" % (there, "was" if there == 1 else "were")
    return "Copied %s from the board into %s: %s%s" % (
        games, _shown(folder), ", ".join(written), already)
