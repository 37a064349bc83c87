"""The emulated Pico judged by what its screen shows: ``reading`` reads text off a picture
of the screen, ``compare`` draws the firmware's pictures on the host and compares two,
``mirror`` is the firmware's own main loop on the host saying what the board should show,
and ``face`` is the board as a person meets it: buttons pressed, the screen watched."""
