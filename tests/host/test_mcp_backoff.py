"""An MCP server that fails is started again on next use: at once after one failure,
then after a back-off that doubles from 1 s to 60 s while it keeps failing."""

from __future__ import annotations

import time

from host.tools.mcp_config import ServerEntry, StdioEntry
from host.tools.mcp_set import McpServers


async def _never(*_args: object) -> str:
    return ""


def test_back_off_doubles_from_the_second_failure_and_stops_at_a_minute() -> None:
    changes: list[str] = []
    entry = ServerEntry("s", "s", StdioEntry(command="x"))
    servers = McpServers([entry], lambda: changes.append("changed"), _never)
    server = servers.servers[0]
    waits = []
    for _failure in range(9):
        server._failed("it broke")
        waits.append(round(server._retry_at - time.monotonic()))
    assert waits == [0, 1, 2, 4, 8, 16, 32, 60, 60]
    assert server.state == "failed" and server.error == "it broke"
    assert server.info().state == "failed" and changes  # told as it changed
