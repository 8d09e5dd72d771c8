"""What an MCP server gives is checked before a model sees it: tool schemas that are not
valid JSON Schema are not offered, two tools never share an offered name, and its stderr
cannot flood the host's log."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from mcp.types import Tool

from host.tools.mcp_config import ServerEntry, StdioEntry
from host.tools.mcp_results import schema_problem
from host.tools.mcp_servers import STDERR_LINES
from host.tools.mcp_set import McpServers

OBJECT = {"type": "object", "properties": {"x": {"type": "string"}}}


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "banana"}, "input schema is invalid"),
        ({"type": "object", "properties": {"x": {"$ref": "#/$defs/missing"}}}, "does not define"),
        (
            {"type": "object", "properties": {"x": {"type": "string", "pattern": "(unclosed"}}},
            "regex",
        ),
        ("not an object", "not an object"),
    ],
)
def test_an_invalid_schema_is_named(schema: Any, words: str) -> None:
    assert words in (schema_problem(schema) or "")


def test_valid_schemas_pass() -> None:
    assert schema_problem(OBJECT) is None
    refs = {
        "type": "object",
        "$defs": {"a": {"type": "string"}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    }
    assert schema_problem(refs) is None


def servers_with(tools: list[Tool]) -> McpServers:
    entry = ServerEntry("h", "h", StdioEntry(command="x"))
    servers = McpServers([entry], lambda: None, None)  # type: ignore[arg-type]
    server = servers.servers[0]
    server.state, server.tools = "ready", tools
    server.unusable = {t.name: why for t in tools if (why := schema_problem(t.input_schema))}
    return servers


def test_offered_names_are_unique_and_schemas_valid() -> None:
    servers = servers_with(
        [
            Tool(name="a/b", input_schema=OBJECT),
            Tool(name="a.b", input_schema=OBJECT),
            Tool(name="a_b", input_schema=OBJECT),
            Tool(name="bad", input_schema={"type": "banana"}),
            Tool(name="good", input_schema=OBJECT),
        ]
    )
    names = [spec.name for spec in servers.specs()]
    assert names == ["mcp__h__a_b", "mcp__h__good"]
    assert servers.find("mcp__h__a_b") == (servers.servers[0], "a/b")  # the one offered


def test_a_chatty_servers_stderr_is_rate_limited(caplog: pytest.LogCaptureFixture) -> None:
    server = servers_with([]).servers[0]
    with caplog.at_level(logging.INFO, logger="host.tools.mcp_servers"):
        for i in range(STDERR_LINES * 5):
            server._log_stderr(f"line {i}")
    logged = [r for r in caplog.records if "line " in r.getMessage()]
    assert len(logged) == STDERR_LINES
