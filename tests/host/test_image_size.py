"""An image's size read from its header, never decoded (issue 46, item 14): a tool call's
image is kept only when its header says at most 16 megapixels."""

from __future__ import annotations

import struct
import zlib

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage, QImageWriter

from host.acp.image_size import MAX_PIXELS, fits, image_size


def encoded(width: int, height: int, kind: str) -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(0x336699)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, kind)
    return bytes(data.data())


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "WEBP"])
def test_each_kind_says_its_size(kind: str) -> None:
    if kind.lower().encode() not in [bytes(f.data()) for f in QImageWriter.supportedImageFormats()]:
        pytest.skip(f"this Qt writes no {kind}")
    assert image_size(encoded(37, 21, kind)) == (37, 21)
    assert fits(encoded(37, 21, kind))


def test_a_gif_says_its_size() -> None:
    gif = b"GIF89a" + struct.pack("<HH", 640, 480) + b"\x00" * 20
    assert image_size(gif) == (640, 480)


def test_a_bomb_is_refused_by_its_header() -> None:
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    side = struct.pack(">IIBBBBB", 30_000, 30_000, 8, 0, 0, 0, 0)
    bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", side) + chunk(b"IDAT", zlib.compress(b"\0" * 1000))
    assert image_size(bomb) == (30_000, 30_000) and MAX_PIXELS < 30_000**2
    assert not fits(bomb)
    assert not fits(b"not an image") and not fits(b"\x89PNG\r\n\x1a\n")
