"""What the window's process leaves out (nib_desktop.shell.lean), checked in a fresh Python that
starts as the app does and imports everything the connected window runs."""

from __future__ import annotations

import json

from tests.test_imports import python_says

SCRIPT = """
import json, sys
from nib_desktop.shell.lean import lean_start
lean_start()
import asyncio, hashlib, hmac, linecache
import nib_desktop.shell.boot, nib_desktop.shell.window, nib_desktop.main_role
import host.protocol.plain_methods as rpc
rpc.HELLO.result.from_wire  # the contract's plain twins load (the window's)
maps = open("/proc/self/maps").read()
print(json.dumps({
    "openssl_mapped": "libcrypto" in maps or "libssl" in maps,
    "cached_sources": len(linecache.cache),
    "digest": hashlib.sha256(b"nib").hexdigest()[:8],
    "hmac": hmac.new(b"k", b"nib", "sha256").hexdigest()[:8],
    "loop": asyncio.new_event_loop().run_until_complete(asyncio.sleep(0, "ran")),
}))
"""


def run(script: str) -> dict[str, object]:
    """What the script prints last, as JSON."""
    return dict(json.loads(python_says(script).splitlines()[-1]))


def test_the_window_process_loads_no_openssl_and_keeps_no_sources() -> None:
    """OpenSSL (5 MB resident) is never mapped, PySide6 keeps no module's source lines
    (8 MB for the app's imports), and what the window uses of both still works."""
    seen = run(SCRIPT)
    assert seen == {
        "openssl_mapped": False,
        "cached_sources": 0,
        "digest": "bbb29e93",
        "hmac": "3fd1285f",
        "loop": "ran",
    }


def test_without_it_the_same_imports_map_openssl_and_keep_sources() -> None:
    """The same imports in a Python that did not start lean: the costs are real."""
    seen = run(SCRIPT.replace("lean_start()\n", ""))
    assert seen["openssl_mapped"] is True
    assert int(str(seen["cached_sources"])) > 50
