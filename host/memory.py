"""Handing freed memory back to the system. glibc keeps the pages of freed objects for
reuse, so a host that once parsed a large message (a flood of connections, a tool result
of tens of megabytes) would stay that large for good; `malloc_trim` returns them."""

from __future__ import annotations

import asyncio
import ctypes
import time
from collections.abc import Callable

MIN_INTERVAL_S = 1.0  # a trim walks the heap: at most once a second


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, where there is one: looked up among the symbols the process
    has loaded (ctypes.util.find_library would run ldconfig in a subprocess)."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


class Trimmer:
    """`give_back()` after memory was freed: a trim now, or in a moment if one was
    done in the last second (so a burst of frees costs one walk of the heap)."""

    def __init__(self) -> None:
        self._trim = _malloc_trim()
        self._trimmed = 0.0
        self._pending = False

    def give_back(self) -> None:
        if self._trim is None:
            return
        if time.monotonic() - self._trimmed < MIN_INTERVAL_S:
            if not self._pending:
                self._pending = True
                asyncio.get_running_loop().call_later(MIN_INTERVAL_S, self.trim_now)
            return
        self.trim_now()

    def trim_now(self) -> None:
        self._pending = False
        self._trimmed = time.monotonic()
        if self._trim is not None:
            self._trim(0)


TRIMMER = Trimmer()  # one per process: the heap is the process's
