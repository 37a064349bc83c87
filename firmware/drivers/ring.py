"""A ring of (first, second) int pairs filled by a hard IRQ and emptied by the main loop.

``put`` allocates nothing and never raises, so a hard interrupt handler may call it;
a full ring counts the pair in ``overflows`` instead. One slot always stays empty, so
``head == tail`` means empty without a count that both sides would have to write:
the handler writes only ``_head``, the main loop only ``_tail``.

Constructor
    ``Ring(size, first_typecode="i")``: room for ``size`` pairs; the second of each
    pair is a signed 32-bit int, the first of the given ``array`` typecode.

Methods
    ``put(first, second)``: from the handler.
    ``drain(consumer)``: calls ``consumer(first, second)`` for every pair, oldest first.

Class variables
    ``overflows``: pairs dropped because the ring was full.
"""

from array import array


class Ring:
    def __init__(self, size, first_typecode="i"):
        self._slots = size + 1
        self._first = array(first_typecode, [0] * self._slots)
        self._second = array("i", [0] * self._slots)
        self._head = 0
        self._tail = 0
        self.overflows = 0

    def put(self, first, second):
        head = self._head
        nxt = head + 1
        if nxt == self._slots:
            nxt = 0
        if nxt == self._tail:
            self.overflows += 1
            return
        self._first[head] = first
        self._second[head] = second
        self._head = nxt

    def drain(self, consumer):
        tail = self._tail
        while tail != self._head:
            first = self._first[tail]
            second = self._second[tail]
            tail += 1
            if tail == self._slots:
                tail = 0
            self._tail = tail
            consumer(first, second)
