"""How a recorded file's name is told to clients: valid Unicode, each byte that is not
UTF-8 written as \\xNN, and found again from that form."""

from __future__ import annotations

from collections.abc import Collection


def shown(name: str) -> str:
    """A recorded name as clients are told it: valid Unicode, each byte of the name that
    is not UTF-8 written `\\xNN` (the name is read with "surrogateescape", so such a byte
    is the lone surrogate U+DC80+byte). Lossless enough: `resolve` finds the name again."""
    if name.isascii() or not any("\udc80" <= c <= "\udcff" for c in name):
        return name
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff" else c for c in name)


def resolve(given: str, recorded: Collection[str]) -> str | None:
    """The recorded name a client meant by `given` (a name as `shown` wrote it, or the
    name itself); None when no recorded name reads so."""
    if given in recorded:
        return given
    return next((name for name in recorded if shown(name) == given), None)
