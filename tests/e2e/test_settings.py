"""settings.set and settings.changed (the project's): the host is settings.json's only
writer, through the real host process and its socket."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from harness.host_process import HostProcess, RpcErrorReply


def settings_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "settings.json"


def test_a_desktop_change_is_kept_with_every_other_key_and_told(
    host: HostProcess, tmp_path: Path
) -> None:
    path = settings_file(tmp_path)
    path.write_text('{"agents": {}, "model": "m1", "desktop": {"badge": false, "extra": 1}}')
    client = host.connect()
    assert client.call("settings.get")["desktop"]["badge"] is False
    view = client.call("settings.set", {"desktop": {"notifications": False}})
    assert view["desktop"] == {
        "titleProgress": True,
        "badge": False,
        "launcherProgress": True,
        "notifications": False,
        "attention": True,
        "appearance": "system",
        "reducedMotion": False,
    }
    note = client.wait_notification(lambda n: n["method"] == "settings.changed")
    assert note["params"] == view
    kept = json.loads(path.read_text())
    assert kept["agents"] == {} and kept["model"] == "m1"
    assert kept["desktop"] == {"badge": False, "extra": 1, "notifications": False}
    assert path.stat().st_mode & 0o777 == 0o600


def test_the_same_value_again_is_not_told_twice(host: HostProcess) -> None:
    client = host.connect()
    client.call("settings.set", {"desktop": {"appearance": "dark"}})
    client.wait_notification(lambda n: n["method"] == "settings.changed")
    client.call("settings.set", {"desktop": {"appearance": "dark"}})
    client.call("sessions.list")  # any later answer: the notifications before it are in
    assert not [n for n in client.notifications if n["method"] == "settings.changed"]


@pytest.mark.parametrize(
    "params",
    [
        {},  # neither
        {"desktop": {"badge": False}, "server": {"name": "x", "disabled": True}},  # both
        {"desktop": {"badge": "no"}},  # not a boolean
        {"desktop": {"badge": 0}},
        {"desktop": {"appearance": "purple"}},
        {"desktop": {"fontSize": 3}},  # no such key
    ],
)
def test_a_bad_change_is_refused_and_nothing_is_written(
    host: HostProcess, tmp_path: Path, params: dict[str, object]
) -> None:
    path = settings_file(tmp_path)
    path.write_text('{"desktop": {"badge": true}}')
    client = host.connect()
    with pytest.raises(RpcErrorReply) as refused:
        client.call("settings.set", params)
    assert refused.value.code == -32602
    assert path.read_text() == '{"desktop": {"badge": true}}'


def test_a_broken_file_is_never_rewritten(host: HostProcess, tmp_path: Path) -> None:
    path = settings_file(tmp_path)
    path.write_text("{broken")
    client = host.connect()
    with pytest.raises(RpcErrorReply) as refused:
        client.call("settings.set", {"desktop": {"badge": False}})
    assert refused.value.code == -32040 and "not valid JSON" in str(refused.value)
    assert path.read_text() == "{broken"
    assert client.call("settings.get")["desktop"]["badge"] is True  # the defaults


def test_a_server_is_disabled_and_enabled_again(host: HostProcess, tmp_path: Path) -> None:
    path = settings_file(tmp_path)
    path.write_text(json.dumps({"mcpServers": {"s": {"command": "nothing-here", "args": []}}}))
    client = host.connect()
    client.call("settings.set", {"server": {"name": "s", "disabled": True}})
    assert json.loads(path.read_text())["mcpServers"]["s"]["disabled"] is True
    client.call("settings.set", {"server": {"name": "s", "disabled": False}})
    assert "disabled" not in json.loads(path.read_text())["mcpServers"]["s"]
    with pytest.raises(RpcErrorReply) as refused:
        client.call("settings.set", {"server": {"name": "other", "disabled": True}})
    assert refused.value.code == -32602 and "no MCP server named 'other'" in str(refused.value)


def test_a_file_edited_by_hand_is_told(host: HostProcess, tmp_path: Path) -> None:
    client = host.connect()
    client.call("sessions.list")
    settings_file(tmp_path).write_text('{"desktop": {"reducedMotion": true}}')
    note = client.wait_notification(lambda n: n["method"] == "settings.changed")
    assert note["params"]["desktop"]["reducedMotion"] is True


def test_a_linked_file_is_written_through_its_link_with_its_mode(
    host: HostProcess, tmp_path: Path
) -> None:
    """settings.json as a link (kept in a dotfiles folder, say): the change goes to its
    target, whose permissions are kept, and the link stays a link."""
    path = settings_file(tmp_path)
    target = tmp_path / "dotfiles" / "nib.json"
    target.parent.mkdir()
    target.write_text('{"theme": "mine"}')
    target.chmod(0o640)
    path.symlink_to(target)
    client = host.connect()
    client.call("settings.set", {"desktop": {"badge": False}})
    assert path.is_symlink() and path.resolve() == target
    assert json.loads(target.read_text()) == {"theme": "mine", "desktop": {"badge": False}}
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_file_changed_while_it_is_written_is_not_overwritten(tmp_path: Path) -> None:
    """A change read, then the file saved by an editor before the write: the write does
    not go over the editor's; it is read again, and the editor's keys are kept."""
    import asyncio

    from host.events import Publisher
    from host.protocol import models as m
    from host.settings import Settings

    async def body() -> None:
        async def nothing() -> None:
            return None

        settings = Settings(tmp_path, Publisher(), nothing)
        (tmp_path / "settings.json").write_text('{"a": 1}')
        original = settings._write
        saved: list[bool] = []

        def editor_saves_first(text: str, read: object, content: bytes | None) -> bool:
            if not saved:  # the editor's save lands between the read and the write
                saved.append(True)
                (tmp_path / "settings.json").write_text('{"a": 2, "b": 3}  ')
            return original(text, read, content)  # type: ignore[arg-type]

        settings._write = editor_saves_first  # type: ignore[method-assign]
        await settings.set(m.SettingsSetParams.model_validate({"desktop": {"badge": False}}))
        written = json.loads((tmp_path / "settings.json").read_text())
        assert written == {"a": 2, "b": 3, "desktop": {"badge": False}}

    asyncio.run(body())
