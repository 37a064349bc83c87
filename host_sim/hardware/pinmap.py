"""The firmware's pin map, read from ``firmware/hardware_setup.py``, and what a Pico allows.

``hardware_setup.py`` is the only file with pin numbers; the hardware documents are generated
from ``read()`` and ``problems()`` says why a pin map cannot work on a Pico or Pico 2.

Facts behind the checks (RP2040 datasheet, GPIO function table; MicroPython's
``ports/rp2/machine_spi.c``; the Pico datasheet):
- SPI0 can use GPIO 0-7 and 16-23, SPI1 GPIO 8-15 and 24-29; within a block, GPIO n is
  RX when n % 4 == 0, CSn when 1, SCK when 2, TX (MOSI) when 3. MicroPython refuses any
  other pin with "bad SCK pin" / "bad MOSI pin".
- Every GPIO 0-29 has a PWM output: slice (n >> 1) & 7, channel A for even n, B for odd.
  A slice has one frequency, so the buzzer (which changes it per tone) must not share
  its slice with another PWM output such as a dimmed backlight.
- The Pico and Pico 2 use GPIO 23 (power-supply mode), 24 (VBUS sense), 25 (LED) and 29
  (VSYS/3 measurement) on the board; the header brings out GPIO 0-22 and 26-28.
- The PIO capture samples 16 contiguous pins from GPIO 0, one per button id.
"""

from spit import keys

BOARD_PINS = {
    23: "the power supply's mode pin",
    24: "VBUS sensing",
    25: "the on-board LED",
    29: "VSYS measurement",
}
HEADER_PINS = tuple(range(23)) + (26, 27, 28)
BUTTON_COUNT = 16
DISPLAY_SIGNALS = ("CS", "SCK", "MOSI", "DC", "RST", "BACKLIGHT")

# Physical pins 1-40 of the Pico (and Pico 2) header, counter-clockwise from pin 1 (GP0)
# with the USB socket at the top.
HEADER = (
    *("GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7"),
    *("GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15"),
    *("GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN"),
    *("GP26", "GP27", "GND", "GP28", "ADC_VREF", "3V3", "3V3_EN", "GND", "VSYS", "VBUS"),
)


def header_pin(gpio):
    """The Pico's physical pin number (1-40) of a GPIO on its header."""
    return HEADER.index("GP%d" % gpio) + 1


def pwm_slice(gpio):
    return (gpio >> 1) & 7


def pwm_name(gpio):
    return "PWM %d %s" % (pwm_slice(gpio), "AB"[gpio & 1])


def spi_block(gpio):
    return (gpio >> 3) & 1


def spi_role(gpio):
    return ("RX", "CSn", "SCK", "TX")[gpio & 3]


def read(module=None):
    """The pin map as a dict: ``buttons`` (16 GPIOs in button-id order), ``buzzer``,
    ``display`` (signal name -> GPIO), ``spi`` (the display's SPI block)."""
    if module is None:
        import hardware_setup as module
    return {
        "buttons": tuple(module.BUTTON_PINS),
        "buzzer": module.BUZZER_PIN,
        "display": {name: getattr(module, "DISPLAY_%s_PIN" % name) for name in DISPLAY_SIGNALS},
        "spi": module.DISPLAY_SPI,
    }


def button_role(button):
    return "player %d %s" % (
        keys.player_of(button) + 1,
        keys.KEY_NAMES[keys.key_of(button)],
    )


def roles(pins):
    """Every used pin as ``(gpio, what it connects to)``, buttons first."""
    rows = [(gpio, button_role(button)) for button, gpio in enumerate(pins["buttons"])]
    rows.append((pins["buzzer"], "buzzer"))
    for name in DISPLAY_SIGNALS:
        rows.append((pins["display"][name], "display " + _signal_label(name)))
    return rows


def _signal_label(name):
    return "backlight" if name == "BACKLIGHT" else name


def problems(pins):
    """Why this pin map cannot work on a Pico, one sentence each; empty when it can."""
    found = []
    used = {}
    for gpio, role in roles(pins):
        used.setdefault(gpio, []).append(role)
        if gpio in BOARD_PINS:
            found.append("%s is on GPIO %d, which the Pico uses for %s" % (
                role, gpio, BOARD_PINS[gpio]))
        elif gpio not in HEADER_PINS:
            found.append("%s is on GPIO %s, which the Pico's header does not have" % (role, gpio))
    for gpio, users in sorted(used.items()):
        if len(users) > 1:
            found.append("GPIO %d is used %d times: %s" % (gpio, len(users), ", ".join(users)))
    if tuple(pins["buttons"]) != tuple(range(BUTTON_COUNT)):
        found.append(
            "the buttons must be on GPIO 0-15 in button order (player 1 C1..SPIT, then "
            "player 2): the PIO capture samples 16 contiguous pins from GPIO 0"
        )
    found.extend(_spi_problems(pins["spi"], pins["display"]))
    buzzer, backlight = pins["buzzer"], pins["display"]["BACKLIGHT"]
    if buzzer in HEADER_PINS and backlight in HEADER_PINS and (
        pwm_slice(buzzer) == pwm_slice(backlight)
    ):
        found.append(
            "the buzzer (GPIO %d) and the backlight (GPIO %d) share PWM slice %d, whose "
            "frequency each tone changes" % (buzzer, backlight, pwm_slice(buzzer))
        )
    return found


def _spi_problems(spi, display):
    if spi not in (0, 1):
        return ["DISPLAY_SPI is %r; the Pico has SPI 0 and 1" % (spi,)]
    found = []
    for name, role in (("SCK", "SCK"), ("MOSI", "TX")):
        gpio = display[name]
        if gpio in HEADER_PINS and (spi_block(gpio) != spi or spi_role(gpio) != role):
            choices = [n for n in HEADER_PINS if spi_block(n) == spi and spi_role(n) == role]
            found.append("display %s on GPIO %d is not an SPI%d %s pin (those are GPIO %s)" % (
                name, gpio, spi, role, ", ".join(str(n) for n in choices)))
    return found
