"""The documents in hardware/, generated from the firmware's pin map (``make hardware``).

    .venv/bin/python -m host_sim.hardware.documents           # write them
    .venv/bin/python -m host_sim.hardware.documents --check   # exit 1 if a committed one differs

Every file is a pure function of ``firmware/hardware_setup.py`` (through
``host_sim.hardware.pinmap``) and the panel geometry below, so regenerating is byte for
byte; the pin map is refused when ``pinmap.problems`` finds a pin that cannot do its job.
"""

import json
import os
import sys

from spit import keys

from host_sim.hardware import pinmap
from host_sim.sim import keyboard

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARDWARE = os.path.join(REPO, "hardware")

# Panel geometry in millimetres: x to the right and y upward, from the bottom-left corner
# as player 1 sees it; player 2's buttons are player 1's turned half a turn about the
# centre, so each player reads their own row from their own left.
PANEL_W = 300
PANEL_H = 310
CARD_D = 30  # C1..C5, L, R
SPIT_D = 60
CARD_PITCH = 45
CARD_ROW_Y = 28
PILE_ROW_Y = 85
PILE_X = 62  # L and R, either side of SPIT
SCREEN_MODULE = (86, 50)  # a typical 2.8" ILI9341 board
SCREEN_WINDOW = (58, 44)  # its 57.6 x 43.2 mm active area, rounded up


def button_centres():
    """``[(player, key name, x, y, diameter)]`` for all sixteen buttons, in button-id order."""
    cx = PANEL_W // 2
    own = [(cx + (i - 2) * CARD_PITCH, CARD_ROW_Y, CARD_D) for i in range(5)]
    own += [(cx - PILE_X, PILE_ROW_Y, CARD_D), (cx + PILE_X, PILE_ROW_Y, CARD_D)]
    own.append((cx, PILE_ROW_Y, SPIT_D))
    rows = []
    for player in (0, 1):
        for name, (x, y, d) in zip(keys.KEY_NAMES, own, strict=True):
            if player:
                x, y = PANEL_W - x, PANEL_H - y
            rows.append((player, name, x, y, d))
    return rows


# --- hardware/README.md -------------------------------------------------------------------

_BOM = (
    ("Raspberry Pi Pico (RP2040) or Pico 2 (RP2350), with headers", "1",
     "runs MicroPython 1.28"),
    ('320x240 SPI TFT, ILI9341 (or ST7789), 2.8"', "1",
     "3.3 V logic, SPI, with a backlight (LED) pin"),
    ("arcade push button, 30 mm, with microswitch", "14", "per player C1-C5, L and R"),
    ("arcade push button, 60 mm", "2", "SPIT, one per player"),
    ("passive piezo buzzer (no built-in oscillator)", "1", "driven by PWM"),
    ("hook-up wire, 0.2-0.5 mm² (24-20 AWG), two colours", "about 10 m",
     "signal and ground"),
    ("crimp spade terminals to fit the switches (4.8 or 2.8 mm)", "32", "two per button"),
    ("female header sockets, 20 way", "2", "to plug the Pico in rather than solder it"),
    ("panel, 3-6 mm plywood or acrylic, 300 x 310 mm, and a box about 60 mm deep", "1", ""),
    ("USB cable (data, not charge-only)", "1", "power and flashing"),
    ("optional: LiPo cell 1000-2000 mAh, LiPo charger with 5 V boost, slide switch",
     "1 each", "battery power into VSYS through a Schottky diode"),
)

_ASSEMBLY = """\
1. Cut the panel from `panel.svg`: printed at 100 % it is a drilling template (millimetres).
   Hole centres are in the table above; check the hole size on your buttons' datasheet
   (30 mm snap-in buttons usually take a 30 mm hole) and the screen window against your
   display board.
2. Mount the display in the middle, its long side across the panel, connector on either
   side. The firmware draws player 1's cards along the bottom edge: if they show at the top,
   set `ROTATION = 180` in `firmware/hardware_setup.py` rather than turning the board; a
   mirrored picture or wrong colours mean the other controller: set `PANEL` ("ili9341" or
   "st7789").
3. Mount the buttons as drawn: each player's C1..C5 in a row nearest their edge, C1 on
   their own left; L and R nearer the screen, left and right of the big SPIT button. Player
   2's row is player 1's turned half a turn, so their C1 is on player 1's right.
4. Wire a ground bus: one wire daisy-chained through one terminal of every button (the
   microswitch's COM), the buzzer's minus and the display's GND, to a GND pin of the Pico.
   Each button's other terminal (NO, normally open) goes to its own GPIO, as in the wiring
   table. No resistors: the Pico's internal pull-ups hold each input high.
5. Display: VCC to 3V3 (pin 36), GND to GND, and the five signals plus LED as in the table.
   Leave MISO and any touch or SD-card pins unconnected. Keep the SCK and MOSI wires short
   (under 15 cm) and away from the button bus. Most boards switch the backlight through a
   transistor on LED; one that wires LED straight to the backlight draws more than a GPIO
   should give, so switch it with a small transistor there.
6. Buzzer: plus to the buzzer GPIO, minus to GND.
7. Battery (optional): the charger's 5 V output through a Schottky diode (e.g. 1N5817) and
   the switch into VSYS (pin 39), never into 3V3; USB still works for flashing.
8. Before closing the box, flash (`make flash`) and run the self-test: hold both SPIT
   buttons while powering on; every button must count up once per press.
"""


def bom_table():
    lines = ["| part | count | notes |", "| --- | --- | --- |"]
    lines += ["| %s | %s | %s |" % row for row in _BOM]
    return "\n".join(lines) + "\n"


def wiring_table(pins):
    lines = ["| GPIO | Pico pin | connects to |", "| --- | --- | --- |"]
    for gpio, role in sorted(pinmap.roles(pins)):
        lines.append("| GP%d | %d | %s |" % (gpio, pinmap.header_pin(gpio), role))
    return "\n".join(lines) + "\n"


def panel_table():
    lines = ["| button | x mm | y mm | diameter mm |", "| --- | --- | --- | --- |"]
    for player, name, x, y, d in button_centres():
        lines.append("| player %d %s | %d | %d | %d |" % (player + 1, name, x, y, d))
    return "\n".join(lines) + "\n"


def readme(pins):
    display = pins["display"]
    return """\
# Building the Spit handheld

Generated by `make hardware` from `firmware/hardware_setup.py`, the only file with pin
numbers; `tests/test_hardware_docs.py` fails if anything here disagrees with it.

## Bill of materials

{bom}
## Wiring

Every button goes between its GPIO and ground (internal pull-ups, no resistors). The
display is on SPI{spi}: SCK on GP{sck}, MOSI on GP{mosi}. The buzzer is on GP{buzzer}
({pwm}). Pico pin numbers count counter-clockwise from pin 1 (GP0), USB socket at the
top; the Pico 2 has the same pinout.

{table}
Power: display VCC to 3V3 (pin 36); display GND, the buzzer's minus and every button's
second terminal to GND (pins 3, 8, 13, 18, 23, 28, 33 or 38).

![wiring diagram](wiring.svg)

## Panel layout

Player 1 sits at the bottom edge, player 2 at the top facing them, the screen in the
middle. Each player's C1..C5 sit in front of their five stock piles, C1 on their own left;
L and R sit under the left and right spit pile as that player sees them, with the larger
SPIT between them. The panel is {w} x {h} mm; the screen window is {ww} x {wh} mm, centred
(display board outline {mw} x {mh} mm). Hole centres, in mm from the bottom-left corner as
player 1 sees it:

{panel}
![panel layout](panel.svg)

## Assembly notes

{assembly}
## When something is wrong

{trouble}
## Trying it online

`diagram.json` is the same circuit for the Wokwi simulator: start a MicroPython project
for the Raspberry Pi Pico, replace its `diagram.json` with this one and add the files of
`firmware/` (as .py; the diagram asks for Wokwi's MicroPython {env}). The buttons answer
to the simulator's keys (C1..C5, L, R, SPIT):
{keys}. Its ILI9341 part ignores RST and LED.
""".format(
        env=WOKWI_ENV.rsplit("-v", 1)[1],
        keys=";\n".join(
            "player %d `%s`" % (player + 1, "` `".join(
                keyboard.key_label(keys.button_id(player, key))
                for key in range(keys.KEYS_PER_PLAYER)))
            for player in (0, 1)
        ),
        bom=bom_table(),
        spi=pins["spi"],
        sck=display["SCK"],
        mosi=display["MOSI"],
        buzzer=pins["buzzer"],
        pwm=pinmap.pwm_name(pins["buzzer"]),
        table=wiring_table(pins),
        w=PANEL_W,
        h=PANEL_H,
        ww=SCREEN_WINDOW[0],
        wh=SCREEN_WINDOW[1],
        mw=SCREEN_MODULE[0],
        mh=SCREEN_MODULE[1],
        panel=panel_table(),
        assembly=_ASSEMBLY,
        trouble=trouble_table(pins),
    )


def trouble_table(pins):
    """What a builder sees go wrong after wiring and flashing, and what to do."""
    display = pins["display"]
    rows = (
        (
            "Blank screen",
            "Check VCC on 3V3 and GND, then CS (GP%d), DC (GP%d), RST (GP%d), SCK (GP%d), "
            "MOSI (GP%d) and the backlight (GP%d). A white screen with the backlight on means "
            "power but no data: SCK or MOSI."
            % tuple(display[name] for name in ("CS", "DC", "RST", "SCK", "MOSI", "BACKLIGHT")),
        ),
        (
            "Upside-down picture",
            "Set `ROTATION = 180` in `firmware/hardware_setup.py`, then `make flash`. The "
            "self-test's corner marks must be red top left, green top right, blue bottom left, "
            "white bottom right as player 1 sees them.",
        ),
        (
            "Mirrored picture or wrong colours",
            "The panel has the other controller: set `PANEL = \"st7789\"` (or `\"ili9341\"`), "
            "then `make flash`. The self-test's colour bars read red, green, blue, cyan, "
            "magenta, yellow, white, black from player 1's left.",
        ),
        (
            "A button does nothing, the wrong one, or counts twice",
            "Run the self-test (hold both SPIT buttons while powering on): a count that never "
            "moves is a broken wire or a switch on NC instead of NO; one that moves for the "
            "wrong button, a swapped wire; one that counts twice, a worn switch bouncing past "
            "the 10 ms debounce.",
        ),
        (
            "No sound",
            "A passive piezo needs PWM (an active buzzer only clicks); check GP%d and GND, and "
            "that sound is on in the settings." % pins["buzzer"],
        ),
        (
            "Pins changed",
            "Edit `firmware/hardware_setup.py`, run `make hardware` (it refuses a pin map that "
            "cannot work: a pin used twice, SCK/MOSI off the SPI block's pins, GPIO 23-25 or "
            "29, buttons off GPIO 0-15, the buzzer sharing a PWM slice with the backlight), "
            "commit the regenerated `hardware/` files, then `make flash`. "
            "`tests/test_hardware_docs.py` fails while they disagree.",
        ),
    )
    lines = ["| symptom | what to do |", "| --- | --- |"]
    lines += ["| %s | %s |" % row for row in rows]
    return "\n".join(lines) + "\n"


# --- wiring.svg ---------------------------------------------------------------------------

_PITCH = 22
_VCC_PIN = 36  # 3V3 out
_GND_PIN = 38  # the ground next to it
_TOP = 90
_BODY = (380, 520)  # x of the Pico's left and right edges
_COLOURS = {"player 1": "#1f6fd1", "player 2": "#d1721f", "display": "#8a3ab9",
            "buzzer": "#2b9a3e", "GND": "#222222", "3V3": "#d12f2f"}


def _colour(role):
    for prefix, colour in _COLOURS.items():
        if role.startswith(prefix):
            return colour
    return "#222222"


def _svg(width, height, body, view_box=None, units=""):
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="{w}{u}" height="{h}{u}" '
        'viewBox="{vb}" font-family="sans-serif">\n{body}</svg>\n'
    ).format(w=width, h=height, u=units, vb=view_box or "0 0 %d %d" % (width, height),
             body="".join(line + "\n" for line in body))


def wiring_svg(pins):
    by_gpio = dict(pinmap.roles(pins))
    labels = {}
    for index, name in enumerate(pinmap.HEADER):
        if name.startswith("GP") and int(name[2:]) in by_gpio:
            labels[index] = by_gpio[int(name[2:])]
    labels[_VCC_PIN - 1] = "3V3: display VCC"
    labels[_GND_PIN - 1] = "GND bus: buttons, buzzer -, display GND"
    left, right = _BODY
    body = [
        '<rect width="980" height="560" fill="white"/>',
        '<text x="490" y="34" font-size="20" text-anchor="middle">Spit handheld wiring'
        " (Raspberry Pi Pico, top view)</text>",
        '<text x="490" y="58" font-size="12" text-anchor="middle" fill="#555">generated '
        "from firmware/hardware_setup.py; every button: one side to its GPIO, the other to"
        " GND</text>",
        '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#2e8b57"/>'
        % (left, _TOP - 12, right - left, 20 * _PITCH + 2),
        '<rect x="%d" y="%d" width="28" height="18" fill="#bbbbbb"/>'
        % ((left + right) // 2 - 14, _TOP - 20),
        '<text x="%d" y="%d" font-size="11" text-anchor="middle" fill="white">USB</text>'
        % ((left + right) // 2, _TOP - 24),
    ]
    for index, name in enumerate(pinmap.HEADER):
        number = index + 1
        on_left = number <= 20
        y = _TOP + (index if on_left else 39 - index) * _PITCH
        x = left if on_left else right
        inner = x + 6 if on_left else x - 6
        body.append('<circle cx="%d" cy="%d" r="4" fill="#f0c040"/>' % (x, y))
        body.append('<text x="%d" y="%d" font-size="10" fill="white" text-anchor="%s">%s %d'
                    "</text>" % (inner, y + 4, "start" if on_left else "end", name, number))
        if index not in labels:
            continue
        role = labels[index]
        end = x - 150 if on_left else x + 150
        colour = _colour(role)
        body.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>'
                    % (x, y, end, y, colour))
        anchor = "end" if on_left else "start"
        text_x = end - 6 if on_left else end + 6
        body.append('<text x="%d" y="%d" font-size="13" fill="%s" text-anchor="%s">%s</text>'
                    % (text_x, y + 5, colour, anchor, role))
    return _svg(980, 560, body)


# --- panel.svg ----------------------------------------------------------------------------

def panel_svg(pins):
    margin = 24
    w, h = PANEL_W, PANEL_H
    cx, cy = w // 2, h // 2
    mw, mh = SCREEN_MODULE
    ww, wh = SCREEN_WINDOW
    body = [
        '<rect x="%d" y="%d" width="%d" height="%d" fill="white"/>'
        % (-margin, -margin, w + 2 * margin, h + 2 * margin),
        '<rect x="0" y="0" width="%d" height="%d" rx="6" fill="#f4efe6" stroke="black"'
        ' stroke-width="0.6"/>' % (w, h),
        '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#777"'
        ' stroke-width="0.4" stroke-dasharray="2 1.5"/>' % (cx - mw // 2, cy - mh // 2, mw, mh),
        '<rect x="%g" y="%g" width="%d" height="%d" fill="#20242a"/>'
        % (cx - ww / 2, cy - wh / 2, ww, wh),
    ]
    body += _screen_sketch(cx, cy, ww, wh)
    for button, (player, name, x, y, d) in enumerate(button_centres()):
        sx, sy = x, h - y  # SVG's y runs downward
        fill = "#d83a3a" if name == "SPIT" else ("#3a78d8" if name in ("L", "R") else "#e8e8e8")
        body.append('<circle cx="%d" cy="%d" r="%g" fill="%s" stroke="black"'
                    ' stroke-width="0.5"/>' % (sx, sy, d / 2, fill))
        body.append('<path d="M%d %dh6M%d %dv6" stroke="black" stroke-width="0.3"/>'
                    % (sx - 3, sy, sx, sy - 3))
        turn = ' transform="rotate(180 %d %d)"' % (sx, sy) if player else ""
        body.append('<text x="%d" y="%d" font-size="5" text-anchor="middle"%s>'
                    "P%d %s</text>" % (sx, sy - 4, turn, player + 1, name))
        body.append('<text x="%d" y="%d" font-size="3.5" text-anchor="middle"%s>GP%d</text>'
                    % (sx, sy + 7, turn, pins["buttons"][button]))
    body += [
        '<path d="M0 %d v6 M%d %d v6 M0 %d H%d" stroke="black" stroke-width="0.3"/>'
        % (h + 6, w, h + 6, h + 9, w),
        '<text x="%d" y="%d" font-size="5" text-anchor="middle">%d mm</text>'
        % (cx, h + 16, w),
        '<path d="M%d 0 h6 M%d %d h6 M%d 0 V%d" stroke="black" stroke-width="0.3"/>'
        % (w + 6, w + 6, h, w + 9, h),
        '<text x="%d" y="%d" font-size="5" text-anchor="middle" transform="rotate(90 %d %d)">'
        "%d mm</text>" % (w + 15, cy, w + 15, cy, h),
        '<text x="%d" y="%d" font-size="6" text-anchor="middle">player 1 sits here</text>'
        % (cx, h - 4),
        '<text x="%d" y="8" font-size="6" text-anchor="middle" transform="rotate(180 %d 6)">'
        "player 2 sits here</text>" % (cx, cx),
    ]
    return _svg(w + 2 * margin, h + 2 * margin, body,
                view_box="%d %d %d %d" % (-margin, -margin, w + 2 * margin, h + 2 * margin),
                units="mm")


def _screen_sketch(cx, cy, ww, wh):
    """Where the screen draws the piles: five stock piles per player along their edge, the two
    spit piles in the middle, so the buttons can be checked against them."""
    lines = []
    pile_w, pile_h = ww / 7, wh / 5
    for row_y in (cy + wh / 2 - pile_h - 2, cy - wh / 2 + 2):
        for i in range(5):
            x = cx + (i - 2) * (ww / 5.5) - pile_w / 2
            lines.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#e8e8e8"/>'
                         % (x, row_y, pile_w, pile_h))
    for dx in (-1, 1):
        lines.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#3a78d8"/>'
                     % (cx + dx * ww / 6 - pile_w / 2, cy - pile_h / 2, pile_w, pile_h))
    return lines


# --- diagram.json (Wokwi) -----------------------------------------------------------------

# The newest MicroPython image for the Pico that Wokwi names in public projects.
WOKWI_ENV = "micropython-20241129-v1.24.1"
_WOKWI_DISPLAY = {"CS": "CS", "SCK": "SCK", "MOSI": "MOSI", "DC": "D/C", "RST": "RST",
                  "BACKLIGHT": "LED"}


def _wokwi_key(button):
    """The simulator's key for ``button``, as Wokwi's ``key`` attribute names it (the
    browser's key value: " " for the space bar)."""
    label = keyboard.key_label(button)
    return " " if label == "Space" else (label.lower() if len(label) == 1 else label)


def wokwi_diagram(pins):
    parts = [
        {"type": "wokwi-pi-pico", "id": "pico", "top": 40, "left": -340,
         "attrs": {"env": WOKWI_ENV}},
        {"type": "wokwi-ili9341", "id": "screen", "top": -40, "left": 60, "attrs": {}},
        {"type": "wokwi-buzzer", "id": "buzzer", "top": 60, "left": 420,
         "attrs": {"volume": "0.1"}},
    ]
    connections = []
    for button, gpio in enumerate(pins["buttons"]):
        player, key = keys.player_of(button), keys.key_of(button)
        column = key if player == 0 else keys.SPIT - key  # player 2 faces player 1
        part_id = "p%d%s" % (player + 1, keys.KEY_NAMES[key].lower())
        parts.append({
            "type": "wokwi-pushbutton", "id": part_id,
            "top": 380 if player == 0 else -200, "left": -120 + column * 80,
            "attrs": {"color": "red" if key == keys.SPIT else
                      ("blue" if key in (keys.LEFT, keys.RIGHT) else "white"),
                      "label": keys.button_name(button),
                      "key": _wokwi_key(button)},
        })
        connections.append(["pico:GP%d" % gpio, part_id + ":1.l", "green", []])
        connections.append([part_id + ":2.l", "pico:GND.%d" % (4 if player else 1), "black", []])
    for name, pin in _WOKWI_DISPLAY.items():
        connections.append(["pico:GP%d" % pins["display"][name], "screen:" + pin, "purple", []])
    connections += [
        ["pico:3V3", "screen:VCC", "red", []],
        ["pico:GND.8", "screen:GND", "black", []],
        ["pico:GP%d" % pins["buzzer"], "buzzer:2", "green", []],
        ["pico:GND.6", "buzzer:1", "black", []],
    ]
    diagram = {"version": 1, "author": "Spit handheld", "editor": "wokwi",
               "parts": parts, "connections": connections, "dependencies": {}}
    return json.dumps(diagram, indent=2) + "\n"


# --- writing and checking -----------------------------------------------------------------

def documents(pins):
    """File name in hardware/ -> its text."""
    problems = pinmap.problems(pins)
    if problems:
        raise ValueError("the pin map cannot work on a Pico:\n- " + "\n- ".join(problems))
    return {
        "README.md": readme(pins),
        "wiring.svg": wiring_svg(pins),
        "panel.svg": panel_svg(pins),
        "diagram.json": wokwi_diagram(pins),
    }


def stale(folder=HARDWARE, pins=None):
    """Names of the documents in ``folder`` that differ from what the pin map gives."""
    out = []
    for name, text in documents(pins or pinmap.read()).items():
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8", newline="") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            out.append(name)
    return out


def write(folder=HARDWARE, pins=None):
    os.makedirs(folder, exist_ok=True)
    for name, text in documents(pins or pinmap.read()).items():
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        if "--check" in argv:
            names = stale()
            for name in names:
                print("hardware/%s is out of date: run make hardware" % name)
            return 1 if names else 0
        write()
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    print("hardware/: " + ", ".join(sorted(documents(pinmap.read()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
