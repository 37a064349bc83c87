"""Runs on a real MicroPython VM (the WebAssembly port, under Node): ``micropython_vm``
runs a script with ``firmware/`` on the VM's filesystem, ``machine_module`` gives the VM the
``machine`` it lacks, and ``firmware_path`` builds the whole device on it for the tests
and ``make bench``."""
