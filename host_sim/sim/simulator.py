"""``make sim``: play Spit or Speed on the laptop through the firmware's own modules.

Keys press fake button pins; the firmware's IRQ capture, debounce, arbiter, controls,
rules, renderer and display driver do the rest, exactly as on the device. The window
(pygame-ce) shows the pixels the driver sent over SPI; without a graphical display the
terminal view plays the same game. ``--headless`` plays the CPU against itself in
simulated time and prints one JSON line per game; ``--replay`` plays a transcript back,
and with ``--check`` (or ``--headless``) checks it through the firmware with no view.

    python -m host_sim [--game spit|speed] [--p1 human|cpu:LEVEL] [--p2 ...] [--seed S]
        [rule flags]
    python -m host_sim --headless --games 3 --seed 7 --game speed
    python -m host_sim --replay transcripts/game-3.txt --pace 4
    python -m host_sim --replay transcripts/game-3.txt --check
"""

import json
import os
import random
import sys

from spit import games
from spit.options import Options
from spit.transcript import Transcript, TranscriptError

from host_sim.sim.flags import RECORD_DIR, SHOTS_DIR, parse_args
from host_sim.sim.replay import Replay
from host_sim.sim.simulated_device import (
    HUMAN,
    Device,
    Pacer,
    SimSave,
    SimulatedClock,
    save_path,
    seats_note,
)

__all__ = ["Device", "SimulatedClock", "main", "run_check", "run_headless"]

HEADLESS_STEP_US = 1000
# After the last word of a replay, the passes that draw the final screen; then it stays.
REPLAY_TAIL_US = 1_500_000
FIGURES_US = 100_000  # from a replayed game's end to its figures: a pass or two
RUN_FIGURES = ("seed", "game")  # a headless line's figures of the run, not of its game


def draw_seed():
    return random.SystemRandom().randrange(1 << 24)


def run_headless(args, out=None, err=None):
    """CPU against CPU through the whole firmware path, 1 ms per main-loop pass; with
    ``--record``, every game's transcript is kept, the last one's too."""
    out = out or sys.stdout
    err = err or sys.stderr
    seed = args.seed
    if seed is None:
        seed = draw_seed()
        print("seed %d (drawn; --seed %d plays these games again)" % (seed, seed), file=err)
    clock = SimulatedClock()
    device = Device(
        clock, args.options, seed, (args.p1, args.p2), True, args.record, game=args.game
    )
    printed = 0
    # A game's transcript is written at the break after its game-over screen: the run
    # goes on until the last game's has come.
    while printed < args.games or device.handheld.transcript_due:
        device.step()
        clock.advance(HEADLESS_STEP_US)
        for result in device.finished[printed : args.games]:
            print(json.dumps(result), file=out, flush=True)
            printed += 1
    return 0


def replaying(loaded, clock, screen=False):
    """``(device, replay)``: the deal of a transcript (``load_transcript``'s tuple) laid out
    on a device of its own, its words to be pressed by the replay."""
    transcript, seats, wins, match_seed = loaded
    # The transcript's game and options come with its deal (``start_game``).
    device = Device(clock, Options(), transcript.seed, screen=screen, title=True)
    device.start_game(transcript, wins, seats, match_seed)
    return device, Replay(transcript, device)


def replay_to_the_end(loaded):
    """Replay a transcript with no view, in simulated time: ``(device, replay)`` once the
    replay has ended and, if the game did, the device has counted its figures."""
    clock = SimulatedClock()
    device, replay = replaying(loaded, clock)
    counting = 0  # since the game ended
    while not replay.ended or (replay.over and not device.finished and counting < FIGURES_US):
        replay.update()
        device.step()
        clock.advance(HEADLESS_STEP_US)
        counting += HEADLESS_STEP_US if replay.over else 0
    return device, replay


def figures(result):
    """A game's figures from its line as ``--headless`` prints it (``Device.finished``),
    without what only that run knows: its seed and the game's number in it."""
    return {name: value for name, value in result.items() if name not in RUN_FIGURES}


def run_check(args, out=None, err=None):
    """``--replay FILE --check``: the transcript replayed through the firmware with no view.
    Every word accepted and the game ended: its figures as one JSON line, exit 0; else one
    line naming the word refused (or saying the transcript ends first), exit 1."""
    out = out or sys.stdout
    err = err or sys.stderr
    device, replay = replay_to_the_end(args.transcript)
    if replay.error:
        print("host_sim: --replay %s: %s" % (args.replay, replay.error), file=err)
        return 1
    print(json.dumps(figures(device.finished[0])), file=out, flush=True)
    return 0


class Play:
    """What a view runs: the device, its pacer, the replay (or None), and the words the
    view shows beside the device (seed, seats, the fallback's reason)."""

    def __init__(self, args, screen, note=""):
        self.clock = SimulatedClock()
        self.note = note
        self.shots = args.shots or SHOTS_DIR
        self.replay = None
        self.replay_name = args.replay
        if args.replay is not None:
            transcript, self.seats = args.transcript[:2]
            self.device, self.replay = replaying(args.transcript, self.clock, screen)
            self.seed = transcript.seed
        else:
            self.seed = args.seed if args.seed is not None else draw_seed()
            self.device = Device(
                self.clock,
                args.options,
                self.seed,
                (args.p1, args.p2),
                screen,
                RECORD_DIR if args.record is None else args.record,
                title=True,
                game=args.game,
                save=SimSave(save_path(), args.fresh, args.given),
            )
            self.seats = self.device.seats  # the saved seats, but for those given
            # A person starts the match from the title; CPU seats alone start at once.
            if HUMAN not in self.seats:
                self.device.controller.new_match(self.clock())
        self._tail = 0
        self.pacer = Pacer(self.device, self.clock, args.pace, self._before_step)

    def _before_step(self):
        replay = self.replay
        if replay is None:
            return
        replay.update()
        if replay.ended:
            self._tail += Pacer.STEP_US
            if self._tail >= REPLAY_TAIL_US:
                self.pacer.frozen = True

    def status(self):
        """Lines about the run, for beside the device: the game chosen (on the title, L/R
        choose another), the seed, the seats, the replay and the pace."""
        seats = " vs ".join(
            "P%d %s" % (p + 1, seat if seat == HUMAN else "CPU " + seat)
            for p, seat in enumerate(self.seats)
        )
        game = games.title(self.device.controller.saved.game)
        seed = self.seed if self.replay is not None else self.device.match_seed()
        lines = ["game: " + game, "seed %d" % seed, seats]
        replay = self.replay
        if replay is not None:
            lines.append(
                "replay %s: %d/%d"
                % (os.path.basename(self.replay_name), replay.made, replay.total)
            )
            if replay.error:
                lines.append("replay stopped: " + replay.error)
            elif replay.over:
                lines.append("replay finished")
        if self.pacer.speed != 1:
            lines.append("pace x%g" % self.pacer.speed)
        return lines


def load_transcript(path):
    """``(transcript, seats, games won before, match seed)``; exits with one line saying
    why if the file cannot be read, is larger than any transcript (refused unread) or is
    not a transcript."""
    try:
        Transcript.check_size(os.path.getsize(path))
        with open(path, "rb") as f:
            data = f.read(Transcript.MAX_BYTES + 1)  # a growing file or a device stops here
        transcript = Transcript.parse(data)
    except (OSError, TranscriptError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        print("host_sim: error: --replay %s: %s" % (path, reason), file=sys.stderr)
        raise SystemExit(2) from None
    seats, wins, match_seed = seats_note(data.decode())
    return transcript, seats, wins, match_seed


def window_problem():
    """Why no window can open here, or None."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None  # chosen explicitly (the tests use "dummy")
    if sys.platform in ("darwin", "win32"):
        return None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no graphical display (DISPLAY is not set)"
    return None


def play_here(args):
    problem = "you asked for --terminal" if args.terminal else window_problem()
    if problem is None:
        from host_sim.sim import window

        try:
            return window.run(Play(args, screen=True), args.scale)
        except window.NoWindow as error:
            problem = "no window: %s" % error
    note = "Terminal view (%s); for the window, run make sim in a desktop session." % problem
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # A transcript is checked without a screen; CPU games play without one.
        instead = "add --check to check it" if args.replay is not None else "try --headless"
        print("host_sim: %s, and no terminal to play in; %s" % (problem, instead), file=sys.stderr)
        return 2
    from host_sim.sim import terminal

    print(note, file=sys.stderr)  # stays on the terminal after the view closes
    return terminal.run(Play(args, screen=False, note=note))


def make_record_folder(args):
    """The folder finished games' transcripts go to, made now; exits with one line saying
    why if it cannot be a folder."""
    folder = args.record
    if folder is None and not args.headless:
        folder = RECORD_DIR
    if not folder:
        return
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        reason = error.strerror or error
        if isinstance(error, (FileExistsError, NotADirectoryError)):
            reason = "a file is in the way of the folder"
        print("host_sim: error: --record %s: %s" % (folder, reason), file=sys.stderr)
        raise SystemExit(2) from None


def main(argv=None):
    try:
        args = parse_args(argv)
        if args.replay is not None:
            args.transcript = load_transcript(args.replay)
            if args.check:
                return run_check(args)
        else:
            make_record_folder(args)
        if args.headless:
            return run_headless(args)
        return play_here(args)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
