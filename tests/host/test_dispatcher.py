"""The host's connection logic in process: hypothesis sends arbitrary frames and
messages; every answer is a well-formed JSON-RPC response and nothing crashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.core import HostCore
from host.protocol.framing import FrameDecoder, encode_frame, encode_message
from host.protocol.methods import METHODS
from host.rpc import Dispatcher, ServerConnection

TOKEN = "tok"


class Wire:
    def __init__(self, core: HostCore, hello: bool) -> None:
        self.out = FrameDecoder()
        self.messages: list[dict] = []
        self.closed = False
        self.conn = ServerConnection(TOKEN, core.dispatcher(), self._send, self._close)
        if hello:
            self.feed(
                encode_message(
                    {"jsonrpc": "2.0", "id": 0, "method": "host.hello",
                     "params": {"token": TOKEN, "protocolVersion": 1, "client": "fuzz"}}
                )
            )  # fmt: skip
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


@pytest.mark.timeout(300)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
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


@pytest.mark.timeout(300)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
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
    core.sessions.append_message(sid, None, "assistant", "y" * (9 * 1024 * 1024))
    wire = Wire(core, hello=True)
    wire.feed(encode_message({"jsonrpc": "2.0", "id": 7, "method": "messages.list",
                              "params": {"sessionId": sid}}))  # fmt: skip
    answer = wire.messages.pop()
    assert answer["id"] == 7 and answer["error"]["code"] == -32603
    assert "over the 8 MiB frame limit" in answer["error"]["message"]
    assert not wire.closed
    wire.feed(encode_message({"jsonrpc": "2.0", "id": 8, "method": "sessions.list",
                              "params": {}}))  # fmt: skip
    assert wire.messages.pop()["id"] == 8
    core.close()
