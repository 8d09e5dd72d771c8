"""Tuples of things with an id, held in the state, changed by id: one added once (told
again on a reconnect, it is not held twice), one taken away. Pure; no Qt."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

V = TypeVar("V")


def once(held: tuple[V, ...], item: V, key: Callable[[V], str]) -> tuple[V, ...] | None:
    """`held` with `item` after it; None when one of that id is held already (told again
    on a reconnect: asked once)."""
    return None if any(key(h) == key(item) for h in held) else (*held, item)


def without(held: tuple[V, ...], gone: str, key: Callable[[V], str]) -> tuple[V, ...] | None:
    """`held` without the one of id `gone`; None when none was held."""
    kept = tuple(h for h in held if key(h) != gone)
    return None if kept == held else kept
