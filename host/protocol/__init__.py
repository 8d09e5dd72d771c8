"""The contract between the desktop process and the host process.

Everything both sides share lives here: the wire models, the method table, the error
codes, the framing and the JSON-RPC endpoint. Nothing here imports Qt GUI modules or apsw.
"""

import os
import sys
import types


def _without_pydantic_plugins() -> None:
    """Neither process uses pydantic plugins. Without this, building the first model's
    validator imports pydantic's plugin loader, which imports `importlib.metadata` (and
    `email`, `zipfile`, ...) at its top even when the environment disables plugins, then
    scans every installed distribution's entry points: 20-25 ms on the way to the host's
    ready line and to the window's first answer, and 2 MB resident. The loader's one
    function is given here with the answer it gives when plugins are disabled."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    name = "pydantic.plugin._loader"
    if name not in sys.modules and os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__":
        loader = types.ModuleType(name, "pydantic's plugin loader, plugins disabled")
        loader.get_plugins = tuple  # type: ignore[attr-defined]
        sys.modules[name] = loader


_without_pydantic_plugins()

PROTOCOL_VERSION = 1
SCHEMA_VERSION = 30
