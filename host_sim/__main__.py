"""``python -m host_sim``: the simulator (see ``host_sim.sim.simulator``)."""

import sys

try:
    from host_sim.sim.simulator import main
except KeyboardInterrupt:  # Ctrl-C while it is still starting up
    sys.exit(0)

sys.exit(main())
