"""The display driver, the virtual display it is decoded by, and the hardware setup.

The virtual display is checked first on its own, against facts from the datasheets and
the modules (raw command bytes, no driver); then the driver is checked through it, on
CPython and on the MicroPython VM.
"""

import sys

import framebuf
import hardware_setup
import machine
import pytest

from host_sim.display import HEIGHT, WIDTH, VirtualDisplay, wired_display
from host_sim.display import png as pngfile
from host_sim.display.panel import (
    CASET,
    COLMOD,
    DISPON,
    INVON,
    MADCTL,
    RAMWR,
    RASET,
    SLPOUT,
    SWRESET,
)

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
# RGB565 as the renderer hands them to framebuf: byte-swapped, so they go out big-endian.
RED_FB, GREEN_FB, BLUE_FB, WHITE_FB = 0x00F8, 0xE007, 0x1F00, 0xFFFF


def _be16(value):
    return bytes((value >> 8, value & 0xFF))


def _window(panel, x0, x1, y0, y1):
    panel.receive(0, bytes((CASET,)))
    panel.receive(1, _be16(x0) + _be16(x1))
    panel.receive(0, bytes((RASET,)))
    panel.receive(1, _be16(y0) + _be16(y1))
    panel.receive(0, bytes((RAMWR,)))


def _awake(panel_name, madctl, mounted=0):
    """A module set up by hand: 16-bit pixels, MADCTL as given, awake and on."""
    panel = VirtualDisplay(panel_name, mounted=mounted)
    for command, params in ((SWRESET, b""), (SLPOUT, b""), (COLMOD, b"\x55")):
        panel.receive(0, bytes((command,)))
        panel.receive(1, params)
    panel.receive(0, bytes((MADCTL,)))
    panel.receive(1, bytes((madctl,)))
    if panel_name == "st7789":
        panel.receive(0, bytes((INVON,)))
    panel.receive(0, bytes((DISPON,)))
    return panel


def _fb(w, h, colour):
    buf = bytearray(w * h * 2)
    framebuf.FrameBuffer(buf, w, h, framebuf.RGB565).fill(colour)
    return buf


def _bus():
    """The SPI bus ``wired_display`` built (the fake machine keeps one per id)."""
    return machine.SPI(hardware_setup.DISPLAY_SPI)


# The virtual display on its own.


@pytest.mark.parametrize(("panel_name", "portrait_madctl"), [("ili9341", 0x40), ("st7789", 0x00)])
def test_module_shows_portrait_upright_with_its_libraries_default(panel_name, portrait_madctl):
    # ILI9341 modules are driven with MX and BGR (0x48) for an upright portrait
    # picture, ST7789 modules with MADCTL 0: the libraries' defaults for these modules. The
    # device holds the module in landscape, portrait top edge on the viewer's right,
    # so portrait (px, py) is seen at (319 - py, px).
    bgr = 0x08 if panel_name == "ili9341" else 0
    panel = _awake(panel_name, portrait_madctl | bgr)
    _window(panel, 0, 1, 0, 0)  # portrait (0, 0) red, (1, 0) green
    panel.receive(1, _be16(0xF800) + _be16(0x07E0))
    _window(panel, 0, 0, 5, 5)  # portrait (0, 5) blue
    panel.receive(1, _be16(0x001F))
    assert panel.pixel(319, 0) == RED
    assert panel.pixel(319, 1) == GREEN
    assert panel.pixel(314, 0) == BLUE


def test_bgr_glass_swaps_red_and_blue_without_the_bgr_bit():
    panel = _awake("ili9341", 0x40)  # MX without the BGR bit, on a BGR module
    _window(panel, 0, 0, 0, 0)
    panel.receive(1, _be16(0xF800))
    assert panel.pixel(319, 0) == BLUE


def test_ips_glass_inverts_without_invon():
    panel = VirtualDisplay("st7789")
    for command in (SWRESET, SLPOUT, DISPON):
        panel.receive(0, bytes((command,)))
    panel.receive(0, bytes((COLMOD,)))
    panel.receive(1, b"\x55")
    _window(panel, 0, 0, 0, 0)
    panel.receive(1, _be16(0xF800))
    assert panel.pixel(319, 0) == (0, 255, 255)


def test_exchange_sends_caset_to_the_physical_row():
    # MV alone: CASET address a goes to frame memory row a, RASET address b to column
    # b. On the ST7789 module (columns in order) memory (b, a) is portrait (b, a).
    panel = _awake("st7789", 0x20)
    _window(panel, 7, 7, 3, 3)
    panel.receive(1, _be16(0xFFFF))
    assert panel.pixel(319 - 7, 3) == WHITE  # portrait (3, 7)
    # MY mirrors the physical row whatever MV is: now CASET 7 is row 312.
    panel = _awake("st7789", 0xA0)
    _window(panel, 7, 7, 3, 3)
    panel.receive(1, _be16(0xFFFF))
    assert panel.pixel(7, 3) == WHITE


@pytest.mark.parametrize(("panel_name", "landscape"), [("ili9341", 0xE8), ("st7789", 0xA0)])
def test_mx_and_my_turn_the_next_writes_half_a_turn_and_keep_what_is_shown(
    panel_name, landscape
):
    # MX and MY mirror the physical column and row order whatever MV is (the datasheets'
    # "memory data write/read direction" tables): with both flipped, the address (c, r)
    # lands where (319 - c, 239 - r) did. They steer the next writes; what is shown stays.
    panel = _awake(panel_name, landscape)
    _window(panel, 10, 12, 20, 20)
    panel.receive(1, _be16(0xF800) + _be16(0x07E0) + _be16(0x001F))
    panel.receive(0, bytes((MADCTL,)))
    panel.receive(1, bytes((landscape ^ 0xC0,)))
    assert [panel.pixel(x, 20) for x in (10, 11, 12)] == [RED, GREEN, BLUE]
    panel.receive(0, bytes((RAMWR,)))  # the window as it was sent
    panel.receive(1, _be16(0xF800) + _be16(0x07E0) + _be16(0x001F))
    assert [panel.pixel(x, 219) for x in (307, 308, 309)] == [BLUE, GREEN, RED]


def test_ramwr_fills_the_window_row_by_row_and_wraps_to_its_start():
    panel = _awake("st7789", 0xA0)  # upright landscape for this module
    _window(panel, 10, 12, 20, 21)  # 3 x 2
    colours = [0x1000 * i + 0x001F for i in range(8)]  # eight pixels into six places
    panel.receive(1, b"".join(_be16(c) for c in colours))
    seen = [panel.pixel(10 + i % 3, 20 + i // 3) for i in range(6)]
    expected = [colours[6], colours[7]] + colours[2:6]  # the last two wrapped over the first
    assert seen == [_rgb888(c) for c in expected]


def _rgb888(c):
    r, g, b = c >> 11, (c >> 5) & 63, c & 31
    return ((r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2))


def test_ramwr_continues_across_chunks_split_mid_pixel():
    panel = _awake("st7789", 0xA0)
    _window(panel, 0, 3, 0, 0)
    data = b"".join(_be16(c) for c in (0xF800, 0x07E0, 0x001F, 0xFFFF))
    for i in range(0, len(data), 3):
        panel.receive(1, data[i : i + 3])
    assert [panel.pixel(x, 0) for x in range(4)] == [RED, GREEN, BLUE, WHITE]


def test_any_command_ends_the_memory_write():
    panel = _awake("st7789", 0xA0)
    _window(panel, 0, 1, 0, 0)
    panel.receive(1, _be16(0xF800))
    panel.receive(0, b"\x00")  # NOP
    panel.receive(1, _be16(0x07E0))
    assert panel.pixel(1, 0) != GREEN


def test_window_with_start_after_end_is_refused():
    panel = _awake("st7789", 0xA0)
    _window(panel, 5, 5, 5, 5)
    _window(panel, 9, 2, 5, 5)  # refused: the window stays at column 5
    panel.receive(1, _be16(0xF800))
    assert panel.pixel(5, 5) == RED
    assert panel.ignored and panel.ignored[-1][1] == CASET


def test_18_bit_pixels_take_each_bytes_top_six_bits():
    panel = _awake("st7789", 0xA0)
    panel.receive(0, bytes((COLMOD,)))
    panel.receive(1, b"\x66")
    _window(panel, 0, 0, 0, 0)
    panel.receive(1, b"\xfc\x80\x03")  # red full, green half, blue's low bits only
    assert panel.pixel(0, 0) == (255, 0x82, 0)


def test_nothing_shows_until_sleep_out_and_display_on():
    panel = VirtualDisplay("ili9341")
    assert not panel.showing
    assert panel.pixel(0, 0) == (0, 0, 0)
    panel.receive(0, bytes((SLPOUT,)))
    assert not panel.showing
    panel.receive(0, bytes((DISPON,)))
    assert panel.showing


def test_strict_timing_ignores_commands_sent_too_soon():
    panel = VirtualDisplay("ili9341", strict_timing=True)
    panel.receive(0, bytes((SWRESET,)))
    panel.elapse_ms(10)
    panel.receive(0, bytes((SLPOUT,)))  # under 120 ms after the reset
    panel.receive(0, bytes((DISPON,)))
    assert not panel.showing
    assert [c for _, c in panel.ignored] == [SLPOUT]
    panel.elapse_ms(120)
    panel.receive(0, bytes((SLPOUT,)))
    panel.receive(0, bytes((DISPON,)))  # within 5 ms of sleep out
    assert [c for _, c in panel.ignored] == [SLPOUT, DISPON]


def test_mark_reports_exactly_the_pixels_that_changed():
    panel = _awake("st7789", 0xA0)
    _window(panel, 0, WIDTH - 1, 0, HEIGHT - 1)
    panel.receive(1, b"\x00" * (WIDTH * HEIGHT * 2))
    panel.mark()
    _window(panel, 100, 102, 50, 51)
    panel.receive(1, _be16(0xFFFF) * 5 + _be16(0x0000))  # the last pixel stays black
    assert panel.changed() == {(100, 50), (101, 50), (102, 50), (100, 51), (101, 51)}
    assert panel.changed_box() == (100, 50, 3, 2)


def test_revision_moves_with_every_write_and_only_then():
    panel = _awake("st7789", 0xA0)
    before = panel.revision
    _window(panel, 0, 0, 0, 0)
    opened = panel.revision
    panel.receive(1, _be16(0xF800))
    assert panel.revision > opened > before
    written = panel.revision
    panel.pixel(0, 0)
    panel.rgb()
    assert panel.revision == written


def test_png_holds_the_view(tmp_path):
    panel = _awake("st7789", 0xA0)
    _window(panel, 0, 1, 0, 0)
    panel.receive(1, _be16(0xF800) + _be16(0x001F))
    path = tmp_path / "screen.png"
    panel.save_png(str(path), scale=2)
    width, height, rgb = pngfile.decode(path.read_bytes())
    assert (width, height) == (WIDTH * 2, HEIGHT * 2)
    assert len(rgb) == width * height * 3
    assert rgb[:3] == bytes(RED) and rgb[3:6] == bytes(RED) and rgb[6:9] == bytes(BLUE)
    assert pngfile.decode(panel.png()) == (WIDTH, HEIGHT, panel.rgb())


# The driver, through the virtual display.

PANELS = [(p, r) for p in ("ili9341", "st7789") for r in (0, 180)]


@pytest.mark.parametrize(("panel_name", "rotation"), PANELS)
def test_corner_markers_land_in_the_viewers_corners(panel_name, rotation):
    display, panel = wired_display(panel_name, rotation)
    assert panel.showing and panel.ignored == []
    corners = {(0, 0): RED_FB, (316, 0): GREEN_FB, (0, 237): BLUE_FB, (316, 237): WHITE_FB}
    for (x, y), colour in corners.items():
        display.show(x, y, 4, 3, _fb(4, 3, colour))
    assert panel.pixel(0, 0) == RED
    assert panel.pixel(319, 0) == GREEN
    assert panel.pixel(0, 239) == BLUE
    assert panel.pixel(319, 239) == WHITE
    assert panel.pixel(4, 0) == (0, 0, 0)  # cleared at start-up, and the window is 4 wide


@pytest.mark.parametrize("panel_name", ["ili9341", "st7789"])
def test_wrong_rotation_for_the_mounting_turns_the_picture_over(panel_name):
    display, panel = wired_display(panel_name, rotation=0, mounted=180)
    display.show(0, 0, 4, 3, _fb(4, 3, RED_FB))
    assert panel.pixel(319, 239) == RED
    assert panel.pixel(0, 0) == (0, 0, 0)


@pytest.mark.parametrize(("panel_name", "rotation"), PANELS)
def test_colours_come_out_right(panel_name, rotation):
    display, panel = wired_display(panel_name, rotation)
    for i, (colour, seen) in enumerate(((RED_FB, RED), (GREEN_FB, GREEN), (BLUE_FB, BLUE))):
        display.show(50 + 10 * i, 60, 10, 10, _fb(10, 10, colour))
        assert panel.pixel(55 + 10 * i, 65) == seen


def test_a_drawn_window_arrives_pixel_for_pixel():
    display, panel = wired_display()
    buf = bytearray(40 * 24 * 2)
    fb = framebuf.FrameBuffer(buf, 40, 24, framebuf.RGB565)
    fb.fill(0)
    fb.text("SPIT", 2, 2, WHITE_FB)
    fb.line(0, 23, 39, 0, RED_FB)
    display.show(100, 80, 40, 24, buf)
    for y in range(24):
        for x in range(40):
            c = fb.pixel(x, y)
            expected = _rgb888(((c & 0xFF) << 8) | (c >> 8))
            assert panel.pixel(100 + x, 80 + y) == expected, (x, y)


def _drawing(w, h):
    """A window of text, its first pixel red and its last green."""
    buf = bytearray(w * h * 2)
    fb = framebuf.FrameBuffer(buf, w, h, framebuf.RGB565)
    fb.fill(BLUE_FB)
    fb.text("P2", 1, 1, WHITE_FB)
    fb.pixel(0, 0, RED_FB)
    fb.pixel(w - 1, h - 1, GREEN_FB)
    return buf


def _reversed_pixels(buf):
    """The window turned half a turn: its pixels in reverse order, each kept whole."""
    return b"".join(buf[i : i + 2] for i in range(len(buf) - 2, -1, -2))


@pytest.mark.parametrize(("panel_name", "rotation"), PANELS)
def test_a_turned_window_shows_the_window_half_a_turn_round(panel_name, rotation):
    turned, panel = wired_display(panel_name, rotation)
    reversed_, expected = wired_display(panel_name, rotation)
    for x, y, w, h in ((100, 80, 40, 24), (0, 0, 9, 5), (283, 228, 37, 12)):
        buf = _drawing(w, h)
        turned.show_turned(x, y, w, h, buf)
        reversed_.show(x, y, w, h, _reversed_pixels(buf))
        assert panel.pixel(x + w - 1, y + h - 1) == RED and panel.pixel(x, y) == GREEN
    assert panel.rgb() == expected.rgb()


def test_the_address_order_goes_out_only_when_it_changes():
    display, panel = wired_display()
    sent = display.bytes_sent
    before = len(panel.commands)
    display.show_turned(10, 20, 8, 4, _fb(8, 4, RED_FB))
    display.show_turned(30, 20, 8, 4, _fb(8, 4, GREEN_FB))  # the same rows
    display.show(10, 20, 8, 4, _fb(8, 4, BLUE_FB))
    assert panel.commands[before:] == [
        MADCTL, CASET, RASET, RAMWR, CASET, RAMWR, MADCTL, CASET, RASET, RAMWR
    ]
    assert display.bytes_sent - sent == 3 * 8 * 4 * 2 + 13 + 6 + 13
    assert panel.pixel(10, 20) == panel.pixel(17, 23) == BLUE
    assert panel.pixel(30, 20) == GREEN


def test_a_range_the_panel_holds_is_kept_across_a_change_of_order():
    # The turned order counts from the opposite corner: the window mirrored about the
    # screen's centre has the same ranges, and only MADCTL goes out.
    display, panel = wired_display("st7789")
    display.show(10, 20, 8, 4, _fb(8, 4, RED_FB))
    before = len(panel.commands)
    display.show_turned(302, 216, 8, 4, _fb(8, 4, GREEN_FB))
    assert panel.commands[before:] == [MADCTL, RAMWR]
    assert panel.pixel(302, 216) == panel.pixel(309, 219) == GREEN
    assert panel.pixel(10, 20) == RED


def test_fill_paints_everything_through_a_small_buffer():
    display, panel = wired_display("st7789")
    writes = []
    sink = _bus().sink
    _bus().sink = lambda data: (writes.append(len(data)), sink(data))
    display.fill(GREEN_FB)
    assert max(writes) <= 4096  # never a frame buffer, nor anything near one
    assert sum(writes) >= WIDTH * HEIGHT * 2
    rgb = panel.rgb()
    assert rgb == bytes(GREEN) * (WIDTH * HEIGHT)


def test_fill_matches_a_shown_window_of_the_same_colour():
    display, panel = wired_display()
    display.fill(0x3A9B)
    filled = panel.pixel(200, 100)
    display.show(200, 100, 1, 1, _fb(1, 1, 0x3A9B))
    assert panel.pixel(200, 100) == filled != (0, 0, 0)


def test_fill_rows_paints_a_band_of_rows_and_nothing_else():
    display, panel = wired_display()
    display.fill(0x3A9B)
    around = panel.pixel(0, 39)
    sent = display.bytes_sent
    display.fill_rows(GREEN_FB, 40, 8)
    # The rows and the pixels: the fill left the panel's columns as they are.
    assert display.bytes_sent - sent == 6 + WIDTH * 8 * 2
    assert panel.pixel(0, 39) == panel.pixel(319, 48) == around
    assert all(panel.pixel(x, y) == GREEN for x in (0, 160, 319) for y in (40, 47))


def test_fill_rows_refuses_rows_off_the_screen_or_an_odd_number():
    display, panel = wired_display()
    for y, h in ((-4, 8), (236, 8), (0, 0), (0, 3)):
        with pytest.raises(ValueError):
            display.fill_rows(GREEN_FB, y, h)


def test_bytes_sent_counts_every_byte_on_the_wire():
    display, panel = wired_display()
    before = display.bytes_sent
    display.show(10, 10, 8, 8, _fb(8, 8, RED_FB))
    assert display.bytes_sent - before == 8 * 8 * 2 + 11  # CASET + 4, RASET + 4, RAMWR
    assert display.bytes_sent == panel.bytes_received == _bus().bytes_written


def test_a_range_the_panel_holds_already_is_not_sent_again():
    display, panel = wired_display()
    sent = display.bytes_sent
    display.show(10, 20, 8, 4, _fb(8, 4, RED_FB))
    display.show(30, 20, 8, 4, _fb(8, 4, GREEN_FB))  # the same rows
    display.show(30, 40, 8, 2, _fb(8, 2, RED_FB))  # the same columns
    pixels = (8 * 4 + 8 * 4 + 8 * 2) * 2
    assert display.bytes_sent - sent == pixels + 11 + 6 + 6
    assert panel.pixel(10, 20) == panel.pixel(30, 41) == RED
    assert panel.pixel(37, 23) == GREEN
    assert panel.pixel(30, 24) != GREEN


@pytest.mark.parametrize("turned", [False, True])
def test_show_refuses_windows_off_the_screen_or_the_wrong_size(turned):
    display, _ = wired_display()
    show = display.show_turned if turned else display.show
    with pytest.raises(ValueError):
        show(318, 0, 4, 1, _fb(4, 1, 0))
    with pytest.raises(ValueError):
        show(-1, 0, 1, 1, _fb(1, 1, 0))
    with pytest.raises(ValueError):
        show(0, 0, 4, 4, _fb(4, 3, 0))


def test_init_waits_as_the_datasheets_ask():
    _, panel = wired_display()
    assert panel.ignored == []
    # Reset to sleep out 120 ms; sleep out to the next command 5 ms (the panel model
    # ignores a command sent sooner, so ``ignored`` stays empty only if both were kept).
    assert panel.now_ms >= 120 + 5


def test_unknown_panel_or_rotation_is_refused():
    with pytest.raises(ValueError):
        wired_display("ssd1306")
    with pytest.raises(ValueError):
        wired_display("ili9341", rotation=90)


# The hardware setup, on the fake machine.


@pytest.fixture(name="board")
def fresh_board(monkeypatch):
    """Power-on clocks and buses, and no real waiting in the driver's start-up."""
    monkeypatch.setattr("time.sleep", lambda s: None)
    machine.reset_clocks()
    machine.SPI.forget()
    yield
    machine.reset_clocks()
    machine.SPI.forget()


def _probe_bus(panel_name, mounted=0):
    """A virtual display on SPI0 and the DC/CS pins, attached before the firmware runs."""
    import hardware_setup

    panel = VirtualDisplay(panel_name, mounted=mounted)
    bus = machine.SPI(hardware_setup.DISPLAY_SPI)

    def wire(data):
        if machine.wired(hardware_setup.DISPLAY_CS_PIN).value() == 0:
            panel.receive(machine.wired(hardware_setup.DISPLAY_DC_PIN).value(), data)

    bus.sink = wire
    return hardware_setup, bus, panel


def test_hardware_setup_makes_62_5_mhz_real_and_lights_the_screen(board):
    hardware_setup, bus, panel = _probe_bus("ili9341")
    display = hardware_setup.display()
    assert machine.freq() == 125_000_000
    assert machine.peripheral_freq() == 125_000_000
    assert bus.baudrate == bus.actual_baudrate() == 62_500_000
    assert (bus.sck, bus.mosi) == (hardware_setup.DISPLAY_SCK_PIN, hardware_setup.DISPLAY_MOSI_PIN)
    assert machine.wired(hardware_setup.DISPLAY_BACKLIGHT_PIN).value() == 1
    assert (display.width, display.height) == (320, 240)
    display.show(0, 0, 2, 2, _fb(2, 2, RED_FB))
    assert panel.showing and panel.pixel(1, 1) == RED


def test_hardware_setup_on_the_rp2350_runs_150_mhz_and_75_mhz_spi(board, monkeypatch):
    hardware_setup, bus, _ = _probe_bus("ili9341")
    monkeypatch.setattr(sys.implementation, "_machine", "Raspberry Pi Pico2 with RP2350", False)
    hardware_setup.display()
    assert machine.freq() == machine.peripheral_freq() == 150_000_000
    assert bus.actual_baudrate() == 75_000_000


def test_hardware_setup_takes_the_pins_where_viper_code_does_not_load(board, rp2):
    # rp2 is there, with a DMA channel; the host has no viper code emitter.
    hardware_setup, _, panel = _probe_bus("st7789")
    for name in ("dma", "registers", "pins"):
        display = hardware_setup.display(panel="st7789", bus=name)
        assert type(display._bus).__name__ == "PinBus" and not display.in_background
    display.show_turned(0, 0, 1, 1, _fb(1, 1, GREEN_FB))
    assert panel.pixel(0, 0) == GREEN
    with pytest.raises(ValueError):
        hardware_setup.display(bus="spi")


def test_hardware_setup_honours_the_panel_setting(board):
    hardware_setup, _, panel = _probe_bus("st7789")
    display = hardware_setup.display(panel="st7789")
    display.show(0, 0, 1, 1, _fb(1, 1, BLUE_FB))
    assert panel.pixel(0, 0) == BLUE  # an ILI9341 set-up would show it inverted and swapped


# The same driver on MicroPython.

_VM_WIRES = """
import framebuf, micropython
from drivers.display import Display, PinBus

class Pin:
    # The driver calls a pin with its level, as a machine.Pin. A Python instance
    # with __call__ allocates a bound method on each call; the bound method of
    # set, made once, does not, as the real Pin does not.
    def __init__(self):
        self.level = 1
    def set(self, level):
        self.level = level

class Bus:
    def __init__(self, dc, cs, log):
        self.dc = dc
        self.cs = cs
        self.log = log
        self.writes = 0
    def write(self, buf):
        self.writes += 1
        if self.log is not None and self.cs.level == 0:
            self.log.append((self.dc.level, bytes(buf)))

def build(panel, rotation, log):
    dc, cs, rst = Pin(), Pin(), Pin()
    bus = Bus(dc, cs, log)
    display = Display(PinBus(bus, dc.set, cs.set), rst.set, panel, rotation, lambda ms: None)
    return display, bus
"""


@pytest.mark.parametrize(("panel_name", "rotation"), [("ili9341", 180), ("st7789", 0)])
def test_micropython_sends_the_same_bytes_as_cpython(mpvm, panel_name, rotation):
    code = _VM_WIRES + (
        "log = []\n"
        "d, bus = build(%r, %r, log)\n"
        "buf = bytearray(6 * 5 * 2)\n"
        "fb = framebuf.FrameBuffer(buf, 6, 5, framebuf.RGB565)\n"
        "fb.fill(0x00F8)\n"
        "fb.text('7', -1, -2, 0xFFFF)\n"
        "d.show(313, 235, 6, 5, buf)\n"
        "d.show_turned(0, 235, 6, 5, buf)\n"
        "d.fill(0x1F00)\n"
        "for dc, data in log:\n"
        "    print(dc, data.hex())\n"
        "print('sent', d.bytes_sent)\n" % (panel_name, rotation)
    )
    lines = mpvm(code).split("\n")
    sent = int(lines[-2].split()[1])
    vm_log = [(int(dc), bytes.fromhex(data)) for dc, data in (line.split() for line in lines[:-2])]

    display, panel = wired_display(panel_name, rotation)
    log = []
    sink = _bus().sink
    dc = machine.wired(hardware_setup.DISPLAY_DC_PIN)
    _bus().sink = lambda data: (log.append((dc.value(), data)), sink(data))
    buf = bytearray(6 * 5 * 2)
    fb = framebuf.FrameBuffer(buf, 6, 5, framebuf.RGB565)
    fb.fill(0x00F8)
    fb.text("7", -1, -2, 0xFFFF)
    display.show(313, 235, 6, 5, buf)
    display.show_turned(0, 235, 6, 5, buf)
    display.fill(0x1F00)
    init = len(vm_log) - len(log)
    assert vm_log[init:] == log
    assert sent == display.bytes_sent
    # The VM's start-up traffic, decoded, sets up the panel as the CPython driver did.
    replay = VirtualDisplay(panel_name, mounted=rotation)
    for dc, data in vm_log:
        replay.receive(dc, data)
    assert replay.showing and replay.rgb() == panel.rgb()


def test_show_and_fill_allocate_nothing_on_micropython(mpvm):
    code = _VM_WIRES + (
        "d, bus = build('st7789', 0, None)\n"
        "buf = bytearray(32 * 16 * 2)\n"
        "def frame(d, buf):\n"  # locals only: a new global would grow the globals dict
        "    for i in range(20):\n"
        "        d.show(i * 8, i * 4, 32, 16, buf)\n"
        "        d.show_turned(i * 8, i * 4, 32, 16, buf)\n"
        "    d.fill(0x1234)\n"
        "    d.fill_rows(0x4321, 16, 8)\n"
        "    d.fill_rows(0x4321, 30, 2)\n"
        "frame(d, buf)\n"
        "micropython.heap_lock()\n"
        "try:\n"
        "    frame(d, buf)\n"
        "finally:\n"
        "    micropython.heap_unlock()\n"
        "print(bus.writes, d.bytes_sent)\n"
    )
    writes, sent = map(int, mpvm(code).split())
    assert writes > 2 * 40 * 6
    assert sent > 2 * (40 * (32 * 16 * 2) + 320 * 240 * 2)


# On the emulated Pico: MicroPython 1.28's own machine module and SPI hardware.

_EMU_SCRIPT = """
import framebuf, machine, time
import hardware_setup

def timed(f):
    t = time.ticks_us()
    f()
    return time.ticks_diff(time.ticks_us(), t)

box = []
init_us = timed(lambda: box.append(hardware_setup.display()))
d = box[0]
buf = bytearray(60 * 40 * 2)
fb = framebuf.FrameBuffer(buf, 60, 40, framebuf.RGB565)
fb.fill(0x00F8)
fb.text('SPIT', 4, 4, 0xFFFF)
fill_us = timed(lambda: d.fill(0x1F00))
out_us = fill_us + timed(d.wait)
show_us = timed(lambda: d.show(10, 20, 60, 40, buf)) + timed(d.wait)
print(machine.freq(), d._bus._spi, d.in_background)
print(init_us, fill_us, out_us, show_us, d.bytes_sent)
"""


@pytest.mark.emulated_pico
def test_on_the_emulated_pico_the_bus_runs_at_62_5_mhz_and_the_picture_arrives():
    from host_sim.emu.emulated_pico import EmulatedPico, firmware_paths
    from host_sim.emu.fs_image import board_files
    from host_sim.emu.screen import Screen

    if firmware_paths() is None:
        pytest.skip("no MicroPython UF2 / RP2040 boot ROM (PICO_UF2, PICO_BOOTROM)")
    with EmulatedPico(files=board_files(main=False)) as pico:
        pico.run_us(300_000)
        clocks, figures = pico.exec(_EMU_SCRIPT, within_us=3_000_000).strip().splitlines()
        log = pico.spi_log()
    assert clocks.startswith("125000000 SPI(0, baudrate=62500000,")
    assert clocks.endswith(" True")  # the pixels go out by DMA
    init_us, fill_us, out_us, show_us, sent = map(int, figures.split())
    # 153,600 bytes at 62.5 MHz take 19.7 ms on the wire, and the CPU goes on meanwhile;
    # a 4,800-byte window 0.61 ms.
    assert fill_us < 1_000
    assert 19_660 < out_us < 30_000
    assert 614 < show_us < 2_000
    assert init_us < 400_000
    panel = VirtualDisplay("ili9341", strict_timing=True)
    screen = Screen(panel)
    screen.feed(log)  # in emulated time: the datasheet's waits are checked
    assert panel.ignored == []
    assert screen.bytes_sent == sent
    assert panel.pixel(70, 60) == BLUE and panel.pixel(319, 239) == BLUE
    fb = framebuf.FrameBuffer(_fb(60, 40, RED_FB), 60, 40, framebuf.RGB565)
    fb.text("SPIT", 4, 4, WHITE_FB)
    seen = [panel.pixel(10 + x, 20 + y) for y in range(40) for x in range(60)]
    assert seen == [
        WHITE if fb.pixel(x, y) == WHITE_FB else RED for y in range(40) for x in range(60)
    ]
    assert seen.count(WHITE) > 40
