"""Tie-window calibration (self-test): how far apart the device stamps presses that
were made together, and the tie window that follows from it.

Both players press together, many times. Each pair's difference (player 2's stamp
minus player 1's, µs) goes into a buffer allocated once; the screen shows them as a
small histogram, and once ``MIN_PAIRS`` pairs are in, ``proposal()`` gives a tie
window to put in the settings.

Pairing: a press waits for the other player's; a second press of the same player
replaces it (that player pressed twice), and presses further apart than
``TOGETHER_US`` are not an attempt at pressing together (people tell apart events
30 ms apart): they are dropped and counted in ``rejected``.

The proposal is the 99.9th percentile of the absolute differences (nearest rank: with
fewer than 1,000 pairs that is the largest one seen), plus a quarter for the tail a
few hundred pairs cannot show and for the real chip, about a fifth slower than the
emulated one the capture was measured on, plus 10 µs for the 1 µs stamps' rounding,
rounded up to 10 µs and kept between ``TIE_MIN_US`` and ``TIE_MAX_US`` (the tie
window must fit inside the arbiter's settle window). A proposal at ``TIE_MAX_US`` says
the presses were further apart than the capture's error: press closer together.

>>> calibration = Calibration()
>>> all(calibration.add(diff) for diff in range(-60, 61))
True
>>> calibration.percentile_us(999), calibration.proposal()
(60, 90)
"""

from array import array

from micropython import const

from spit.savedata import TIE_MAX_US, TIE_MIN_US
from spit.ticks import ticks_diff

CAPACITY = const(1000)
MIN_PAIRS = const(100)
TOGETHER_US = const(30_000)
_MARGIN_US = const(10)
_ROUND_US = const(10)


class Calibration:
    """Constructor: ``Calibration(capacity=CAPACITY)``. Attributes: ``count`` (pairs
    kept; once the buffer is full, the oldest are overwritten), ``rejected``."""

    def __init__(self, capacity=CAPACITY):
        self._diffs = array("h", bytes(2 * capacity))  # |diff| <= TOGETHER_US fits 16 bits
        self._capacity = capacity
        self._next = 0
        self.count = 0
        self.rejected = 0
        self._waiting = [False, False]
        self._at = [0, 0]
        self._sorted = None  # the absolute differences in order, rebuilt when asked

    def press(self, player, t):
        """A press of ``player`` at ``t`` (ticks_us); returns the pair's difference
        (µs, player 2 minus player 1) once the other player's press is in, else None."""
        other = 1 - player
        if not self._waiting[other]:
            self._waiting[player] = True
            self._at[player] = t
            return None
        self._waiting[other] = False
        diff = ticks_diff(t, self._at[other])
        if player == 0:
            diff = -diff
        if self.add(diff):
            return diff
        return None

    def add(self, diff_us):
        """Keep one pair's difference; False (and counted as rejected) if it is too
        far apart to be a pair."""
        if not -TOGETHER_US <= diff_us <= TOGETHER_US:
            self.rejected += 1
            return False
        self._diffs[self._next] = diff_us
        self._next = (self._next + 1) % self._capacity
        if self.count < self._capacity:
            self.count += 1
        self._sorted = None
        return True

    def bias_us(self):
        """The mean difference: positive when player 2 is stamped later on average."""
        if not self.count:
            return 0
        return sum(self._diffs[i] for i in range(self.count)) // self.count

    def histogram(self, counts, bin_us):
        """Fill ``counts`` (a list or array of bins) with how many absolute differences
        fall in ``[i * bin_us, (i + 1) * bin_us)``; the last bin also holds all larger
        ones. Returns ``counts``."""
        last = len(counts) - 1
        for i in range(last + 1):
            counts[i] = 0
        for i in range(self.count):
            b = abs(self._diffs[i]) // bin_us
            counts[b if b < last else last] += 1
        return counts

    def percentile_us(self, per_mille):
        """The nearest-rank percentile of the absolute differences, ``per_mille`` in
        thousandths (999 for the 99.9th); 0 with no pairs."""
        if not self.count:
            return 0
        if self._sorted is None:
            self._sorted = sorted(abs(self._diffs[i]) for i in range(self.count))
        rank = (per_mille * self.count + 999) // 1000
        return self._sorted[max(rank, 1) - 1]

    def pairs_left(self):
        """How many more pairs before a proposal."""
        return max(MIN_PAIRS - self.count, 0)

    def proposal(self):
        """The tie window (µs) these pairs call for, or 0 before ``MIN_PAIRS``."""
        if self.count < MIN_PAIRS:
            return 0
        window = self.percentile_us(999) * 5 // 4 + _MARGIN_US
        window = (window + _ROUND_US - 1) // _ROUND_US * _ROUND_US
        return min(max(window, TIE_MIN_US), TIE_MAX_US)
