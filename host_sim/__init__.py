"""Importing host_sim puts firmware/ and the device fakes first on sys.path, for CPython."""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE_DIR = os.path.join(os.path.dirname(_HERE), "firmware")
FAKES_DIR = os.path.join(_HERE, "fakes")

for _path in (FAKES_DIR, FIRMWARE_DIR):
    if _path not in sys.path:
        sys.path.insert(0, _path)
