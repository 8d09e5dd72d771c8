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
        (json.dumps({"jsonrpc": "2.0", "method": "todos.changed",
                     "params": {"sessionId": "s", "revision": "x"}}).encode(),
         "it sent a malformed todos.changed"),
        (json.dumps({"jsonrpc": "2.0", "method": "sessions.create", "id": 3,
                     "params": {}}).encode(),
         "it sent a request for 'sessions.create', which is not a notification"),
        (json.dumps({"jsonrpc": "2.0", "id": 99, "result": {}}).encode(),
         "dropped an answer to no request of ours (id 99)"),
    ],
)  # fmt: skip
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
