"""A long turn's cost in the model's context, through the real host and the real SDK
against a loopback OpenAI-compatible server.

    python -m bench.long_session [--writes 100] [--items 50]

One turn of `--writes` TodoWrites of `--items`-item lists, then an answer:
- with a large window: bytes and o200k_base tokens sent to the model in total and per
  request; next to them, in the same run, the same requests as they were before the
  TodoWrite result became a sentence (each result echoing the whole list as JSON), which
  is the floor this measures against (target: total tokens <= 0.55x);
- with a 4,000-token window enforced by the server (HTTP 400 beyond it): whether the turn
  completes, the compactions, and the largest request next to the window.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bpe_openai import get_encoding

from harness.fake_openai import Call, FakeOpenAI, Reply
from harness.host_process import host_env, running_host

ENCODING = get_encoding("o200k_base")


def todos(items: int, done: int) -> list[dict[str, str]]:
    return [
        {
            "content": f"Carry out part {i} of the change to the parser module",
            "status": "completed" if i < done else "in_progress" if i == done else "pending",
        }
        for i in range(items)
    ]


def script(writes: int, items: int) -> list[Reply]:
    replies = [
        Reply("", (Call("TodoWrite", {"todos": todos(items, w * items // writes)}, id=f"w{w}"),))
        for w in range(writes)
    ]
    return [*replies, Reply("The change is done.")]


def tokens(text: str) -> int:
    """o200k_base tokens, a slice at a time (the tokenizer refuses very long input)."""
    return sum(len(ENCODING.encode(text[i : i + 100_000])) for i in range(0, len(text), 100_000))


def echoed(request: dict[str, Any]) -> dict[str, Any]:
    """The request as it was before: each TodoWrite result echoing its list as JSON."""
    arguments = {
        call["id"]: call["function"]["arguments"]
        for message in request["messages"]
        for call in message.get("tool_calls") or ()
    }
    messages = []
    for message in request["messages"]:
        if message["role"] == "tool" and message["tool_call_id"] in arguments:
            listed = json.loads(arguments[message["tool_call_id"]])["todos"]
            message = {**message, "content": json.dumps({"ok": True, "todos": listed})}
        messages.append(message)
    return {**request, "messages": messages}


def run(folder: Path, writes: int, items: int, window: int | None) -> FakeOpenAI:
    server = FakeOpenAI().start()
    server.script += script(writes, items)
    if window is not None:
        server.window_chars = window * 3
    extra = {"NIB_CONTEXT_TOKENS": str(window)} if window else {}
    env = host_env(
        NIB_PROVIDER="openai",
        NIB_OPENAI_BASE_URL=server.base_url,
        NIB_OPENAI_API_KEY="sk-bench",
        NIB_MODEL="gpt-4o",
        NIB_MAX_RETRIES="0",
        NIB_MAX_STEPS=str(writes + 10),
        **extra,
    )
    try:
        with running_host(folder, str(folder / "s"), env) as host:
            client = host.connect()
            session = client.call("sessions.create", {})
            turn = client.call("turns.start", {"sessionId": session["id"], "text": "change it"})
            ended = client.wait_turn_end(turn["id"], timeout=600)
            print(f"  turn {ended['state']}" + (f": {ended['error']}" if ended["error"] else ""))
    finally:
        server.stop()
    return server


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument("--items", type=int, default=50)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-long-"))

    print(f"{args.writes} TodoWrites of {args.items} items, large window (gpt-4o, 128k):")
    large = run(folder / "large", args.writes, args.items, None)
    now = [json.dumps(r["messages"]) for r in large.requests]
    before = [json.dumps(echoed(r)["messages"]) for r in large.requests]
    now_tokens = [tokens(text) for text in now]
    before_tokens = [tokens(text) for text in before]
    print(f"  {len(now)} requests, {len(large.compactions)} compactions")
    print(
        f"  before (echoed lists): {sum(len(t) for t in before) / 1e6:6.2f} MB, "
        f"{sum(before_tokens):,} tokens in total, largest request {max(before_tokens):,}"
        " (floor)"
    )
    print(
        f"  now:                   {sum(len(t) for t in now) / 1e6:6.2f} MB, "
        f"{sum(now_tokens):,} tokens in total, largest request {max(now_tokens):,}"
    )
    ratio = sum(now_tokens) / sum(before_tokens)
    print(f"  total tokens now/before: {ratio:.2f}x (target <= 0.55x)")
    per_write = (now_tokens[-1] - now_tokens[0]) / max(1, len(now_tokens) - 1)
    per_write_before = (before_tokens[-1] - before_tokens[0]) / max(1, len(before_tokens) - 1)
    print(
        f"  context growth per write: {per_write:,.0f} tokens now, {per_write_before:,.0f} before"
    )

    print("\nthe same turn with a 4,000-token window enforced by the server:")
    small = run(folder / "small", args.writes, args.items, 4000)
    sizes = [tokens(json.dumps(r["messages"])) for r in small.requests]
    print(
        f"  {len(small.requests)} requests, {len(small.compactions)} compactions, "
        f"{len(small.refused)} refused as too long"
    )
    print(f"  largest request {max(sizes):,} tokens (o200k_base) against the 4,000 window")
    return 0


if __name__ == "__main__":
    sys.exit(main())
