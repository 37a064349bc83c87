"""``python -m host_sim.board flash | repl | pull | package-json``: see ``commands``."""

import sys

from host_sim.board.commands import main

sys.exit(main())
