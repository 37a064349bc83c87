"""The simulator (``make sim``, ``python -m host_sim``): the firmware's main loop on the
device fakes (``simulated_device``), its command line (``flags``), the keyboard as the
players' buttons (``keyboard``), replays (``replay``), the buzzer as sound (``speaker``), and
its two views: the device in a window (``window``) and in a terminal (``terminal``);
``simulator`` picks the view, or plays headless."""
