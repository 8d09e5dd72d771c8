"""Checklist history: what it costs and what it saves.

    python -m bench.history [--writes 300] [--pages 200]

- TodoWrite at 50 items through the registry (validation, authorisation, the transaction
  with its history row and pruning, the notification), p50 and p99, next to the same path
  on a database where the history table is shadowed by a view whose triggers discard
  every write (the path without history), measured in the same run.
- todos.history: a page of 50 from 1,000 stored revisions of 50 items, over the real host
  process's socket, p50/p99/max.
- With the History view open in the Main role (router and loader on the real host core,
  paired through memory): todos.history requests per checklist write (target 0).
- Tokens (o200k_base) and bytes of the TodoWrite result the model reads for a 50-item
  list: before (the whole list echoed back as JSON) and after (the short sentence).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from bench.stats import percentile
from harness.host_process import running_host
from host.core import HostCore
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import models as m
from host.tools.todo_write import result_text

N = 50
WITHOUT_HISTORY = """
CREATE TEMP VIEW todo_revisions AS
    SELECT '' AS session_id, 0 AS revision, NULL AS turn_id, '' AS created_at, '[]' AS items,
           '{}' AS diff
    WHERE 0;
CREATE TEMP TRIGGER no_insert INSTEAD OF INSERT ON todo_revisions BEGIN SELECT 1; END;
CREATE TEMP TRIGGER no_delete INSTEAD OF DELETE ON todo_revisions BEGIN SELECT 1; END;
"""


def todos(salt: int) -> list[dict[str, str]]:
    done = salt % N
    return [
        {
            "content": f"Step {i} of the benchmark checklist",
            "status": "completed" if i < done else "in_progress" if i == done else "pending",
            **({"activeForm": f"Working on step {i}"} if i == done else {}),
        }
        for i in range(N)
    ]


def write_latencies(folder: Path, writes: int, history: bool) -> list[float]:
    core = HostCore(folder)
    if not history:
        core.db.execute(WITHOUT_HISTORY)
    session = core.sessions.create(m.CreateSessionParams())
    turn, _ = core.sessions.turns.begin(session.id, "bench")
    ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
    core.publisher.subscribe(lambda name, params: None)
    loop = asyncio.new_event_loop()
    payloads = [json.dumps({"todos": todos(w)}) for w in range(writes)]
    out = []
    for arguments in payloads:
        t0 = time.perf_counter()
        result = loop.run_until_complete(core.runtime.registry.execute(ctx, "TodoWrite", arguments))
        out.append(time.perf_counter() - t0)
        assert not result.is_error, result.content
    stored = core.db.execute("SELECT count(*) FROM todo_revisions").fetchone()[0]
    assert stored == (writes if history else 0), stored
    core.close()
    loop.close()
    return out


def history_latencies(folder: Path, pages: int) -> list[float]:
    data = folder / "data"
    core = HostCore(data)
    session = core.sessions.create(m.CreateSessionParams())
    turn, _ = core.sessions.turns.begin(session.id, "bench")
    ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
    loop = asyncio.new_event_loop()
    for w in range(1_000):
        arguments = json.dumps({"todos": todos(w)})
        loop.run_until_complete(core.runtime.registry.execute(ctx, "TodoWrite", arguments))
    core.sessions.turns.end(session.id, turn.id, "completed", None)
    core.close()
    loop.close()
    out = []
    rng = random.Random(7)
    with running_host(data, str(folder / "s")) as host:
        client = host.connect()
        for _ in range(pages):
            before = rng.randint(51, 1_001)
            t0 = time.perf_counter()
            page = client.call("todos.history", {"sessionId": session.id, "beforeRevision": before})
            out.append(time.perf_counter() - t0)
            assert len(page["revisions"]) == 50 and len(page["revisions"][0]["items"]) == N
    return out


def tokens() -> tuple[int, int, int, int]:
    import bpe_openai

    encoding = bpe_openai.get_encoding("o200k_base")
    items = tuple(m.TodoItem.model_validate(item) for item in todos(20))
    before = json.dumps(
        {"revision": 21, "todos": [i.to_wire() for i in items]}, separators=(",", ":")
    )
    snapshot = m.TodoSnapshot(session_id="s", revision=21, updated_at=None, items=items)
    after = result_text(snapshot, m.TodoDiff())
    return len(encoding.encode(before)), len(before), len(encoding.encode(after)), len(after)


def open_history_requests(folder: Path, steps: int) -> tuple[int, int]:
    """(todos.history requests, writes) while the open History view follows a demo turn of
    `steps` steps, after its first load."""
    import os

    from harness.paired import paired
    from harness.waiting import until
    from nib_desktop.state import intents as it

    os.environ["NIB_DEMO_STEP_DELAY_MS"] = "0"

    async def body() -> tuple[int, int]:
        async with paired(folder) as main:
            session = await main.intents.sessions.create_session("agent")
            await until(lambda: main.state.transcript.loaded, what="the session shown")
            main.intents.ask(it.OpenHistory())
            await until(lambda: main.link.calls.count("todos.history") >= 1, what="a first load")
            await until(lambda: not main.loader.history.history_loading, what="the first load")
            asked = main.link.calls.count("todos.history")
            await main.intents.sessions.start_turn(
                "\n".join(f"{i}. Step {i}" for i in range(1, steps + 1))
            )
            await until(lambda: main.state.turn(session.id).state == "completed", timeout=60)
            final = main.state.snapshot(session.id)
            assert final is not None
            await until(lambda: main.state.history.revisions[0].revision == final.revision)
            return main.link.calls.count("todos.history") - asked, final.revision

    return asyncio.run(body())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--pages", type=int, default=200)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="nib-bench-history-"))
    write_latencies(folder / "warm", 50, True)
    without = write_latencies(folder / "without", args.writes, False)
    with_history = write_latencies(folder / "with", args.writes, True)
    p50, p99 = percentile(with_history, 50), percentile(with_history, 99)
    f50, f99 = percentile(without, 50), percentile(without, 99)
    print(f"TodoWrite, {N} items, {args.writes} writes each, same run:")
    print(f"  without history  p50 {f50 * 1e3:6.3f} ms  p99 {f99 * 1e3:6.3f} ms (floor)")
    print(
        f"  with history     p50 {p50 * 1e3:6.3f} ms  p99 {p99 * 1e3:6.3f} ms"
        f"  p50 ratio {p50 / f50:4.2f}x (target <= 1.3x)"
    )
    pages = history_latencies(folder / "pages", args.pages)
    print(f"todos.history, page of 50 from 1,000 revisions of {N} items, over the socket:")
    print(
        f"  p50 {percentile(pages, 50) * 1e3:6.2f} ms  p99 {percentile(pages, 99) * 1e3:6.2f} ms"
        f"  max {max(pages) * 1e3:6.2f} ms ({args.pages} pages)"
    )
    requests, writes = open_history_requests(folder / "open", 20)
    print("History open in the window's Main role, a demo turn of 20 steps:")
    print(f"  {requests} todos.history requests for {writes} writes (target 0; 1 per write before)")
    before_tokens, before_bytes, after_tokens, after_bytes = tokens()
    print(f"TodoWrite result the model reads, {N} items (o200k_base):")
    print(f"  before (echoed list)  {before_tokens:5d} tokens {before_bytes:6d} bytes")
    print(
        f"  after (sentence)      {after_tokens:5d} tokens {after_bytes:6d} bytes"
        f"  ({after_tokens / before_tokens:.3f}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
