"""The remote endpoint parser of contract section 14."""

from __future__ import annotations

import pytest

from host.protocol.remote import RemoteEndpoint, parse_endpoint


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("ssh://box", RemoteEndpoint("ssh", host="box")),
        ("ssh://dev@box.example:2222", RemoteEndpoint("ssh", "box.example", "dev", 2222)),
        ("  ssh://dev@10.0.0.7/ ", RemoteEndpoint("ssh", "10.0.0.7", "dev")),
        ("ssh://[::1]:2200", RemoteEndpoint("ssh", "::1", port=2200)),
        ("unix:/run/nib/host.sock", RemoteEndpoint("unix", path="/run/nib/host.sock")),
    ],
)
def test_endpoints_of_section_14(text: str, parsed: RemoteEndpoint) -> None:
    assert parse_endpoint(text) == parsed


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not a url", "not a remote endpoint"),
        ("racp://far", "not a remote endpoint"),
        ("ssh://", "not a valid host name"),
        ("ssh://a b", "not a valid host name"),
        ("ssh://box:0", "not a valid port"),
        ("ssh://box:99999", "not a valid port"),
        ("ssh://box:ssh", "not a valid port"),
        ("ssh://-o@box", "not a valid user name"),
        ("ssh://-oProxyCommand=x", "not a valid host name"),
        ("unix:relative/path", "absolute path"),
    ],
)
def test_malformed_endpoints_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_endpoint(text)


def test_labels_are_short() -> None:
    assert parse_endpoint("ssh://dev@box:22").label() == "dev@box"
    assert parse_endpoint("ssh://box:2222").label() == "box:2222"
    assert parse_endpoint("unix:/tmp/s").label() == "/tmp/s"
