"""``make sim``: play Spit or Speed on the laptop through the firmware's own modules.

Keys press fake button pins; the firmware's IRQ capture, debounce, arbiter, controls,
rules, renderer and display driver do the rest, exactly as on the device. The window
(pygame-ce) shows the pixels the driver sent over SPI; without a graphical display the
terminal view plays the same game. ``--headless`` plays the CPU against itself in
simulated time and prints one JSON line per game; ``--replay`` plays a transcript back.

    python -m host_sim [--game spit|speed] [--p1 human|cpu:LEVEL] [--p2 ...] [--seed S]
        [rule flags]
    python -m host_sim --headless --games 3 --seed 7 --game speed
    python -m host_sim --replay transcripts/game-3.txt --pace 4
"""

import json
import os
import random
import sys

from spit import textview
from spit.options import Options
from spit.transcript import Transcript, TranscriptError

from host_sim.sim_device import HUMAN, Device, Pacer, SimulatedClock, seats_note
from host_sim.sim_flags import RECORD_DIR, SHOTS_DIR, parse_args
from host_sim.sim_replay import Replay

__all__ = ["Device", "SimulatedClock", "main", "run_headless"]

HEADLESS_STEP_US = 1000
# After the last word of a replay, the passes that draw the final screen; then it stays.
REPLAY_TAIL_US = 1_500_000


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
            transcript, self.seats, wins, match_seed = args.transcript
            # The transcript's game and options come with its deal (``start_game``).
            self.device = Device(self.clock, Options(), transcript.seed, screen=screen, title=True)
            self.device.start_game(transcript, wins, self.seats, match_seed)
            self.replay = Replay(transcript, self.device)
            self.seed = transcript.seed
        else:
            self.seed = args.seed if args.seed is not None else draw_seed()
            self.seats = (args.p1, args.p2)
            # A person starts the match from the title; CPU seats alone start at once.
            self.device = Device(
                self.clock,
                args.options,
                self.seed,
                self.seats,
                screen,
                RECORD_DIR if args.record is None else args.record,
                title=HUMAN in self.seats,
                game=args.game,
            )
        self._tail = 0
        self.pacer = Pacer(self.device, self.clock, args.pace, self._before_step)

    def _before_step(self):
        replay = self.replay
        if replay is None:
            return
        replay.update()
        if replay.done or replay.error:
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
        game = textview.game_title(self.device.controller.saved.game)
        lines = ["game: " + game, "seed %d" % self.seed, seats]
        replay = self.replay
        if replay is not None:
            lines.append(
                "replay %s: %d/%d"
                % (os.path.basename(self.replay_name), replay.made, replay.total)
            )
            if replay.error:
                lines.append("replay stopped: " + replay.error)
            elif replay.done:
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
        from host_sim import window

        try:
            return window.run(Play(args, screen=True), args.scale)
        except window.NoWindow as error:
            problem = "no window: %s" % error
    note = "Terminal view (%s); for the window, run make sim in a desktop session." % problem
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "host_sim: %s, and no terminal to play in; try --headless" % problem, file=sys.stderr
        )
        return 2
    from host_sim import terminal

    print(note, file=sys.stderr)  # stays on the terminal after the view closes
    return terminal.run(Play(args, screen=False, note=note))


def main(argv=None):
    try:
        args = parse_args(argv)
        if args.headless:
            return run_headless(args)
        if args.replay is not None:
            args.transcript = load_transcript(args.replay)
        return play_here(args)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
