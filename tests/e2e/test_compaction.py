"""Long sessions (contract section 12) through the real host: the context budget,
compaction with a stored summary, the checklist given again, `sessions.compact`."""

from __future__ import annotations

import json

from harness.fake_openai import Call, Reply
from harness.host_process import RpcErrorReply, host_env, model_env, running_host

STEPS = "\n".join(f"{i}. Step number {i} of the long task" for i in range(1, 21))


def test_the_demo_compacts_and_finishes_a_long_list(tmp_path, socket_path) -> None:
    env = host_env(NIB_DEMO_STEP_DELAY_MS="0", NIB_CONTEXT_TOKENS="1500")
    with running_host(tmp_path, socket_path, env) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": STEPS})
        ended = client.wait_turn_end(turn["id"], timeout=60)
        assert ended["state"] == "completed", ended["error"]
        items = client.call("todos.get", {"sessionId": session["id"]})["items"]
        assert len(items) == 20 and all(i["status"] == "completed" for i in items)
        messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
        summaries = [m for m in messages if m["role"] == "summary"]
        assert summaries and all("summarised" in s["content"] for s in summaries)
        assert messages[0]["role"] == "user" and messages[0]["content"] == STEPS  # all kept
        appended = [
            n
            for n in client.notifications
            if n["method"] == "messages.appended" and n["params"]["message"]["role"] == "summary"
        ]
        assert len(appended) == len(summaries)
        # how full its context is, told after each step (the project's sessions.usage)
        told = [n["params"] for n in client.notifications if n["method"] == "sessions.usage"]
        assert told and all(t["sessionId"] == session["id"] and t["size"] == 1500 for t in told)
        assert all(0 < t["used"] <= 1500 for t in told)


def compaction_env(fake_openai, **extra: str) -> dict[str, str]:
    return model_env(fake_openai.base_url, NIB_MAX_RETRIES="0", **extra)


def long_task(steps: int) -> list[Reply]:
    """A model working through `steps` steps, one TodoWrite per step, then an answer."""
    replies = []
    for done in range(steps + 1):
        todos = [
            {
                "content": f"Step {i} of the long task, with some detail to it",
                "status": "completed" if i < done else "in_progress" if i == done else "pending",
            }
            for i in range(steps)
        ]
        replies.append(Reply("", (Call("TodoWrite", {"todos": todos}, id=f"w{done}"),)))
    replies.append(Reply("All steps are done."))
    return replies


def checklist_lines(request: dict) -> list[str]:
    systems = [m["content"] for m in request["messages"] if m["role"] == "system"]
    listed = [text for text in systems if text.startswith("The session's checklist")]
    return listed[-1].splitlines() if listed else []


def test_a_long_turn_fits_a_small_window(tmp_path, socket_path, fake_openai) -> None:
    """A 4,000-token window enforced by the endpoint and a 60-step task: the turn
    completes, every request fits, and the first request after each compaction carries
    the committed checklist with every item's status."""
    fake_openai.window_chars = 4000 * 3
    fake_openai.script += long_task(60)
    with running_host(
        tmp_path, socket_path, compaction_env(fake_openai, NIB_CONTEXT_TOKENS="4000")
    ) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "do the long task"})
        ended = client.wait_turn_end(turn["id"], timeout=60)
        assert ended["state"] == "completed", ended["error"]
        assert fake_openai.refused == []  # the budget kept every request under the window
        assert fake_openai.compactions, "no compaction happened"
        assert max(len(json.dumps(r["messages"])) for r in fake_openai.requests) <= 12_000
        after = [
            r
            for r in fake_openai.requests
            if r["messages"][-1]["role"] == "user"
            and r["messages"][-1]["content"].startswith("Continue the task")
        ]
        assert len(after) == len(fake_openai.compactions)
        for request in after:
            lines = checklist_lines(request)
            assert lines and "(revision " in lines[0]
            statuses = [line.split("[")[1].split("]")[0] for line in lines[1:]]
            assert (len(statuses) == 30 and "pending" in statuses) or "completed" in statuses
            # completed steps stay completed: no item goes back to pending before a
            # completed one
            assert statuses == sorted(statuses, key=["completed", "in_progress", "pending"].index)
        messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
        assert sum(1 for m in messages if m["role"] == "summary") == len(fake_openai.compactions)


def test_a_context_length_error_compacts_once_and_retries(
    tmp_path, socket_path, fake_openai
) -> None:
    fake_openai.script += [Reply("First answer."), Reply("Answered after compacting.")]
    with running_host(tmp_path, socket_path, compaction_env(fake_openai)) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "hello"})
        client.wait_turn_end(turn["id"])
        fake_openai.force_context_errors = 1
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "again"})
        ended = client.wait_turn_end(turn["id"])
        assert ended["state"] == "completed", ended["error"]
        assert len(fake_openai.refused) == 1 and len(fake_openai.compactions) == 1
        messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
        roles = [m["role"] for m in messages]
        assert roles == ["user", "assistant", "user", "summary", "assistant"]
        assert fake_openai.requests[-1]["messages"][-1] == {"role": "user", "content": "again"}


def test_a_request_that_alone_does_not_fit_fails_in_words(
    tmp_path, socket_path, fake_openai
) -> None:
    fake_openai.force_context_errors = 1
    with running_host(tmp_path, socket_path, compaction_env(fake_openai)) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "hello"})
        ended = client.wait_turn_end(turn["id"])
        assert ended["state"] == "failed"
        assert "does not fit the model's context window" in ended["error"]
        assert fake_openai.compactions == []  # nothing to summarise: the request stays


def test_a_restarted_host_continues_from_the_summary(tmp_path, socket_path, fake_openai) -> None:
    fake_openai.script += [Reply("First answer.")]
    env = compaction_env(fake_openai)
    with running_host(tmp_path, socket_path, env) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "the old request"})
        client.wait_turn_end(turn["id"])
        assert client.call("sessions.compact", {"sessionId": session["id"]}) == {
            "summarisedMessages": 2
        }
    fake_openai.script += [Reply("Second answer.")]
    with running_host(tmp_path, socket_path, env) as host:
        client = host.connect()
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "a new request"})
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
    sent = fake_openai.requests[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "system", "user"]
    assert sent[1]["content"].startswith("Summary of the conversation so far")
    assert "the old request" not in json.dumps(sent) and sent[2]["content"] == "a new request"


def test_sessions_compact_refusals(tmp_path, socket_path, fake_openai) -> None:
    from harness.fake_openai import Hang

    hang = Hang()
    fake_openai.script += [hang]
    with running_host(tmp_path, socket_path, compaction_env(fake_openai)) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        assert client.call("sessions.compact", {"sessionId": session["id"]}) == {
            "summarisedMessages": 0
        }
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "go"})
        assert hang.started.wait(15)
        try:
            client.call("sessions.compact", {"sessionId": session["id"]})
            raise AssertionError("compacting during a turn was accepted")
        except RpcErrorReply as error:
            assert error.code == -32020
        client.call("turns.cancel", {"sessionId": session["id"], "turnId": turn["id"]})
        remote = client.call(
            "sessions.create", {"remote": {"endpoint": "ssh://box", "remoteSessionId": "r"}}
        )
        try:  # carried out on its host (section 19), which cannot be reached
            client.call("sessions.compact", {"sessionId": remote["id"]})
            raise AssertionError("compacting an unreachable remote session was accepted")
        except RpcErrorReply as error:
            assert error.code == -32012 and "unreachable" in str(error)


def test_the_newest_request_is_never_summarised(tmp_path, socket_path, fake_openai) -> None:
    """A compaction at the start of a turn keeps that turn's request whole (it is what
    the turn is for), after the summary; and so does every later request of the session."""
    first = "First request: " + "a list of many things to do. " * 40
    second = "SECOND REQUEST: forty new items, " + "each to be done. " * 80
    fake_openai.script += [Reply("First done."), Reply("Second done."), Reply("Third done.")]
    env = compaction_env(fake_openai, NIB_CONTEXT_TOKENS="1000")
    with running_host(tmp_path, socket_path, env) as host:
        client = host.connect()
        sid = client.call("sessions.create", {"mode": "plan"})["id"]
        for text in (first, second):
            turn = client.call("turns.start", {"sessionId": sid, "text": text})
            assert client.wait_turn_end(turn["id"], timeout=30)["state"] == "completed"
        assert len(fake_openai.compactions) == 1  # at the start of the second turn
        summarised = json.dumps(fake_openai.compactions[0]["messages"])
        assert "First request" in summarised and "SECOND REQUEST" not in summarised
        after = fake_openai.requests[1]["messages"]
        assert after[-1] == {"role": "user", "content": second}
        turn = client.call("turns.start", {"sessionId": sid, "text": "third"})
        assert client.wait_turn_end(turn["id"], timeout=30)["state"] == "completed"
        again = json.dumps(fake_openai.requests[-1]["messages"])
        assert "SECOND REQUEST" in again and "First request" not in again


def test_one_compaction_at_a_time_and_no_turn_meanwhile(tmp_path, socket_path, fake_openai) -> None:
    from harness.fake_openai import Hang

    fake_openai.script += [Reply("Hi."), Reply("After.")]
    with running_host(tmp_path, socket_path, compaction_env(fake_openai)) as host:
        client, other = host.connect(), host.connect()
        sid = client.call("sessions.create", {})["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "hello"})
        client.wait_turn_end(turn["id"])
        hold = fake_openai.compaction_hold = Hang()
        client.send(
            {
                "jsonrpc": "2.0",
                "id": 900,
                "method": "sessions.compact",
                "params": {"sessionId": sid},
            }
        )
        assert hold.started.wait(10)
        for method, params in [
            ("turns.start", {"sessionId": sid, "text": "meanwhile"}),
            ("sessions.compact", {"sessionId": sid}),
        ]:
            try:
                other.call(method, params)
            except RpcErrorReply as refused:
                assert refused.code == -32020
            else:
                raise AssertionError(f"{method} was accepted during a compaction")
        fake_openai.compaction_hold = None
        hold.release.set()
        answer = client.receive(30)
        while answer is not None and answer.get("id") != 900:  # notifications meanwhile
            answer = client.receive(30)
        assert answer is not None
        messages = other.call("messages.list", {"sessionId": sid})["messages"]
        assert [m["role"] for m in messages].count("summary") <= 1
        turn = other.call("turns.start", {"sessionId": sid, "text": "after"})
        assert other.wait_turn_end(turn["id"])["state"] == "completed"
