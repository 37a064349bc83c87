"""Boot: the device's game loop (``device.main``), for ever.

Hold both SPIT buttons while powering on for the self-test.
"""

from device import main

if __name__ == "__main__":
    main()
