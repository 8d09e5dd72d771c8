"""An MCP server for the tests, on the official SDK's MCPServer:

    python -m harness.mcp_test_server            (stdio)
    python -m harness.mcp_test_server --http PORT (streamable HTTP on 127.0.0.1)

Its tools echo, sleep (for cancel and timeout), fail, crash the process, show the
environment it was given, return an image, and ask the client's model (sampling).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Annotated

from mcp.server.mcpserver import Context, Image, MCPServer, Resolve, Sample
from mcp.types import CreateMessageResult, SamplingMessage, TextContent

server = MCPServer("nib-test")


@server.tool()
def echo(text: str) -> str:
    """Say the text back."""
    return f"echo: {text}"


@server.tool()
async def sleep(seconds: float) -> str:
    """Wait, then say so."""
    print(f"sleeping {seconds} s", file=sys.stderr, flush=True)
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:  # the client cancelled the call
        print("sleep cancelled", file=sys.stderr, flush=True)
        raise
    return f"slept {seconds} s"


@server.tool()
def fail(message: str) -> str:
    """Always fails with the message."""
    raise ValueError(message)


@server.tool()
def crash() -> str:
    """The server process dies."""
    print("boom: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


@server.tool()
def environment() -> str:
    """The names of the environment variables this server was started with."""
    return json.dumps(sorted(os.environ))


@server.tool()
def picture() -> Image:
    """A tiny picture."""
    return Image(data=b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, format="png")


def _ask(topic: str) -> Sample:
    prompt = f"Plan the work on {topic} and keep its checklist."
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
        max_tokens=200,
    )


@server.tool()
async def ask_model(topic: str, answer: Annotated[CreateMessageResult, Resolve(_ask)]) -> str:
    """Asks the client's model about the topic and returns its answer."""
    return f"the model said: {answer.content.text if answer.content.type == 'text' else '?'}"


@server.tool()
async def ask_many(times: int, ctx: Context) -> str:
    """Asks the client's model `times` questions in a row (sampling), as a greedy server
    would; stops at the first refusal."""
    answers = []
    for i in range(times):
        question = SamplingMessage(role="user", content=TextContent(type="text", text=f"Q{i}"))
        try:
            result = await ctx.session.create_message(messages=[question], max_tokens=20)
        except Exception as exc:
            answers.append(f"refused: {exc}")
            break
        answers.append(result.content.text if result.content.type == "text" else "?")
    return " | ".join(answers)


@server.tool()
def big(megabytes: int) -> str:
    """A result of that many megabytes of text."""
    return ("0123456789abcdef" * 65536) * megabytes


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int, default=0)
    args = parser.parse_args()
    print("nib test server starting", file=sys.stderr, flush=True)
    if args.http:
        server.run(transport="streamable-http", host="127.0.0.1", port=args.http)
    else:
        server.run()
