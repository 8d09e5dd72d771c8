"""Tools beyond the builtins (contract section 13): MCP servers' tools and plugin tools,
offered to Agent turns, each call run on its own execution path after the user's
approval. `tools.list` and `tools.changed` describe them."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from host.events import Publisher
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import errors, methods as rpc, models as m
from host.protocol.text import shorten
from host.tools.approvals import Approvals
from host.tools.registry import (
    ToolFailed,
    ToolRegistry,
    ToolResult,
    ToolSpec,
    describe_validation,
)

if TYPE_CHECKING:
    from host.tools.mcp_servers import Sampler
    from host.tools.mcp_set import McpServers
    from host.tools.plugins import Plugin, PluginTool

log = logging.getLogger(__name__)

DENIED = "The user denied this call; do not retry it unless they ask for it."
SAMPLES_PER_CALL = 5  # model calls an MCP server may ask for in one tool call unasked
SAMPLES_PER_TURN = 20  # and in one turn
SAMPLING_TOOL = "more model calls for MCP servers"


class SamplingRefused(Exception):
    """The user declined a model call an MCP server asked for."""


class ExternalTools:
    def __init__(
        self,
        data_dir: Path | None,
        publisher: Publisher,
        registry: ToolRegistry,
        builtins: tuple[str, ...],
        sampler: Sampler,
    ) -> None:
        from host.tools.mcp_config import load_servers
        from host.tools.mcp_set import McpServers

        self._publisher = publisher
        self._registry = registry
        self._builtins = builtins
        self.approvals = Approvals(publisher)
        self._sampler = sampler
        self._call_samples: dict[str, int] = {}  # turn id -> model calls of its current call
        self._turn_samples: dict[str, int] = {}  # turn id -> model calls in the whole turn
        self.mcp: McpServers = McpServers(load_servers(data_dir), self._changed, self._sample)
        self.plugins: list[Plugin] = []
        self._plugin_tools: dict[str, PluginTool] = {}
        self._started = False

    def start(self) -> None:
        """Load the plugins and start the MCP servers (after the host is ready). The
        plugins' module is imported only where one may be installed."""
        from host.tools.plugin_scan import may_have_plugins

        if may_have_plugins():
            from host.tools.plugins import load_plugins

            self.plugins = load_plugins(self._builtins)
            self._plugin_tools = {tool.name: tool for p in self.plugins for tool in p.tools}
        self._started = True
        self.mcp.start()
        self._changed()

    async def close(self) -> None:
        await self.mcp.close()

    async def reload(self, data_dir: Path) -> None:
        """settings.json changed: its `mcpServers` again (tools.changed tells the rest)."""
        from host.tools.mcp_config import load_servers

        await self.mcp.reload(load_servers(data_dir))

    def retry(self, params: m.ToolsRetryParams) -> m.OkResult:
        """`tools.retry` (the project's): a failed MCP server started again now."""
        server = next((s for s in self.mcp.servers if s.name == params.name), None)
        if server is None:
            raise errors.InvalidParams(f"there is no MCP server named {params.name!r}")
        if not server.usable:
            why = server.error or "it is disabled in settings.json"
            raise errors.InvalidParams(f"the MCP server {params.name!r} cannot start: {why}")
        server.retry()
        return m.OkResult()

    def listing(self) -> m.ToolsList:
        plugins = tuple(
            m.PluginInfo(
                name=plugin.name,
                tools=tuple(
                    m.ToolInfo(name=t.name, description=shorten(t.description, 300))
                    for t in plugin.tools
                ),
                error=plugin.error,
            )
            for plugin in self.plugins
        )
        servers = tuple(server.info() for server in self.mcp.servers)
        return m.ToolsList(servers=servers, plugins=plugins)

    def _changed(self) -> None:
        if self._started:
            self._publisher.publish(rpc.TOOLS_CHANGED, self.listing())

    # --- what a turn is offered, and runs ---------------------------------------------

    async def prepare(self) -> None:
        if self.mcp.servers:
            await self.mcp.prepare()

    def specs(self) -> list[ToolSpec]:
        plugin_specs = [
            ToolSpec.of(t.name, t.description, t.args) for t in self._plugin_tools.values()
        ]
        return self.mcp.specs() + plugin_specs

    def owns(self, name: str) -> bool:
        return name in self._plugin_tools or self.mcp.find(name) is not None

    async def _sample(
        self, ctx: ExecutionContext, messages: list[tuple[str, str]], system: str | None
    ) -> str:
        """A model call an MCP server asked for: each costs the user, so past
        SAMPLES_PER_CALL in one tool call or SAMPLES_PER_TURN in one turn the user is asked
        (as for a tool call: once, for the session, or refused)."""
        call = self._call_samples[ctx.turn_id] = self._call_samples.get(ctx.turn_id, 0) + 1
        turn = self._turn_samples[ctx.turn_id] = self._turn_samples.get(ctx.turn_id, 0) + 1
        if call > SAMPLES_PER_CALL or turn > SAMPLES_PER_TURN:
            words = (
                f"an MCP server asks for model call {call} of this tool call ({turn} in "
                "this turn); each is a request to your model"
            )
            if await self.approvals.ask(ctx, SAMPLING_TOOL, words) == "deny":
                raise SamplingRefused("the user declined further model calls for this call")
        return await self._sampler(ctx, messages, system)

    async def execute(self, ctx: ExecutionContext, name: str, arguments: str) -> ToolResult:
        self._call_samples[ctx.turn_id] = 0
        try:
            parsed = json.loads(arguments.strip() or "{}")
        except ValueError as exc:
            return ToolResult(f"arguments are not valid JSON: {exc}", is_error=True)
        if not isinstance(parsed, dict):
            return ToolResult("arguments must be a JSON object", is_error=True)
        plugin_tool = self._plugin_tools.get(name)
        if plugin_tool is not None:
            return await self._run_plugin(ctx, plugin_tool, parsed, arguments)
        found = self.mcp.find(name)
        if found is None:
            return ToolResult(f"unknown tool {name!r}", is_error=True)
        server, tool = found
        if not await server.ready_for_call():  # no approval for a server that is not there
            return ToolResult(server.unavailable(), is_error=True)
        if server.approval != "allow":
            decision = await self.approvals.ask(ctx, name, arguments)
            if decision == "deny":
                return ToolResult(DENIED, is_error=True)
        sub = ExecutionContext(ctx.session_id, ctx.turn_id, ExecutionPath.MCP)
        return await server.call(sub, tool, parsed)

    async def _run_plugin(
        self, ctx: ExecutionContext, tool: PluginTool, parsed: dict[str, Any], raw: str
    ) -> ToolResult:
        try:
            args = tool.args.model_validate(parsed)
        except ValidationError as exc:
            return ToolResult(describe_validation(exc), is_error=True)
        decision = await self.approvals.ask(ctx, tool.name, raw)
        if decision == "deny":
            return ToolResult(DENIED, is_error=True)
        sub = ExecutionContext(ctx.session_id, ctx.turn_id, ExecutionPath.PLUGIN)

        async def call_builtin(builtin: str, arguments: dict[str, Any]) -> ToolResult:
            return await self._registry.execute(sub, builtin, arguments)

        from host.tools.plugins import PluginContext  # (loaded with the plugin)

        context = PluginContext(ctx.session_id, ctx.turn_id, call_builtin)
        try:
            return ToolResult(str(await tool.run(context, args)))
        except ToolFailed as exc:
            return ToolResult(str(exc), is_error=True)
        except Exception as exc:
            log.exception("plugin tool %s failed", tool.name)
            return ToolResult(f"{tool.name} failed: {type(exc).__name__}: {exc}", is_error=True)
