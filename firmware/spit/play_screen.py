"""The play screen (SPEC 5): it follows the game's changes and sends only what they touched.

Constructor: ``PlayScreen(renderer, pen)``: the renderer keeps the screen on the display
and the call's share (``spit.render``), the pen paints. Method: ``play(game, controls,
cpus=(False, False), share=None)`` draws the play screen of ``game`` (a ``rules.Game``)
with the hands and calls of ``controls``; ``cpus[p]`` is true when seat p is the CPU.

The screen is cut into regions (``spit.play_regions``), each remembering what it last
showed, so a region whose content is unchanged sends nothing. The controls count what they
tell (``Controls.changes``: each event, a margin's banner written, a round laid out): while
the count stays the same, a call has nothing to follow. When it moved, the call looks at
what the screen shows of the game and the controls (some events show nothing: a refusal),
and follows only what the actions applied since the last call (``game.history``), the
hands and the calls can have changed. The regions an
action touches go into a ring, the pile a card landed on first; setting the table out
is a sweep over every region. The packs are followed by their sizes (a spit takes from
them, and so does each play of Speed). Then the names and calls, then the message row,
in eighths of a row where the old or the new text reaches, player 1's copy first; when
only one player can spit, the other's copy says who does rather than asking them.

Following changes spends a region of the call's share (``spit.render``), except when the
last ``FOLLOWS_MAX`` calls in a row spent theirs on it and the table was not just set
out: a change in every call (mashed buttons) still lets regions out. Deciding a new
message (about 0.3 ms on the chip) spends a region too.

The screen draws with the device's heap locked (``spit.scheduler``): nothing here allocates,
and every frame goes on the C stack.
"""

from micropython import const

from spit import screens
from spit.games import calls
from spit.layout import CARD_BANDS, HEIGHT, WIDTH
from spit.pen import HIGHLIGHT, WHITE
from spit.play_regions import CALL_CODES, MESSAGE_CODE, NAME_CODES, PACK_CODES, SWEPT, Regions
from spit.scheduler import FOLLOWS_MAX, HEAP

# Builtins bound in this module's globals: a name missing there is found only after a
# search of the whole table, 5-22 µs a call on the Pico (docs/performance.md).
len, max, min = len, max, min

# ``spit.games``' values, read on every press: a const is folded only in the module that
# defines it (another module's is a global lookup, about a microsecond on the Pico), so
# this one keeps copies; ``tests/test_games.py`` holds each to its value there.
_PHASE_READY = const(0)
_PHASE_PLAY = const(1)
_PHASE_SLAP = const(2)
_KIND_SHIFT = const(9)
_PLAYER_SHIFT = const(8)
_FIRST_SHIFT = const(4)
_FIELD = const(15)
_PLAY = const(0)
_MOVE = const(1)

# Message keys; a margin banner is _MSG_BANNER plus its contest key.
_MSG_NONE = const(0)
_MSG_READY = const(1)
_MSG_STUCK = const(2)
_MSG_SLAP = const(3)
_MSG_PICK = const(4)  # + the player who picks
_MSG_WAIT = const(6)  # stuck, with spit=auto
_MSG_SLAP_LONE = const(7)  # a stalled one-pile round
_MSG_ALONE = const(8)  # stuck, + the only player with a card to spit
_MSG_BANNER = const(10)

# What a change followed (``_followed``) and a message was decided from (``_seen``):
# the phase and the contest's winner and margin, and for a message the history length.
_PHASE = const(0)
_WINNER = const(1)
_MARGIN = const(2)
_DONE = const(3)

# How many actions since the last call are followed one by one; after more, every
# region is looked at again.
_FOLLOW_MAX = const(8)
# At most, per action: a spit's two piles (thickness, bands and counts).
_REGIONS_PER_ACTION = 2 * (CARD_BANDS + 2)
# Queued at most by one call's change of hands and packs.
_HAND_REGIONS = 4 * CARD_BANDS + 2
_QUEUE_SIZE = 2 * _FOLLOW_MAX * _REGIONS_PER_ACTION + _HAND_REGIONS


def _contest_key(contest):
    """A contested outcome as one small int (-1 for none), to notice a new one."""
    if contest.winner < 0:
        return -1
    return contest.margin_us << 2 | contest.tie << 1 | contest.winner


def _prompts(word):
    """The message row's prompts, in the order of the _MSG_ keys (those of _MSG_ALONE
    are the half of the player with nothing to spit)."""
    return (
        "",
        "both press " + word,
        "nobody can move - press " + word,
        "SLAP the smaller pile",
        "P1 picks a pile",
        "P2 picks a pile",
        "nobody can move",
        "SLAP the pile",
        # The other half's, while only this player can spit.
        "nobody can move - P1 spits",
        "nobody can move - P2 spits",
    )


class PlayScreen:
    def __init__(self, renderer, pen):
        self.renderer = renderer
        self.pen = pen
        self.regions = Regions(pen)
        # Each word's prompts and call, made once: the screen allocates nothing.
        self._words = {}
        for word in calls():
            self._words[word] = (_prompts(word), word + "!")
        # ``play``'s arguments, for ``_play``.
        self.game = None
        self.controls = None
        self.cpus = (False, False)
        self.share = None
        # The screen as last drawn.
        self._hands = [-1, -1]
        self._packs = [-1, -1]  # the pack sizes followed
        self._sizes = [0, 0]  # the pack sizes now, compared with those
        self._calls = [None, None]
        self._cpus = None
        self._controls = None  # the controls told, and their count of changes then
        self._changes = -1
        self._shown = False  # whether the screen shows the game as the controls left it
        self._game = None
        self._round = -1
        self._done = 0  # the history length followed
        self._followed = [-1, -2, -1]  # the phase and contest the last change followed
        self._only_followed = 0  # calls in a row that followed changes and drew nothing
        self._queue = bytearray(_QUEUE_SIZE)  # a ring of region codes
        self._head = 0
        self._pending = 0
        self._sweep = SWEPT  # the next code of a sweep over them all
        self._baseline = -1  # the contest before the round (or the stall): no banner
        # What the message row was decided from (it waits until the regions before it
        # are drawn): the history length, the phase, the contest.
        self._seen = [-1, -2, -1, -1]
        # The labels and the message row are looked at again only after new values were
        # taken, or while the stuck check is to come: two calls (about 150 µs) saved
        # in each pass that draws a piece of the message.
        self._look_again = True
        self._word = None
        self._prompts = None
        self._called_text = ""
        # The message row being drawn, and how far: columns of player 1's copy, then
        # player 2's (2 * WIDTH: all drawn); the columns its pieces must cover.
        self._message_text = None  # a prompt, or None for the margin's banner
        self._turned_text = None  # player 2's prompt where it differs, until set in the pen
        self._message_len = 0
        self._message_x = 0
        self._message_at = 2 * WIDTH
        self._message_from = 0
        self._message_to = 0

    def play(self, game, controls, cpus=(False, False), share=None):
        """Draw the play screen of ``game`` with the hands and calls of ``controls``,
        this call's ``share`` of it (``spit.render``)."""
        self.game = game
        self.controls = controls
        self.cpus = cpus
        self.share = share
        HEAP.call(PlayScreen._play, self)

    def step(self, share=None):
        """Go on drawing what the last calls left, this call's ``share`` of it, without
        looking at the game again (a call of ``play`` follows its changes); False when
        the play screen is not the one on the display."""
        call = self.renderer
        if call.screen != screens.PLAY:
            return False
        phase = self.game.phase
        in_play = phase == _PHASE_PLAY or phase == _PHASE_SLAP  # noqa: SIM109 (a tuple would be built)
        if in_play and call.busy and call.start(share):
            self._only_followed = 0
            HEAP.call(PlayScreen._draw_pending, self)
        return True

    def _play(self):
        # Few locals: this runs every pass that draws (``tests/test_frames.py``).
        game = self.game
        controls = self.controls
        call = self.renderer
        if controls.changes != self._changes or controls is not self._controls:
            # Told of changes (most calls are not): what the screen shows is looked at.
            self._changes = controls.changes
            self._controls = controls
            self._shown = (
                game is self._game
                and len(game.history) == self._done
                and controls.hand == self._hands  # lists compare in C
                and controls.called == self._calls
                and game.phase == self._followed[_PHASE]
                and controls.contest.winner == self._followed[_WINNER]
                and controls.contest.margin_us == self._followed[_MARGIN]
                and game.round == self._round
            )
        if self._shown and call.screen == screens.PLAY and self.cpus == self._cpus:
            if call.busy and call.start(self.share):  # what earlier calls left
                self._only_followed = 0
                self._draw_pending()
            return
        call.start(self.share)
        set_out = self._follow_game(game, controls)
        if call.share == 0:
            call.busy = True  # followed: the regions go from a call that draws
            return
        if (set_out or self._only_followed < FOLLOWS_MAX) and not call.take():
            self._only_followed += 1  # following the change was this call's share
            return
        self._only_followed = 0
        self._draw_pending()

    def _follow_game(self, game, controls):
        """Queue the regions that changed since the last call; True when the table was
        set out anew (after a clear, or another layout)."""
        call = self.renderer
        self._look_again = True
        self._cpus = self.cpus
        self._shown = True
        self._calls[0] = controls.called[0]
        self._calls[1] = controls.called[1]
        piles = game.pile_count()
        slots = game.slots
        regions = self.regions
        set_out = call.screen != screens.PLAY or piles != regions.piles or slots != regions.slots
        if set_out:
            self._clear(piles, slots)
        everything = set_out
        if game is not self._game or game.round != self._round:
            # A banner belongs to the round it happened in.
            self._game = game
            self._round = game.round
            self._baseline = _contest_key(controls.contest)
            everything = True
        if game.word != self._word:
            self._set_word(game.word)
        done = len(game.history)
        new = done - self._done
        queued = self._pending + _REGIONS_PER_ACTION * new + _HAND_REGIONS
        if new < 0 or new > _FOLLOW_MAX or queued > _QUEUE_SIZE:
            everything = True
        if everything:
            # Every region, in the order of their codes: a sweep rather than a queue, so
            # that setting the table out costs one store.
            self._pending = 0
            self._seen[_DONE] = -1
            self._sweep = 0
        else:
            for i in range(self._done, done):
                self._follow(game.history[i])
        self._done = done
        # The packs' sizes: a spit takes a card from them, and in Speed every play draws
        # one. Most calls, neither changed: two lengths and a list compared in C, no call.
        sizes = self._sizes
        sizes[0] = len(game.pack[0])
        sizes[1] = len(game.pack[1])
        if sizes != self._packs:
            if not everything and sizes[0] != self._packs[0]:
                self._queue_region(PACK_CODES[0])
            if not everything and sizes[1] != self._packs[1]:
                self._queue_region(PACK_CODES[1])
            self._packs[0] = sizes[0]
            self._packs[1] = sizes[1]
        followed = self._followed
        followed[_PHASE] = game.phase
        followed[_WINNER] = controls.contest.winner
        followed[_MARGIN] = controls.contest.margin_us
        self._follow_hands(controls)
        return set_out

    def _clear(self, piles, slots):
        self.renderer.clear(screens.PLAY)
        self.regions.forget()
        self.regions.lay_out(piles, slots)
        self._pending = 0
        self._message_at = 2 * WIDTH
        self._message_len = 0  # the clear took it away

    def _set_word(self, word):
        self._word = word
        self._prompts, self._called_text = self._words[word]
        self._seen[_DONE] = -1
        keys = self.regions.keys
        keys[MESSAGE_CODE] = -1
        keys[CALL_CODES[0]] = -1
        keys[CALL_CODES[1]] = -1

    def _follow_hands(self, controls):
        """Queue the top cards a hand left and went to (their highlight)."""
        for player in (0, 1):
            hand = controls.hand[player]
            was = self._hands[player]
            if hand != was:
                if was >= 0:
                    self._queue_regions(self.regions.faces[player][was])
                if hand >= 0:
                    self._queue_regions(self.regions.faces[player][hand])
                self._hands[player] = hand

    def _follow(self, action):
        """Queue the regions that ``action`` can have changed."""
        kind = action >> _KIND_SHIFT
        player = action >> _PLAYER_SHIFT & 1
        first = action >> _FIRST_SHIFT & _FIELD  # the slot the card leaves
        regions = self.regions
        if kind == _PLAY:
            self._queue_regions(regions.played[player][first][action & _FIELD])
        elif kind == _MOVE:
            self._queue_regions(regions.moved[player][first])
            self._queue_regions(regions.moved[player][action & _FIELD])
        else:
            self._queue_regions(regions.spat[regions.piles - 1])

    def _queue_region(self, code):
        self._queue[(self._head + self._pending) % _QUEUE_SIZE] = code
        self._pending += 1

    def _queue_regions(self, regions):
        """Queue ``regions`` (bytes of codes), in order: a loop here rather than a call a
        region."""
        queue = self._queue
        at = self._head + self._pending
        for code in regions:
            queue[at % _QUEUE_SIZE] = code
            at += 1
        self._pending += len(regions)

    # -- drawing ----------------------------------------------------------------

    def _draw_pending(self):
        # In this order, each a region at a time: the queued regions, then those of a
        # sweep (a region may queue itself again: a pile's thickness), the labels, the
        # message row; what this call cannot draw waits for the next. The labels and the
        # message row are looked at only by a call that has its region still to spend.
        # One function for the regions' loop too: it runs in every pass that draws, and
        # a call costs about 25 µs on the chip.
        game = self.game
        controls = self.controls
        call = self.renderer
        if call.clear_row < HEIGHT and not call.cleared():
            return
        while True:
            if self._pending:
                if not call.afford():
                    return
                code = self._queue[self._head]
                self._head = (self._head + 1) % _QUEUE_SIZE
                self._pending -= 1
            elif self._sweep < SWEPT:
                code = self._sweep
                if not self.regions.in_layout(code):
                    self._sweep = code + 1
                    continue
                if not call.afford():
                    return
                self._sweep = code + 1
            else:
                break
            if self.regions.draw(game, controls, code):
                self._queue_region(code)
        if self._look_again:
            if call.left == 0 or not self._draw_labels(controls) or call.left == 0:
                call.busy = True
                return
            self._look_again = False
            if self._decide_message(game, controls) and not call.take():
                return  # a new message: its pieces go from the next call
        self._draw_message()

    def _draw_labels(self, controls):
        """Each player's name and SPIT call where they changed; True once drawn."""
        regions = self.regions
        keys = regions.keys
        call = self.renderer
        for player in (0, 1):
            name = 1 if self._cpus[player] else 0
            if keys[NAME_CODES[player]] != name:
                if not call.afford():
                    return False
                regions.name(player, name)
            called = 1 if controls.called[player] else 0
            if keys[CALL_CODES[player]] != called:
                if not call.afford():
                    return False
                regions.call(player, called, self._called_text)
        return True

    # -- the message row ----------------------------------------------------------

    def _decide_message(self, game, controls):
        """What the message row shows; True when a new message starts being drawn."""
        contest = controls.contest
        contest.settle()  # a margin's banner is written here: the answer to the press
        if controls.clocks.stuck_check_at >= 0:
            # A table whose stuck check the clocks' next pass works out.
            self.renderer.busy = True
            self._look_again = True
            return False
        done = len(game.history)
        seen = self._seen
        if (
            seen[_DONE] == done
            and seen[_PHASE] == game.phase
            and seen[_WINNER] == contest.winner
            and seen[_MARGIN] == contest.margin_us
        ):
            return False
        seen[_DONE] = done
        seen[_PHASE] = game.phase
        seen[_WINNER] = contest.winner
        seen[_MARGIN] = contest.margin_us
        key = self._message_key(game, controls)
        if self.regions.keys[MESSAGE_CODE] == key:
            return False
        self.regions.keys[MESSAGE_CODE] = key
        self._turned_text = None
        if key >= _MSG_BANNER:
            self._message_text = None  # the banner's codes
            self._start_message(contest.banner_len, WHITE)
        elif key >= _MSG_ALONE:
            # The player who spits is asked to; the other is told who does.
            asked = self._prompts[_MSG_STUCK]
            told = self._prompts[key]
            if key == _MSG_ALONE:  # player 1 spits alone (no tuple: the heap is locked)
                first, second = asked, told
            else:
                first, second = told, asked
            self._message_text = first
            self._turned_text = second
            self._start_message(len(told) if len(told) > len(asked) else len(asked), HIGHLIGHT)
            self.pen.place_message((WIDTH - 8 * len(first)) // 2, HIGHLIGHT)
        else:
            self._message_text = self._prompts[key]
            self._start_message(len(self._message_text), HIGHLIGHT)
        return True

    def _message_key(self, game, controls):
        phase = game.phase
        if phase == _PHASE_SLAP:
            if game.options.pick == "winner" and game.cleared >= 0:
                return _MSG_PICK + game.cleared
            return _MSG_SLAP_LONE if game.one_pile() else _MSG_SLAP
        if phase == _PHASE_READY:
            return _MSG_READY
        if phase == _PHASE_PLAY and game.is_stuck():  # worked out once per action
            # Whatever happened before everybody got stuck is old news after the spit.
            self._baseline = _contest_key(controls.contest)
            if game.options.spit == "auto":
                return _MSG_WAIT
            if not controls.spits(1):
                return _MSG_ALONE
            return _MSG_STUCK if controls.spits(0) else _MSG_ALONE + 1
        contest = _contest_key(controls.contest)
        if contest >= 0 and contest != self._baseline:
            return _MSG_BANNER + contest
        return _MSG_NONE

    def _start_message(self, length, colour):
        """The pieces to draw for a new text of ``length`` characters, placed: those the
        old text or the new one reach into."""
        x = (WIDTH - 8 * length) // 2
        start = self._message_x
        end = start + 8 * self._message_len
        if self._message_at < 2 * WIDTH and self._message_from < self._message_to:
            # The old text was not all drawn: the pieces it had to cover still need it.
            start = min(start, self._message_from) if start < end else self._message_from
            end = max(end, self._message_to)
        if start == end:  # nothing to cover but the new text
            start = end = x
        self._message_from = min(start, x)
        self._message_to = max(end, x + 8 * length)
        self._message_len = length
        self._message_x = x
        self.pen.place_message(x, colour)
        self._message_at = -1  # set in the pen first

    def _draw_message(self):
        """The message row's pieces still to draw while this call may, player 1's copy,
        then player 2's: those that the old text or the new one reach into (columns
        ``_message_from`` to ``_message_to - 1``), gone to straight, without a look at
        the others (a look is a call: about 30 µs on the chip)."""
        call = self.renderer
        if self._message_at < 0:
            if self._message_text is None:
                self.pen.set_message_codes(self.controls.contest.banner, self._message_len)
            else:
                self.pen.set_message(self._message_text)
            self._message_at = 0
        width = call.piece_width()
        first = self._message_from // width * width  # the first piece they reach
        while self._message_at < 2 * WIDTH:
            at = self._message_at
            if at >= WIDTH and self._turned_text is not None:
                text = self._turned_text  # player 2's copy says something else
                self._turned_text = None
                self.pen.set_message(text)
                self.pen.place_message((WIDTH - 8 * len(text)) // 2, HIGHLIGHT)
            left = at % WIDTH
            if left < first:
                self._message_at = at - left + first
            elif left >= self._message_to:
                self._message_at = at - left + WIDTH  # the next copy
            else:
                if not call.afford():
                    return
                self.pen.message_row(at // WIDTH, left, width)
                self._message_at = at + width
