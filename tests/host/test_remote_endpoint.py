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


def test_a_lost_links_reason_is_never_a_line_of_the_remote_hosts_own_log() -> None:
    """Issue 51: the first "lost" reason shown was the remote host's last log line."""
    from host.remote.connection import reason_in

    logged = "2026-12-05 05:01:02,345 INFO host: serving one client over standard input"
    assert reason_in(logged) == ""
    failed = "2026-12-05 05:01:02,345 ERROR host.remote: cannot open the database"
    assert reason_in(failed) == "cannot open the database"
    ssh = "ssh: connect to host box port 22: Connection refused"
    assert reason_in(ssh) == ssh
    refusal = "nib-host: another Nib host (pid 7) is using /home/u/.local/share/nib"
    assert reason_in(refusal) == refusal


def test_the_checklist_note_says_connecting_while_connecting() -> None:
    from host.protocol import models as m
    from nib_desktop.inbound.convert import checklist_note

    def note(state: str) -> str:
        info = m.RemoteInfo(endpoint="ssh://u@box", remote_session_id="r", state=state)  # type: ignore[arg-type]
        return checklist_note(info)

    assert "connecting" in note("connecting") and "cannot be reached" not in note("connecting")
    assert "cannot be reached" in note("unreachable")
