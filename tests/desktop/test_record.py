"""`Record`, the frozen values of the window's state (its intents above all): built
without compiling, and with a frozen dataclass's behaviour."""

from __future__ import annotations

import pytest

from nib_desktop.state import intents as it
from nib_desktop.state.record import Record
from tests.helpers.compiles import counted_sources


def test_a_record_class_is_made_without_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frozen dataclass compiles its methods (exec) as its class is made; a Record
    compiles nothing."""
    ran = counted_sources(monkeypatch)

    class Asked(Record):
        path: str
        line: int | None = None

    assert ran == []
    assert Asked("a.py", 3) == Asked(path="a.py", line=3)


def test_built_by_position_or_name_with_defaults() -> None:
    assert it.CreateSession() == it.CreateSession("agent", "", "", None)
    made = it.AttachRemote("ssh://h", "", folder="/srv")
    assert (made.endpoint, made.remote_session_id, made.agent, made.folder) == (
        "ssh://h",
        "",
        "",
        "/srv",
    )
    assert made.worktree is False
    assert repr(it.Send("hi")) == "Send(text='hi')"


def test_wrong_values_are_refused_in_words() -> None:
    with pytest.raises(TypeError, match="Send needs 'text'"):
        it.Send()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="has no field 'txt'"):
        it.Send(txt="hi")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 1 values, not 2"):
        it.Send("a", "b")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="got 'text' twice"):
        it.Send("a", text="b")  # type: ignore[misc]


def test_frozen_and_equal_by_type_and_fields() -> None:
    send = it.Send("hi")
    with pytest.raises(AttributeError, match="frozen"):
        send.text = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="frozen"):
        del send.text
    # two intents without fields are not equal (empty named tuples would be), and each
    # is true
    assert it.Stop() != it.Retry()
    assert it.Stop() == it.Stop()
    assert bool(it.Stop())
    assert {it.Send("a"), it.Send("a"), it.Send("b")} == {it.Send("a"), it.Send("b")}
    assert it.Send("a") != ("a",)


def test_matched_by_position_in_a_case() -> None:
    match it.MergeWorktree("squash", "the message"):
        case it.MergeWorktree(how, message):
            assert (how, message) == ("squash", "the message")
        case _:
            pytest.fail("not matched")


def test_a_record_with_fields_is_not_subclassed() -> None:
    """Fields are read from a class's own annotations: a subclass would silently lose its
    base's, so it is refused when it is made."""
    with pytest.raises(TypeError, match="a Record with fields is not subclassed"):

        class Louder(it.Send):
            volume: int = 11


def test_a_cached_property_is_kept_beside_the_fields_and_not_compared() -> None:
    """A transcript line is a Record with cached properties (its folded form, its HTML):
    one whose form was asked for still equals one whose form was not."""
    from nib_desktop.state.transcript_lines import Line

    asked, fresh = Line("assistant", "**bold**"), Line("assistant", "**bold**")
    assert "<b>bold</b>" in asked.rich or "<strong>bold</strong>" in asked.rich
    assert "rich" in vars(asked) and "rich" not in vars(fresh)
    assert asked == fresh and hash(asked) == hash(fresh)
    assert asked != Line("assistant", "**bold**", seq=2)
    with pytest.raises(AttributeError):
        asked.text = "other"  # type: ignore[misc]
