"""Hypothesis strategies for human presses on bouncing buttons (``host_sim.bench.input_model``)."""

from hypothesis import strategies as st

from host_sim.bench.input_model import MAX_BOUNCE_US, Press


def bounce_offsets():
    """Offsets of an even number of extra contact changes within 0-6 ms."""
    return st.lists(st.integers(1, MAX_BOUNCE_US), max_size=10, unique=True).map(
        lambda offsets: sorted(offsets)[: len(offsets) // 2 * 2]
    )


@st.composite
def one_button_presses(draw, button, start_within_us=20_000):
    """Presses of one button: held 15-300 ms, released 40 ms or more between presses."""
    presses = []
    time = draw(st.integers(0, start_within_us))
    for _ in range(draw(st.integers(1, 6))):
        hold = draw(st.integers(15_000, 300_000))
        presses.append(Press(button, time, hold, draw(bounce_offsets()), draw(bounce_offsets())))
        time += hold + MAX_BOUNCE_US + draw(st.integers(40_000, 200_000))
    return presses


def presses_per_button(buttons, start_within_us=20_000):
    """For each button drawn from ``buttons`` (a strategy of unique lists), its presses."""
    return buttons.flatmap(
        lambda chosen: st.tuples(*(one_button_presses(b, start_within_us) for b in chosen))
    )
