"""Budgets of the save file (SPEC section 7), for ``make bench``.

``figures()`` returns:

- ``save_ms``: one ``Storage.save`` (the JSON text, the new file, two renames) on the
  MicroPython VM's in-memory filesystem, the mean of ``_SAVES`` saves. It is the
  interpreter's share only: erasing and programming the Pico's flash comes on top.
- ``save_bytes``: the size of the file a save leaves, with every field at its longest
  (the longest option values, CPU levels in both seats, four-digit tallies and a full
  record of reactions for both players).
"""

import json

from host_sim.vm.micropython_vm import run as run_in_vm

_SAVES = 200

_VM_SAVES = """
import os, time
from drivers.storage import Storage
from spit.cpu import LEVEL_NAMES
from spit.options import CHOICES
from spit.savedata import RECENT, REACTION_MAX_MS, TIE_MAX_US, SaveData

os.mkdir('/bench')
data = SaveData()
for name, values in CHOICES:
    longest = values[0]
    for value in values:
        if len(value) > len(longest):
            longest = value
    data.options.set(name, longest)
data.seats = [LEVEL_NAMES[-1], LEVEL_NAMES[-1]]
data.muted = True
data.tie_us = TIE_MAX_US
data.games = [9999, 9999]
data.matches = [9999, 9999]
data.best_ms = [REACTION_MAX_MS, REACTION_MAX_MS]
data.recent_ms = [[REACTION_MAX_MS] * RECENT, [REACTION_MAX_MS] * RECENT]
storage = Storage('/bench/spit.json')
storage.load()
start = time.ticks_us()
for _ in range(%(saves)d):
    assert storage.save(data)
spent = time.ticks_diff(time.ticks_us(), start)
print(spent / %(saves)d / 1000, os.stat('/bench/spit.json')[6])
"""


def figures():
    save_ms, save_bytes = run_in_vm(_VM_SAVES % {"saves": _SAVES}).split()
    return {"save_ms": round(float(save_ms), 3), "save_bytes": int(save_bytes)}


if __name__ == "__main__":
    print(json.dumps(figures()))
