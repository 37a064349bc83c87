"""First-touch arbitration: timestamped presses in, presses in the order they happened out.

Presses arrive as ``add(button, t)`` in whatever order capture delivers them. The arbiter
holds each one until it is older than the settle window, so that any press that
happened earlier has had time to arrive, then commits presses in timestamp order.

Ties: presses of the two players closer than the tie window may be stamped in the
wrong order by the capture, so when they race for the same thing (two cards landing
on one pile, two slaps: the consumer says which pairs are *contested*) they are a
tie, settled by alternating priority: the player who lost the previous tie wins the
next one, starting with ``priority`` (player index, 0 by default). Pin number and
delivery order never decide. Over any run of ties the wins differ by at most one.
Near presses that race for nothing (picking up a card, a spit call) are committed in
timestamp order and leave the priority alone. The arbiter lives as long as the device
is on, so the priority carries across games and matches.

Commit rule, repeated while the earliest pending press P is older than the settle
window: if the other player's earliest pending press Q is less than the tie window
after P and ``contested(P, Q)``, the player with priority commits first and priority
passes to the other; otherwise P commits. So every pair of different players' presses
at least the tie window apart commits in timestamp order, and each player's presses
keep their order. A press committed with ``tie`` true won or lost its place by the
rule; both presses of a tie carry the flag, which is the one record of it: consumers
show it rather than measure the gap again.

All time arithmetic goes through ``ticks_diff``, so it is right across the 2**30 µs wrap.

Constructor
    ``Arbiter(settle_us=1000, tie_us=100, capacity=32, priority=0)``

Methods
    ``add(button, t)``: a raw press; allocates nothing.
    ``commit_due(now, consumer, contested=None, most=CAPACITY)``: commit the presses due
    by ``now`` as ``consumer(button, t, tie)``, ``most`` of them at most (the earliest:
    the rest stay for a later call); ``contested(button, other_button)`` tells whether
    two near presses of different players race for the same outcome (None: every near
    pair does). Returns how many were committed.
    ``due(now)``: whether a press due by ``now`` is still pending.
    ``flush(consumer, contested=None)``: commit everything pending, due or not.

Attributes
    ``pending``: how many presses wait.
    ``priority``: the player who wins the next tie.
    ``ties``: contested ties settled so far; ``tie_wins[p]`` of them went to player p.
    ``overflows``: presses dropped because ``capacity`` presses were already waiting.
    ``late``: presses committed after a later-stamped press of the other player had
    already been committed: a sign that the settle window is too short.

The guarantee holds while every press is captured (in the capture ring) within
settle - tie of its stamp and the main loop drains capture into ``add()`` before each
``commit_due``; how long a pass of the loop takes does not matter. A press commits at
the first ``commit_due`` at least settle after its stamp, so the wait a player sees is
the settle window plus up to one main-loop pass.

Why 1000 µs: the window must cover the tie window (100 µs) plus the worst delay from a
stamp to the ring (none for the pin-IRQ handler, which writes the ring as it stamps;
the PIO backend's FIFO interrupt follows its stamp by tens of µs, more when another
interrupt runs first). 1 ms leaves ~900 µs for that, stays within the 2 ms budget,
and is 20 times shorter than the 20-30 ms at which people can tell two events apart.
"""

from array import array

from micropython import const

from spit.keys import PLAYER_SHIFT
from spit.ticks import ticks_diff

SETTLE_US = const(1000)
TIE_US = const(100)
CAPACITY = const(32)


class Arbiter:
    def __init__(self, settle_us=SETTLE_US, tie_us=TIE_US, capacity=CAPACITY, priority=0):
        self.settle_us = settle_us
        self.tie_us = tie_us
        self.priority = priority
        self.ties = 0
        self.tie_wins = [0, 0]
        self.overflows = 0
        self.late = 0
        self.last_player = -1  # whose press was committed last
        # Pending presses, earliest stamp first (equal stamps in arrival order), so the
        # press to commit next is always the first.
        self._capacity = capacity
        self._buttons = array("b", bytes(capacity))
        self._times = array("i", [0] * capacity)
        self._lost_tie = bytearray(capacity)
        self.pending = 0
        # Latest committed stamp per player, to count late arrivals.
        self._last = array("i", [0, 0])
        self._committed_any = bytearray(2)
        self._tie = False  # the tie flag of the press being committed

    def add(self, button, t):
        n = self.pending
        if n == self._capacity:
            self.overflows += 1
            return
        times = self._times
        # Insertion from the end: a press usually arrives after every pending one.
        while n and ticks_diff(t, times[n - 1]) < 0:
            n -= 1
        if n < self.pending:
            _make_room(self._buttons, n, self.pending)
            _make_room(times, n, self.pending)
            _make_room(self._lost_tie, n, self.pending)
        self._buttons[n] = button
        times[n] = t
        self._lost_tie[n] = 0
        self.pending += 1

    def commit_due(self, now, consumer, contested=None, most=CAPACITY):
        """Commit, in order, every press (``most`` at most) that is older than the
        settle window at ``now``."""
        committed = 0
        while (
            committed < most
            and self.pending
            and ticks_diff(now, self._times[0]) >= self.settle_us
        ):
            self._commit_next(consumer, contested)
            committed += 1
        return committed

    def due(self, now):
        """Whether a press older than the settle window at ``now`` is still pending."""
        return self.pending > 0 and ticks_diff(now, self._times[0]) >= self.settle_us

    def flush(self, consumer, contested=None):
        """Commit every pending press in order, due or not (end of a round, tests)."""
        committed = 0
        while self.pending:
            self._commit_next(consumer, contested)
            committed += 1
        return committed

    def _commit_next(self, consumer, contested):
        # Few locals here and in ``_winner``: on MicroPython a function with more than
        # 11 words of locals and stack gets its frame from the heap at every call. A
        # press alone (the commonest) races nothing: no call to look for a tie.
        if self.pending > 1:
            index = self._winner(contested)
        else:
            index = 0
            self._tie = self._lost_tie[0] == 1
        button = self._buttons[index]
        t = self._times[index]
        self._remove(index)
        self._note_commit(button >> PLAYER_SHIFT, t)
        consumer(button, t, self._tie)

    def _winner(self, contested):
        """Index of the press to commit next: the first, or the other player's earliest
        when the two are a contested tie that the rule gives to the other player.
        ``_tie`` then tells whether that press won or lost its place by the rule."""
        buttons = self._buttons
        player = buttons[0] >> PLAYER_SHIFT
        other = self._first_of_other(player)
        if (
            other
            and ticks_diff(self._times[other], self._times[0]) < self.tie_us
            and (contested is None or contested(buttons[0], buttons[other]))
        ):
            self._tie = True
            self.tie_wins[self.priority] += 1
            self.ties += 1
            winner = self.priority
            self.priority = 1 - winner
            if winner == player:
                self._lost_tie[other] = 1
                return 0
            self._lost_tie[0] = 1
            return other
        self._tie = self._lost_tie[0] == 1
        return 0

    def _first_of_other(self, player):
        """Index of the earliest pending press not of ``player``; 0 if there is none
        (the first press is always ``player``'s)."""
        buttons = self._buttons
        for i in range(1, self.pending):
            if buttons[i] >> PLAYER_SHIFT != player:
                return i
        return 0

    def _note_commit(self, player, t):
        other = 1 - player
        if self._committed_any[other] and ticks_diff(self._last[other], t) >= self.tie_us:
            self.late += 1
        self._last[player] = t
        self._committed_any[player] = 1
        self.last_player = player

    def _remove(self, index):
        last = self.pending - 1
        self.pending = last
        buttons = self._buttons
        times = self._times
        lost_tie = self._lost_tie
        while index < last:  # no iterator: it would take the frame past 11 words
            buttons[index] = buttons[index + 1]
            times[index] = times[index + 1]
            lost_tie[index] = lost_tie[index + 1]
            index += 1


# The pending presses' arrays are made room in one at a time: a function with all three
# at hand would need more than 11 words, and MicroPython would give it a heap frame.
def _make_room(items, at, count):
    """Move ``items[at:count]`` up by one."""
    for i in range(count, at, -1):
        items[i] = items[i - 1]
