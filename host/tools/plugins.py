"""Plugin tools (contract section 13): what a plugin package writes, and how the host
finds them.

A plugin is a Python distribution with an entry point in the group `nib.tools` that names
a `PluginTool`, a list of them, or a function returning them:

    # pyproject.toml of the plugin
    [project.entry-points."nib.tools"]
    weather = "nib_weather:tools"

    # nib_weather.py
    from pydantic import BaseModel
    from host.tools.plugins import PluginContext, PluginTool

    class Args(BaseModel):
        city: str

    async def forecast(ctx: PluginContext, args: Args) -> str:
        return f"Sunny in {args.city}"

    tools = [PluginTool("forecast", "Tomorrow's weather in a city", Args, forecast)]

Each tool is offered to Agent turns under its own name, with its argument model's JSON
schema, and runs on the plugin execution path: a builtin tool it calls through
`ctx.call_builtin` (TodoWrite, say) sees that path and refuses what the path may not do.
A plugin that fails to import or to register is reported in `tools.list` with the reason
and skipped; it never stops the host.

**Plugins are trusted code.** A plugin runs inside the host process with the host's
rights: it can read the database, the settings (and any key in them) and the user's
files, and nothing stops it from reaching past its execution path (a plugin could call a
builtin on the agent path through Python's internals). The path rules keep honest plugins
and models from mistakes, not a hostile plugin from the host: install only plugins you
would run as yourself. Untrusted tools belong in an MCP server, a separate process whose
calls each wait for the user's approval.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from host.tools.plugin_scan import GROUP, may_have_plugins
from host.tools.registry import ToolResult

log = logging.getLogger(__name__)

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class PluginContext:
    """What a plugin tool is given besides its arguments."""

    session_id: str
    turn_id: str
    # a builtin host tool (e.g. "TodoWrite") run on the plugin path, with JSON arguments
    call_builtin: Callable[[str, dict[str, Any]], Awaitable[ToolResult]] = field(repr=False)


@dataclass(frozen=True)
class PluginTool:
    name: str
    description: str
    args: type[BaseModel]
    run: Callable[[PluginContext, Any], Awaitable[str]]


@dataclass(frozen=True)
class Plugin:
    """One entry point: its tools, or why it has none."""

    name: str
    tools: tuple[PluginTool, ...] = ()
    error: str | None = None


def load_plugins(taken: Iterable[str]) -> list[Plugin]:
    """Every plugin installed, each checked: a tool name must be a valid tool name and
    not one already taken (the builtins, another plugin's)."""
    if not may_have_plugins():
        return []
    from importlib.metadata import entry_points  # 15-20 ms: only where a plugin may be

    names = set(taken)
    plugins: list[Plugin] = []
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            loaded = point.load()
            tools = _tools_of(loaded() if callable(loaded) else loaded)
            for tool in tools:
                if not _NAME.match(tool.name):
                    raise ValueError(f"{tool.name!r} is not a valid tool name")
                if tool.name in names or tool.name.startswith("mcp__"):
                    raise ValueError(f"a tool named {tool.name!r} exists already")
                tool.args.model_json_schema()  # a model that cannot make a schema fails here
            names.update(tool.name for tool in tools)
            plugins.append(Plugin(point.name, tuple(tools)))
            log.info("plugin %s: %d tools", point.name, len(tools))
        except BaseException as exc:  # an import may raise anything, SystemExit included
            if isinstance(exc, KeyboardInterrupt):
                raise
            reason = f"{type(exc).__name__}: {exc}"
            log.warning("plugin %s was skipped: %s", point.name, reason)
            plugins.append(Plugin(point.name, (), reason[:500]))
    return plugins


def _tools_of(value: Any) -> list[PluginTool]:
    items = [value] if isinstance(value, PluginTool) else list(value)
    for item in items:
        if not isinstance(item, PluginTool):
            raise TypeError(f"{type(item).__name__} is not a PluginTool")
        if not (isinstance(item.args, type) and issubclass(item.args, BaseModel)):
            raise TypeError(f"{item.name}: args must be a pydantic model class")
    return items
