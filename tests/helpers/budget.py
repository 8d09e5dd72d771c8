"""How much of the suite's time a property test may spend.

The `ci` profile runs 10,000 examples: right for the byte-level parsers (framing), where
any input is cheap and every odd byte is a new case. A property whose input space is
small (a diff over lists of six letters) or whose example is costly (a whole handshake
and dispatch against a database) reaches its depth sooner; `examples(n)` caps it there,
and never raises a smaller profile's count (`dev`: 500)."""

from __future__ import annotations

from typing import Any

from hypothesis import settings


def examples(n: int, **more: Any) -> settings:
    return settings(max_examples=min(n, settings.default.max_examples), **more)
