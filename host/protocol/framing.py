"""Content-Length framing as in the Language Server Protocol base protocol.

Works on bytes: Content-Length counts bytes of the body, headers may come in any order
and any letter case, and both the header block and the body are capped so that a peer
cannot make the reader grow without bound.
"""

from __future__ import annotations

import json
from typing import Any

MAX_FRAME_BYTES = 8 * 1024 * 1024
MAX_HEADER_BYTES = 8 * 1024

_HEADER_END = b"\r\n\r\n"


class FramingError(Exception):
    """The byte stream can no longer be read as frames; the connection must close."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


def encode_frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def encode_message(message: dict[str, Any]) -> bytes:
    return encode_frame(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode())


class FrameDecoder:
    """Turns a byte stream into frame bodies. After a FramingError it stays broken."""

    def __init__(self, max_frame: int = MAX_FRAME_BYTES) -> None:
        self._buffer = bytearray()
        self._expected: int | None = None
        self.max_frame = max_frame
        self._broken: FramingError | None = None

    def release(self) -> None:
        """Free what is buffered (the connection is gone)."""
        self._buffer = bytearray()
        self._expected = None

    def feed(self, data: bytes) -> list[bytes]:
        if self._broken is not None:
            raise self._broken
        self._buffer += data
        frames: list[bytes] = []
        try:
            while True:
                if self._expected is None:
                    end = self._buffer.find(_HEADER_END)
                    if end < 0:
                        if len(self._buffer) > MAX_HEADER_BYTES:
                            raise FramingError("header block too long")
                        break
                    if end > MAX_HEADER_BYTES:
                        raise FramingError("header block too long")
                    self._expected = self._parse_headers(bytes(self._buffer[:end]))
                    del self._buffer[: end + len(_HEADER_END)]
                if len(self._buffer) < self._expected:
                    break
                frames.append(bytes(self._buffer[: self._expected]))
                del self._buffer[: self._expected]
                self._expected = None
        except FramingError as error:
            self._broken = error
            self._buffer.clear()
            raise
        return frames

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def _parse_headers(self, block: bytes) -> int:
        length: int | None = None
        for line in block.split(b"\r\n"):
            name, sep, value = line.partition(b":")
            if not sep or not name.strip():
                raise FramingError(f"malformed header line {line[:80]!r}")
            if name.strip().lower() != b"content-length":
                continue
            text = value.strip()
            if length is not None:
                raise FramingError("duplicate Content-Length header")
            if not text.isdigit() or len(text) > 12:
                raise FramingError(f"invalid Content-Length {text[:40]!r}")
            length = int(text)
        if length is None:
            raise FramingError("missing Content-Length header")
        if length > self.max_frame:
            raise FramingError(
                f"frame of {length} bytes exceeds the {self.max_frame} byte limit", too_large=True
            )
        return length
