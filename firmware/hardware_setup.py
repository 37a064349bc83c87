"""The pin map (the only file with pin numbers) and the hardware built from it.

Wiring (Raspberry Pi Pico, every button between its GPIO and GND, internal pull-ups):

    GPIO  what                      GPIO  what
    0-4   player 1 C1..C5           8-12  player 2 C1..C5
    5     player 1 L                13    player 2 L
    6     player 1 R                14    player 2 R
    7     player 1 SPIT             15    player 2 SPIT
    16    buzzer (PWM 0 A)          17    display CS
    18    display SCK (SPI0)        19    display MOSI (SPI0 TX)
    20    display DC                21    display RST
    22    display backlight

The buttons sit on GPIO 0-15 in button-id order (``spit.keys``), which the PIO
capture needs: it samples 16 contiguous pins from GPIO 0.
"""

from machine import Pin

BUTTON_PINS = tuple(range(16))
BUZZER_PIN = 16
DISPLAY_CS_PIN = 17
DISPLAY_SCK_PIN = 18
DISPLAY_MOSI_PIN = 19
DISPLAY_DC_PIN = 20
DISPLAY_RST_PIN = 21
DISPLAY_BACKLIGHT_PIN = 22
DISPLAY_SPI = 0
# RP2040 register blocks (datasheet 2.2.2): SPI0 (SPI1 follows it) and SIO's GPIO outputs.
_SPI_BASE = 0x4003C000
_SPI_STRIDE = 0x4000
_SIO_BASE = 0xD0000000
# The DMA's transfer requests (datasheet 2.5.3.1): SPI0's transmit FIFO, SPI1's two on.
_DREQ_SPI0_TX = 16

# Which capture backend runs: "pio" (a PIO state machine that stamps every change to
# 96 ns whatever the CPU is doing) or "irq" (a hard interrupt per button, the fallback).
# On the emulated RP2040 the PIO stamps were exact to 1 µs against the IRQ path's
# 20-26 µs latency plus queueing behind other handlers (docs/architecture.md, "Who was first").
CAPTURE = "pio"

# The display: "ili9341" or "st7789" (320x240 SPI panels); ROTATION 180 for a screen
# mounted upside down.
PANEL = "ili9341"
ROTATION = 0

# How windows reach the display: "dma" (each window's commands through the RP2040's
# registers in one call, its pixels by DMA while the CPU goes on), "registers" (the
# commands so, the pixels through machine.SPI) or "pins" (machine.SPI and Pin calls, on
# any port). Where viper code does not load (the host, the WebAssembly VM) or the chip
# is not an RP2040, "pins".
DISPLAY_BUS = "dma"


def button_pins():
    return [Pin(number, Pin.IN, Pin.PULL_UP) for number in BUTTON_PINS]


def buttons(clock, capture=CAPTURE):
    """The button capture backend, stamping with ``clock`` (``time.ticks_us``); both
    backends give the same ``drain`` / ``pressed_mask``."""
    pins = button_pins()
    if capture == "pio":
        import machine
        from drivers.pio_capture import PioButtons

        return PioButtons(pins[0], clock, machine.freq())
    from drivers.buttons import IrqButtons

    return IrqButtons(pins, clock)


def display(panel=PANEL, rotation=ROTATION, bus=DISPLAY_BUS, start=True):
    """Clocks for a fast SPI, the bus, the panel (reset, then with ``start`` set up,
    cleared and on: ``light``) and the backlight; returns the ``drivers.display.Display``.
    The device starts it later: the panel takes 120 ms to wake from its reset, and the
    device builds the rest meanwhile. Call it before ``buttons``: it sets the CPU clock,
    which the PIO backend reads when it starts."""
    import sys

    import machine
    from drivers.display import Display

    # SPI runs at up to half of clk_peri, which the rp2 port leaves on the 48 MHz USB
    # PLL (62.5 MHz asked would silently be 24 MHz); tie clk_peri to the CPU clock.
    rp2350 = "RP2350" in getattr(sys.implementation, "_machine", "")
    cpu_hz = 150_000_000 if rp2350 else 125_000_000
    machine.freq(cpu_hz, cpu_hz)
    # miso=None: SPI0's default MISO is GPIO 16, the buzzer, which must stay on PWM.
    spi = machine.SPI(
        DISPLAY_SPI,
        baudrate=cpu_hz // 2,
        sck=Pin(DISPLAY_SCK_PIN),
        mosi=Pin(DISPLAY_MOSI_PIN),
        miso=None,
    )
    dc = Pin(DISPLAY_DC_PIN, Pin.OUT, value=0)
    cs = Pin(DISPLAY_CS_PIN, Pin.OUT, value=1)
    rst = Pin(DISPLAY_RST_PIN, Pin.OUT, value=1)
    bus = display_bus(spi, dc, cs, "pins" if rp2350 else bus)
    screen = Display(bus, rst, panel, rotation, start=False)
    if start:
        light(screen)
    return screen


def light(screen):
    """The panel set up, cleared and on (``Display.start``: it waits what is left of its
    waking), and only then the backlight, so that no noise ever shows."""
    screen.start()
    Pin(DISPLAY_BACKLIGHT_PIN, Pin.OUT, value=1)


def display_bus(spi, dc, cs, bus):
    """The RP2040 display bus named ``bus`` (as ``DISPLAY_BUS``), or the pins' where its
    viper code does not load."""
    from drivers.display import DmaBus, PinBus, RegisterBus

    if bus not in ("dma", "registers", "pins"):
        raise ValueError("the display bus is 'dma', 'registers' or 'pins'")
    spi_base = _SPI_BASE + _SPI_STRIDE * DISPLAY_SPI
    registers = (spi_base, _SIO_BASE, 1 << DISPLAY_DC_PIN, 1 << DISPLAY_CS_PIN)
    try:
        if bus == "dma":
            import rp2

            dreq = _DREQ_SPI0_TX + 2 * DISPLAY_SPI
            return DmaBus(spi, dc, cs, registers, rp2.DMA(), dreq)
        if bus == "registers":
            return RegisterBus(spi, dc, cs, registers)
    except (ImportError, SyntaxError):  # no rp2 module, or no viper code emitter
        pass
    return PinBus(spi, dc, cs)


def buzzer_pwm():
    """The piezo's PWM, silent until ``drivers.buzzer.Buzzer`` plays a tone."""
    from machine import PWM

    return PWM(Pin(BUZZER_PIN), freq=1000, duty_u16=0)
