"""What the tests share and test nothing by themselves; the tests import each as
``from helpers import positions``.

- ``positions``: game positions built from card names, and taken apart again.
- ``person``: a person at the device: reads the table off a face and presses keys.
- ``press_strategies``: hypothesis strategies for presses on bouncing buttons.
- ``pio_emulator``: a cycle-counting model of a PIO state machine, and a fake ``rp2``.
- ``power_cut``: power cuts and damaged files under the save file; its source runs on the
  MicroPython VM too.
- ``fake_board``: a fake Pico for ``host_sim.board`` whose files and code live on the VM.
- ``same_on_cpython``: a VM test script run on CPython too, to compare the two outputs.
- ``twin_cases``: the same inputs for both twins of every job.
"""
