"""The tone table: what the buzzer plays for each thing that happens at the table.

Each sound is a flat tuple of notes, ``(hz, ms, hz, ms, ...)``; ``hz`` 0 is a rest.
Pitches are equal-tempered notes rounded to whole Hz. A small piezo is loudest near
its resonance (2-4 kHz), so the sounds a player must not miss sit high, and the
illegal-move buzz sits low, where it sounds like a refusal rather than a chirp.

>>> SOUNDS["go"]
(1760, 300)
"""

SOUNDS = {
    # A card lands: a short chirp that does not mask the next one.
    "play": (2093, 25),
    # Refused: two low notes, falling.
    "illegal": (392, 70, 0, 30, 262, 140),
    # Each number of the countdown, then the start of play.
    "count": (880, 100),
    "go": (1760, 300),
    "spit": (1047, 50, 1568, 80),
    "slap": (2637, 40, 1319, 60),
    "round": (1047, 90, 1319, 90, 1568, 180),
    "game": (1047, 120, 1319, 120, 1568, 120, 2093, 400),
    # Self-test: C major from C5 to C6, so a builder hears every note sound.
    "scale": (523, 150, 587, 150, 659, 150, 698, 150, 784, 150, 880, 150, 988, 150, 1047, 300),
}

NAMES = tuple(sorted(SOUNDS))


def length_ms(name):
    """How long a sound lasts, rests included."""
    notes = SOUNDS[name]
    return sum(notes[i] for i in range(1, len(notes), 2))
