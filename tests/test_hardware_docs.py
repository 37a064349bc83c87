"""The wiring table in hardware/README.md says what firmware/hardware_setup.py wires."""

import os
import re

import hardware_setup
from spit import keys

README = os.path.join(os.path.dirname(__file__), "..", "hardware", "README.md")


def wiring_table():
    with open(README, encoding="utf-8") as f:
        rows = re.findall(r"^\| GP(\d+) \| (.+?) \|$", f.read(), re.MULTILINE)
    return {int(gpio): what for gpio, what in rows}


def pin_map():
    expected = {}
    for button, gpio in enumerate(hardware_setup.BUTTON_PINS):
        expected[gpio] = "player %d %s" % (
            keys.player_of(button) + 1,
            keys.KEY_NAMES[keys.key_of(button)],
        )
    expected[hardware_setup.BUZZER_PIN] = "buzzer"
    for name in ("CS", "SCK", "MOSI", "DC", "RST", "BACKLIGHT"):
        expected[getattr(hardware_setup, "DISPLAY_%s_PIN" % name)] = "display " + (
            name if name != "BACKLIGHT" else "backlight"
        )
    return expected


def test_the_wiring_table_matches_the_pin_map():
    assert wiring_table() == pin_map()


def test_no_pin_is_used_twice():
    numbers = list(hardware_setup.BUTTON_PINS) + [
        hardware_setup.BUZZER_PIN,
        hardware_setup.DISPLAY_CS_PIN,
        hardware_setup.DISPLAY_SCK_PIN,
        hardware_setup.DISPLAY_MOSI_PIN,
        hardware_setup.DISPLAY_DC_PIN,
        hardware_setup.DISPLAY_RST_PIN,
        hardware_setup.DISPLAY_BACKLIGHT_PIN,
    ]
    assert len(numbers) == len(set(numbers))
