"""The scripts the board runs, in MicroPython (kept to os, json, hashlib, binascii): the
probe of its version and free space, the watchdog stopped, the listing of its firmware
files, the staging, the hashes, the imports, the swap into place, the transcripts."""

import ast

from host_sim.board.compiling import BOOT

STAGING = "/.spit_flash"
TRANSCRIPTS = "/transcripts"  # the firmware's finished games, one .txt file each
MANIFEST = "/.spit_firmware"


_HELPERS = """\
import os, json, hashlib, binascii
def _isdir(p):
    try:
        return os.stat(p)[0] & 0x4000 != 0
    except OSError:
        return False
def _exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
def _mkdirs(p):
    d = ''
    for part in p.split('/')[1:-1]:
        d += '/' + part
        if not _isdir(d):
            os.mkdir(d)
def _hash(p):
    h = hashlib.sha256()
    f = open(p, 'rb')
    while True:
        b = f.read(512)
        if not b:
            break
        h.update(b)
    f.close()
    return binascii.hexlify(h.digest()).decode()
def _walk(d, out):
    for n in os.listdir(d):
        p = d.rstrip('/') + '/' + n
        if _isdir(p):
            _walk(p, out)
        else:
            out.append(p)
def _rmtree(d):
    if not _isdir(d):
        return
    for n in os.listdir(d):
        p = d + '/' + n
        if _isdir(p):
            _rmtree(p)
        else:
            os.remove(p)
    os.rmdir(d)
def _module(p):
    return p[-3:] == '.py' or p[-4:] == '.mpy'
"""


# A watchdog the game started keeps running after mpremote's interrupt and soft reset,
# and would reset the board mid-flash or under the REPL: clear the ENABLE bit of its CTRL
# register (through the atomic-clear alias, 0x3000 up).
STOP_WATCHDOG = """\
import os
try:
    m = os.uname().machine
except AttributeError:
    m = ''
if 'RP2040' in m or 'RP2350' in m:
    import machine
    machine.mem32[(0x40058000 if 'RP2040' in m else 0x400d8000) | 0x3000] = 1 << 30
"""
PROBE = STOP_WATCHDOG + """\
import sys
try:
    s = os.statvfs('/')
    free = s[0] * s[4]
except (AttributeError, OSError):
    free = -1
print(repr((tuple(sys.implementation.version[:3]), getattr(sys.implementation, '_mpy', 0),
            sys.platform, m, free)))
"""


def parse_probe(text):
    version, mpy, platform, machine, free = ast.literal_eval(text.strip())
    return {"version": tuple(version), "mpy": mpy, "platform": platform, "machine": machine,
            "free": free}


def listing_script(folders, extra):
    """SHA-256 of the .py/.mpy files in ``folders`` and at the top level, and of the
    ``extra`` paths that exist; and the manifest of the last flash."""
    return _HELPERS + """\
out = {}
paths = []
for d in %(folders)r:
    if _isdir(d):
        _walk(d, paths)
paths = [p for p in paths if _module(p)]
paths += ['/' + n for n in os.listdir('/') if _module(n) and not _isdir('/' + n)]
paths += [p for p in %(extra)r if _exists(p) and not _isdir(p)]
for p in set(paths):
    out[p] = _hash(p)
manifest = []
if _exists(%(manifest)r):
    manifest = [line.strip() for line in open(%(manifest)r) if line.strip()]
print(json.dumps({'files': out, 'manifest': manifest}))
""" % {"folders": folders, "extra": extra, "manifest": MANIFEST}


def staging_script(unchanged, upload):
    """Empty the staging folder, copy the unchanged live files into it, make its folders."""
    return _HELPERS + """\
_rmtree(%(staging)r)
os.mkdir(%(staging)r)
for p in %(unchanged)r:
    _mkdirs(%(staging)r + p)
    src = open(p, 'rb')
    dst = open(%(staging)r + p, 'wb')
    while True:
        b = src.read(512)
        if not b:
            break
        dst.write(b)
    src.close()
    dst.close()
for p in %(upload)r:
    _mkdirs(%(staging)r + p)
""" % {"staging": STAGING, "unchanged": unchanged, "upload": upload}


def hashes_script(paths):
    return _HELPERS + "print(json.dumps({p: _hash(%r + p) for p in %r}))\n" % (STAGING, paths)


def import_script(modules):
    """Import every module from the staging folder, with the live firmware out of the path."""
    return """\
import sys, json
sys.path[:] = [%(staging)r] + [p for p in sys.path if p not in ('', '/', '.')]
failed = []
for name in %(modules)r:
    try:
        __import__(name)
    except Exception as e:
        failed.append([name, '%%s: %%s' %% (type(e).__name__, e)])
print(json.dumps(failed))
""" % {"staging": STAGING, "modules": modules}


def swap_script(paths, remove):
    """Move the staged firmware into place: main.py out first and back in last."""
    return _HELPERS + """\
if _exists(%(boot)r):
    os.remove(%(boot)r)
for p in %(remove)r:
    if _exists(p):
        os.remove(p)
for p in %(paths)r:
    if p == %(boot)r:
        continue
    _mkdirs(p)
    if _exists(p):
        os.remove(p)
    os.rename(%(staging)r + p, p)
f = open(%(manifest)r + '.new', 'w')
for p in %(paths)r:
    f.write(p + '\\n')
f.close()
if _exists(%(manifest)r):
    os.remove(%(manifest)r)
os.rename(%(manifest)r + '.new', %(manifest)r)
if _exists(%(staging)r + %(boot)r):
    os.rename(%(staging)r + %(boot)r, %(boot)r)
_rmtree(%(staging)r)
print('ok')
""" % {"boot": "/" + BOOT, "remove": remove, "paths": paths, "staging": STAGING,
       "manifest": MANIFEST}


def transcripts_script():
    """The names of the finished games' transcripts on the board, as a JSON list; a game
    being written (``next.tmp``) is not finished."""
    return _HELPERS + """\
names = []
if _isdir(%(folder)r):
    names = [n for n in os.listdir(%(folder)r) if n[-4:] == '.txt'
             and not _isdir(%(folder)r + '/' + n)]
print(json.dumps(names))
""" % {"folder": TRANSCRIPTS}
