"""``firmware/package.json``, for ``mpremote mip install``: every firmware file at the
same path on the board.

    .venv/bin/python -m host_sim.board package-json   # rewrite firmware/package.json
"""

import json
import os
import tomllib

from host_sim.board.compiling import REPO, sources


def mip_manifest():
    """The text of firmware/package.json: every firmware file, at the same path on the
    board (relative URLs, which mip resolves against the manifest's own location)."""
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        version = tomllib.load(f)["project"]["version"]
    urls = ",\n".join("    %s" % json.dumps([source, source]) for source in sources())
    return '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (urls, json.dumps(version))
