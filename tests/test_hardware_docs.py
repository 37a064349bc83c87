"""hardware/ says what firmware/hardware_setup.py wires, and the pin map fits a Pico."""

import json
import os
import re

import hardware_setup
import pytest
from spit import keys

from host_sim.hardware import documents as hardware_docs
from host_sim.hardware import pinmap

HARDWARE = hardware_docs.HARDWARE


def read(name):
    with open(os.path.join(HARDWARE, name), encoding="utf-8", newline="") as f:
        return f.read()


def good_map():
    return pinmap.read(hardware_setup)


def with_changes(**changes):
    """The firmware's pin map with some pins moved, e.g. ``buzzer=25`` or ``SCK=17``."""
    pins = good_map()
    for name, value in changes.items():
        if name in pins["display"]:
            pins["display"][name] = value
        else:
            pins[name] = value
    return pins


# --- the committed documents --------------------------------------------------------------

def test_make_hardware_regenerates_the_committed_documents_byte_for_byte(tmp_path):
    hardware_docs.write(str(tmp_path))
    names = sorted(os.listdir(tmp_path))
    assert names == ["README.md", "diagram.json", "panel.svg", "wiring.svg"]
    for name in names:
        assert (tmp_path / name).read_bytes() == read(name).encode(), (
            "hardware/%s is out of date: run make hardware" % name)
    assert hardware_docs.stale() == []


def test_check_mode_names_a_document_that_differs(tmp_path):
    hardware_docs.write(str(tmp_path))
    (tmp_path / "wiring.svg").write_text("<svg/>\n")
    (tmp_path / "diagram.json").unlink()
    assert hardware_docs.stale(str(tmp_path)) == ["wiring.svg", "diagram.json"]


def test_the_wiring_table_matches_the_pin_map():
    rows = re.findall(r"^\| GP(\d+) \| (\d+) \| (.+?) \|$", read("README.md"), re.MULTILINE)
    table = {int(gpio): what for gpio, _pin, what in rows}
    assert table == dict(pinmap.roles(good_map()))
    assert len(table) == 23
    for gpio, pin, _what in rows:
        assert pinmap.HEADER[int(pin) - 1] == "GP" + gpio


def test_the_wokwi_diagram_has_the_same_wiring():
    diagram = json.loads(read("diagram.json"))
    types = {part["id"]: part["type"] for part in diagram["parts"]}
    assert types["pico"] == "wokwi-pi-pico"
    assert types["screen"] == "wokwi-ili9341"
    assert types["buzzer"] == "wokwi-buzzer"
    wired = {}
    for a, b, _colour, _route in diagram["connections"]:
        if a.startswith("pico:GP"):
            wired.setdefault(int(a[len("pico:GP"):]), []).append(b)
    pins = good_map()
    for button, gpio in enumerate(pins["buttons"]):
        (end,) = wired[gpio]
        part = end.split(":")[0]
        assert types[part] == "wokwi-pushbutton"
        label = next(p["attrs"]["label"] for p in diagram["parts"] if p["id"] == part)
        assert label == keys.button_name(button)
    assert wired[pins["buzzer"]] == ["buzzer:2"]
    for name, pin in {"CS": "CS", "SCK": "SCK", "MOSI": "MOSI", "DC": "D/C", "RST": "RST",
                      "BACKLIGHT": "LED"}.items():
        assert wired[pins["display"][name]] == ["screen:" + pin]
    # Every button's other side, the buzzer's and the screen's ground reach a Pico GND.
    grounds = [c for c in diagram["connections"] if c[0].startswith("pico:GND")
               or c[1].startswith("pico:GND")]
    assert len(grounds) == 16 + 2


def test_the_panel_puts_each_players_buttons_where_they_sit():
    centres = hardware_docs.button_centres()
    middle = hardware_docs.PANEL_H / 2
    for player, name, _x, y, d in centres:
        # Player 1's buttons on the bottom half, player 2's on the top half.
        assert (y < middle) == (player == 0), (player, name)
        assert d == (60 if name == "SPIT" else 30)
    row = {(p, n): (x, y) for p, n, x, y, _d in centres}
    for player, towards in ((0, 1), (1, -1)):  # player 2 looks the other way
        xs = [row[(player, "C%d" % n)][0] for n in range(1, 6)]
        assert xs == sorted(xs, reverse=towards < 0)  # C1..C5 from the player's own left
        assert (row[(player, "L")][0] - row[(player, "R")][0]) * towards < 0
        # L, R and SPIT sit between the card row and the screen.
        card_y, pile_y = row[(player, "C1")][1], row[(player, "L")][1]
        assert abs(pile_y - middle) < abs(card_y - middle)


def test_buttons_do_not_overlap_and_stay_on_the_panel():
    centres = hardware_docs.button_centres()
    for i, (_p, _n, x, y, d) in enumerate(centres):
        assert d / 2 <= x <= hardware_docs.PANEL_W - d / 2
        assert d / 2 <= y <= hardware_docs.PANEL_H - d / 2
        for _p2, _n2, x2, y2, d2 in centres[i + 1:]:
            assert ((x - x2) ** 2 + (y - y2) ** 2) ** 0.5 >= (d + d2) / 2 + 5


# --- the pin map checks -------------------------------------------------------------------

def test_the_firmware_pin_map_fits_a_pico():
    assert pinmap.problems(good_map()) == []


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"buzzer": 5}, "GPIO 5 is used 2 times: player 1 L, buzzer"),
        ({"buzzer": 25}, "buzzer is on GPIO 25, which the Pico uses for the on-board LED"),
        ({"RST": 23}, "display RST is on GPIO 23, which the Pico uses for the power supply"),
        ({"CS": 24}, "display CS is on GPIO 24, which the Pico uses for VBUS sensing"),
        ({"DC": 29}, "display DC is on GPIO 29, which the Pico uses for VSYS measurement"),
        ({"buzzer": 30}, "buzzer is on GPIO 30, which the Pico's header does not have"),
        ({"buttons": tuple(range(1, 17)), "buzzer": 0},
         "the buttons must be on GPIO 0-15 in button order"),
        ({"buttons": tuple(range(15, -1, -1))}, "the buttons must be on GPIO 0-15"),
        ({"SCK": 17, "CS": 18}, "display SCK on GPIO 17 is not an SPI0 SCK pin "
                                "(those are GPIO 2, 6, 18, 22)"),
        ({"MOSI": 27, "RST": 19}, "display MOSI on GPIO 27 is not an SPI0 TX pin"),
        ({"spi": 1}, "display SCK on GPIO 18 is not an SPI1 SCK pin (those are GPIO 10, 14, 26)"),
        ({"spi": 2}, "DISPLAY_SPI is 2; the Pico has SPI 0 and 1"),
        ({"BACKLIGHT": 17, "CS": 22}, "the buzzer (GPIO 16) and the backlight (GPIO 17) share"
                                      " PWM slice 0"),
    ],
)
def test_each_check_fails_on_a_bad_pin_map(changes, problem):
    found = pinmap.problems(with_changes(**changes))
    assert any(line.startswith(problem) for line in found), found


def test_a_bad_pin_map_generates_no_documents():
    with pytest.raises(ValueError, match="GPIO 5 is used 2 times"):
        hardware_docs.documents(with_changes(buzzer=5))


def test_pico_header_facts():
    assert len(pinmap.HEADER) == 40
    assert pinmap.header_pin(0) == 1 and pinmap.header_pin(15) == 20
    assert pinmap.header_pin(16) == 21 and pinmap.header_pin(28) == 34
    assert [n for n in range(30) if "GP%d" % n not in pinmap.HEADER] == [23, 24, 25, 29]
    assert pinmap.pwm_name(16) == "PWM 0 A" and pinmap.pwm_name(22) == "PWM 3 A"
