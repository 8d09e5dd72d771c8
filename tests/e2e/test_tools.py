"""MCP servers, plugins and approvals through the real host process and socket (contract
section 13): the in-repo MCPServer over stdio and streamable HTTP, a server from the
package index (mcp-server-time) over stdio, and a plugin package installed through its
entry point. The model is the offline demo agent or the scripted OpenAI-compatible
server on 127.0.0.1, never a mock of the SDK."""

from __future__ import annotations

import json
import os
import select
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.fake_openai import Call, FakeOpenAI, Reply
from harness.host_process import (
    HostProcess,
    RpcClient,
    RpcErrorReply,
    host_env,
    model_env,
    running_host,
)

ROOT = Path(__file__).resolve().parents[2]
TEST_SERVER = {
    "command": sys.executable,
    "args": ["-m", "harness.mcp_test_server"],
    "env": {"PYTHONPATH": str(ROOT)},
}
TIME_SERVER = {"command": sys.executable, "args": ["-m", "mcp_server_time"]}


def write_settings(data_dir: Path, servers: dict[str, Any]) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "settings.json").write_text(json.dumps({"mcpServers": servers}))


def tools_ready(client: RpcClient, names: set[str], timeout: float = 30.0) -> dict[str, Any]:
    """The tools listing once every server in `names` has settled (ready or failed)."""
    deadline = time.monotonic() + timeout
    while True:
        listing = client.call("tools.list", {})
        states = {s["name"]: s["state"] for s in listing["servers"]}
        if all(states.get(n) in ("ready", "failed", "disabled") for n in names):
            return listing
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"servers did not settle: {states}")
        client.wait_notification(lambda n: n["method"] == "tools.changed", remaining)


def approval(client: RpcClient, timeout: float = 30.0) -> dict[str, Any]:
    note = client.wait_notification(lambda n: n["method"] == "approvals.requested", timeout)
    params: dict[str, Any] = note["params"]
    return params


def answer(client: RpcClient, asked: dict[str, Any], decision: str) -> Any:
    return client.call(
        "approvals.respond", {"approvalId": asked["approvalId"], "decision": decision}
    )


def tool_results(client: RpcClient, session_id: str) -> list[dict[str, Any]]:
    messages = client.call("messages.list", {"sessionId": session_id})["messages"]
    return [msg for msg in messages if msg["role"] == "tool"]


@pytest.fixture
def demo_tools_host(tmp_path: Path, socket_path: str) -> Iterator[HostProcess]:
    write_settings(
        tmp_path / "data",
        {
            "test": TEST_SERVER,
            "time": TIME_SERVER,
            "missing": {"command": str(tmp_path / "no-such-server")},
            "off": {**TEST_SERVER, "disabled": True},
            "wrong": {"args": ["x"]},
        },
    )
    env = host_env(NIB_OPENAI_API_KEY="sk-never-for-servers-123")
    with running_host(tmp_path / "data", socket_path, env) as process:
        yield process


def test_tools_list_tells_each_servers_state(demo_tools_host: HostProcess) -> None:
    client = demo_tools_host.connect()
    listing = tools_ready(client, {"test", "time", "missing"})
    servers = {s["name"]: s for s in listing["servers"]}
    assert servers["test"]["state"] == "ready"
    assert {"echo", "sleep", "fail", "crash", "ask_model"} <= {
        t["name"] for t in servers["test"]["tools"]
    }
    assert servers["time"]["state"] == "ready"
    assert "get_current_time" in {t["name"] for t in servers["time"]["tools"]}
    assert servers["missing"]["state"] == "failed" and servers["missing"]["error"]
    assert servers["off"]["state"] == "disabled"
    assert servers["wrong"]["state"] == "failed"
    assert "command" in servers["wrong"]["error"]


def test_the_demo_agent_asks_the_time_server_once_the_user_allows(
    demo_tools_host: HostProcess,
) -> None:
    client = demo_tools_host.connect()
    tools_ready(client, {"time"})
    session = client.call("sessions.create", {})
    turn = client.call(
        "turns.start", {"sessionId": session["id"], "text": "What time is it in Tokyo?"}
    )
    asked = approval(client)
    assert asked["tool"] == "mcp__time__get_current_time"
    assert asked["sessionId"] == session["id"] and asked["turnId"] == turn["id"]
    assert json.loads(asked["arguments"]) == {"timezone": "Asia/Tokyo"}
    answer(client, asked, "allow_once")
    resolved = client.wait_notification(lambda n: n["method"] == "approvals.resolved")
    assert resolved["params"] == {"approvalId": asked["approvalId"], "decision": "allow_once"}
    assert client.wait_turn_end(turn["id"])["state"] == "completed"
    [result] = tool_results(client, session["id"])
    assert not result["isError"] and '"timezone": "Asia/Tokyo"' in result["content"]
    # what the call did, as an ACP agent's call keeps it (section 16): its whole output
    assert result["activity"]["output"] == result["content"]
    assert result["activity"]["status"] == "completed" and not result["activity"]["truncated"]
    said = client.call("messages.list", {"sessionId": session["id"]})["messages"][-1]
    assert said["content"].startswith("The get_current_time tool says:")
    with pytest.raises(RpcErrorReply) as info:  # decided already
        answer(client, asked, "deny")
    assert info.value.code == -32030


def test_deny_and_allow_for_the_session(demo_tools_host: HostProcess) -> None:
    client = demo_tools_host.connect()
    tools_ready(client, {"test"})
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "Please echo this"})
    asked = approval(client)
    assert asked["tool"] == "mcp__test__echo"
    answer(client, asked, "deny")
    client.wait_turn_end(turn["id"])
    [denied] = tool_results(client, session["id"])
    assert denied["isError"] and "denied" in denied["content"]

    turn = client.call("turns.start", {"sessionId": session["id"], "text": "Please echo that"})
    asked = approval(client)
    answer(client, asked, "allow_session")
    client.wait_turn_end(turn["id"])
    # the same tool again in this session: no question
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "Echo once more"})
    assert client.wait_turn_end(turn["id"])["state"] == "completed"
    requested = [n for n in client.notifications if n["method"] == "approvals.requested"]
    assert requested == []
    results = tool_results(client, session["id"])
    assert [r["isError"] for r in results] == [True, False, False]
    assert results[-1]["content"] == "echo: Echo once more"
    # another session asks again
    other = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": other["id"], "text": "Echo here"})
    asked = approval(client)
    assert asked["sessionId"] == other["id"]
    client.call("turns.cancel", {"sessionId": other["id"], "turnId": turn["id"]})


def test_stop_resolves_a_pending_approval_as_cancelled(demo_tools_host: HostProcess) -> None:
    client = demo_tools_host.connect()
    tools_ready(client, {"test"})
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "Please echo this"})
    asked = approval(client)
    ended = client.call("turns.cancel", {"sessionId": session["id"], "turnId": turn["id"]})
    assert ended["state"] == "cancelled"
    resolved = client.wait_notification(lambda n: n["method"] == "approvals.resolved")
    assert resolved["params"] == {"approvalId": asked["approvalId"], "decision": "cancelled"}
    with pytest.raises(RpcErrorReply) as info:
        answer(client, asked, "allow_once")
    assert info.value.code == -32030


def test_a_server_gets_only_the_environment_its_entry_names(
    demo_tools_host: HostProcess,
) -> None:
    """The scripted check goes through the demo: "environment" names the tool."""
    client = demo_tools_host.connect()
    tools_ready(client, {"test"})
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "Show the environment"})
    asked = approval(client)
    answer(client, asked, "allow_once")
    client.wait_turn_end(turn["id"])
    [result] = tool_results(client, session["id"])
    names = set(json.loads(result["content"]))
    assert "PYTHONPATH" in names  # what the entry names
    assert not {n for n in names if n.startswith("NIB_")}, names
    # the SDK's minimal base (and the locale Python itself sets when it starts)
    base = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "PYTHONPATH", "LC_CTYPE"}
    assert names <= base, names - base


# --- with a scripted model -----------------------------------------------------------


@pytest.fixture
def scripted(tmp_path: Path, socket_path: str, fake_openai: FakeOpenAI) -> Iterator[HostProcess]:
    write_settings(
        tmp_path / "data",
        {"test": {**TEST_SERVER, "approval": "allow", "timeout": 1.5}},
    )
    with running_host(tmp_path / "data", socket_path, model_env(fake_openai.base_url)) as process:
        yield process


def test_tools_are_offered_with_their_schemas(scripted: HostProcess, fake_openai) -> None:
    client = scripted.connect()
    tools_ready(client, {"test"})
    fake_openai.script = [Reply("hello")]
    session = client.call("sessions.create", {})
    client.wait_turn_end(
        client.call("turns.start", {"sessionId": session["id"], "text": "hi"})["id"]
    )
    offered = {t["function"]["name"]: t["function"] for t in fake_openai.requests[0]["tools"]}
    assert {"TodoWrite", "Task", "mcp__test__echo", "mcp__test__sleep"} <= set(offered)
    echo = offered["mcp__test__echo"]["parameters"]
    assert echo["properties"]["text"]["type"] == "string" and echo["required"] == ["text"]


def test_a_call_that_outlasts_its_timeout_is_cancelled(scripted: HostProcess, fake_openai) -> None:
    client = scripted.connect()
    tools_ready(client, {"test"})
    fake_openai.script = [
        Reply(calls=(Call("mcp__test__sleep", {"seconds": 30}, "c1"),)),
        Reply("it took too long"),
        Reply(
            calls=(
                Call("mcp__test__echo", {"text": "still here"}, "c2"),
                Call("mcp__test__picture", {}, "c3"),
            )
        ),
        Reply("done"),
    ]
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "wait"})
    assert client.wait_turn_end(turn["id"])["state"] == "completed"
    [timed_out] = tool_results(client, session["id"])
    assert timed_out["isError"] and "within 1.5 s" in timed_out["content"]
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "again"})
    client.wait_turn_end(turn["id"])
    echoed, picture = tool_results(client, session["id"])[-2:]
    assert echoed["content"] == "echo: still here"
    assert picture["content"] == "[image: image/png, 108 bytes, not shown]"  # plain text


def test_stopping_a_turn_cancels_its_call(scripted: HostProcess, fake_openai) -> None:
    client = scripted.connect()
    tools_ready(client, {"test"})
    fake_openai.script = [Reply(calls=(Call("mcp__test__sleep", {"seconds": 30}, "c1"),))]
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "wait"})
    log = scripted.data_dir / "host.log"
    wait_for_line(log, "MCP server test: sleeping 30")
    ended = client.call("turns.cancel", {"sessionId": session["id"], "turnId": turn["id"]})
    assert ended["state"] == "cancelled"
    wait_for_line(log, "MCP server test: sleep cancelled")  # the server was told
    assert client.call("tools.list", {})["servers"][0]["state"] == "ready"


def wait_for_line(path: Path, text: str, timeout: float = 15.0) -> None:
    """Until the file holds `text` (the host writes its log as things happen)."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and text in path.read_text()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{text!r} never reached {path.name}")
        time.sleep(0.02)


def test_a_crashed_server_is_failed_with_its_last_words_and_restarted(
    scripted: HostProcess, fake_openai
) -> None:
    client = scripted.connect()
    tools_ready(client, {"test"})
    fake_openai.script = [
        Reply(calls=(Call("mcp__test__crash", {}, "c1"),)),
        Reply("it crashed"),
        Reply(calls=(Call("mcp__test__echo", {"text": "back"}, "c2"),)),
        Reply("it is back"),
    ]
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "crash it"})
    client.wait_turn_end(turn["id"])
    [crashed] = tool_results(client, session["id"])
    assert crashed["isError"] and "boom: crashing on purpose" in crashed["content"]
    note = client.wait_notification(
        lambda n: n["method"] == "tools.changed" and n["params"]["servers"][0]["state"] == "failed"
    )
    assert note["params"]["servers"][0]["error"] == "the server exited: boom: crashing on purpose"
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "again"})
    client.wait_turn_end(turn["id"])
    assert tool_results(client, session["id"])[-1]["content"] == "echo: back"
    assert client.call("tools.list", {})["servers"][0]["state"] == "ready"
    log = (scripted.data_dir / "host.log").read_text()
    assert "MCP server test: boom: crashing on purpose" in log  # its stderr, in the host log


def test_a_large_result_is_read_and_one_over_the_limit_stops_the_server(
    scripted: HostProcess, fake_openai
) -> None:
    """A result is read once, whatever its size (the SDK's reader copied all it held at
    every chunk: 40 MB took over a minute); one message over 16 MiB stops the server,
    said in words, and the next use starts it again."""
    client = scripted.connect()
    tools_ready(client, {"test"})
    fake_openai.script = [
        # the server sends its text twice (as text, and as structured content)
        Reply(calls=(Call("mcp__test__big", {"megabytes": 6}, "c1"),)),
        Reply("read"),
        Reply(calls=(Call("mcp__test__big", {"megabytes": 9}, "c2"),)),
        Reply("too much"),
        Reply(calls=(Call("mcp__test__echo", {"text": "back"}, "c3"),)),
        Reply("it is back"),
    ]
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "a big one"})
    assert client.wait_turn_end(turn["id"], 60)["state"] == "completed"
    [read] = tool_results(client, session["id"])
    assert not read["isError"] and read["content"].startswith("0123456789abcdef")
    assert read["content"].endswith(f"({6 * 1024 * 1024 - 100_000} more characters)")
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "a bigger one"})
    client.wait_turn_end(turn["id"], 60)
    over = tool_results(client, session["id"])[-1]
    assert over["isError"] and "it sent a message over 16 MiB" in over["content"], over
    note = client.wait_notification(
        lambda n: n["method"] == "tools.changed" and n["params"]["servers"][0]["state"] == "failed"
    )
    assert note["params"]["servers"][0]["error"] == "it sent a message over 16 MiB"
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "again"})
    client.wait_turn_end(turn["id"], 60)
    assert tool_results(client, session["id"])[-1]["content"] == "echo: back"


SNEAK = {"content": "Sneak", "status": "pending"}


def test_sampling_runs_on_the_mcp_path_and_todowrite_is_refused(
    scripted: HostProcess, fake_openai
) -> None:
    client = scripted.connect()
    tools_ready(client, {"test"})
    fake_openai.script = [
        Reply(calls=(Call("mcp__test__ask_model", {"topic": "the parser"}, "c1"),)),
        # the server's sampling request: the model tries to write the checklist
        Reply(calls=(Call("TodoWrite", {"todos": [SNEAK]}, "s1"),)),
        Reply("I may not keep a checklist here."),
        Reply("done"),
    ]
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "plan the parser"})
    assert client.wait_turn_end(turn["id"])["state"] == "completed"
    sampling = fake_openai.requests[1]
    assert "Plan the work on the parser" in json.dumps(sampling["messages"])
    refused = fake_openai.requests[2]["messages"][-1]
    assert refused["role"] == "tool" and "TodoWrite refused" in refused["content"]
    assert "mcp" in refused["content"]
    [result] = tool_results(client, session["id"])
    assert result["content"] == "the model said: I may not keep a checklist here."
    snapshot = client.call("todos.get", {"sessionId": session["id"]})
    assert snapshot["revision"] == 0 and snapshot["items"] == []
    assert not [n for n in client.notifications if n["method"] == "todos.changed"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "harness.mcp_test_server", "--http", str(port)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    assert process.stderr is not None
    seen = b""
    deadline = time.monotonic() + 20
    while b"Uvicorn running" not in seen:  # its own word that it listens
        readable, _, _ = select.select(
            [process.stderr], [], [], max(0.0, deadline - time.monotonic())
        )
        chunk = os.read(process.stderr.fileno(), 4096) if readable else b""
        if not chunk:
            process.kill()
            raise RuntimeError(f"the HTTP test server did not start: {seen!r}")
        seen += chunk
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)
        process.stderr.close()


def test_a_server_over_streamable_http(
    tmp_path: Path, socket_path: str, http_server: str, fake_openai
) -> None:
    write_settings(tmp_path / "data", {"web": {"url": http_server, "approval": "allow"}})
    with running_host(tmp_path / "data", socket_path, model_env(fake_openai.base_url)) as process:
        client = process.connect()
        listing = tools_ready(client, {"web"})
        assert listing["servers"][0]["state"] == "ready"
        fake_openai.script = [
            Reply(calls=(Call("mcp__web__echo", {"text": "over http"}, "c1"),)),
            Reply("done"),
        ]
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "go"})
        client.wait_turn_end(turn["id"])
        assert tool_results(client, session["id"])[0]["content"] == "echo: over http"


# --- plugins ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The test plugin, installed by pip from its folder into a target directory that the
    host processes get on their path (the project's own venv stays without it)."""
    target = tmp_path_factory.mktemp("plugins")
    source = tmp_path_factory.mktemp("plugin-source") / "nib-test-plugin"
    shutil.copytree(ROOT / "tests/plugins/nib-test-plugin", source)  # builds leave files
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    return str(target)


def test_plugins_are_listed_and_run_on_the_plugin_path(
    tmp_path: Path, socket_path: str, plugin_path: str, fake_openai
) -> None:
    env = model_env(fake_openai.base_url, PYTHONPATH=os.pathsep.join([plugin_path, str(ROOT)]))
    with running_host(tmp_path / "data", socket_path, env) as process:
        client = process.connect()
        plugins = {p["name"]: p for p in client.call("tools.list", {})["plugins"]}
        assert {t["name"] for t in plugins["notes"]["tools"]} == {"count_words", "plan_for_me"}
        assert plugins["notes"]["error"] is None
        assert plugins["broken"]["tools"] == []
        assert "broken on purpose" in plugins["broken"]["error"]
        fake_openai.script = [
            Reply(calls=(Call("plan_for_me", {"topic": "the parser"}, "c1"),)),
            Reply("done"),
        ]
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "plan it"})
        asked = approval(client)
        assert asked["tool"] == "plan_for_me" and json.loads(asked["arguments"]) == {
            "topic": "the parser"
        }
        answer(client, asked, "allow_once")
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
        [result] = tool_results(client, session["id"])
        assert "TodoWrite refused" in result["content"] and "plugin" in result["content"]
        assert "(error: True)" in result["content"]
        assert client.call("todos.get", {"sessionId": session["id"]})["revision"] == 0
        offered = {t["function"]["name"] for t in fake_openai.requests[0]["tools"]}
        assert {"count_words", "plan_for_me"} <= offered


def test_a_server_asking_for_many_model_calls_needs_the_user(
    scripted: HostProcess, fake_openai
) -> None:
    """Model calls cost the user: past 5 in one tool call the user is asked, and a
    refusal reaches the server, which stops asking (no flood of model requests)."""
    client = scripted.connect()
    tools_ready(client, {"test"})
    fake_openai.script = [
        Reply(calls=(Call("mcp__test__ask_many", {"times": 200}, "c1"),)),
        *[Reply(f"A{i}") for i in range(5)],
        Reply("done"),
    ]
    session = client.call("sessions.create", {})
    turn = client.call("turns.start", {"sessionId": session["id"], "text": "ask a lot"})
    asked = approval(client)
    assert asked["tool"] == "more model calls for MCP servers"
    assert "model call 6 of this tool call" in asked["arguments"]
    answer(client, asked, "deny")
    assert client.wait_turn_end(turn["id"])["state"] == "completed"
    assert len(fake_openai.requests) == 7  # the turn's two steps and five model calls
    [result] = tool_results(client, session["id"])
    assert result["content"].startswith("A0 | A1 | A2 | A3 | A4 | refused:")


def test_no_approval_is_asked_for_a_tool_of_a_server_that_is_not_there(
    tmp_path: Path, socket_path: str, fake_openai: FakeOpenAI
) -> None:
    write_settings(tmp_path / "data", {"gone": {"command": "no-such-mcp-server-here"}})
    fake_openai.script = [Reply(calls=(Call("mcp__gone__anything", {}, "c1"),)), Reply("ok")]
    env = model_env(fake_openai.base_url)
    with running_host(tmp_path / "data", socket_path, env) as host:
        client = host.connect()
        tools_ready(client, {"gone"})
        session = client.call("sessions.create", {})
        turn = client.call("turns.start", {"sessionId": session["id"], "text": "use it"})
        assert client.wait_turn_end(turn["id"])["state"] == "completed"
        assert not [n for n in client.notifications if n["method"] == "approvals.requested"]
        [result] = tool_results(client, session["id"])
        assert result["isError"] and "the MCP server gone is not running" in result["content"]


def test_a_server_whose_answers_cannot_be_read_is_said_so(tmp_path: Path, socket_path: str) -> None:
    """Not "the server exited": what it sent could not be read, in the SDK's words."""
    bad = {
        "command": sys.executable,
        "args": ["-m", "tests.helpers.bad_mcp_server"],
        "env": {"PYTHONPATH": str(ROOT)},
    }
    write_settings(tmp_path / "data", {"bad": bad})
    with running_host(tmp_path / "data", socket_path, host_env()) as host:
        client = host.connect()
        listing = tools_ready(client, {"bad"})
        [server] = listing["servers"]
        assert server["state"] == "failed"
        assert server["error"].startswith("it sent what the MCP client cannot read: ")
        assert "exited" not in server["error"]


def test_settings_json_is_read_again_when_it_changes(tmp_path: Path, socket_path: str) -> None:
    """No restart: a server added, disabled, enabled and removed in settings.json is
    started, stopped and told; a file broken mid-edit is its own entry naming the file, its
    line and the problem, and mending it brings the servers back; agents follow too."""
    data = tmp_path / "data"
    write_settings(data, {})

    def changed_until(client: RpcClient, check: Any) -> dict[str, Any]:
        while True:
            listing = client.call("tools.list", {})
            if check(listing):
                return listing
            client.wait_notification(lambda n: n["method"] == "tools.changed", 30)
            client.notifications.clear()

    def states(listing: dict[str, Any]) -> dict[str, str]:
        return {s["name"]: s["state"] for s in listing["servers"]}

    with running_host(data, socket_path) as host:
        client = host.connect()
        assert client.call("tools.list", {})["servers"] == []
        write_settings(data, {"test": TEST_SERVER})
        changed_until(client, lambda ls: states(ls) == {"test": "ready"})
        write_settings(data, {"test": {**TEST_SERVER, "disabled": True}})
        changed_until(client, lambda ls: states(ls) == {"test": "disabled"})
        write_settings(data, {"test": TEST_SERVER})
        changed_until(client, lambda ls: states(ls) == {"test": "ready"})

        (data / "settings.json").write_text('{"mcpServers": {\n  "test": {,\n}}')
        broken = changed_until(client, lambda ls: "settings.json" in states(ls))
        (entry,) = broken["servers"]
        assert entry["state"] == "failed" and entry["tools"] == []
        assert "settings.json is not valid JSON" in entry["error"] and "line 2" in entry["error"]

        agent = {"command": sys.executable, "args": ["-c", "pass"]}
        (data / "settings.json").write_text(json.dumps({"agents": {"later": agent}}))
        client.wait_notification(
            lambda n: (
                n["method"] == "agents.changed"
                and [a["name"] for a in n["params"]["agents"]] == ["later"]
            ),
            30,
        )
        changed_until(client, lambda ls: ls["servers"] == [])
        # the host was never restarted: the same connection answered throughout
        assert client.call("sessions.list", {}) == {"sessions": []}


def test_tools_retry_starts_a_failed_server_now(tmp_path: Path, socket_path: str) -> None:
    """A server that failed waits out a back-off before its next use; `tools.retry` (the
    Tools view's Retry) starts it at once; an unknown name is refused in words."""
    data = tmp_path / "data"
    marker = tmp_path / "works"
    flaky = {
        "command": sys.executable,
        "args": [
            "-c",
            (
                "import os, runpy, sys; "
                f"os.path.exists({str(marker)!r}) or sys.exit(3); "
                "sys.argv = ['x']; "
                "runpy.run_module('harness.mcp_test_server', run_name='__main__')"
            ),
        ],
        "env": {"PYTHONPATH": str(ROOT)},
    }
    write_settings(data, {"flaky": flaky})
    with running_host(data, socket_path) as host:
        client = host.connect()
        assert tools_ready(client, {"flaky"})["servers"][0]["state"] == "failed"
        marker.touch()  # it would work now, but nothing starts it before a turn
        client.notifications.clear()
        assert client.call("tools.retry", {"name": "flaky"}) == {"ok": True}
        listing = tools_ready(client, {"flaky"})
        while listing["servers"][0]["state"] != "ready":
            client.wait_notification(lambda n: n["method"] == "tools.changed", 30)
            listing = client.call("tools.list", {})
        with pytest.raises(RpcErrorReply) as refused:
            client.call("tools.retry", {"name": "nope"})
        assert refused.value.code == -32602
        assert "no MCP server named 'nope'" in refused.value.error["message"]
