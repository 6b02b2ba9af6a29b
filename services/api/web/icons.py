"""The page's app icons (``static/icons/``), drawn once by this script and committed: a city's skyline on the
header's ink, in PNG at 192 and 512 pixels, and a maskable 512 whose drawing keeps to the safe zone (the middle
80 %) of a full-bleed background. Pure standard library (zlib), so no imaging package is needed:

    python -m services.api.web.icons

The web app manifest (``static/manifest.webmanifest``) names them; every page links it."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent / "static" / "icons"

INK = (0x1D, 0x24, 0x30)
ACCENT = (0x0B, 0x5C, 0xAD)
GOLD = (0xFF, 0xBF, 0x47)
PAPER = (0xF6, 0xF4, 0xEF)

Pixel = tuple[int, int, int, int]

# The skyline on a 100 x 100 grid: (left, top, right, bottom, colour) towers standing on a ground line.
TOWERS = (
    (14, 46, 30, 80, PAPER),
    (32, 22, 50, 80, GOLD),
    (52, 36, 68, 80, PAPER),
    (70, 54, 86, 80, PAPER),
)
GROUND = (10, 80, 90, 84, ACCENT)


def _inside_rounded(x: float, y: float, size: int, radius: float) -> bool:
    cx = min(max(x, radius), size - radius)
    cy = min(max(y, radius), size - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def draw(size: int, maskable: bool) -> list[list[Pixel]]:
    """The icon's pixels: full-bleed ink when ``maskable`` (the drawing scaled into the safe zone), else a rounded
    ink square on transparency."""
    scale, offset = (0.8, 0.1) if maskable else (1.0, 0.0)
    rows: list[list[Pixel]] = []
    for y in range(size):
        row: list[Pixel] = []
        for x in range(size):
            if not maskable and not _inside_rounded(x + 0.5, y + 0.5, size, size * 0.18):
                row.append((0, 0, 0, 0))
                continue
            u = ((x + 0.5) / size - offset) / scale * 100
            v = ((y + 0.5) / size - offset) / scale * 100
            colour = INK
            for left, top, right, bottom, fill in (*TOWERS, GROUND):
                if left <= u < right and top <= v < bottom:
                    colour = fill
            windows = any(left + 3 <= u < right - 3 and top + 4 <= v < bottom - 4 and fill == PAPER
                          and (u - left - 3) % 6 < 3 and (v - top - 4) % 8 < 4
                          for left, top, right, bottom, fill in TOWERS)
            if windows:
                colour = ACCENT
            row.append((*colour, 255))
        rows.append(row)
    return rows


def png(rows: list[list[Pixel]]) -> bytes:
    """``rows`` (RGBA) as a PNG file."""
    height, width = len(rows), len(rows[0])
    raw = b"".join(b"\x00" + bytes(channel for pixel in row for channel in pixel) for row in rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True)):
        (ICONS / name).write_bytes(png(draw(size, maskable)))


if __name__ == "__main__":
    main()
