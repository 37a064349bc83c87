"""The simulator's terminal keys and help; the table itself is drawn by spit.textview."""

KEYS = (
    ("player 1", "1 2 3 4 5", "Q", "W", "A"),
    ("player 2", "6 7 8 9 0", "O", "P", "L"),
)
HELP = [
    "keys        cards C1..C5   L   R   SPIT",
    *["%-11s %-14s %-3s %-3s %s" % row for row in KEYS],
    "",
    "Cn then L/R plays a card; Cn then an empty Cm fills a gap;",
    "the card in hand again puts it back. SPIT calls spit (again: withdraw).",
    "After a round, L/R slap. ? shows this help, Esc quits.",
]
