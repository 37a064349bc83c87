"""PNG files from RGB rows, with zlib and struct alone."""

import struct
import zlib


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def encode(width, height, rgb, scale=1):
    """A PNG of ``rgb`` (``width * height * 3`` bytes, rows top down), each pixel
    drawn as a ``scale`` x ``scale`` square."""
    row_bytes = width * 3
    rows = []
    for y in range(height):
        row = rgb[y * row_bytes : (y + 1) * row_bytes]
        if scale > 1:
            row = b"".join(row[i : i + 3] * scale for i in range(0, row_bytes, 3))
        rows.extend([b"\x00" + row] * scale)  # filter type 0: the row as it is
    header = struct.pack(">IIBBBBB", width * scale, height * scale, 8, 2, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(b"".join(rows), 6)),
            _chunk(b"IEND", b""),
        )
    )


def decode(data):
    """``(width, height, rgb)`` of a PNG written by ``encode`` (8-bit RGB, filter 0)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    width = height = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if (
            zlib.crc32(kind + body)
            != struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])[0]
        ):
            raise ValueError("bad CRC in %r" % kind)
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 2):
                raise ValueError("only 8-bit RGB")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 3 + 1
    rows = []
    for y in range(height):
        if raw[y * stride] != 0:
            raise ValueError("only filter type 0")
        rows.append(raw[y * stride + 1 : (y + 1) * stride])
    return width, height, b"".join(rows)
