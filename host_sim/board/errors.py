"""How the board tools fail: ``FlashError`` (a message saying what to do, and the exit
status), ``BoardError`` (code run on the board raised), and the exit statuses."""

EXIT_NO_BOARD = 2
EXIT_INCOMPATIBLE = 3
EXIT_FAILED = 4


class FlashError(Exception):
    """Flashing stopped; the message says why and what to do. ``code`` is the exit status."""

    def __init__(self, message, code=EXIT_FAILED):
        super().__init__(message)
        self.code = code


class BoardError(Exception):
    """Code run on the board raised; the message holds its traceback."""
