"""The client endpoint drops what it cannot use, and says so in the log with the reason."""

from __future__ import annotations

import json
import logging

import pytest

from host.protocol.endpoint import ClientEndpoint
from host.protocol.framing import encode_frame


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"{not json", "it sent a frame that is not JSON-RPC (body is not JSON"),
        (
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "method": "todos.changed",
                    "params": {"sessionId": "s", "revision": "x"},
                }
            ).encode(),
            "it sent a malformed todos.changed",
        ),
        (
            json.dumps(
                {"jsonrpc": "2.0", "method": "sessions.create", "id": 3, "params": {}}
            ).encode(),
            "it sent a request for 'sessions.create', which is not a notification",
        ),
        (
            json.dumps({"jsonrpc": "2.0", "id": 99, "result": {}}).encode(),
            "dropped an answer to no request of ours (id 99)",
        ),
    ],
)
def test_every_dropped_frame_is_logged_with_its_reason(body, reason, caplog) -> None:
    heard: list[str] = []
    endpoint = ClientEndpoint(lambda _data: None, lambda name, _params: heard.append(name))
    with caplog.at_level(logging.WARNING, logger="host.protocol.endpoint"):
        endpoint.feed(encode_frame(body))
    assert heard == []
    assert any(reason in record.getMessage() for record in caplog.records), caplog.text


def test_a_valid_notification_is_delivered_and_not_logged(caplog) -> None:
    heard: list[str] = []
    endpoint = ClientEndpoint(lambda _data: None, lambda name, _params: heard.append(name))
    note = {"jsonrpc": "2.0", "method": "sessions.deleted", "params": {"sessionId": "s"}}
    with caplog.at_level(logging.WARNING, logger="host.protocol.endpoint"):
        endpoint.feed(encode_frame(json.dumps(note).encode()))
    assert heard == ["sessions.deleted"] and caplog.records == []


@pytest.mark.parametrize(
    "body",
    [
        b"\xff\xfe",
        json.dumps({"jsonrpc": "2.0", "method": "x.y", "params": {}}).encode(),
        json.dumps(
            {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no"}}
        ).encode(),
    ],
)
def test_a_strict_endpoint_reports_a_frame_that_is_not_the_contract(body: bytes) -> None:
    """RACP: a remote host that sends garbage is reported (and then disconnected)."""
    bad: list[str] = []
    endpoint = ClientEndpoint(lambda _data: None, lambda _n, _p: None, on_bad=bad.append)
    endpoint.feed(encode_frame(body))
    assert len(bad) == 1 and bad[0]


def test_an_object_of_many_unknown_members_is_refused_by_naming_a_few() -> None:
    """400,000 unknown params made pydantic build 400,000 errors (over a second, during
    which no other client was served): the first unknown names and a count say it."""
    from pydantic import ValidationError

    from host.protocol import models as m
    from host.protocol.endpoint import MAX_DETAILS, validate, validation_details

    with pytest.raises(ValidationError) as caught:
        validate(m.CreateSessionParams, {"title": "t", **{f"k{i}": 1 for i in range(50_000)}})
    details = validation_details(caught.value)
    assert caught.value.error_count() == MAX_DETAILS
    assert [d["loc"] for d in details[:3]] == [["k0"], ["k1"], ["k2"]]
    assert details[-1] == {"loc": [], "type": "more", "msg": f"and {50_000 - MAX_DETAILS + 1} more"}
    # a few unknown members among known ones still get pydantic's own words
    with pytest.raises(ValidationError) as few:
        validate(m.CreateSessionParams, {"title": "t", "bogus": 1})
    assert validation_details(few.value)[0]["loc"] == ["bogus"]


def test_thousands_of_errors_are_counted_not_listed() -> None:
    from pydantic import ValidationError

    from host.protocol import models as m
    from host.protocol.endpoint import validate, validation_details

    items = [{"content": str(i), "status": "bogus"} for i in range(2_000)]
    snapshot = {"sessionId": "s", "revision": 1, "updatedAt": None, "items": items}
    with pytest.raises(ValidationError) as caught:
        validate(m.TodoSnapshot, snapshot)
    assert validation_details(caught.value) == [
        {"loc": [], "type": "many", "msg": f"{caught.value.error_count()} errors"}
    ]


def test_an_answer_takes_effect_before_the_notifications_sent_after_it() -> None:
    """The peer sent an answer, then a notification that supersedes it, and both were read
    at once: the caller's use of the answer comes first, the notification after it (the
    window showed a failed MCP server as starting for ever when it was the other way)."""
    import asyncio

    from host.protocol import methods as rpc, models as m

    seen: list[str] = []
    sent: list[bytes] = []

    def heard(_name: str, params: m.Wire) -> None:
        assert isinstance(params, m.ToolsList)
        seen.append(f"notified {params.servers[0].state}")

    endpoint = ClientEndpoint(sent.append, heard)

    def listing(state: str) -> dict[str, object]:
        return {
            "servers": [{"name": "s", "state": state, "error": None, "tools": []}],
            "plugins": [],
        }

    async def caller() -> None:
        answer = await endpoint.request(rpc.TOOLS_LIST, m.Empty())
        seen.append(f"answered {answer.servers[0].state}")

    async def body() -> None:
        task = asyncio.ensure_future(caller())
        await asyncio.sleep(0)  # the request is sent
        [request] = sent
        request_id = json.loads(request.split(b"\r\n\r\n", 1)[1])["id"]
        answer = {"jsonrpc": "2.0", "id": request_id, "result": listing("starting")}
        note = {"jsonrpc": "2.0", "method": "tools.changed", "params": listing("failed")}
        endpoint.feed(
            encode_frame(json.dumps(answer).encode()) + encode_frame(json.dumps(note).encode())
        )
        await task
        for _ in range(3):
            await asyncio.sleep(0)

    asyncio.run(body())
    assert seen == ["answered starting", "notified failed"]


def test_a_read_the_client_stops_waiting_for_is_cancelled_at_the_host() -> None:
    """A call that times out tells the host (`$/cancelRequest`): a read still running is
    dropped there; a call that changes something goes on and answers (nobody listens)."""
    import asyncio

    from harness.waiting import until
    from host.protocol import PROTOCOL_VERSION, methods as rpc, models as m
    from host.protocol.serving import Dispatcher, ServerConnection

    ran: dict[str, str] = {}

    def slow(name: str, result: m.Wire) -> object:
        async def handle(_params: object) -> m.Wire:
            ran[name] = "started"
            try:
                await asyncio.sleep(0.3)
            except asyncio.CancelledError:
                ran[name] = "cancelled"
                raise
            ran[name] = "finished"
            return result

        return handle

    def unused(_params: object) -> m.Wire:
        raise AssertionError("not called")

    handlers: dict = {
        method: unused for name, method in rpc.METHODS.items() if name != "host.hello"
    }
    handlers[rpc.SESSIONS_LIST] = slow("read", m.SessionList(sessions=()))
    turn = m.Turn(
        id="t",
        session_id="s",
        state="cancelled",
        error=None,
        started_at="2026-01-01T00:00:00.000Z",
        finished_at=None,
    )
    handlers[rpc.TURNS_CANCEL] = slow("write", turn)

    async def body() -> None:
        loop = asyncio.get_running_loop()
        client = ClientEndpoint(lambda data: loop.call_soon(server.feed, data), lambda *_: None)
        reply = lambda data: loop.call_soon(client.feed, data)  # noqa: E731
        server = ServerConnection("k", Dispatcher(handlers), reply, lambda: None)
        hello = m.HelloParams(token="k", protocol_version=PROTOCOL_VERSION, client="test")
        await client.request(rpc.HELLO, hello, 5.0)
        with pytest.raises(TimeoutError):
            await client.request(rpc.SESSIONS_LIST, m.Empty(), 0.05)
        with pytest.raises(TimeoutError):
            await client.request(rpc.TURNS_CANCEL, m.TurnRef(session_id="s", turn_id="t"), 0.05)
        await until(lambda: ran.get("write") == "finished", 5, "the write's end")
        assert ran == {"read": "cancelled", "write": "finished"}

    asyncio.run(asyncio.wait_for(body(), 10))
