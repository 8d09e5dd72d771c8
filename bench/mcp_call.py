"""MCP tool calls: what the host adds to one call, and how long a server takes to start.

    python -m bench.mcp_call [--calls 300]

- One call of the in-repo server's `echo` tool over stdio, p50 and p99: made directly with
  the SDK's Client (the floor), and through the host's tool path (JSON arguments parsed,
  the tool found, the approval checked, the call, the result made into the model's text),
  both on the same server process kind, in the same run. The model step is excluded.
- From starting a server to its tools being listed, for the in-repo server and for
  mcp-server-time (a package from the index), median of 5 starts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.stats import percentile, rss_mb
from host.events import Publisher
from host.execution_path import ExecutionContext, ExecutionPath
from host.tools.external import ExternalTools
from host.tools.registry import ToolRegistry

ROOT = Path(__file__).resolve().parent.parent
SERVER = {
    "command": sys.executable,
    "args": ["-m", "harness.mcp_test_server"],
    "env": {"PYTHONPATH": str(ROOT)},
}
TIME = {"command": sys.executable, "args": ["-m", "mcp_server_time"]}
# The largest result a server may send (host/tools/mcp_stdio.py: 16 MiB a message; the
# test server sends its text twice, as text and as structured content). The SDK's own
# stdio reader took 2.6 s for 8 MB and over a minute for 40 MB.
LARGE_MB = 7


async def direct(calls: int) -> list[float]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=SERVER["command"], args=SERVER["args"], env=SERVER["env"]
    )
    times: list[float] = []
    with open(os.devnull, "w") as quiet:  # the server's stderr, as the host logs it apart
        transport = stdio_client(params, errlog=quiet)
        async with Client(transport, mode="legacy") as client:
            await client.list_tools()
            for i in range(calls + 20):
                started = time.perf_counter()
                await client.call_tool("echo", {"text": f"call {i}"})
                if i >= 20:  # warmed up
                    times.append(time.perf_counter() - started)
    return times


def tools_for(folder: Path, servers: dict[str, dict[str, object]]) -> ExternalTools:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"mcpServers": servers}))

    async def no_sampling(*_args: object) -> str:
        return ""

    return ExternalTools(folder, Publisher(), ToolRegistry([]), (), no_sampling)


async def through_host(folder: Path, calls: int) -> list[float]:
    tools = tools_for(folder, {"test": {**SERVER, "approval": "allow"}})
    tools.start()
    await tools.prepare()
    ctx = ExecutionContext("session", "turn", ExecutionPath.AGENT)
    times: list[float] = []
    try:
        for i in range(calls + 20):
            arguments = json.dumps({"text": f"call {i}"})
            started = time.perf_counter()
            result = await tools.execute(ctx, "mcp__test__echo", arguments)
            if i >= 20:
                times.append(time.perf_counter() - started)
            assert not result.is_error, result
    finally:
        await tools.close()
    return times


async def large_result(folder: Path, megabytes: int) -> tuple[float, float, float, float]:
    """One call whose result is `megabytes` of text, through the host's tool path in
    this process: RSS before, and after the next call (MB: the SDK's reader holds its last
    line and message until the next arrives), the text the model gets (characters), and
    the event loop's longest stall during the call (seconds)."""
    from harness.flood import Ticker

    tools = tools_for(folder, {"test": {**SERVER, "approval": "allow"}})
    tools.start()
    await tools.prepare()
    ctx = ExecutionContext("session", "turn", ExecutionPath.AGENT)
    try:
        await tools.execute(ctx, "mcp__test__echo", json.dumps({"text": "warm"}))
        await asyncio.sleep(1.5)
        before = rss_mb(os.getpid())
        ticker = Ticker()
        ticker.start()
        result = await tools.execute(ctx, "mcp__test__big", json.dumps({"megabytes": megabytes}))
        ticker.stop()
        assert not result.is_error, result
        shown = len(result.content)
        del result
        # the SDK's reader keeps its last line and message until the next one arrives
        await tools.execute(ctx, "mcp__test__echo", json.dumps({"text": "after"}))
        await asyncio.sleep(2.0)  # the trim runs at most once a second
        return before, rss_mb(os.getpid()), shown, ticker.longest
    finally:
        await tools.close()


async def start_to_listed(folder: Path, name: str, server: dict[str, object]) -> float:
    samples = []
    for run in range(5):
        tools = tools_for(folder / f"{name}{run}", {name: server})
        started = time.perf_counter()
        tools.start()
        await tools.mcp.prepare(timeout=60)
        samples.append(time.perf_counter() - started)
        assert tools.mcp.servers[0].state == "ready", tools.mcp.servers[0].error
        await tools.close()
    return statistics.median(samples)


async def main_async(calls: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-mcp-"))
    floor = await direct(calls)
    ours = await through_host(folder / "host", calls)
    f50, f99 = percentile(floor, 50) * 1000, percentile(floor, 99) * 1000
    o50, o99 = percentile(ours, 50) * 1000, percentile(ours, 99) * 1000
    print(f"one echo call over stdio, {calls} calls each")
    print(f"  direct with the SDK (floor)   p50 {f50:6.3f} ms  p99 {f99:6.3f} ms")
    print(
        f"  through the host's tool path  p50 {o50:6.3f} ms  p99 {o99:6.3f} ms"
        f"  ({o50 / f50:.2f}x the floor at p50)"
    )
    before, after, shown, stall = await large_result(folder / "large", LARGE_MB)
    print(
        f"one call with a {LARGE_MB} MB result over stdio: host RSS {before:.1f} MB before, "
        f"{after:.1f} MB after the next call ({after - before:+.1f} MB); the model gets "
        f"{shown:,.0f} characters; the event loop's longest stall {stall * 1e3:.0f} ms"
    )
    print("server start to tools listed (median of 5)")
    for name, server in (("test", SERVER), ("time", TIME)):
        seconds = await start_to_listed(folder, name, server)
        print(f"  {name:<5} {seconds * 1000:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(main_async(args.calls))


if __name__ == "__main__":
    main()
