"""How much of the suite's time a property test may spend.

The `ci` profile runs 10,000 examples: right for the byte-level parser fed arbitrary
bytes (`test_arbitrary_bytes_never_crash_or_grow`, framing), where any input is cheap and
every odd byte is a new case; it keeps that depth. A property whose input space is small
(a diff over lists of six letters: 2,000), whose cases are where a stream is cut rather
than its bytes (whole frames cut anywhere: 2,500) or whose example is costly (a whole
handshake and dispatch against a database: 1,000 messages, 3,000 byte strings) reaches
its depth sooner; `examples(n)` caps it there, and never raises a smaller profile's count
(`dev`: 500). Each then runs within about 10 s here."""

from __future__ import annotations

from typing import Any

from hypothesis import settings


def examples(n: int, **more: Any) -> settings:
    return settings(max_examples=min(n, settings.default.max_examples), **more)
