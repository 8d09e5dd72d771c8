"""Framing on bytes: a table of named cases and hypothesis over arbitrary streams."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from host.protocol.framing import (
    MAX_FRAME_BYTES,
    MAX_HEADER_BYTES,
    FrameDecoder,
    FramingError,
    encode_frame,
)
from tests.helpers.budget import examples


def test_round_trip_in_any_chunking() -> None:
    bodies = [b"{}", "ünïcødé ✓".encode(), b"x" * 10_000]
    stream = b"".join(encode_frame(body) for body in bodies)
    for size in (1, 2, 7, 1000, len(stream)):
        decoder = FrameDecoder()
        frames = []
        for start in range(0, len(stream), size):
            frames += decoder.feed(stream[start : start + size])
        assert frames == bodies
        assert decoder.buffered == 0


@pytest.mark.parametrize(
    ("data", "too_large"),
    [
        (b"Content-Length: %d\r\n\r\n" % (MAX_FRAME_BYTES + 1), True),
        (b"Content-Type: a\r\n\r\n", False),
        (b"Content-Length: 1\r\nContent-Length: 1\r\n\r\n", False),
        (b"Content-Length: 0x10\r\n\r\n", False),
        (b"garbage\r\n\r\n", False),
        (b"a" * (MAX_HEADER_BYTES + 1), False),
    ],
    ids=["oversized", "no length", "duplicate length", "hex length", "no colon", "long header"],
)
def test_bad_headers_break_the_stream(data, too_large) -> None:
    decoder = FrameDecoder()
    with pytest.raises(FramingError) as info:
        decoder.feed(data)
    assert info.value.too_large is too_large
    with pytest.raises(FramingError):
        decoder.feed(encode_frame(b"{}"))


def test_extra_headers_any_order_and_case() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"X-A: 1\r\ncontent-length:2\r\nContent-Type: y\r\n\r\n{}") == [b"{}"]


def test_exact_limit_is_accepted() -> None:
    decoder = FrameDecoder()
    header = b"Content-Length: %d\r\n\r\n" % MAX_FRAME_BYTES
    assert decoder.feed(header) == []
    assert decoder.feed(b" " * MAX_FRAME_BYTES) == [b" " * MAX_FRAME_BYTES]


@pytest.mark.timeout(300)
@examples(2_500)  # whole frames cut anywhere: the cuts, not the bytes, are the cases
@given(st.lists(st.binary(max_size=300), max_size=8), st.data())
def test_valid_streams_decode_exactly(bodies, data) -> None:
    stream = b"".join(encode_frame(body) for body in bodies)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = FrameDecoder()
    frames = []
    last = 0
    for cut in [*cuts, len(stream)]:
        frames += decoder.feed(stream[last:cut])
        last = cut
    assert frames == bodies


@pytest.mark.timeout(300)
@given(st.binary(max_size=2000))  # the profile's full depth: every odd byte is a new case
def test_arbitrary_bytes_never_crash_or_grow(blob) -> None:
    decoder = FrameDecoder()
    try:
        for start in range(0, len(blob), 97):
            decoder.feed(blob[start : start + 97])
    except FramingError:
        return
    assert decoder.buffered <= max(len(blob), MAX_HEADER_BYTES)
