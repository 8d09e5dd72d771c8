"""What the window's process leaves out of memory that Python would load for nothing."""

from __future__ import annotations

import gc
import sys

OPENSSL_MODULES = ("ssl", "_ssl", "_hashlib")


def without_openssl() -> None:
    """The window never speaks TLS and never needs OpenSSL's digests: its one peer is
    the host, over a local socket. Yet asyncio imports `ssl` to offer TLS, and
    pydantic's `secrets` import reaches `hmac`, which imports `_hashlib` for OpenSSL's
    digests: libcrypto and libssl, about 5 MB resident, and 8 ms of start-up. Before
    anything has imported them, they are marked absent, which the standard library takes
    as a Python built without OpenSSL (asyncio then offers no TLS; hashlib and hmac use
    Python's own digests). Call it before anything imports asyncio or pydantic; once
    one of them is loaded, nothing changes."""
    if any(name in sys.modules for name in OPENSSL_MODULES):
        return
    for name in OPENSSL_MODULES:
        sys.modules[name] = None  # type: ignore[assignment]


def without_source_reads() -> None:
    """PySide6 looks at every module imported after it to learn whether the module
    selects one of its `__feature__`s (snake_case, true_property): it reads the module's
    whole source with `inspect.getsource`, which keeps every line of every such module in
    `linecache` for the life of the process. For this app's imports that is over 8 MB
    resident and the time to read and split the files of asyncio, pydantic and the app.
    No module of this app selects a feature, so every module is taken as one that uses
    PySide6 with none selected: the answer PySide6 itself gives to the app's own modules.
    Call it before PySide6's first import, or right after it: what was read until then
    is dropped. A PySide6 without this hook is left as it is."""
    import linecache

    import PySide6  # noqa: F401 - installs the import hook

    feature = sys.modules.get("PySide6.support.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _uses_pyside  # type: ignore[attr-defined]
    linecache.clearcache()


def _uses_pyside(_module: object) -> bool:
    return True


def pause_collector() -> None:
    """Start-up makes about 50,000 objects that live as long as the window (its modules,
    their classes, the views) and no garbage worth a pass: the collector's young passes
    would walk them about 80 times before the first frame, 20-30 ms of the start. Paused
    from the app's first call until `resume_collector`."""
    gc.disable()


def resume_collector() -> None:
    """After start-up's imports: what they made is kept out of every later pass (frozen,
    as the host does once it serves), and the collector runs again. Frozen first, or its
    first pass would walk all of start-up's objects, still in the youngest generation."""
    gc.freeze()
    gc.enable()


def lean_start() -> None:
    """The window process's first call, before its other imports."""
    without_openssl()
    without_source_reads()
