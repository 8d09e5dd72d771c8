"""What the host does as it begins, after its ready line (`HostCore.begin`), run in a
fresh Python: what it leaves out, and what it makes ahead of a window's first calls."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.fresh_python import python_says


def test_a_host_without_plugins_or_mcp_servers_loads_neither(tmp_path: Path) -> None:
    """The host's tools start (after its ready line) without the plugins' module, and
    without building the models of MCP servers' settings: none is configured."""
    script = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from host.core import HostCore\n"
        f"core = HostCore(Path({str(tmp_path)!r}), services_later=True)\n"
        "core.load_services()\n"
        "async def start():\n"
        "    core.runtime.external.start()\n"
        "    from host.tools.mcp_config import StdioEntry\n"
        "    print(core.runtime.external.plugins, 'host.tools.plugins' in sys.modules,\n"
        "          StdioEntry.__pydantic_complete__)\n"
        "asyncio.run(start())\n"
    )
    assert python_says(script).split() == ["[]", "False", "False"]


def test_the_models_of_a_window_s_first_calls_are_built_as_the_host_begins(
    tmp_path: Path,
) -> None:
    """Each contract model is built on its first use; those of the calls a window makes
    as it connects (the lists, and the reads of the session it shows) are built while the
    host begins, before the window asks."""
    script = (
        "import asyncio\n"
        "from pathlib import Path\n"
        "from host.core import HostCore\n"
        "from host.protocol import methods as rpc\n"
        "calls = (rpc.HELLO, rpc.SESSIONS_LIST, rpc.TOOLS_LIST, rpc.AGENTS_LIST,\n"
        "         rpc.SETTINGS_GET, rpc.AGENTS_CONTROLS, rpc.TURNS_LIST, rpc.TODOS_GET,\n"
        "         rpc.MESSAGES_LIST)\n"
        "built = lambda: all(c.params.__pydantic_complete__ and c.result.__pydantic_complete__\n"
        "                    for c in calls)\n"
        f"core = HostCore(Path({str(tmp_path)!r}), services_later=True)\n"
        "async def begin():\n"
        "    before = built()\n"
        "    core.begin()\n"
        "    print(before, built())\n"
        "asyncio.run(begin())\n"
    )
    assert python_says(script).split() == ["False", "True"]
