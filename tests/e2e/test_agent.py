"""The agent runtime through the real host process: the `openai` provider against a real
loopback HTTP server speaking the OpenAI API (the SDK is not mocked), and the demo."""

from __future__ import annotations

import json

import pytest

from harness.fake_openai import Call, Hang, HttpError, Reply
from harness.host_process import RpcErrorReply, host_env, model_env, running_host
from host.todos.schema import todo_write_schema

THREE = [
    {"content": "Read the code", "status": "completed"},
    {"content": "Write the tests", "status": "in_progress", "activeForm": "Writing the tests"},
    {"content": "Ship it", "status": "pending"},
]


def run_turn(client, text: str = "please do it", mode: str = "agent") -> tuple[dict, dict]:
    session = client.call("sessions.create", {"mode": mode})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": text})
    assert turn["state"] == "running"
    return session, client.wait_turn_end(turn["id"])


def tool_messages(request: dict) -> list[dict]:
    return [m for m in request["messages"] if m["role"] == "tool"]


@pytest.mark.parametrize("stream", [True, False], ids=["sse", "json"])
def test_todowrite_then_empty_then_text(tmp_path, socket_path, fake_openai, stream) -> None:
    fake_openai.script += [
        Reply("Let me plan.", (Call("TodoWrite", {"todos": THREE}, id="c1"),)),
        Reply("", (Call("TodoWrite", {"todos": []}, id="c2"),)),
        Reply("All done."),
    ]
    env = model_env(fake_openai.base_url, NIB_OPENAI_STREAM="1" if stream else "0")
    with running_host(tmp_path / "d", socket_path, env) as host:
        client = host.connect()
        session, turn = run_turn(client)
        assert turn["state"] == "completed" and turn["error"] is None
        revisions = [n["params"] for n in client.notifications if n["method"] == "todos.changed"]
        assert [r["revision"] for r in revisions] == [1, 2]
        assert [i["content"] for i in revisions[0]["items"]] == [t["content"] for t in THREE]
        assert revisions[1]["items"] == []
        assert client.call("todos.get", {"sessionId": session["id"]}) == revisions[1]

        # each tool message answers its tool_call_id, and carries the committed revision
        second, third = fake_openai.requests[1], fake_openai.requests[2]
        assert [m["tool_call_id"] for m in tool_messages(second)] == ["c1"]
        assert tool_messages(second)[0]["content"].startswith("Checklist saved as revision 1:")
        assert [m["tool_call_id"] for m in tool_messages(third)] == ["c1", "c2"]
        assert (
            all(r["stream"] is stream for r in fake_openai.requests if "stream" in r) or not stream
        )

        # the offered tools: TodoWrite's schema is generated from the validating model
        tools = {t["function"]["name"]: t["function"] for t in fake_openai.requests[0]["tools"]}
        assert set(tools) == {"TodoWrite", "Task"}
        assert tools["TodoWrite"]["parameters"] == todo_write_schema()

        messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
        roles = [(m["role"], m["toolCallId"]) for m in messages]
        assert roles == [
            ("user", None),
            ("assistant", None),
            ("tool", "c1"),
            ("assistant", None),
            ("tool", "c2"),
            ("assistant", None),
        ]
        assert messages[1]["toolCalls"][0]["name"] == "TodoWrite"
        assert messages[-1]["content"] == "All done."

        # the API key goes to the endpoint and nowhere else
        assert fake_openai.headers[0]["authorization"] == "Bearer sk-secret-test-key"
        assert "sk-secret" not in json.dumps(messages)
        host.stop()
        assert "sk-secret" not in (tmp_path / "d" / "host.log").read_text()
        assert "sk-secret" not in "".join(host.stderr_lines)
        assert any("listening on" in line for line in host.stderr_lines)


BAD_CALLS = [
    ("bad json", '{"todos": [', "not valid JSON"),
    ("wrong type", {"todos": "all of them"}, "todos"),
    ("blank content", {"todos": [{"content": "  ", "status": "pending"}]}, "at least 1"),
    ("too long", {"todos": [{"content": "x" * 501, "status": "pending"}]}, "at most 500"),
    ("too many", {"todos": [{"content": "x", "status": "pending"}] * 201}, "at most 200"),
    (
        "two in progress",
        {
            "todos": [
                {"content": "a", "status": "in_progress"},
                {"content": "b", "status": "in_progress"},
            ]
        },
        "at most one item may be in_progress",
    ),
    ("unknown status", {"todos": [{"content": "a", "status": "done"}]}, "status"),
    ("unknown field", {"todos": [{"content": "a", "status": "pending", "x": 1}]}, "Extra inputs"),
]


@pytest.mark.parametrize(("name", "args", "fragment"), BAD_CALLS, ids=[b[0] for b in BAD_CALLS])
def test_each_validation_rule_reaches_the_model(
    model_host, fake_openai, name, args, fragment
) -> None:
    fake_openai.script += [Reply("", (Call("TodoWrite", args, id="bad"),)), Reply("I see.")]
    client = model_host.connect()
    session, turn = run_turn(client)
    assert turn["state"] == "completed"
    answer = tool_messages(fake_openai.requests[1])[0]
    assert answer["tool_call_id"] == "bad"
    assert answer["content"].startswith("error:") and fragment in answer["content"]
    assert client.call("todos.get", {"sessionId": session["id"]})["revision"] == 0
    assert not any(n["method"] == "todos.changed" for n in client.notifications)


@pytest.mark.parametrize("mode", ["plan", "goal"])
def test_plan_and_goal_are_offered_no_tools_and_refused(model_host, fake_openai, mode) -> None:
    fake_openai.script += [Reply("", (Call("TodoWrite", {"todos": THREE}, id="x"),)), Reply("ok")]
    client = model_host.connect()
    session, turn = run_turn(client, mode=mode)
    assert turn["state"] == "completed"
    first = fake_openai.requests[0]
    assert "tools" not in first
    assert f"{mode} mode" in first["messages"][0]["content"]
    refusal = tool_messages(fake_openai.requests[1])[0]["content"]
    assert f"this call came from the {mode} path" in refusal
    assert client.call("todos.get", {"sessionId": session["id"]})["revision"] == 0


def test_delegated_subagent_is_offered_nothing_and_refused(model_host, fake_openai) -> None:
    fake_openai.script += [
        Reply("", (Call("Task", {"description": "look", "prompt": "find it"}, id="t1"),)),
        Reply("", (Call("TodoWrite", {"todos": THREE}, id="sub1"),)),  # the sub-agent tries
        Reply("found it at line 3"),  # sub-agent's final answer
        Reply("The sub-agent found it."),
    ]
    client = model_host.connect()
    session, turn = run_turn(client)
    assert turn["state"] == "completed"
    sub_first, sub_second = fake_openai.requests[1], fake_openai.requests[2]
    assert "tools" not in sub_first and "sub-agent" in sub_first["messages"][0]["content"]
    assert "delegated path" in tool_messages(sub_second)[0]["content"]
    task_result = tool_messages(fake_openai.requests[3])[0]
    assert task_result["tool_call_id"] == "t1" and task_result["content"] == "found it at line 3"
    assert client.call("todos.get", {"sessionId": session["id"]})["revision"] == 0


def test_cancel_mid_turn(model_host, fake_openai) -> None:
    hang = Hang()
    fake_openai.script += [Reply("", (Call("TodoWrite", {"todos": THREE}, id="c1"),)), hang]
    client = model_host.connect()
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "go"})
    assert hang.started.wait(15)
    cancelled = client.call("turns.cancel", {"sessionId": session["id"], "turnId": turn["id"]})
    assert cancelled["state"] == "cancelled" and cancelled["finishedAt"]
    assert fake_openai.disconnected.wait(15)  # the stream was closed
    # the write before the cancel committed whole; nothing after it
    snapshot = client.call("todos.get", {"sessionId": session["id"]})
    assert snapshot["revision"] == 1 and len(snapshot["items"]) == 3
    assert client.call("sessions.get", {"sessionId": session["id"]})["runningTurnId"] is None
    with pytest.raises(RpcErrorReply) as info:
        client.call("turns.cancel", {"sessionId": session["id"], "turnId": turn["id"]})
    assert info.value.code == -32021


def test_cancel_before_any_write_leaves_no_checklist(model_host, fake_openai) -> None:
    hang = Hang()
    fake_openai.script.append(hang)
    client = model_host.connect()
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "go"})
    assert hang.started.wait(15)
    with pytest.raises(RpcErrorReply) as info:
        client.call("turns.start", {"sessionId": session["id"], "text": "again"})
    assert info.value.code == -32020
    cancelled = client.call("turns.cancel", {"sessionId": session["id"], "turnId": turn["id"]})
    assert cancelled["state"] == "cancelled"
    assert client.call("todos.get", {"sessionId": session["id"]})["revision"] == 0


def test_server_error_is_retried(model_host, fake_openai) -> None:
    fake_openai.script += [HttpError(500), Reply("recovered")]
    client = model_host.connect()
    session, turn = run_turn(client)
    assert turn["state"] == "completed"
    assert len(fake_openai.requests) == 2
    messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
    assert messages[-1]["content"] == "recovered"


def test_endpoint_down_fails_the_turn_readably(tmp_path, socket_path) -> None:
    env = host_env(
        NIB_PROVIDER="openai",
        NIB_OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        NIB_MODEL="m",
        NIB_MAX_RETRIES="0",
    )
    with running_host(tmp_path, socket_path, env) as host:
        _session, turn = run_turn(host.connect())
    assert turn["state"] == "failed"
    assert turn["error"].startswith("model endpoint unreachable: http://127.0.0.1:9/v1")


def test_looping_model_is_stopped(tmp_path, socket_path, fake_openai) -> None:
    fake_openai.script += [Reply("", (Call("TodoWrite", {"todos": []}),))] * 5
    env = host_env(
        NIB_PROVIDER="openai",
        NIB_OPENAI_BASE_URL=fake_openai.base_url,
        NIB_MODEL="m",
        NIB_MAX_STEPS="3",
    )
    with running_host(tmp_path, socket_path, env) as host:
        _session, turn = run_turn(host.connect())
    assert turn["state"] == "failed" and "stopped after 3 model steps" in turn["error"]
    assert "NIB_MAX_STEPS" in turn["error"]
    assert len(fake_openai.requests) == 3


@pytest.mark.parametrize(
    ("env", "setting"),
    [
        ({"NIB_PROVIDER": "bogus"}, "NIB_PROVIDER"),
        ({"NIB_PROVIDER": "openai", "NIB_MODEL": "m"}, "NIB_OPENAI_BASE_URL"),
        ({"NIB_PROVIDER": "openai", "NIB_OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "NIB_MODEL"),
        ({"NIB_MAX_STEPS": "many"}, "NIB_MAX_STEPS"),
    ],
    ids=["unknown provider", "no base url", "no model", "bad number"],
)
def test_misconfiguration_names_the_setting(tmp_path, socket_path, env, setting) -> None:
    with running_host(tmp_path, socket_path, host_env(**env)) as host:
        _session, turn = run_turn(host.connect())
    assert turn["state"] == "failed" and setting in turn["error"]


def test_settings_file_and_environment_wins(tmp_path, socket_path, fake_openai) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(
        json.dumps(
            {
                "NIB_PROVIDER": "openai",
                "NIB_OPENAI_BASE_URL": fake_openai.base_url,
                "NIB_MODEL": "from-file",
            }
        )
    )
    fake_openai.script += [Reply("hi"), Reply("hi")]
    with running_host(data, socket_path) as host:
        _s, turn = run_turn(host.connect())
    assert turn["state"] == "completed" and fake_openai.requests[0]["model"] == "from-file"
    with running_host(data, socket_path, host_env(NIB_MODEL="from-env")) as host:
        run_turn(host.connect())
    assert fake_openai.requests[1]["model"] == "from-env"


# --- the demo provider ----------------------------------------------------------------


def demo_run(client, text: str) -> tuple[list[dict], dict, list[dict]]:
    session, turn = run_turn(client, text)
    assert turn["state"] == "completed"
    snapshots = [
        n["params"]
        for n in client.notifications
        if n["method"] == "todos.changed" and n["params"]["sessionId"] == session["id"]
    ]
    messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
    return snapshots, session, messages


def test_demo_end_to_end_and_deterministic(host) -> None:
    client = host.connect()
    text = "1. Add the column\n2. Write the migration tests\n3. Update the docs\n4. Run the suite"
    snapshots, _session, messages = demo_run(client, text)
    assert [s["revision"] for s in snapshots] == list(range(1, 10))
    assert [i["content"] for i in snapshots[0]["items"]] == [
        "Add the column",
        "Write the migration tests",
        "Update the docs",
        "Run the suite",
    ]
    assert all(i["status"] == "pending" for i in snapshots[0]["items"])
    running = snapshots[3]["items"][1]
    assert running == {
        "content": "Write the migration tests",
        "status": "in_progress",
        "activeForm": "Writing the migration tests",
    }
    assert all(i["status"] == "completed" for i in snapshots[-1]["items"])
    for snapshot in snapshots:
        assert sum(i["status"] == "in_progress" for i in snapshot["items"]) <= 1
    assert messages[-1]["role"] == "assistant" and "4 steps" in messages[-1]["content"]

    client.notifications.clear()
    again, _s, messages_again = demo_run(client, text)
    strip = [[(i["content"], i["status"]) for i in s["items"]] for s in snapshots]
    assert [[(i["content"], i["status"]) for i in s["items"]] for s in again] == strip
    assert [m["content"] for m in messages_again] == [m["content"] for m in messages]


def test_demo_one_line_request_gets_a_breakdown(host) -> None:
    client = host.connect()
    snapshots, _s, _m = demo_run(client, "add dark mode to the settings page")
    count = len(snapshots[0]["items"])
    assert 3 <= count <= 8
    assert len(snapshots) == 1 + 2 * count


def test_demo_in_plan_mode_writes_no_checklist(host) -> None:
    client = host.connect()
    session, turn = run_turn(client, "a. b. c.", mode="plan")
    assert turn["state"] == "completed"
    assert client.call("todos.get", {"sessionId": session["id"]})["revision"] == 0
    messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
    assert "plan" in messages[-1]["content"]


def test_invalid_unicode_from_the_endpoint_never_breaks_the_session(
    tmp_path, socket_path, fake_openai
) -> None:
    """An emoji whose two UTF-16 halves arrive in two SSE chunks is joined; a lone half
    becomes U+FFFD; the session's transcript stays readable, also after a restart."""
    head = '{"todos":[{"content":"Ship'
    pad = " " * ((6 - len(head)) % 7)  # the high half ends a 7-character chunk
    split_emoji = head + pad + '\ud83d\ude00","status":"pending"}]}'
    assert split_emoji.index("\ud83d") % 7 == 6
    lone = '{"todos":[{"content":"Half \ud800 here","status":"pending"}]}'
    fake_openai.script += [
        Reply("", (Call("TodoWrite", split_emoji, id="c1"),)),
        Reply("", (Call("TodoWrite", lone, id="c2"),)),
        Reply("Bad \udc00 text, then fine."),
    ]
    env = model_env(fake_openai.base_url)
    with running_host(tmp_path / "d", socket_path, env) as host:
        client = host.connect()
        session, turn = run_turn(client)
        assert turn["state"] == "completed", turn["error"]
        revisions = [n["params"] for n in client.notifications if n["method"] == "todos.changed"]
        assert revisions[0]["items"][0]["content"] == "Ship" + pad + "😀"
        assert revisions[1]["items"][0]["content"] == "Half \ufffd here"
        messages = client.call("messages.list", {"sessionId": session["id"]})["messages"]
        assert messages[-1]["content"] == "Bad \ufffd text, then fine."
    with running_host(tmp_path / "d", socket_path, env) as host:
        again = host.connect().call("messages.list", {"sessionId": session["id"]})
        assert again["messages"] == messages


def test_the_demo_finishes_the_longest_list_it_accepts(tmp_path, socket_path) -> None:
    text = "\n".join(f"{i}. Step number {i}" for i in range(1, 51))
    env = host_env(NIB_DEMO_STEP_DELAY_MS="0")  # NIB_MAX_STEPS keeps its default, 100
    with running_host(tmp_path, socket_path, env) as host:
        client = host.connect()
        session, turn = run_turn(client, text)
        assert turn["state"] == "completed", turn["error"]
        items = client.call("todos.get", {"sessionId": session["id"]})["items"]
        assert len(items) == 50 and all(i["status"] == "completed" for i in items)


def test_credentials_never_reach_a_turn_error(tmp_path, socket_path, fake_openai) -> None:
    key = "sk-very-secret-key-123"
    fake_openai.script += [HttpError(400, f"invalid api key {key} for this project")]
    port = fake_openai.base_url.split(":")[2].split("/")[0]
    for base_url in (f"http://alice:hunter2@127.0.0.1:{port}/v1", "http://bob:pw@127.0.0.1:9/v1"):
        env = host_env(
            NIB_PROVIDER="openai",
            NIB_OPENAI_BASE_URL=base_url,
            NIB_OPENAI_API_KEY=key,
            NIB_MODEL="m",
            NIB_MAX_RETRIES="0",
        )
        with running_host(tmp_path / port, socket_path, env) as host:
            _session, turn = run_turn(host.connect())
        assert turn["state"] == "failed"
        for secret in (key, "hunter2", "alice:", "bob:pw"):
            assert secret not in turn["error"], turn["error"]
        log = (tmp_path / port / "host.log").read_text()
        assert key not in log and "hunter2" not in log


def test_a_new_turn_starts_with_the_unfinished_checklist(model_host, fake_openai) -> None:
    """At the start of a turn in a session whose checklist has unfinished items, the model
    gets the committed list (revision, every item with its status) read by the host,
    right before the new request; a finished list is not repeated."""
    done = [dict(item, status="completed") for item in THREE]
    fake_openai.script += [
        Reply("", (Call("TodoWrite", {"todos": THREE}, id="w1"),)),
        Reply("Pausing here."),
        Reply("Carrying on.", (Call("TodoWrite", {"todos": done}, id="w2"),)),
        Reply("All done."),
        Reply("Nothing left."),
    ]
    client = model_host.connect()
    session = client.call("sessions.create", {})
    for text in ("start the work", "please continue", "anything else?"):
        turn = client.call("turns.start", {"sessionId": session["id"], "text": text})
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
    second_turn_first_request = fake_openai.requests[2]["messages"]
    injected = [
        m
        for m in second_turn_first_request
        if m["role"] == "system" and "checklist as committed" in m["content"]
    ]
    assert len(injected) == 1
    text = injected[0]["content"]
    assert "(revision 1)" in text
    assert "1. [completed] Read the code" in text and "2. [in_progress] Write the tests" in text
    assert "3. [pending] Ship it" in text
    position = second_turn_first_request.index(injected[0])
    assert second_turn_first_request[position + 1] == {"role": "user", "content": "please continue"}
    # the first turn had no checklist yet, the third a finished one: nothing injected
    for request in (fake_openai.requests[0], fake_openai.requests[4]):
        systems = [m["content"] for m in request["messages"] if m["role"] == "system"]
        assert not [text for text in systems if "checklist as committed" in text]


def test_text_streams_as_deltas_before_it_is_stored(tmp_path, socket_path, fake_openai) -> None:
    """Contract 16: the model's text reaches clients as it arrives (a step that hangs
    after its first piece has told it already), and the stored message holds exactly
    what its deltas carried, after them."""
    hang = Hang()
    fake_openai.script += [Reply("First, a look around. Then the plan."), hang]
    with running_host(tmp_path / "d", socket_path, model_env(fake_openai.base_url)) as host:
        client = host.connect()
        session = client.call("sessions.create", {})
        sid = session["id"]
        turn = client.call("turns.start", {"sessionId": sid, "text": "go"})
        ended = client.wait_turn_end(turn["id"])
        assert ended["state"] == "completed"
        notes = [
            n
            for n in client.notifications
            if n["method"] in ("messages.delta", "messages.appended")
            and n["params"]["sessionId"] == sid
        ]
        deltas = [n["params"] for n in notes if n["method"] == "messages.delta"]
        assert deltas and {(d["turnId"], d["kind"]) for d in deltas} == {(turn["id"], "text")}
        assert "".join(d["text"] for d in deltas) == "First, a look around. Then the plan."
        stored = [
            n
            for n in notes
            if n["method"] == "messages.appended" and n["params"]["message"]["role"] == "assistant"
        ]
        assert stored[0]["params"]["message"]["content"] == "First, a look around. Then the plan."
        assert notes.index(stored[0]) > max(
            i for i, n in enumerate(notes) if n["method"] == "messages.delta"
        )

        # a step that hangs after its first piece: that piece is told while it runs
        client.notifications.clear()
        second = client.call("turns.start", {"sessionId": sid, "text": "again"})
        told = client.wait_notification(lambda n: n["method"] == "messages.delta", 20)
        assert told["params"]["text"] == "thinking" and told["params"]["turnId"] == second["id"]
        assert (
            client.call("turns.list", {"sessionId": sid, "limit": 1})["turns"][0]["state"]
            == "running"
        )
        hang.release.set()  # the step ends (how is the fake's business), and so the turn
        client.wait_turn_end(second["id"])
