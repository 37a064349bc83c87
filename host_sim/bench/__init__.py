"""``make bench`` (``python -m host_sim.bench``): the budgets measured, a module per family
of figures. On CPython and the MicroPython VM: ``input_path`` (with ``input_model``, button
hardware in simulated time), ``engine``, ``renderer``, ``main_loop``, ``save_file``; on the
emulated Pico: ``emulated`` (with ``probe``), ``attract``, ``pass_profile`` and
``render_calls``; ``runs`` keeps the margins over runs in a row, and ``heap_frames`` says
which firmware functions take their frame from the heap."""
