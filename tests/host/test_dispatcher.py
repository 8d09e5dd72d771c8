"""The host's connection logic in process: hypothesis sends arbitrary frames and
messages; every answer is a well-formed JSON-RPC response and nothing crashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, strategies as st

from host.core import HostCore
from host.handlers import dispatcher
from host.protocol.framing import FrameDecoder, encode_frame, encode_message
from host.protocol.methods import METHODS
from host.protocol.serving import Dispatcher, ServerConnection
from tests.helpers.budget import examples

TOKEN = "tok"


class Wire:
    def __init__(self, core: HostCore, hello: bool) -> None:
        self.out = FrameDecoder()
        self.messages: list[dict] = []
        self.closed = False
        self.conn = ServerConnection(TOKEN, dispatcher(core), self._send, self._close)
        if hello:
            self.feed(
                encode_message(
                    {
                        "jsonrpc": "2.0",
                        "id": 0,
                        "method": "host.hello",
                        "params": {"token": TOKEN, "protocolVersion": 1, "client": "fuzz"},
                    }
                )
            )
            assert "result" in self.messages.pop()

    def _send(self, data: bytes) -> None:
        self.messages += [json.loads(b) for b in self.out.feed(data)]

    def _close(self) -> None:
        self.closed = True

    def feed(self, data: bytes) -> None:
        self.conn.feed(data)


@pytest.fixture(scope="module")
def module_core(tmp_path_factory) -> HostCore:
    path: Path = tmp_path_factory.mktemp("fuzz")
    return HostCore(path)


def assert_well_formed(message: dict) -> None:
    assert message["jsonrpc"] == "2.0"
    if "id" in message:
        assert ("result" in message) != ("error" in message)
        if "error" in message:
            assert isinstance(message["error"]["code"], int)
            assert isinstance(message["error"]["message"], str)
            assert "Traceback" not in json.dumps(message)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=10,
)
messages = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "1.0", 2]),
        "id": st.one_of(st.integers(), st.text(max_size=5), st.none(), st.booleans()),
        "method": st.one_of(st.sampled_from([*sorted(METHODS), "todos.write", "x"]), st.integers()),
        "params": json_values,
    },
)


@examples(1_000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@pytest.mark.timeout(300)
@given(st.lists(messages, max_size=4), st.booleans())
def test_dispatcher_answers_every_message_well_formed(module_core, batch, hello) -> None:
    wire = Wire(module_core, hello)
    for message in batch:
        if message.get("method") in ("host.shutdown", "sessions.delete", "turns.start"):
            continue  # side effects on the shared fixture; covered through the process
        wire.feed(encode_message(message))
        if wire.closed:
            break
    for answer in wire.messages:
        assert_well_formed(answer)


# the framing's own test takes bytes to full depth; here each example is a whole dispatch
@examples(3_000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@pytest.mark.timeout(300)
@given(st.binary(max_size=500), st.booleans())
def test_dispatcher_survives_arbitrary_bytes(module_core, blob, framed) -> None:
    wire = Wire(module_core, hello=True)
    wire.feed(encode_frame(blob) if framed else blob)
    for answer in wire.messages:
        assert_well_formed(answer)
    if framed and not wire.closed:
        wire.feed(encode_message({"jsonrpc": "2.0", "id": "after", "method": "sessions.list"}))
        assert wire.messages[-1]["id"] == "after" and "result" in wire.messages[-1]


def test_dispatcher_requires_every_method() -> None:
    with pytest.raises(ValueError, match="missing"):
        Dispatcher({})


def test_an_answer_over_the_frame_limit_becomes_an_error_naming_it(tmp_path) -> None:
    """The host never sends a frame the client must refuse: an over-size answer is an
    error that names the limit, and the connection goes on."""
    core = HostCore(tmp_path)
    from host.protocol import models as m

    sid = core.sessions.create(m.CreateSessionParams(title="huge")).id
    core.sessions.transcript.append(sid, None, "assistant", "y" * (9 * 1024 * 1024))
    wire = Wire(core, hello=True)
    wire.feed(
        encode_message(
            {"jsonrpc": "2.0", "id": 7, "method": "messages.list", "params": {"sessionId": sid}}
        )
    )
    answer = wire.messages.pop()
    assert answer["id"] == 7 and answer["error"]["code"] == -32603
    assert "over the 8 MiB frame limit" in answer["error"]["message"]
    assert not wire.closed
    wire.feed(encode_message({"jsonrpc": "2.0", "id": 8, "method": "sessions.list", "params": {}}))
    assert wire.messages.pop()["id"] == 8
    core.close()


def request(message_id: object, method: str, params: dict) -> bytes:
    return encode_message({"jsonrpc": "2.0", "id": message_id, "method": method, "params": params})


def test_client_notifications_run_nothing(tmp_path) -> None:
    core = HostCore(tmp_path)
    stopped: list[bool] = []
    core.on_shutdown_requested = lambda: stopped.append(True)
    wire = Wire(core, hello=True)
    for method, params in (("sessions.create", {"title": "sneaky"}), ("host.shutdown", {})):
        wire.feed(encode_message({"jsonrpc": "2.0", "method": method, "params": params}))
    wire.feed(request(1, "sessions.list", {}))
    assert wire.messages == [{"jsonrpc": "2.0", "id": 1, "result": {"sessions": []}}]
    assert not stopped and not wire.closed
    core.close()


def test_the_handshake_is_strict(tmp_path) -> None:
    core = HostCore(tmp_path)
    hello = {"token": TOKEN, "client": "t"}
    # host.hello as a notification does not authenticate
    wire = Wire(core, hello=False)
    wire.feed(
        encode_message(
            {"jsonrpc": "2.0", "method": "host.hello", "params": {**hello, "protocolVersion": 1}}
        )
    )
    assert wire.messages[-1]["error"]["code"] == -32001 and wire.closed
    # protocolVersion must be the integer 1, not true or 1.0
    for version in (True, 1.0, "1"):
        wire = Wire(core, hello=False)
        wire.feed(request(0, "host.hello", {**hello, "protocolVersion": version}))
        assert wire.messages[-1]["error"]["code"] == -32002 and wire.closed, version
    core.close()


def test_bodies_are_utf8_ids_valid_and_nesting_bounded(tmp_path) -> None:
    core = HostCore(tmp_path)
    wire = Wire(core, hello=True)
    utf16 = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "sessions.list", "params": {}}).encode(
        "utf-16"
    )
    raw_surrogate = b'{"jsonrpc":"2.0","id":"\xed\xa0\x80","method":"sessions.list","params":{}}'
    escaped_surrogate = b'{"jsonrpc":"2.0","id":"\\ud800","method":"sessions.list","params":{}}'
    deep = (
        b'{"jsonrpc":"2.0","id":5,"method":"sessions.list","params":'
        + b"[" * 1000
        + b"]" * 1000
        + b"}"
    )
    nested = (
        b'{"jsonrpc":"2.0","id":6,"method":"sessions.list","params":{"a":'
        + b"[" * 100
        + b"]" * 100
        + b"}}"
    )
    # all in one read, then a good request: each bad one answered, the good one too
    wire.feed(
        encode_frame(utf16)
        + encode_frame(raw_surrogate)
        + encode_frame(escaped_surrogate)
        + encode_frame(deep)
        + encode_frame(nested)
        + request(9, "sessions.list", {})
    )
    codes = [(m_.get("id"), m_.get("error", {}).get("code")) for m_ in wire.messages]
    assert codes == [
        (None, -32700),
        (None, -32700),
        (None, -32600),
        (None, -32700),
        (6, -32700),
        (9, None),
    ]
    assert "nested" in wire.messages[3]["error"]["message"]
    assert "nested deeper than 64" in wire.messages[4]["error"]["message"]
    assert not wire.closed
    core.close()


def test_a_lone_surrogate_from_a_client_is_stored_as_a_replacement(tmp_path) -> None:
    core = HostCore(tmp_path)
    wire = Wire(core, hello=True)
    body = b'{"jsonrpc":"2.0","id":1,"method":"sessions.create","params":{"title":"a\\ud800b"}}'
    wire.feed(encode_frame(body))
    assert wire.messages[-1]["result"]["title"] == "a\ufffdb"
    wire.feed(request(2, "sessions.list", {}))
    assert wire.messages[-1]["result"]["sessions"][0]["title"] == "a\ufffdb"
    core.close()


def test_an_error_for_many_bad_params_stays_small(tmp_path) -> None:
    core = HostCore(tmp_path)
    wire = Wire(core, hello=True)
    params = {f"unknown{i}": i for i in range(50_000)}
    wire.feed(
        encode_message({"jsonrpc": "2.0", "id": 3, "method": "sessions.list", "params": params})
    )
    error = wire.messages.pop()["error"]
    assert error["code"] == -32602 and len(json.dumps(error)) < 5_000
    assert error["data"][-1]["msg"] == "and 49981 more"
    core.close()
