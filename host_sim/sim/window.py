"""The simulator as the device in a window (pygame-ce).

The middle of the window is the virtual panel's view, pixel for pixel, scaled x2 or x3:
exactly what the firmware's display driver sent over SPI. Around it the device's body,
with each player's eight buttons where they sit on it (``hardware/panel.svg``): the
card buttons along the edge under the stock piles, ``L`` and ``R`` under the spit
piles with the larger ``SPIT`` between them; player 2's half is player 1's turned
half a turn. A button is lit while its pin is held down. Beside the device: the game
(Spit or Speed), the seed, the seats, the screen, the last event and the sound playing,
which the buzzer's pin also plays on the laptop's speaker (``speaker``).

A key down presses its button's pin and a key up releases it, so holding a key holds
the button (hold SPIT two seconds for the settings). F1 shows the keys on a picture of
the device, F12 saves the screen as a PNG, Esc or Ctrl-C quits.
"""

import os
import re
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402 (after the prompt is hidden)
from spit import keys  # noqa: E402
from spit.layout import CARD_W, FACE_W, pile_x, slot_x  # noqa: E402

from host_sim.display import HEIGHT, WIDTH  # noqa: E402
from host_sim.sim.keyboard import LAYOUT, how_lines, key_label  # noqa: E402
from host_sim.sim.speaker import Speaker  # noqa: E402

# The body around the screen, in screen pixels (the window multiplies by the scale).
BORDER = 8
BAND = 44  # each player's strip of buttons
BODY_W = WIDTH + 2 * BORDER
BODY_H = HEIGHT + 2 * (BORDER + BAND)
SCREEN_X = BORDER
SCREEN_Y = BORDER + BAND
PANEL_W = 260  # the text beside the device, in window pixels at any scale
PILE_ROW = 13  # from the screen's edge to the centre of L, SPIT and R
CARD_ROW = 35  # and to the centre of C1..C5
CARD_R = 8
SPIT_R = 11
FRAME_S = 1 / 60
LISTEN_S = 0.002  # while a frame is drawn, the events are read this often

BODY = (38, 40, 46)
BEZEL = (16, 16, 18)
PANEL = (24, 26, 30)
TEXT = (225, 225, 215)
DIM_TEXT = (150, 155, 150)
LIT = (255, 210, 0)
COLOURS = {"card": (232, 232, 232), "pile": (58, 120, 216), "spit": (220, 60, 50)}
KEYCAP = (255, 240, 160)
_BRIGHT = ("game", "seed", "screen")  # the side panel's lines a player looks for first


class NoWindow(Exception):
    """pygame could not open a window here."""


def button_places():
    """``{button: (x, y, radius, kind)}``, centres in screen pixels from the screen's top
    left (player 1's below the screen, player 2's above it)."""
    places = {}
    pile_centres = [pile_x(2, pile) + CARD_W // 2 for pile in (0, 1)]
    mine = [
        (slot_x(5, slot) + FACE_W // 2, HEIGHT + CARD_ROW, CARD_R, "card") for slot in range(5)
    ]
    mine.append((pile_centres[0], HEIGHT + PILE_ROW, CARD_R, "pile"))
    mine.append((pile_centres[1], HEIGHT + PILE_ROW, CARD_R, "pile"))
    mine.append((WIDTH // 2, HEIGHT + PILE_ROW, SPIT_R, "spit"))
    for player in (0, 1):
        for key, (x, y, r, kind) in enumerate(mine):
            if player:
                x, y = WIDTH - x, HEIGHT - y
            places[keys.button_id(player, key)] = (x, y, r, kind)
    return places


def pygame_keys():
    """``{pygame key code: button}``."""
    out = {}
    for button in range(keys.BUTTON_COUNT):
        label = key_label(button)
        if label == "Space":
            codes = [pygame.K_SPACE]
        elif label == "Enter":
            codes = [pygame.K_RETURN, pygame.K_KP_ENTER]
        else:
            codes = [pygame.key.key_code(label.lower())]
        for code in codes:
            out[code] = button
    return out


def fitting_scale():
    """3 when the desktop has room for it, else 2."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return 2
    if sizes and sizes[0][1] >= BODY_H * 3 + 80 and sizes[0][0] >= BODY_W * 3 + PANEL_W:
        return 3
    return 2


class Window:
    """Constructor: ``Window(play, scale=None)`` (``play`` is a ``sim.Play`` built with
    ``screen=True``). Methods: ``handle(event)`` (False to quit), ``draw()``,
    ``tick()`` (events, the simulation's passes, a frame if something changed),
    ``screenshot()``, ``screen_rgb()`` (the screen area as shown, unscaled).
    Attributes: ``surface``, ``scale``, ``help`` (the overlay shows), ``running``,
    ``message`` (the last screenshot's path)."""

    def __init__(self, play, scale=None):
        self.play = play
        self.device = play.device
        try:
            pygame.display.init()
            pygame.font.init()
            self.scale = scale or fitting_scale()
            size = (BODY_W * self.scale + PANEL_W, BODY_H * self.scale)
            self.surface = pygame.display.set_mode(size)
        except pygame.error as error:
            pygame.display.quit()
            raise NoWindow(str(error)) from None
        pygame.display.set_caption("Spit handheld (simulator)")
        self.speaker = Speaker(self.device.pwm)
        self.keys = pygame_keys()
        self.places = button_places()
        self.font = pygame.font.Font(None, 12 * self.scale)
        self.text_font = pygame.font.Font(None, 22)
        self.help = False
        self.running = True
        self.message = ""
        self._shown = None  # what the last frame showed, to skip identical frames
        self._drawn_at = 0.0
        self._heard = 0.0  # when the events were last read
        self._shots = 0

    # -- input -------------------------------------------------------------------

    def handle(self, event, at=None):
        """One event; a key of the device presses or releases its pin at device time
        ``at`` (None: now). False to quit."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE or (
                event.key == pygame.K_c and event.mod & pygame.KMOD_CTRL
            ):
                self.running = False
            elif event.key == pygame.K_F1:
                self.help = not self.help
            elif event.key == pygame.K_F12:
                self.screenshot()
            elif event.key in self.keys:
                self._pin(self.keys[event.key], True, at)
        elif event.type == pygame.KEYUP and event.key in self.keys:
            self._pin(self.keys[event.key], False, at)
        elif event.type == pygame.WINDOWFOCUSLOST:
            for button in range(keys.BUTTON_COUNT):  # its key-up events go elsewhere
                self._pin(button, False, at)
        return self.running

    def _pin(self, button, down, at):
        if at is not None:
            self.play.pacer.press_at(at, button, down)
        elif down:
            self.device.press(button)
        else:
            self.device.release(button)

    def listen(self):
        """Reads the events come since the last look, a key stamped with the device's
        time now. The loop looks between passes and between the parts of a frame, so a
        key waits for no frame to be drawn (SDL 2 stamps its events when it reads them
        too, and pygame-ce does not pass its stamp on)."""
        self._heard = time.monotonic()
        events = pygame.event.get()
        if events:
            at = self.play.pacer.device_time()
            for event in events:
                self.handle(event, at)

    def _listen_while_drawing(self):
        if time.monotonic() - self._heard >= LISTEN_S:
            self.listen()

    def tick(self):
        self.listen()
        if self.running:
            self.play.pacer.catch_up(self.listen)
        if not self.running:
            return False
        self.speaker.update()
        now = time.monotonic()
        if now - self._drawn_at >= FRAME_S:
            shown = self._state()
            if shown != self._shown:
                self.draw()
            self._drawn_at = now
        return True

    def screenshot(self):
        """The device's screen as a PNG (at the window's scale) in the shots folder."""
        folder = self.play.shots
        os.makedirs(folder, exist_ok=True)
        while True:
            self._shots += 1
            path = os.path.join(folder, "spit-%d-%d.png" % (self.play.seed, self._shots))
            if not os.path.exists(path):
                break
        self.device.virtual.save_png(path, self.scale)
        self.message = "saved " + path
        return path

    # -- drawing -----------------------------------------------------------------

    def _state(self):
        pressed = tuple(self.device.held(b) for b in range(keys.BUTTON_COUNT))
        return (self.device.virtual.revision, pressed, self.help, tuple(self._status()))

    def draw(self):
        self._shown = self._state()
        surface = self.surface
        surface.fill(PANEL)
        s = self.scale
        pygame.draw.rect(surface, BODY, (0, 0, BODY_W * s, BODY_H * s), border_radius=12 * s)
        pygame.draw.rect(
            surface,
            BEZEL,
            ((SCREEN_X - 3) * s, (SCREEN_Y - 3) * s, (WIDTH + 6) * s, (HEIGHT + 6) * s),
            border_radius=3 * s,
        )
        view = pygame.image.frombuffer(self.device.virtual.rgb(), (WIDTH, HEIGHT), "RGB")
        surface.blit(
            pygame.transform.scale(view, (WIDTH * s, HEIGHT * s)), (SCREEN_X * s, SCREEN_Y * s)
        )
        self._listen_while_drawing()
        for button in range(keys.BUTTON_COUNT):
            self._button(button)
            self._listen_while_drawing()
        self._panel()
        if self.help:
            self._listen_while_drawing()
            self._help()
        self._listen_while_drawing()
        pygame.display.flip()

    def _at(self, x, y):
        return (SCREEN_X + x) * self.scale, (SCREEN_Y + y) * self.scale

    def _button(self, button):
        x, y, r, kind = self.places[button]
        centre = self._at(x, y)
        lit = self.device.held(button)
        pygame.draw.circle(self.surface, (10, 10, 10), centre, (r + 1) * self.scale)
        pygame.draw.circle(self.surface, LIT if lit else COLOURS[kind], centre, r * self.scale)
        ink = (20, 20, 20) if lit or kind == "card" else (245, 245, 245)
        self._label(keys.KEY_NAMES[keys.key_of(button)], centre, ink, keys.player_of(button))

    def _label(self, text, centre, ink, player, font=None):
        image = (font or self.font).render(text, True, ink)
        if player:
            image = pygame.transform.rotate(image, 180)  # player 2 reads from the far side
        self.surface.blit(image, image.get_rect(center=centre))

    def _status(self):
        device = self.device
        lines = self.play.status()
        lines.append("screen: " + device.screen_name())
        if device.last_event:
            lines.append("last: " + device.last_event)
        if device.buzzer.playing:
            lines.append("sound: " + device.buzzer.playing)
        recorded = device.recorded()
        if recorded:
            lines.append("recorded " + recorded)
        if self.message:
            lines.append(self.message)
        if device.save_note():
            lines.append(device.save_note())
        return lines

    def _panel(self):
        x = BODY_W * self.scale + 12
        y = 12
        rows = ["Spit handheld"] + self._status()
        rows += [""] + ["P%d keys: %s" % (p + 1, " ".join(LAYOUT[p])) for p in (0, 1)]
        rows += ["F1 shows them", "F12 saves the screen", "Esc quits"]
        for i, text in enumerate(rows):
            ink = LIT if i == 0 else TEXT if text.startswith(_BRIGHT) else DIM_TEXT
            for part in _fit(self.text_font, text, PANEL_W - 24):
                self.surface.blit(self.text_font.render(part, True, ink), (x, y))
                y += 20

    def _help(self):
        s = self.scale
        shade = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        self.surface.blit(shade, (0, 0))
        for button in range(keys.BUTTON_COUNT):
            x, y, _, _ = self.places[button]
            self._keycap(key_label(button), self._at(x, y))
        box = pygame.Rect(SCREEN_X * s + 8, SCREEN_Y * s + 8, WIDTH * s - 16, HEIGHT * s - 16)
        pygame.draw.rect(self.surface, PANEL, box, border_radius=8)
        pygame.draw.rect(self.surface, LIT, box, 2, border_radius=8)
        columns = ("",) + keys.KEY_NAMES
        rows = [columns] + [("P%d" % (p + 1),) + LAYOUT[p] for p in (0, 1)]
        step = (box.width - 24) // len(columns)
        y = box.top + 16
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                centre = (box.left + 12 + step * c + step // 2, y + 10)
                if r and c:
                    self._keycap(text, centre)
                else:
                    self._label(text, centre, LIT if r == 0 else TEXT, 0, self.text_font)
            y += 30
        y += 10
        lines = how_lines() + [
            "",
            "P1 sits at the bottom, P2 at the top.",
            "F1 closes this, F12 saves a screenshot, Esc quits.",
        ]
        for text in lines:
            for part in _wrap(text, box.width // 9):
                image = self.text_font.render(part, True, TEXT)
                self.surface.blit(image, image.get_rect(midtop=(box.centerx, y)))
                y += 21

    def _keycap(self, text, centre):
        image = self.text_font.render(text, True, (0, 0, 0))
        cap = image.get_rect(center=centre).inflate(12, 6)
        pygame.draw.rect(self.surface, KEYCAP, cap, border_radius=4)
        pygame.draw.rect(self.surface, (0, 0, 0), cap, 1, border_radius=4)
        self.surface.blit(image, image.get_rect(center=centre))

    def screen_rgb(self):
        """The screen area of the window, one sample per device pixel, as RGB bytes."""
        s = self.scale
        area = self.surface.subsurface((SCREEN_X * s, SCREEN_Y * s, WIDTH * s, HEIGHT * s))
        data = pygame.image.tobytes(area, "RGB")
        row = WIDTH * s * 3
        out = []
        for y in range(HEIGHT):
            line = data[y * s * row : y * s * row + row]
            out.extend(line[x : x + 3] for x in range(0, row, 3 * s))
        return b"".join(out)


def _fit(font, text, width):
    """``text`` in lines no wider than ``width`` pixels in ``font``, broken at spaces and
    after slashes, never inside a name (one wider than a line has a line of its own)."""
    lines = [""]
    for piece in re.findall(r"[^ /]*[ /]?", text):
        if lines[-1] and font.size((lines[-1] + piece).rstrip())[0] > width:
            lines.append("")
        lines[-1] += piece.lstrip() if not lines[-1] else piece
    return [line.rstrip() for line in lines if line.strip()] or [""]  # a blank row stays


def _wrap(text, columns):
    words = text.split(" ")
    lines = [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > columns:
            lines.append("")
        lines[-1] = (lines[-1] + " " + word).strip()
    return lines


def run(play, scale=None):
    """Play in a window until Esc, Ctrl-C or the window is closed."""
    window = Window(play, scale)
    try:
        while window.tick():
            time.sleep(0.001)
    except KeyboardInterrupt:
        pass
    finally:
        window.speaker.close()
        pygame.display.quit()
    return 0
