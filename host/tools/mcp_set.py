"""The configured MCP servers as one set: started, reloaded when settings.json changes,
waited for before a turn, their tools offered by qualified name and found again by it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from host.tools.mcp_config import ServerEntry
from host.tools.mcp_results import PREFIX, qualified
from host.tools.mcp_servers import PREPARE_S, McpServer, Sampler
from host.tools.registry import ToolSpec


class McpServers:
    """Every configured server and the tools they offer, as `mcp__<server>__<tool>`."""

    def __init__(
        self,
        entries: list[ServerEntry],
        on_change: Callable[[], None],
        sample: Sampler,
    ) -> None:
        self.servers = [McpServer(entry, self) for entry in entries]
        self._on_change = on_change
        self.sample = sample

    def changed(self) -> None:
        self._on_change()

    def start(self) -> None:
        for server in self.servers:
            server.start()

    async def close(self) -> None:
        await asyncio.gather(*(server.stop() for server in self.servers))

    async def reload(self, entries: list[ServerEntry]) -> None:
        """settings.json changed: a server whose settings are the same goes on as it is;
        one changed, added or enabled starts anew; one removed or disabled stops."""
        held = {server.name: server for server in self.servers}
        kept: list[McpServer] = []
        gone: list[McpServer] = []
        for entry in entries:
            old = held.pop(entry.name, None)
            if old is not None and old.config == entry:
                kept.append(old)
                continue
            if old is not None:
                gone.append(old)
            kept.append(McpServer(entry, self))
        gone += held.values()
        self.servers = kept
        await asyncio.gather(*(server.stop() for server in gone))
        self.start()
        self.changed()

    async def prepare(self, timeout: float = PREPARE_S) -> None:
        """Before a turn: servers that failed are started again (their back-off over), and
        those starting are waited for, all together, at most `timeout`."""
        for server in self.servers:
            server.start()
        await asyncio.gather(*(server.settle(timeout) for server in self.servers))

    def specs(self) -> list[ToolSpec]:
        """The ready servers' tools as offered: one name each (a later tool whose name
        comes out the same once made safe is not offered), valid schemas only."""
        specs = []
        offered: set[str] = set()
        for server in self.servers:
            if server.state != "ready":
                continue
            for tool in server.tools:
                name = qualified(server.key, tool.name)
                if name in offered or tool.name in server.unusable:
                    continue
                offered.add(name)
                schema = dict(tool.input_schema) or {"type": "object", "properties": {}}
                specs.append(
                    ToolSpec(name, tool.description or f"{tool.name} on {server.name}", schema)
                )
        return specs

    def find(self, name: str) -> tuple[McpServer, str] | None:
        """The server and its own tool name for an offered name."""
        if not name.startswith(PREFIX):
            return None
        for server in self.servers:
            if not name.startswith(f"{PREFIX}{server.key}__"):
                continue
            for tool in server.tools:
                if qualified(server.key, tool.name) == name:
                    return server, tool.name
            return server, name[len(f"{PREFIX}{server.key}__") :]
        return None
