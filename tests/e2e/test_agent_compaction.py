"""The agent's own compaction (ACP's `compaction_update`, issue 52 point 4), through the
real host process and socket and the scripted agent: advertised, kept in the transcript
as a summary, the checklist given again at the next prompt, a failed one told."""

from __future__ import annotations

import json
from pathlib import Path

from harness.host_process import host_env, running_host
from tests.e2e.test_acp import messages, new_session, settings, turn


def _initialize_sent(traces: Path) -> dict[str, object]:
    """The `initialize` request the host sent the agent, as its trace kept it."""
    for log in sorted(traces.glob("*.log")):
        for line in log.read_bytes().splitlines():
            start = line.find(b"{")
            if line.split(b" ", 2)[1:2] == [b">"] and start >= 0:
                sent = json.loads(line[start:])
                if sent.get("method") == "initialize":
                    params: dict[str, object] = sent["params"]
                    return params
    raise AssertionError(f"no initialize in the traces: {list(traces.iterdir())}")


def test_the_agent_compacting_is_kept_and_the_checklist_given_again(tmp_path: Path) -> None:
    data, traces = tmp_path / "data", tmp_path / "traces"
    settings(data)
    (tmp_path / "home").mkdir()
    env = host_env(NIB_ACP_TRACE=str(traces), HOME=str(tmp_path / "home"))
    with running_host(data, str(tmp_path / "h.sock"), env) as host:
        client = host.connect()
        sid = new_session(client)["id"]
        assert turn(client, sid, "compact")["state"] == "completed"
        # the opt-in the SDK's models cannot carry is on the wire, beside what they can
        capabilities = _initialize_sent(traces)["clientCapabilities"]
        assert isinstance(capabilities, dict)
        assert capabilities["session"] == {"compaction": {}}
        assert capabilities["elicitation"] == {"form": {}, "url": {}}

        listed = messages(client, sid)
        summaries = [m for m in listed if m["role"] == "summary"]
        # streamed in two pieces, "completed" said twice: one summary, whole
        assert [m["content"] for m in summaries] == ["Kept: the plan and notes.txt."]
        assert listed[-1]["content"] == "Carrying on."
        assert listed.index(summaries[0]) < len(listed) - 1

        # the next prompt carries the checklist (the agent said it compacted), once
        echoed = turn(client, sid, "hello")
        assert echoed["state"] == "completed"
        said = messages(client, sid)[-1]["content"]
        assert "(revision 1)" in said and "2. [in_progress] Step 2" in said, said
        assert said.rstrip().endswith("hello")
        turn(client, sid, "again")
        assert "revision" not in messages(client, sid)[-1]["content"]


def test_a_failed_compaction_is_told_and_gives_no_checklist(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings(data)
    (tmp_path / "home").mkdir()
    with running_host(data, str(tmp_path / "h.sock"), host_env(HOME=str(tmp_path / "home"))) as h:
        client = h.connect()
        sid = new_session(client)["id"]
        assert turn(client, sid, "compactfail")["state"] == "completed"
        listed = messages(client, sid)
        assert not [m for m in listed if m["role"] == "summary"]
        failed = [m for m in listed if "compaction" in m["content"]]
        assert [(m["content"], m["isError"]) for m in failed] == [
            ("The agent's compaction of its context failed", True)
        ]
        turn(client, sid, "hello")
        assert messages(client, sid)[-1]["content"] == "echo: hello"
